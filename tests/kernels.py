"""One Jupyter kernel for many notebooks or cells, each started as if the kernel were new.

Starting a kernel and importing the course in it costs 1-3 s; the suite used to do that for every notebook and for
every cell of every pupil lesson. `one_kernel(folder)` starts one kernel, and `KernelRun.run(code)` runs code in it
after `fresh()`: the widgets made before are closed, the course's modules are dropped from `sys.modules` (the next
import reads them anew, with fresh module state), the working folder is `folder` again and the user namespace is
emptied (`%reset -f`), so the code cannot lean on a name, an import, a module state or a folder left by what ran
before. What a new kernel would also reset and this does not (the state of other packages, such as random's seed)
cannot make code fail with a missing name or import; tests/test_pupil_lessons.py::test_run_alone_catches_a_name_from_an_earlier_cell
shows that the reset works.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


def fresh_code(folder: Path) -> str:
    """What runs before each piece of code; the reset comes last and leaves no name of its own behind.

    The widgets of the code before are closed first, as a new kernel has none: `%reset -f` leaves them open
    (ipywidgets keeps every open widget), and hundreds of them made each later cell slower (the twelve pupil lessons
    cell by cell, twice over in one kernel: 116 s with them kept, 49 s with them closed)."""
    return ("_w = __import__('sys').modules.get('ipywidgets')\n"
            "if _w is not None: _w.Widget.close_all()\n"
            "[__import__('sys').modules.pop(m) for m in list(__import__('sys').modules) "
            "if m == 'plump_teach' or m.startswith('plump_teach.')]\n"
            f"__import__('os').chdir({str(folder)!r})\n"
            "get_ipython().run_line_magic('reset', '-f')")


@dataclass
class Result:
    "What one piece of code gave: its errors (name: value), and its display outputs (the messages' content)."
    errors: list[str] = field(default_factory=list)
    outputs: list[dict] = field(default_factory=list)


@dataclass
class KernelRun:
    client: object
    folder: Path

    def execute(self, code: str, timeout: float) -> Result:
        res = Result()

        def hook(msg):
            kind, content = msg["msg_type"], msg["content"]
            if kind == "error": res.errors.append(f"{content['ename']}: {content['evalue']}")
            elif kind in ("display_data", "execute_result", "stream"): res.outputs.append({"output_type": kind, **content})
        reply = self.client.execute_interactive(code, timeout=timeout, output_hook=hook)
        if reply["content"]["status"] != "ok" and not res.errors:
            res.errors.append(f"{reply['content'].get('ename')}: {reply['content'].get('evalue')}")
        return res

    def fresh(self, timeout: float = 60):
        r = self.execute(fresh_code(self.folder), timeout)
        assert not r.errors, ("fresh()", r.errors)

    def run(self, code: str, timeout: float = 120) -> Result:
        "`code` in a kernel as good as new (fresh() first)."
        self.fresh()
        return self.execute(code, timeout)

    def run_cells(self, cells: list[str], timeout: float = 240) -> list[Result]:
        "A notebook's code cells in order, in a kernel as good as new; stops after the first cell with an error."
        self.fresh()
        results = []
        for src in cells:
            results.append(self.execute(src, timeout))
            if results[-1].errors: break
        return results


@contextmanager
def one_kernel(folder: Path):
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(folder))
    try:
        yield KernelRun(kc, folder)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
