#!/usr/bin/env python3
"""Kursens två kommandon, som bara kräver Python 3.11 eller senare:

    python3 run.py kurs    öppnar kursen för eleven: elevernas startsida i JupyterLabs elevläge, utan ramar och kod
    python3 run.py kurs --larare   hela JupyterLab på kursens startsida nbs/index.ipynb, för läraren
    python3 run.py test    kör alla tester, som CI gör
    python3 run.py snabb   den snabba slingan: motorn, reglerna, pusslen och widgetarna, utan webbläsare och
                           notebooks (under tre minuter)

Båda skapar en virtuell miljö i .venv första gången och installerar det som behövs i den. `kurs` installerar
paketet med kursens tillägg, ".[kurs]" (JupyterLab, Voilà, ipywidgets), och `test` också testverktygen, ".[dev]".
Bara regelmotorn, utan kursen, får man med pip install plump_teach.
Extra argument efter `kurs` skickas vidare till JupyterLab (till exempel --no-browser --port 8890), och efter
`test` och `snabb` till pytest (till exempel -k bud, -x, eller -n 0 för en enda process).

`test` skriver till sist hur lång tid varje steg tog (installationen för sig), och pytest de 15 långsammaste testerna.
"""
import atexit, hashlib, os, shutil, subprocess, sys, time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def say(msg): print(f"==> {msg}", flush=True)


PHASES: list[tuple[str, float]] = []   # (steg, sekunder) i den ordning de kördes


@contextmanager
def phase(name: str):
    "Mät ett steg; tiden skrivs ut i slutet (report), också när steget misslyckas."
    t0 = time.monotonic()
    try: yield
    finally: PHASES.append((name, time.monotonic() - t0))


def minutes(s: float) -> str:
    return f"{int(s // 60)} min {s % 60:04.1f} s" if s >= 60 else f"{s:.1f} s"


def report():
    "Tiden för varje steg och summan utan installationen (den beror på nätet och görs bara när pyproject ändras)."
    if not PHASES: return
    rows = [*PHASES, ("summa utan installationen", sum(t for n, t in PHASES if n != "installation"))]
    width = max(len(n) for n, _ in rows)
    print("==> Tid per steg:\n" + "\n".join(f"    {n:<{width}}  {minutes(t):>14}" for n, t in rows), flush=True)


def run(*cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], cwd=kw.pop("cwd", ROOT), **kw)
    if r.returncode: sys.exit(r.returncode)


def install_args(extra: str) -> list[str]:
    """pip-kommandot som installerar paketet redigerbart. `editable_mode=compat` lägger projektets mapp på sökvägen
    (en .pth-fil) i stället för en importkrok, som mypy, pyright och redigerare inte kan följa."""
    return ["pip", "install", "--quiet", "-e", f".[{extra}]", "--config-settings", "editable_mode=compat"]


def ensure_env(extra: str):
    "Skapa .venv och installera paketet (med `extra`) om pyproject.toml eller installationsraden har ändrats sedan sist."
    if sys.version_info < (3, 11): sys.exit("Kursen behöver Python 3.11 eller senare.")
    if not (BIN / "python").exists() and not (BIN / "python.exe").exists():
        say("Skapar en virtuell miljö i .venv")
        run(sys.executable, "-m", "venv", VENV)
    stamp = VENV / f".installerat-{extra}"
    install = install_args(extra)
    # installationen görs om när pyproject.toml eller sättet att installera har ändrats
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + " ".join(install).encode()).hexdigest()
    if not stamp.exists() or stamp.read_text() != want:
        say(f"Installerar plump_teach med [{extra}] i .venv")
        run(BIN / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip")
        run(BIN / "python", "-m", *install)
        stamp.write_text(want)
    link_labextension()
    write_lab_overrides()


# JupyterLabs inställningar för kursens egen miljö (.venv): ingen fråga på engelska om nyheter och ingen om nya
# versioner, varken för eleven eller läraren. overrides.json ger standardvärdena för allt som den här JupyterLab kör.
LAB_OVERRIDES = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
                 # elevens svar och utdata skrivs inte in i lektionsfilerna (framstegen sparas för sig); spara med Ctrl+S
                 "@jupyterlab/docmanager-extension:plugin": {"autosave": False}}
QUIET_LAB = ["--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
# Elevens väg in: startsidan i elevläget (labextension/, ?elev=1), som webbplatsen utan installation.
PUPIL_START = "/lab/tree/elev/start.ipynb?elev=1"


def write_lab_overrides():
    import json
    dest = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    text = json.dumps(LAB_OVERRIDES, indent=1)
    if dest.exists() and dest.read_text(encoding="utf-8") == text: return
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(text, encoding="utf-8")


def link_labextension():
    """JupyterLab-tillägget i labextension/ (ordlistans länkar rullar fram till ordet) där JupyterLab i .venv hittar
    det. En vanlig pip-installation lägger det där själv (pyproject.toml, data-files); den redigerbara
    installationen (-e) gör det inte, så här blir det en länk till mappen i projektet."""
    dest = VENV / "share" / "jupyter" / "labextensions" / "plump-teach-elev"
    if dest.is_symlink() and dest.resolve() == (ROOT / "labextension").resolve(): return
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.is_symlink() or dest.is_file(): dest.unlink()
    elif dest.exists(): shutil.rmtree(dest)
    try: dest.symlink_to(ROOT / "labextension", target_is_directory=True)
    except OSError: shutil.copytree(ROOT / "labextension", dest)   # utan rätt att skapa länkar (Windows)


def snapshot():
    "Innehållet i biblioteket och notebooks, för att se om export eller clean ändrar något."
    files = sorted([*(ROOT / "plump_teach").rglob("*.py"), *(ROOT / "nbs").rglob("*.ipynb")])
    return {str(f.relative_to(ROOT)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in files if ".ipynb_checkpoints" not in f.parts}


# pytest-xdist: varje testmodul är en enhet som körs i en och samma process, de längsta först (tests/conftest.py).
# Hela `test` på tre processer: på två kärnor väntar webbläsartesterna en stor del av tiden på sidor, kärnor och
# servrar, och tre processer fyller den tiden (mätt: 15,7 minuter för pytest, mot 19,8 med två och 28 med en;
# tests/benchmarks/results/suite-2026-12-03.txt). `-n 0` efter `test` kör allt i en process. Den snabba slingan
# räknar bara och får en process per kärna.
XDIST = ["--dist", "loadscope", "--no-loadscope-reorder"]
WORKERS_TEST, WORKERS_QUICK = "3", "2"


def test(args):
    atexit.register(report)
    with phase("installation"): ensure_env("dev")
    with phase("nbdev-export och nbdev-clean"):
        for tool, what in (("nbdev-export", "biblioteket plump_teach/ stämmer med notebooks"),
                           ("nbdev-clean", "notebooks är rensade")):
            before = snapshot()
            run(BIN / tool)
            after = snapshot()
            changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
            if changed:
                sys.exit(f"FEL: {tool} ändrade {', '.join(changed)}.\n"
                         f"Kör {tool}, granska ändringen med git diff och checka in den.")
            say(f"{tool}: inget ändrades ({what})")
    with phase("nbdev-test"):
        say("nbdev-test: kör lektionerna i nbs/")
        run(BIN / "nbdev-test")
    with phase("pytest"):
        say(f"pytest: tests/ på {WORKERS_TEST} processer (pytest-xdist; tests/conftest.py säger hur de delas)")
        run(BIN / "python", "-m", "pytest", "-n", WORKERS_TEST, *XDIST, *args)


QUICK = "not browser and not kernel and not server"


def snabb(args):
    """Den snabba slingan medan man arbetar: pytest utan webbläsartesterna, utan notebooks i kärnor och utan
    klassrummets server (markörerna browser, kernel och server), på två processer, och egenskapstesterna med en
    fjärdedel av exemplen (PLUMP_SNABB=1, se tests/examples.py). nbdev-export körs inte: ändrar du en notebook, kör
    nbdev-export först. Hela `python3 run.py test` är domaren före en inlämning."""
    atexit.register(report)
    with phase("installation"): ensure_env("dev")
    with phase("pytest, snabba slingan"):
        say(f'pytest -m "{QUICK}": motorn, reglerna, pusslen och widgetarna')
        run(BIN / "python", "-m", "pytest", "-m", QUICK, "-n", WORKERS_QUICK, *XDIST, *args, env={**os.environ, "PLUMP_SNABB": "1"})


def lab_args(args) -> list[str]:
    "JupyterLabs argument för `kurs`: eleven får elevläget på elevernas startsida, läraren (--larare) hela JupyterLab."
    extra = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    if "--larare" in args:
        return ["index.ipynb", *QUIET_LAB, *extra, *[a for a in args if a != "--larare"]]
    # allow_hidden: elevlägets tillägg läser elevens framsteg (.plump-framsteg.json) för startsidans bockar
    return [*QUIET_LAB, f"--LabApp.default_url={PUPIL_START}", "--ContentsManager.allow_hidden=True", *extra, *args]


# JupyterLab skriver sin adress (med --no-browser den som ska öppnas) som default_url följt av "?token=…". Elevens
# default_url har redan en fråga, ?elev=1, så adressen fick två "?" (start.ipynb?elev=1?token=…) och fungerade inte:
# varken elevläget eller nyckeln gällde. JupyterLab startas därför genom LAB, som delar adressens sökväg och fråga
# innan nyckeln läggs till (…start.ipynb?elev=1&token=…). Webbläsaren som JupyterLab själv öppnar fick redan rätt.
LAB = """import sys
from jupyter_server.serverapp import ServerApp
urlparts = ServerApp._get_urlparts
def _get_urlparts(self, *args, **kwargs):
    parts = urlparts(self, *args, **kwargs)
    if '?' not in parts.path: return parts
    path, query = parts.path.split('?', 1)
    return parts._replace(path=path, query='&'.join(q for q in (query, parts.query) if q))
ServerApp._get_urlparts = _get_urlparts
from jupyterlab.labapp import main
sys.exit(main())
"""


def kurs(args):
    ensure_env("kurs")
    if "--larare" in args: say("Startar hela JupyterLab på kursens startsida, för läraren (avsluta med Ctrl+C)")
    else: say("Startar kursen för eleven, på elevernas startsida (avsluta med Ctrl+C). Läraren: kurs --larare")
    run(BIN / "python", "-c", LAB, *lab_args(args), cwd=ROOT / "nbs")


if __name__ == "__main__":
    cmds = {"kurs": kurs, "test": test, "snabb": snabb}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](sys.argv[2:])
