"""Körs i webbplatsens Pyodide-kärna, inte i pytest: kör många notebooks efter varandra i en och samma kärna.

Runs inside the JupyterLite site's Pyodide kernel (tests/browser/test_browser_lite_notebooks.py types it into one cell); it
is never imported by pytest. `run_notebooks(names)` runs the code cells of each notebook, read from the site's
drive (the folder the kernel starts in), as the kernel runs a cell of its own: through the kernel's own
`run(code)`, which applies JupyterLite's transforms, loads the packages a cell imports from the site's
pyodide-lock.json and then runs it in IPython. Between notebooks the widgets are closed, the user namespace is
emptied (as `%reset -f`), the course's own modules are dropped from `sys.modules` (the next import reads them anew
from the site's wheel) and the working folder is the drive again, so that a notebook cannot lean on a name, a
module state or a folder left by the one before. It returns, per notebook, the code cells run, the first error (an exception, or a
traceback written to stderr, as JupyterLab shows both) and the seconds taken.

`main(names)` runs the course's notebooks and then `self_check()`: small notebooks written to the drive for the
purpose, each with a fault the run must catch. It prints one line, `PLUMP-RESULTAT {json}`, with both.
"""


async def run_notebooks(names: list[str]) -> dict:
    import io
    import json
    import os
    import re
    import sys
    import time

    import pyodide_kernel
    from IPython.display import clear_output

    kernel = pyodide_kernel.kernel_instance
    shell = kernel.interpreter
    home = os.getcwd()
    ansi_re = re.compile(r"\x1b\[[0-9;]*m")
    traceback_re = re.compile(r"Traceback \(most recent call last\)|^\s*Cell In\[\d+\], line \d+", re.M)

    class Tee(io.TextIOBase):
        "stderr to the page as before, and kept to look for a traceback."
        def __init__(self, real):
            self.real, self.kept = real, io.StringIO()

        def write(self, s):
            self.kept.write(s)
            return self.real.write(s)

        def flush(self): self.real.flush()

    results = {}
    for name in names:
        t0 = time.monotonic()
        widgets = sys.modules.get("ipywidgets")
        if widgets is not None: widgets.Widget.close_all()   # as a new kernel; kept, they slowed later notebooks
        shell.reset(new_session=False)
        for mod in [m for m in sys.modules if m == "plump_teach" or m.startswith("plump_teach.")]:
            del sys.modules[mod]
        os.chdir(home)
        with open(name, encoding="utf-8") as f: nb = json.load(f)
        cells = [("".join(c["source"]) if isinstance(c["source"], list) else c["source"])
                 for c in nb["cells"] if c["cell_type"] == "code"]
        ran, error = 0, None
        for i, src in enumerate(cells):
            if not src.strip(): continue
            real, tee = sys.stderr, Tee(sys.stderr)
            sys.stderr = tee
            try:
                r = await kernel.run(src)
            finally:
                sys.stderr = real
            ran += 1
            if r["status"] != "ok":
                tb = ansi_re.sub("", "\n".join(r.get("traceback") or []))
                ename = re.sub(r"^<class '(?:[\w.]+\.)?(\w+)'>$", r"\1", str(r.get("ename")))   # the kernel gives the class
                error = f"kodcell {i + 1}: {ename}: {r.get('evalue')}\n{tb[-3000:]}"
            elif traceback_re.search(tee.kept.getvalue()):
                error = f"kodcell {i + 1} skrev ett traceback:\n{tee.kept.getvalue()[-3000:]}"
            if error: break
        clear_output()   # the page keeps only the last notebook's outputs
        results[name] = {"cells": len([s for s in cells if s.strip()]), "ran": ran, "error": error,
                         "seconds": round(time.monotonic() - t0, 1)}
    shell._last_traceback = None   # an error above belongs to its notebook, not to this cell
    os.chdir(home)
    return results


# Notebooks with a fault each (and two without), in the order they run: what run_notebooks must report.
PROBES = {
    "_prov_a.ipynb": ["x = 1\nimport plump_teach.engine.cards as c\nc.MARK = 1\nfrom plump_teach.engine.cards import Card"],
    "_prov_b.ipynb": ["print('en rad')", "x"],                                      # x came from the notebook before
    "_prov_c.ipynb": ["Card"],                                                      # so did Card
    "_prov_d.ipynb": ["import plump_teach.engine.cards as c\nc.MARK"],                     # and the module's state
    "_prov_e.ipynb": ["import numpy_finns_inte"],                                    # not in the site
    "_prov_f.ipynb": ["class Bad:\n    def _repr_html_(self): raise ValueError('ritas inte')\nBad()"],
    "_prov_g.ipynb": ["import sys, traceback\ntry: 1 / 0\nexcept ZeroDivisionError: traceback.print_exc()"],
    "_prov_h.ipynb": ["", "from plump_teach.engine.cards import Card\nCard", "1 / 0", "never = 1"],
}


async def self_check() -> dict:
    "Run PROBES as notebooks written to the drive, and remove them again."
    import json
    import os
    for name, cells in PROBES.items():
        nb = {"cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": [], "execution_count": None}
                        for c in cells], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        with open(name, "w", encoding="utf-8") as f: json.dump(nb, f)
    try:
        return await run_notebooks(list(PROBES))
    finally:
        for name in PROBES: os.remove(name)


async def main(names: list[str]):
    import json
    results = await run_notebooks(names)
    probes = await self_check()
    print("PLUMP-RESULTAT " + json.dumps({"notebooks": results, "probes": probes}))
