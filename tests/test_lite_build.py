"""Kursen i webbläsaren: delar av bygget (tools/lite.py) som går att pröva utan webbläsare och nätverk.

Parts of the JupyterLite build that need neither browser nor network: which modules get bytecode
(course_imports) and the site check that refuses a site whose plump_teach wheel has none. The whole
build runs in tests/browser/test_browser_lite.py.
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
    assert "plump_teach.tryout.tricks" in library
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
    (tmp_path / "plump_teach").mkdir()
    (tmp_path / "plump_teach" / "cards.py").write_text("")
    mods = set(lite.course_imports())
    assert {"csv", "json", "html", "statistics", "plump_teach.cards"} <= mods
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
    (site / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {"litePluginSettings": {
        "@jupyterlite/pyodide-kernel-extension:kernel": kernel}}}))
    monkeypatch.setattr(lite, "notebook_sources", lambda: iter(()))
    lite.pupil_extension(site)
    return site


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
    "A subpackage left out of pyproject's package list (plump_teach.tryout once was) stops the build."
    kept = [m for m in MODULES if "/tryout/" not in m]
    site = fake_site(tmp_path, monkeypatch, kept + [pyc(m) for m in kept])
    with pytest.raises(SystemExit, match="hjulet saknar plump_teach/tryout/__init__.py"):
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
