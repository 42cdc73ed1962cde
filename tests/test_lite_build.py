"""Kursen i webbläsaren: delar av bygget (tools/lite.py) som går att pröva utan webbläsare och nätverk.

Parts of the JupyterLite build that need neither browser nor network: which modules get bytecode
(course_imports) and the site check that refuses a site whose plump_teach wheel has none. The whole
build runs once per test run (fixture lite_site in tests/browser/conftest.py).
"""
import json
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # tools/ is not part of the installed library

from tools import lite  # noqa: E402


def test_course_imports_cover_kernel_library_and_notebooks():
    mods = lite.course_imports()
    assert mods == sorted(set(mods))
    assert {"piplite.piplite", "pyodide_kernel"} <= set(mods)                      # the kernel's start
    library = {".".join(("plump_teach", *f.relative_to(ROOT / "plump_teach").with_suffix("").parts))
               for f in (ROOT / "plump_teach").rglob("*.py") if f.stem != "__init__"}
    assert "plump_teach.ui.tryout.tricks" in library
    assert library <= set(mods)
    assert {"fastcore.test", "ipywidgets", "IPython.display"} <= set(mods)          # what the notebooks import
    assert "plump_teach.__init__" not in mods


def test_course_imports_read_import_statements_and_skip_magics(tmp_path, monkeypatch):
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    cells = [
        {"cell_type": "code", "source": ["%matplotlib inline\n", "import csv, json as j\n", "from html import escape"]},
        {"cell_type": "code", "source": ["from . import relative\n", "!ls\n", "import statistics"]},
        {"cell_type": "code", "source": ["def broken(:\n", "    import never_seen"]},
        {"cell_type": "markdown", "source": ["import not_code"]},
    ]
    (nbs / "a.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    monkeypatch.setattr(lite, "ROOT", tmp_path)
    (tmp_path / "plump_teach" / "engine").mkdir(parents=True)
    (tmp_path / "plump_teach" / "engine" / "cards.py").write_text("")
    mods = set(lite.course_imports())
    assert {"csv", "json", "html", "statistics", "plump_teach.engine.cards"} <= mods
    assert not {"never_seen", "not_code", "relative", "j"} & mods


def wheel_with(tmp_path: Path, names: list[str]) -> Path:
    whl = tmp_path / "plump_teach-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(whl, "w") as z:
        for n in names: z.writestr(n, "")
    return whl


def fake_site(tmp_path, monkeypatch, names: list[str]) -> Path:
    "A built site's skeleton whose plump_teach wheel holds `names`."
    site = tmp_path / "site"
    pyo = site / "static" / "pyodide"
    pyo.mkdir(parents=True)
    whl = wheel_with(pyo, names)
    lock = {name: {"file_name": whl.name, "sha256": lite.sha256(whl)} for name in lite.PRELOAD}
    (pyo / "pyodide-lock.json").write_text(json.dumps({"packages": lock}))
    kernel = {"pyodideUrl": "./static/pyodide/pyodide.js", "disablePyPIFallback": True}
    (site / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {"appVersion": "0.8.6", "litePluginSettings": {
        "@jupyterlite/pyodide-kernel-extension:kernel": kernel}}}))
    monkeypatch.setattr(lite, "notebook_sources", lambda: iter(()))
    lite.pupil_extension(site)
    # the pages and the service worker as jupyter lite build leaves them, then what the build adds
    (site / "lab").mkdir()
    (site / "index.html").write_text(LITE_INDEX)
    (site / "lab" / "index.html").write_text(LITE_LAB)
    (site / "service-worker.js").write_text(LITE_SW)
    lite.front_page(site / "index.html")
    for page in lite.GUARDED_PAGES: lite.page_guard(site / page)
    lite.early_start(site)
    lite.offline_cache(site)
    return site


# jupyterlite-core's pages and service worker, shortened to what the build relies on
LITE_INDEX = """<!DOCTYPE html>
<html>
  <head>
    <script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{}</script>
    <script type="module">
      await import('./config-utils.js');
    </script>
  </head>
</html>
"""
LITE_LAB = """<!DOCTYPE html>
<html>
<head>
    <title>JupyterLite</title>
    <meta charset="utf-8">
    <script id="jupyter-config-data" type="application/json" data-jupyter-lite-root="..">{}</script>
  </head>
  <body class="jp-ThemedContainer" data-notebook="lab">
    <noscript>
      <div style="text-align: center; padding: 20px;">
          JupyterLite requires JavaScript to be enabled in your browser.
      </div>
    </noscript>
</body></html>
"""
LITE_SW = '"use strict";self.addEventListener("fetch",function(e){});\n'


MODULES = sorted(f.relative_to(ROOT).as_posix() for f in (ROOT / "plump_teach").rglob("*.py"))


def pyc(module: str) -> str:
    tag = "cpython-" + lite.PYODIDE_VERSION.split(".")[0]
    folder, _, name = module.rpartition("/")
    return f"{folder}/__pycache__/{name[:-3]}.{tag}.pyc"


@pytest.mark.parametrize("with_pyc", [True, False])
def test_check_site_wants_bytecode_for_every_plump_teach_module(tmp_path, monkeypatch, with_pyc):
    site = fake_site(tmp_path, monkeypatch, MODULES + ([pyc(m) for m in MODULES] if with_pyc else []))
    if with_pyc:
        lite.check_site(site)
        lite.check_site(site, bytecode=False)
    else:
        with pytest.raises(SystemExit, match="saknar bytekod för plump_teach/__init__.py, plump_teach/_modidx.py"):
            lite.check_site(site)
        lite.check_site(site, bytecode=False)   # a site built with --no-bytecode is not expected to have it


def test_check_site_wants_every_module_in_the_wheel(tmp_path, monkeypatch):
    "A subpackage left out of pyproject's package list (plump_teach.ui.tryout once was) stops the build."
    kept = [m for m in MODULES if "/tryout/" not in m]
    site = fake_site(tmp_path, monkeypatch, kept + [pyc(m) for m in kept])
    with pytest.raises(SystemExit, match="hjulet saknar plump_teach/ui/tryout/__init__.py"):
        lite.check_site(site)


def test_check_site_wants_the_pupil_mode(tmp_path, monkeypatch):
    site = fake_site(tmp_path, monkeypatch, MODULES + [pyc(m) for m in MODULES])
    cfg = json.loads((site / "jupyter-lite.json").read_text())
    cfg["jupyter-config-data"]["federated_extensions"] = []
    (site / "jupyter-lite.json").write_text(json.dumps(cfg))
    with pytest.raises(SystemExit, match="elevläget"):
        lite.check_site(site)


def test_pupil_mode_script_registers_its_plugin(tmp_path):
    "labextension/static/remoteEntry.js is valid JavaScript and registers the pupil-mode plugin as JupyterLab loads federated extensions."
    import shutil, subprocess
    if not shutil.which("node"): pytest.skip("node finns inte")
    js = f"""
      global.window = {{location: {{search: '?elev=1'}}, sessionStorage: {{s: {{}}, getItem(k) {{ return this.s[k]; }},
                        setItem(k, v) {{ this.s[k] = v; }}, removeItem(k) {{ delete this.s[k]; }}}}}};
      require({json.dumps(str(lite.PUPIL_JS))});
      const c = window._JUPYTERLAB[{json.dumps(lite.PUPIL_EXTENSION)}];
      c.init({{}}).then(() => c.get('./extension')).then(f => {{
        const m = f(); const p = m.default[0];
        console.log(JSON.stringify([m.__esModule, p.id, p.autoStart, typeof p.activate]));
      }});"""
    out = subprocess.run(["node", "-e", js], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [True, "plump-teach-elev:pupil-mode", True, "function"]


def test_site_has_the_pupil_course_without_jupyterlab_only_cells(tmp_path):
    lite.contents_dir(tmp_path)
    for f in (ROOT / "nbs" / "elev").glob("*.ipynb"):
        text = (tmp_path / "elev" / f.name).read_text(encoding="utf-8")
        assert "Run All Cells" not in text and "#| hide" not in text, f.name
        assert json.loads(text)["metadata"]["kernelspec"] == lite.KERNELSPEC


def test_build_refuses_to_replace_a_folder_that_is_not_a_site(tmp_path):
    folder = tmp_path / "mina-filer"
    folder.mkdir()
    (folder / "viktigt.txt").write_text("rör inte")
    with pytest.raises(SystemExit, match="finns redan och är ingen byggd webbplats"):
        lite.build(site=folder)
    assert [f.name for f in folder.iterdir()] == ["viktigt.txt"]
    assert (folder / "viktigt.txt").read_text() == "rör inte"


# ------------------------------------------------------------------ offline, meddelanden och byggfiler

def test_check_site_refuses_build_files(tmp_path, monkeypatch):
    "Nothing of jupyter lite build's own files (rspack's configuration, package.json ...) may stay in the site."
    site = fake_site(tmp_path, monkeypatch, MODULES + [pyc(m) for m in MODULES])
    lite.check_site(site)
    for name in ("rspack.config.js", "package.json", "lab/package.json", "bootstrap.js"):
        (site / name).write_text("{}")
        with pytest.raises(SystemExit, match=f"byggfiler kvar: .*{name}"):
            lite.check_site(site)
        lite.drop_build_files(site)
    (site / "build").mkdir()
    for ext in (".woff2", ".woff", ".eot", ".ttf", ".svg"): (site / "build" / f"fa-solid-900{ext}").write_text("x")
    (site / "build" / "MathJax_Main-Regular.woff").write_text("x")      # no woff2 of it: stays
    (site / "build" / "logo.svg").write_text("<svg/>")                  # not a font: stays
    with pytest.raises(SystemExit, match="byggfiler kvar: build/fa-solid-900.eot"):
        lite.check_site(site)
    lite.drop_build_files(site)
    assert sorted(f.name for f in (site / "build").iterdir()) == ["MathJax_Main-Regular.woff", "fa-solid-900.woff2", "logo.svg"]


def test_service_worker_keeps_every_file_of_the_site(tmp_path, monkeypatch):
    site = fake_site(tmp_path, monkeypatch, MODULES + [pyc(m) for m in MODULES])
    version, files = lite.service_worker_files(site)
    assert len(version) == 16
    assert set(files) == set(lite.cached_files(site))
    assert {"index.html", "lab/index.html", "jupyter-lite.json", "static/pyodide/pyodide-lock.json"} <= set(files)
    assert not {"service-worker.js", lite.SW_ORIGINAL} & set(files)
    text = (site / "service-worker.js").read_text()
    assert text.rstrip().endswith(f"importScripts('./{lite.SW_ORIGINAL}');")
    assert (site / lite.SW_ORIGINAL).read_text() == LITE_SW          # JupyterLite's own, unchanged
    # a file that is not in the list: the check refuses the site; a changed file: a new version
    (site / "files").mkdir()
    (site / "files" / "ny.ipynb").write_text("{}")
    with pytest.raises(SystemExit, match="sparar inte files/ny.ipynb"):
        lite.check_site(site)
    (site / "service-worker.js").write_text(LITE_SW)
    assert lite.offline_cache(site) != version
    lite.check_site(site)


def test_service_worker_is_valid_javascript(tmp_path, monkeypatch):
    import shutil, subprocess
    if not shutil.which("node"): pytest.skip("node finns inte")
    site = fake_site(tmp_path, monkeypatch, MODULES + [pyc(m) for m in MODULES])
    out = subprocess.run(["node", "--check", str(site / "service-worker.js")], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr


def test_pages_explain_in_swedish_when_they_cannot_start(tmp_path, monkeypatch):
    "Opened as a file, too old a browser, no JavaScript: a Swedish message in the HTML itself, not a blank page."
    site = fake_site(tmp_path, monkeypatch, MODULES + [pyc(m) for m in MODULES])
    for page in lite.GUARDED_PAGES:
        html = (site / page).read_text(encoding="utf-8")
        assert html.count('id="plump-fel"') == 1, page
        for text in ("Kursen måste visas av en webbserver", "python3 tools/lite.py serve", "Webbläsaren är för gammal",
                     "Kursen behöver JavaScript", "Kursen har inte startat ännu"):
            assert text in html, (page, text)
        assert "JupyterLite requires JavaScript" not in html
        assert html.index("charset") < 1024 and html.index("charset") < html.index("plump-fel")
        lite.page_guard(site / page)                                        # a second time: nothing changes
        assert (site / page).read_text(encoding="utf-8") == html
    front = (site / "index.html").read_text(encoding="utf-8")
    assert "contains('plump-ok')) window.location.replace('lab/index.html?path=elev/start.ipynb&elev=1'" in front


def test_lab_page_says_it_starts_from_the_first_second_and_keeps_the_lesson_still(tmp_path, monkeypatch):
    """Issue 39: the pupil saw nothing for 3 s, then the bottom of the lesson, then a jump to the top. The Swedish line
    is in lab/index.html itself, and its script keeps the lesson's scroll position while the pupil mode's line shows."""
    import re, shutil, subprocess
    site = fake_site(tmp_path, monkeypatch, MODULES + [pyc(m) for m in MODULES])
    html = (site / "lab" / "index.html").read_text(encoding="utf-8")
    assert html.count('id="plump-laddar"') == 1
    assert "Sidan startar: lektionen laddas i webbläsaren" in html
    assert html.index("<body") < html.index('id="plump-laddar"') < html.index('id="plump-fel"')
    assert "data-plump-kvar" in html and ".plump-elev-banner" in html
    assert 'var lite = "0.8.6"' in html      # JupyterLite's service-worker version, written before it reads it
    lite.early_start(site)                                                   # a second time: nothing changes
    assert (site / "lab" / "index.html").read_text(encoding="utf-8") == html
    assert "plump-laddar" not in (site / "index.html").read_text(encoding="utf-8")
    if shutil.which("node"):
        script = re.search(r"<script>((?:(?!</script>).)*plump-laddar(?:(?!</script>).)*)</script>", html, re.S).group(1)
        (tmp_path / "early.js").write_text(script)
        out = subprocess.run(["node", "--check", str(tmp_path / "early.js")], capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, out.stderr


def test_builds_wait_for_each_other(tmp_path, monkeypatch):
    "A second build waits while one is under way (the suite's two processes may both need the site), then goes on."
    import subprocess, time
    monkeypatch.setattr(lite, "LITE", tmp_path)
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from pathlib import Path; from tools import lite; "
            f"lite.LITE = Path({str(tmp_path)!r})\nwith lite.one_build_at_a_time(): print('bygger', flush=True)")
    with lite.one_build_at_a_time():
        second = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        time.sleep(1.5)
        assert second.poll() is None                       # still waiting for the lock
    out, _ = second.communicate(timeout=30)
    assert second.returncode == 0 and out.splitlines() == ["==> Ett annat bygge pågår; väntar tills det är klart", "bygger"]
