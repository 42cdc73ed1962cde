"""Installationen: `pip install plump_teach` ger regelmotorn ensam, `pip install "plump_teach[kurs]"` kursen.

The rule engine must import with none of the course's packages installed (pure Python, also in Pyodide), and
the package's base dependencies must hold none of them: they live in the `kurs` extra (pyproject.toml). Each
check runs a fresh Python in which the course packages and numpy cannot be imported (`sys.modules[name] = None`
makes both `import name` and `importlib.util.find_spec(name)` fail, as if the package were not installed).
"""
import ast
import inspect
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What `pip install plump_teach` must not need: the course's packages (the `kurs` extra) and numpy.
BLOCKED = ("ipywidgets", "IPython", "jupyterlab", "voila", "fastcore", "numpy", "segno")
# The pure layers (engine, bots, puzzles) and the course's content (catalogue, results, pages), every module in them,
# and what they must not pull in either (widget and server machinery, whoever installed it).
PURE_PACKAGES = ("engine", "bots", "puzzles", "course")
ENGINE = tuple(sorted(f"{pkg}.{p.stem}" for pkg in PURE_PACKAGES for p in (ROOT / "plump_teach" / pkg).glob("*.py")
                      if p.stem != "__init__"))
NOT_LOADED = (*BLOCKED, "traitlets", "comm", "ipykernel", "jupyter_server", "jupyter_core", "tornado", "nbformat",
              "nbconvert")
COURSE = {"ipywidgets", "jupyterlab", "voila", "segno", "fastcore"}

PRELUDE = f"import sys\nfor name in {BLOCKED!r}: sys.modules[name] = None\n"


def run_python(code: str) -> subprocess.CompletedProcess:
    "Run `code` in a fresh interpreter (the test's own) where the blocked packages cannot be imported."
    return subprocess.run([sys.executable, "-c", PRELUDE + code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def engine_imports() -> dict:
    "module -> None when it imported without the course packages, else the error; plus what got loaded."
    code = f"""
import importlib, json, traceback
result = {{}}
for mod in {ENGINE!r}:
    try:
        importlib.import_module("plump_teach." + mod)
        result[mod] = None
    except Exception:
        result[mod] = traceback.format_exc()
loaded = sorted({{m.split(".")[0] for m, v in sys.modules.items() if v is not None}} & set({NOT_LOADED!r}))
print(json.dumps({{"result": result, "loaded": loaded}}))
"""
    r = run_python(code)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("mod", ENGINE)
def test_engine_imports_without_course_packages(mod, engine_imports):
    assert engine_imports["result"][mod] is None, engine_imports["result"][mod]


def test_engine_loads_no_widget_or_server_machinery(engine_imports):
    assert engine_imports["loaded"] == []


def test_engine_plays_a_deal_without_course_packages():
    "Not just importable: a seeded deal is dealt, bid, played out and scored."
    r = run_python("""
from plump_teach.engine.plump_game import PlumpGame
g = PlumpGame(["Anna", "Bo", "Cissi"], seed=3)
d = g.deal
while d.phase == "bidding": d.bid(d.to_act, d.legal_bids()[0])
while d.phase == "playing": d.play(d.to_act, d.legal_cards()[0])
print(sum(d.taken) == len(d.history), list(d.points()))
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("True ")


def test_plump_teach_command_without_course_says_what_to_install():
    "The `plump-teach` command (plump_teach.classroom.app:main) without the extra: a Swedish message, not a traceback."
    r = run_python("from plump_teach.classroom.app import main\nmain([])")
    assert r.returncode == 1
    assert 'pip install "plump_teach[kurs]"' in r.stderr
    assert "saknas" in r.stderr
    assert "Traceback" not in r.stderr


def names(requirements: list[str]) -> set[str]:
    "Package names of requirement strings, normalised (PEP 503), extras kept as `name[extra]`."
    out = set()
    for req in requirements:
        m = re.match(r"\s*([A-Za-z0-9._-]+)\s*(\[[^\]]*\])?", req)
        out.add(re.sub(r"[-_.]+", "_", m.group(1)).lower() + (m.group(2) or ""))
    return out


def test_pyproject_base_dependencies_hold_no_course_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = names(project.get("dependencies", []))
    assert not {n.split("[")[0] for n in base} & COURSE, base
    extras = project["optional-dependencies"]
    kurs = names(extras["kurs"])
    assert COURSE <= kurs
    dev = names(extras["dev"])
    assert "plump_teach[kurs]" in dev or kurs <= dev        # dev has everything the course has
    assert project["scripts"]["plump-teach"] == "plump_teach.classroom.app:main"
    # what the command checks for (read from its source: importing it loads the server) is in the extra
    app = ast.parse((ROOT / "plump_teach" / "classroom" / "app.py").read_text(encoding="utf-8"))
    checked = next(ast.literal_eval(n.value) for n in app.body if isinstance(n, ast.Assign)
                   and [t.id for t in n.targets if isinstance(t, ast.Name)] == ["COURSE_PACKAGES"])
    assert set(checked) <= kurs


def test_run_py_installs_the_extras():
    run_py = (ROOT / "run.py").read_text(encoding="utf-8")
    assert 'ensure_env("kurs")' in run_py and 'ensure_env("dev")' in run_py


def load_run_py():
    import importlib.util
    spec = importlib.util.spec_from_file_location("run_py", ROOT / "run.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_run_py_installs_so_that_type_checkers_find_the_package():
    """Issue 40: pip's editable install puts an import hook in site-packages by default, which mypy, pyright and
    editors cannot follow (`import plump_teach` is "not found" in a user's type check); `editable_mode=compat`
    puts the project's folder on the path instead. `ensure_env` installs with it."""
    run = load_run_py()
    args = run.install_args("dev")
    assert args[:2] == ["pip", "install"] and "-e" in args and ".[dev]" in args
    i = args.index("--config-settings")
    assert args[i + 1] == "editable_mode=compat"
    src = inspect.getsource(run.ensure_env)
    assert "install_args(extra)" in src and "*install" in src


def test_run_py_reinstalls_when_the_install_line_changes(tmp_path, monkeypatch):
    """The stamp in .venv holds a hash of pyproject.toml and of the install line: a .venv installed the old way
    (with the import hook) is installed again after this change, on a clone that already had one."""
    run = load_run_py()
    calls = []
    bin_ = tmp_path / "bin"; bin_.mkdir(); (bin_ / "python").write_text("")
    monkeypatch.setattr(run, "VENV", tmp_path)
    monkeypatch.setattr(run, "BIN", bin_)
    monkeypatch.setattr(run, "run", lambda *a: calls.append([str(x) for x in a]))
    monkeypatch.setattr(run, "say", lambda *a: None)
    monkeypatch.setattr(run, "link_labextension", lambda: None)
    monkeypatch.setattr(run, "write_lab_overrides", lambda: None)
    run.ensure_env("dev")
    assert calls[-1][-2:] == ["--config-settings", "editable_mode=compat"]
    calls.clear(); run.ensure_env("dev")
    assert calls == []                                  # inget har ändrats: ingen ny installation
    monkeypatch.setattr(run, "install_args", lambda extra: ["pip", "install", "-e", f".[{extra}]"])
    run.ensure_env("dev")
    assert calls and calls[-1][-3:] == ["install", "-e", ".[dev]"]   # ett annat sätt att installera: igen


def test_run_py_reports_the_time_of_each_phase(capsys):
    "`run.py test` ends with the time of each phase, the install apart, even when a phase fails."
    run = load_run_py()
    with run.phase("installation"): pass
    with pytest.raises(SystemExit):
        with run.phase("nbdev-test"): raise SystemExit(1)
    run.PHASES[:] = [("installation", 95.0), ("nbdev-export och nbdev-clean", 12.5), ("nbdev-test", 36.7),
                     ("pytest", 1000.0)]
    run.report()
    out = capsys.readouterr().out
    assert "Tid per steg" in out
    assert re.search(r"installation\s+1 min 35.0 s", out) and re.search(r"nbdev-test\s+36.7 s", out)
    assert re.search(r"pytest\s+16 min 40.0 s", out)
    assert re.search(r"summa utan installationen\s+17 min 29.2 s", out)      # 12.5 + 36.7 + 1000
    assert "--durations=15" in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["addopts"]


def test_quick_loop_leaves_out_browsers_notebooks_and_servers():
    "What `python3 run.py snabb` selects: no browser test, no notebook in a kernel, no classroom server."
    run = load_run_py()
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-m", run.QUICK,
                        "-o", "addopts="], cwd=ROOT, capture_output=True, text=True, timeout=300)
    ids = [l for l in r.stdout.splitlines() if "::" in l]
    assert r.returncode == 0 and len(ids) > 1000, r.stdout[-2000:]
    files = {i.split("::")[0] for i in ids}
    assert not {f for f in files if f.startswith("tests/browser/")}
    assert not files & {"tests/test_notebooks_kernel.py", "tests/test_classroom.py", "tests/test_app_server.py"}
    assert not [i for i in ids if "test_every_cell_runs_alone" in i or "test_lesson_runs_in_a_kernel" in i]
    assert {"tests/test_rules.py", "tests/test_properties.py", "tests/test_puzzles.py", "tests/test_widgets.py"} <= files
