"""Bibliotekets notebooks på webbplatsen utan installation: alla i en Pyodide-kärna på en sida.

Every library notebook of the course (all but the classroom server's two, which need tornado and Voilà), run in
the JupyterLite site's Pyodide one after another in one kernel of one page (`library_notebooks_in_pyodide`), and
probe notebooks with one fault each that show this run catches what a fresh kernel per notebook caught. A module of
its own so that it can run beside the site's other modules (tests/conftest.py); the site is built once per run
(`lite_site` in conftest.py).
"""
from __future__ import annotations

import base64
import json
import sys
import time
from pathlib import Path

import pytest

from browser_helpers import (LITE_BOOT_TIMEOUT, RequestLog, server_env, start_server, wait_for_kernel_idle,
                             wait_for_lite_notebook, wait_for_text)
from lite_helpers import LITE, ROOT

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1500)]


from notebook_sets import NOT_IN_PYODIDE, SERVER_NOTEBOOKS   # noqa: E402  (the server's notebooks need tornado)
OTHER_NOTEBOOKS = sorted(f.name for f in (ROOT / "nbs").glob("*.ipynb") if f.name not in NOT_IN_PYODIDE)


RUNNER = Path(__file__).with_name("in_pyodide_kernel.py")
NOTEBOOKS_TIMEOUT = 1_200_000   # ms: every library notebook, one after another, in one Pyodide kernel


def code_cell_count(name: str) -> int:
    nb = json.loads((ROOT / "nbs" / name).read_text(encoding="utf-8"))
    return sum(bool("".join(c["source"]).strip()) for c in nb["cells"] if c["cell_type"] == "code")


def type_into_new_cell(page, code: str):
    "A new code cell below the last one of the open notebook, `code` typed into it, and run (Shift+Enter)."
    page.locator("#jp-main-dock-panel .jp-NotebookPanel .jp-Notebook .jp-Cell").filter(visible=True).last.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")


@pytest.fixture(scope="module")
def library_notebooks_in_pyodide(browser, lite_site, tmp_path_factory):
    """Every library notebook (OTHER_NOTEBOOKS) run in the site, one after another in one Pyodide kernel of one page.

    Before, each notebook had a browser of its own and started Python anew (17-81 s each, 19 minutes in all), and
    Run All went through the JupyterLab page. Now one page opens the site, one cell in it runs each notebook's code
    cells through the kernel's own `run` (tests/browser/in_pyodide_kernel.py), read from the site's drive. What it
    still proves, per notebook: every code cell runs in Pyodide with only what the site holds (an import of a package
    the site lacks, or code Pyodide cannot run, fails here), without an exception and without a traceback written
    to stderr, and no request leaves loopback. Between notebooks the names, the course's modules and the folder
    are reset, so no notebook leans on the one before. What moved elsewhere: opening each notebook in the
    JupyterLab page (the puzzle notebook, the start page and the score-sheet keeper are still opened and run that
    way in the tests above, and every pupil page below)."""
    tmp = tmp_path_factory.mktemp("lite-notebooks")
    servers = []
    cmd = lambda port: [sys.executable, str(LITE), "serve", "--quiet", "--port", str(port), "--dir", str(lite_site)]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="sv-SE")
    log = RequestLog()
    ctx.on("request", lambda r: log.record(r.url))
    try:
        base = start_server(cmd, "/jupyter-lite.json", ROOT, tmp / "lite-serve.log", server_env(tmp), servers)
        page = ctx.new_page()
        page.on("websocket", lambda ws: log.record(ws.url))
        page.goto(f"{base}/lab/index.html?path=index.ipynb&elev=0")
        wait_for_lite_notebook(page, "index.ipynb")
        wait_for_kernel_idle(page, timeout=LITE_BOOT_TIMEOUT)
        code = base64.b64encode(RUNNER.read_text(encoding="utf-8").encode()).decode()
        type_into_new_cell(page, f"import base64; g = {{}}; exec(base64.b64decode('{code}').decode(), g); "
                                 f"await g['main']({OTHER_NOTEBOOKS!r})")
        t0 = time.monotonic()
        line = wait_for_text(page, "PLUMP-RESULTAT", timeout=NOTEBOOKS_TIMEOUT).inner_text()
        took = time.monotonic() - t0
        found = json.loads(line[line.index("PLUMP-RESULTAT") + len("PLUMP-RESULTAT"):].strip().splitlines()[0])
        results = found["notebooks"]
        print(f"\n[lite] {len(results)} notebooks i en Pyodide-kärna: {took:.0f} s; "
              + ", ".join(f"{n.split('_')[0]} {r['seconds']} s" for n, r in results.items()))
        yield {"results": results, "probes": found["probes"], "external": log.external()}
    finally:
        ctx.close()
        for s in servers: s.stop()


@pytest.mark.parametrize("name", OTHER_NOTEBOOKS)
def test_notebook_runs_in_jupyterlite(library_notebooks_in_pyodide, name):
    r = library_notebooks_in_pyodide["results"][name]
    assert r["error"] is None, f"{name}: {r['error']}"
    assert r["ran"] == r["cells"] == code_cell_count(name), r   # every non-empty code cell, read from the site's copy
    assert not library_notebooks_in_pyodide["external"], library_notebooks_in_pyodide["external"]


def test_one_kernel_run_catches_what_a_fresh_kernel_would(library_notebooks_in_pyodide):
    """The run above can fail, for each reason a notebook can: notebooks written to the drive with one fault each
    (in_pyodide_kernel.PROBES), run the same way in the same kernel after the course's notebooks."""
    p = library_notebooks_in_pyodide["probes"]
    assert p["_prov_a.ipynb"] == {**p["_prov_a.ipynb"], "error": None, "ran": 1}
    assert p["_prov_b.ipynb"]["ran"] == 2 and "NameError: name 'x' is not defined" in p["_prov_b.ipynb"]["error"]
    assert "NameError: name 'Card' is not defined" in p["_prov_c.ipynb"]["error"]
    assert "has no attribute 'MARK'" in p["_prov_d.ipynb"]["error"]
    assert "ModuleNotFoundError" in p["_prov_e.ipynb"]["error"] and "numpy_finns_inte" in p["_prov_e.ipynb"]["error"]
    assert "ritas inte" in p["_prov_f.ipynb"]["error"]
    assert "skrev ett traceback" in p["_prov_g.ipynb"]["error"] and "ZeroDivisionError" in p["_prov_g.ipynb"]["error"]
    h = p["_prov_h.ipynb"]
    assert (h["cells"], h["ran"]) == (3, 2) and h["error"].startswith("kodcell 3: ZeroDivisionError"), h   # stops there
