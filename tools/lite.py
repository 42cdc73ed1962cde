#!/usr/bin/env python3
"""Kursen i webbläsaren: bygger hela kursen som en statisk JupyterLite-webbplats och visar den lokalt.

    python3 tools/lite.py build [--force]          bygger webbplatsen i _lite/site/
    python3 tools/lite.py serve [--port 8000]      visar den på http://127.0.0.1:8000/

Webbplatsen är bara filer: notebooks, biblioteket plump_teach, ipywidgets och Python (Pyodide), som körs
i elevens egen webbläsare. Den behöver ingen Python-server och hämtar ingenting från internet när den
används. Lägg mappen _lite/site/ på vilken statisk webbserver som helst.

The course as a static JupyterLite site. `build` needs Python 3.11+, npm, node and network to the package
registries (PyPI, npm) only; every version it downloads is pinned below, and every downloaded file is
checked against its pinned sha256. The build tools go into a separate virtual environment in the cache,
never into the project's .venv. Downloads and the build venv are cached in $PLUMP_LITE_CACHE (default
~/.cache/plump_teach/lite), so a second build needs no network; `build` also does nothing when the site
is already built from the same inputs (--force rebuilds).

What the build does:
  * copies nbs/ into the site's contents, each notebook with the Pyodide kernel in its metadata and
    otherwise unchanged (nbs/ itself is not touched);
  * builds plump_teach's wheel from the checkout and ships it with the wheels it needs in the browser
    (ipywidgets, comm, jupyterlab_widgets, fastcore; not jupyterlab and voila, which pyproject.toml also
    lists) and the Pyodide kernel's own wheels, all in pyodide-lock.json: the kernel loads them while
    Pyodide starts, so `import plump_teach` works in the first cell of any notebook with nothing to
    install;
  * ships Pyodide's core from the npm package `pyodide` plus the pure-Python wheels the kernel needs to
    boot (micropip, ipython, jedi and their dependencies, at the versions in pyodide-lock.json),
    rewriting their sha256 in the lock and dropping every entry whose wheel is not shipped;
  * adds bytecode (.pyc) for the modules that the kernel imports when it starts and that the course
    imports, compiled by that same Pyodide run in Node (tools/pyodide_compile.py): without it every
    student's browser compiles them from source at each kernel start. Page open to clickable puzzle,
    tests/benchmarks/bench_lite_start.py: median 9.3 s with the bytecode, 16.9 s without (+6 MB);
  * sets disablePyPIFallback so that a missing package fails instead of reaching for PyPI, strips the
    source maps and makes the site's front page open the course start page (index.ipynb);
  * takes away what only the build needed (rspack's configuration, package.json, bootstrap.js, the icon
    fonts' pre-woff2 formats: BUILD_FILES, check_site refuses a site that has them);
  * gives every page a Swedish message in the HTML itself for when it cannot start (opened as a file, a
    browser too old, JupyterLab not started after a minute: tools/lite_guard.html);
  * starts lab/index.html sooner (tools/lite_early.html, issue 39): in pupil mode a Swedish line at the bottom from the
    first second (until the pupil mode's own line takes over), the lesson kept where the pupil reads while its cells
    run (JupyterLab scrolls to each cell it runs). Asking for Pyodide's files from the first second as well bought
    nothing on loopback (the start is CPU-bound). Timeline per phase: tests/benchmarks/bench_lite_start.py --timeline;
  * starts Python while the page draws (issue 39): on a return visit in pupil mode lab/index.html makes the Pyodide
    kernel's worker in its first tenth of a second and the worker starts loading Pyodide and the course's packages
    (tools/lite_warm_worker.js) on the second core while JupyterLab loads on the first; the lesson's kernel takes
    that worker and that Pyodide over (warm_python changes two places of the pinned pyodide kernel, each checked).
    On a first visit the pupil mode (labextension/) starts the lesson's kernel as soon as the service worker is
    ready instead of after the lesson is drawn;
  * keeps the course in the browser for offline use: JupyterLite's service worker is wrapped by
    tools/lite_service_worker.js with the list of every file and a version over their contents (a new build
    replaces the old cache). The pupil mode asks it to fetch the rest after the first lesson; then a
    reload without network opens the lessons from the cache (tests/browser/test_browser_lite.py). The first
    visit downloads the whole course once: 42 MB (22 MB gzip-compressed); start page + lesson 1 alone 33 MB.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LITE = ROOT / "_lite"          # git-ignored: site/ (the result) and work/ (the build's scratch)
SITE = LITE / "site"
WORK = LITE / "work"
CACHE = Path(os.environ.get("PLUMP_LITE_CACHE") or
             Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "plump_teach" / "lite")

# ------------------------------------------------------------------ pinned versions

# The build environment (a venv of its own): pip, then exactly these, with --no-deps.
BUILD_PIP = "pip==26.3"
BUILD_REQUIREMENTS = """
jupyterlite-core==0.8.6 jupyterlite-pyodide-kernel==0.8.6 jupyterlab_widgets==3.0.17 jupyter_server==2.21.1
setuptools==80.9.0
anyio==4.16.0 argon2-cffi==25.1.0 argon2-cffi-bindings==26.2.0 arrow==1.4.0 attrs==26.1.0
beautifulsoup4==4.15.0 bleach==6.4.0 cffi==2.1.1 defusedxml==0.7.1 doit==0.37.0 fastjsonschema==2.22.3
fqdn==1.6.0 idna==3.20 isoduration==20.11.0 Jinja2==3.1.6 jsonpointer==3.12 jsonschema==4.26.0
jsonschema-specifications==2025.9.1 jupyter-events==0.12.1 jupyter_client==8.10.0 jupyter_core==5.9.1
jupyter_server_terminals==0.5.4 jupyterlab_pygments==0.3.0 lark==1.3.1 MarkupSafe==3.0.4 mistune==3.4.0
nbclient==0.11.0 nbconvert==7.17.2 nbformat==5.11.1 overrides==7.7.0 packaging==26.4 pandocfilters==1.5.1
pkginfo==2.0 platformdirs==4.14.8 prometheus_client==0.26.0 ptyprocess==0.7.0 pycparser==3.12
Pygments==2.21.0 python-dateutil==4.0.0 python-json-logger==4.2.0 PyYAML==6.0.4 pyzmq==27.3.0
referencing==0.37.0 rfc3339-validator==0.1.4 rfc3986-validator==0.1.1 rfc3987-syntax==1.1.0
rpds-py==2026.9.1 Send2Trash==2.2.0 six==1.17.0 soupsieve==4.1.3 terminado==0.18.1 tinycss2==1.5.1
tornado==6.6.1 traitlets==5.16.1 typing_extensions==4.16.0 tzdata==2026.6 uri-template==1.3.0
webcolors==25.10.0 webencodings==0.6.1 websocket-client==1.9.2
""".split()

# Pyodide's core, from the npm package at exactly jupyterlite_pyodide_kernel's PYODIDE_VERSION.
PYODIDE_VERSION = "314.0.6"
PYODIDE_TGZ_SHA256 = "d78ac549b28a2a58600cd06f44e017024151775f8c6b2d73fab1475400d38ea2"
PYODIDE_CORE = ["pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                "package.json"]   # + pyodide-lock.json, rewritten

# Wheels the kernel loads from the lock to boot: micropip, ipython, jedi and their dependencies, at the
# versions in pyodide-lock.json (checked against it). Pure Python, from PyPI: (version, sha256).
BOOT_WHEELS = {
    "micropip": ("0.11.1", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"),
    "ipython": ("9.12.0", "0f2701e8ee86e117e37f50563205d36feaa259d2e08d4a6bc6b6d74b18ce128d"),
    "jedi": ("0.19.2", "a8ef22bde8490f57fe5c7681a3c83cb58874daf72b4784de3cce5b6ef6edb5b9"),
    "asttokens": ("3.0.1", "15a3ebc0f43c2d0a50eeafea25e19046c68398e487b9f1f5b517f7c0f40f976a"),
    "decorator": ("5.2.1", "d316bb415a2d9e2d2b3abcc4084c6502fc09240e292cd76a76afc106a1c8e04a"),
    "executing": ("2.2.1", "760643d3452b4d777d295bb167ccc74c64a81df23fb5e08eff250c425a4b2017"),
    "matplotlib-inline": ("0.2.1", "d56ce5156ba6085e00a9d54fead6ed29a9c47e215cd1bba2e976ef39f5710a76"),
    "parso": ("0.8.6", "2c549f800b70a5c4952197248825584cb00f033b29c692671d3bf08bf380baff"),
    "prompt-toolkit": ("3.0.52", "9aac639a3bbd33284347de5ad8d68ecc044b91a762dc39b7c21095fcd6a19955"),
    "pure-eval": ("0.2.3", "1db8e35b67b3d218d818ae653e27f06c3aa420901fa7b081ca98cbedc874e0d0"),
    "pygments": ("2.20.0", "81a9e26dd42fd28a23a2d169d86d7ac03b46e2f8b59ed4698fb4785f946d0176"),
    "six": ("1.17.0", "4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274"),
    "stack-data": ("0.6.3", "d5558e0c25a4cb0853cddad3d77da9891a08cb85dd9f9f91b9f8cd66e511e695"),
    "traitlets": ("5.14.3", "b74e89e397b1ed28cc831db7aea759ba6640cb3de13090ca145426688ff1ac4f"),
    "wcwidth": ("0.6.0", "1a3a1e510b553315f8e146c54764f4fb6264ffad731b3d78088cdb1478ffbdad"),
}
BOOT_ROOTS = ["micropip", "ipython", "jedi"]

# What a notebook needs at run time besides plump_teach (not its pyproject dependencies: jupyterlab and
# voila are not needed in the browser). widgetsnbextension is the Pyodide kernel's stub, and
# jupyterlab_widgets must match the widgets extension in the build venv above.
RUNTIME_WHEELS = {
    "ipywidgets": ("8.1.9", "f2b8cbcaae10252b809fbe4d7470db75c09b769a32cbf816d20e5ca6d3c5a79d"),
    "comm": ("0.2.3", "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417"),
    "jupyterlab_widgets": ("3.0.17", "40ac1e9955acf116c4d995d9bfa082d86ad9ec6d91c4f134827cf5e0a5eb75e0"),
    "fastcore": ("2.2.41", "0f35f070ec5dc7aa0529f2c4634f7ff41095a6df8085adb679eb0e4d9b50a786"),
}
# The wheels the Pyodide kernel brings along (in the build venv's labextension, pinned by
# jupyterlite-pyodide-kernel above); the kernel would otherwise install them with piplite one by one.
KERNEL_WHEELS = {"piplite": "0.8.6", "pyodide-kernel": "0.8.6", "ipykernel": "6.9.2", "widgetsnbextension": "4.0.999"}

# Everything beyond the boot wheels goes into pyodide-lock.json with these dependencies, and the kernel
# loads it all while Pyodide starts (loadPyodideOptions.packages): one parallel download instead of the
# kernel's six piplite installs in a row, and `import plump_teach` works from the first cell of any
# notebook, with nothing to install.
LOCK_DEPENDS = {
    "piplite": [], "pyodide-kernel": ["comm", "ipython"], "ipykernel": ["pyodide-kernel"], "widgetsnbextension": [],
    "comm": [], "jupyterlab-widgets": [], "fastcore": [],
    "ipywidgets": ["comm", "ipython", "jupyterlab-widgets", "traitlets", "widgetsnbextension"],
    "plump-teach": ["fastcore", "ipywidgets"],
}
# the names the kernel looks for before installing them itself, and the course library
PRELOAD = ["micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython", "plump-teach"]
# What the kernel imports when it starts (worker.ts in jupyterlite-pyodide-kernel): the build compiles the
# modules these load, with those of plump_teach and the notebooks' imports (see precompile).
KERNEL_IMPORTS = ["piplite.piplite", "pyodide_kernel"]
PYC_TOOLS = [ROOT / "tools" / "pyodide_run.mjs", ROOT / "tools" / "pyodide_compile.py"]

PIP_BROWSER_FLAGS = ["--no-deps", "--only-binary=:all:", "--python-version", "3.14", "--implementation", "py",
                     "--abi", "none", "--platform", "any"]

KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}

PAGE_SETTINGS = {
    "appName": "Plump och Bismarck",
    "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": {
        "disablePyPIFallback": True, "loadPyodideOptions": {"packages": PRELOAD}}},
}

# --no-drive: without JupyterLite's service worker the kernel starts a little faster (it makes about a
# hundred synchronous requests to it while starting; median 9.0 s against 9.3 s to the first clickable
# puzzle in tests/benchmarks/bench_lite_start.py), but Python no longer sees the notebook folder:
# files a notebook writes (the score sheet's saved protocol) stay in the kernel's memory, are not in the
# file browser and are gone after a restart. The default keeps the service worker, as in JupyterLab.
SERVICE_WORKER = "@jupyterlite/application-extension:service-worker-manager"

# The site's front page opens the course start page. The generated index.html must stay (the apps read
# their settings from its #jupyter-config-data); only its redirect to the bare lab app is replaced.
START_URL = "lab/index.html?path=elev/start.ipynb&elev=1"
# The pupil mode (labextension/static/remoteEntry.js): a hand-written JupyterLab extension that hides JupyterLab's English
# chrome and the code, and runs a lesson's cells when it opens. Installed into the built site by
# pupil_extension(); ?elev=1 turns it on for the browser tab, ?elev=0 off.
PUPIL_JS = ROOT / "labextension" / "static" / "remoteEntry.js"
PUPIL_EXTENSION = "plump-teach-elev"
FRONT_REDIRECT = "await import('./config-utils.js');"

# Offline: JupyterLite's service worker (its drive) gets a layer that keeps the course in the browser
# (offline_cache); the pages get a Swedish message instead of a blank page or an endless spinner (page_guard).
SW_LAYER = ROOT / "tools" / "lite_service_worker.js"
SW_ORIGINAL = "service-worker-jupyterlite.js"
PAGE_GUARD = ROOT / "tools" / "lite_guard.html"
PAGE_EARLY = ROOT / "tools" / "lite_early.html"   # lab/index.html: the Swedish line from the first second, no jump
# Python started while the page draws (warm_python): the kernel's worker gets tools/lite_warm_worker.js first, and
# these two places of jupyterlite-pyodide-kernel 0.8.6 (pinned above) are changed, each found exactly once.
WARM_WORKER = ROOT / "tools" / "lite_warm_worker.js"
KERNEL_EXTENSION = "extensions/@jupyterlite/pyodide-kernel-extension/static"
WARM_INIT_WORKER = ('initWorker(e){let t=e=>new Worker(e,{type:"module"});',
                    'initWorker(e){let t=e=>self.__plumpKernelWorker&&self.__plumpKernelWorker(e)||new Worker(e,{type:"module"});')
WARM_INIT_RUNTIME = (('this._pyodide=await n({indexURL:s,', 'this._pyodide=await(self.__plumpTake&&self.__plumpTake(e,this)||n({indexURL:s,'),
                     ('...e.loadPyodideOptions}),this._pyodide._api.on_fatal=', '...e.loadPyodideOptions})),this._pyodide._api.on_fatal='))
GUARDED_PAGES = ["index.html", "lab/index.html"]
# What jupyter lite build leaves in the site for its own build (rspack's configuration, the app's npm
# metadata, the template the bundle is made from, the schema of jupyter-lite.json): no browser asks for them.
BUILD_FILES = ["package.json", "lab/package.json", "bootstrap.js", "jupyterlite.schema.v0.json",
               "rspack.config.js", "rspack.config.analyze.js", "rspack.config.watch.js",
               "build/service-worker.js"]   # the bundle's copy; JupyterLite registers the one in the site's root
# The icon fonts come as woff2 and in four older formats that only browsers without woff2 load, and no
# such browser runs Pyodide.
OLD_FONT_FORMATS = (".eot", ".ttf", ".woff", ".svg")
# Packages of the classroom server (plump-teach) that the browser does not have: a module of plump_teach that
# imports one at its top is not imported in the site and gets no bytecode (check_site).
SERVER_PACKAGES = ("tornado", "jupyter_server", "voila")
# Not kept for offline use: the licences (they stay in the site, a browser never asks for them).
NOT_CACHED = ("third-party-licenses.json",)


# ------------------------------------------------------------------ helpers

def say(msg): print(f"==> {msg}", flush=True)


def run(*cmd, **kw):
    cmd = [str(c) for c in cmd]
    r = subprocess.run(cmd, **kw)
    if r.returncode:
        sys.exit(f"FEL: kommandot misslyckades ({r.returncode}): {' '.join(cmd)}")
    return r


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(functools.partial(f.read, 1 << 20), b""): h.update(block)
    return h.hexdigest()


def norm(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def shown(path: Path) -> str:
    "A path as the user best reads it: relative to the checkout when inside it."
    try: return str(path.relative_to(ROOT))
    except ValueError: return str(path)


def venv_bin(venv: Path, name: str) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / name


def inputs_fingerprint(options: str = "") -> str:
    "What the site is built from: this script, the notebooks, the library, the project's metadata, the options."
    h = hashlib.sha256(options.encode() + b"\0")
    files = [Path(__file__).resolve(), *PYC_TOOLS, PUPIL_JS, SW_LAYER, PAGE_GUARD, PAGE_EARLY, WARM_WORKER, ROOT / "pyproject.toml", ROOT / "README.md",
             *sorted((ROOT / "plump_teach").rglob("*.py")), *sorted(notebook_sources())]
    for f in files:
        h.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def notebook_sources():
    for f in sorted((ROOT / "nbs").rglob("*")):
        rel = f.relative_to(ROOT / "nbs")
        if f.is_file() and not any(p.startswith((".", "_")) for p in rel.parts):
            yield f


def site_size(site: Path = SITE) -> tuple[int, int]:
    files = [f for f in site.rglob("*") if f.is_file()]
    return sum(f.stat().st_size for f in files), len(files)


def transfer_sizes(site: Path, files) -> dict[str, int | None]:
    """What sending `files` (paths relative to the site) costs: bytes as they are, gzip-compressed (level 6, as
    web servers compress on the fly) and brotli-compressed (quality 11, precompressed; None without the Python
    package brotli)."""
    import gzip
    try: import brotli
    except ImportError: brotli = None
    out = {"files": 0, "raw": 0, "gzip": 0, "brotli": 0 if brotli else None}
    for name in sorted(set(files)):
        f = site / name
        if not f.is_file(): continue
        data = f.read_bytes()
        out["files"] += 1
        out["raw"] += len(data)
        out["gzip"] += len(gzip.compress(data, 6, mtime=0))
        if brotli: out["brotli"] += len(brotli.compress(data, quality=11))
    return out


def site_paths(site_url: str, urls) -> list[str]:
    "The site's files that the URLs (requests of a page) ask for, relative to the site (a folder means its index.html)."
    from urllib.parse import unquote, urlsplit
    base = urlsplit(site_url.rstrip("/") + "/")
    out = set()
    for u in urls:
        p = urlsplit(u)
        if (p.scheme, p.netloc) != (base.scheme, base.netloc) or not p.path.startswith(base.path): continue
        rel = unquote(p.path[len(base.path):])
        out.add(rel + "index.html" if rel == "" or rel.endswith("/") else rel)
    return sorted(out)


# ------------------------------------------------------------------ build steps

def build_venv() -> Path:
    "The pinned build environment, in the cache (named by its pins; reused while they stay the same)."
    key = hashlib.sha256(" ".join([sys.version, BUILD_PIP, *BUILD_REQUIREMENTS]).encode()).hexdigest()[:12]
    venv = CACHE / f"venv-{key}"
    ok = venv / ".installed"
    if ok.exists(): return venv
    say(f"Skapar byggmiljön {venv}")
    shutil.rmtree(venv, ignore_errors=True)
    run(sys.executable, "-m", "venv", venv)
    py = venv_bin(venv, "python")
    run(py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", BUILD_PIP)
    run(py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", *BUILD_REQUIREMENTS)
    run(py, "-m", "pip", "check")
    ok.write_text("ok")
    return venv


def check_kernel_pins(venv: Path):
    "PYODIDE_VERSION must be the kernel's own, or the kernel and the Pyodide core will not fit together."
    code = "from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION as v; print(v)"
    got = run(venv_bin(venv, "python"), "-c", code, capture_output=True, text=True).stdout.strip()
    if got != PYODIDE_VERSION:
        sys.exit(f"FEL: jupyterlite-pyodide-kernel vill ha Pyodide {got}, tools/lite.py har {PYODIDE_VERSION}.")


def pyodide_tarball() -> Path:
    "npm's tarball of the package `pyodide`, checked against its pinned sha256."
    dest = CACHE / "npm"
    tgz = dest / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not (tgz.exists() and sha256(tgz) == PYODIDE_TGZ_SHA256):
        npm = shutil.which("npm")
        if not npm:
            sys.exit("FEL: npm saknas (Debian: apt-get install -y npm); det behövs för att hämta Pyodide.")
        say(f"Hämtar npm-paketet pyodide@{PYODIDE_VERSION}")
        dest.mkdir(parents=True, exist_ok=True)
        run(npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", dest, "--silent",
            stdout=subprocess.DEVNULL)
        if sha256(tgz) != PYODIDE_TGZ_SHA256:
            sys.exit(f"FEL: {tgz.name} har fel sha256 ({sha256(tgz)}).")
    return tgz


def wheels(venv: Path, pins: dict[str, tuple[str, str]]) -> dict[str, Path]:
    "Pure-Python wheels for the browser (Python 3.14), from PyPI, each checked against its sha256."
    dest = CACHE / "wheels"
    dest.mkdir(parents=True, exist_ok=True)

    def find(name, version):
        stem = norm(name).replace("-", "_")
        return [f for f in dest.glob("*.whl")
                if norm(f.name.split("-")[0]).replace("-", "_") == stem and f.name.split("-")[1] == version]

    def good(name):
        version, digest = pins[name]
        return next((f for f in find(name, version) if sha256(f) == digest), None)

    missing = [n for n in pins if good(n) is None]
    if missing:
        say("Hämtar hjul från PyPI: " + ", ".join(f"{n}=={pins[n][0]}" for n in missing))
        run(venv_bin(venv, "python"), "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
            *PIP_BROWSER_FLAGS, "--dest", dest, *(f"{n}=={pins[n][0]}" for n in missing))
    out = {}
    for n in pins:
        f = good(n)
        if f is None:
            sys.exit(f"FEL: hjulet {n}=={pins[n][0]} saknas eller har fel sha256 i {dest}.")
        out[n] = f
    return out


def plump_teach_wheel(venv: Path, out: Path) -> Path:
    "plump_teach's wheel, built from a copy of the checkout (the checkout gets no build/ or egg-info)."
    src = WORK / "plump_teach-src"
    shutil.rmtree(src, ignore_errors=True)
    (src / "plump_teach").mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"): shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "labextension", src / "labextension")   # pyproject's data-files (the JupyterLab extension)
    for f in [*(ROOT / "plump_teach").rglob("*.py"), ROOT / "plump_teach" / "py.typed"]:   # subpackages, PEP 561
        if "__pycache__" in f.parts: continue
        dest = src / f.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, dest)
    # SOURCE_DATE_EPOCH: the same sources give the same wheel, byte for byte (so precompile's cache holds)
    run(venv_bin(venv, "python"), "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
        "--no-build-isolation", "--wheel-dir", out, src, env={**os.environ, "SOURCE_DATE_EPOCH": "315532800"})
    return next(out.glob("plump_teach-*.whl"))


def kernel_wheels(venv: Path) -> dict[str, Path]:
    "The Pyodide kernel's own wheels, as shipped in its labextension in the build venv."
    pypi = venv / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    out = {}
    for name, version in KERNEL_WHEELS.items():
        f = pypi / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
        if not f.exists(): sys.exit(f"FEL: {f} saknas i byggmiljön.")
        out[name] = f
    return out


def lock_entry(name: str, whl: Path, depends: list[str]) -> dict:
    return {"name": name, "version": whl.name.split("-")[1], "file_name": whl.name, "install_dir": "site",
            "sha256": sha256(whl), "package_type": "package", "imports": [name.replace("-", "_")],
            "depends": depends, "unvendored_tests": False}


def pyodide_dir(tgz: Path, boot: dict[str, Path], extra: dict[str, Path], dest: Path, bytecode: bool = True):
    """static/pyodide/: the core from the npm tarball, the wheels, and a lock that lists exactly those:
    the boot wheels with their lock entries, the others (`extra`) with entries made here; every other
    entry is dropped (its wheel is not in the site). Then the bytecode goes in (`precompile`), and each
    entry gets the sha256 of the file that is shipped."""
    dest.mkdir(parents=True)
    with tarfile.open(tgz) as t:
        for name in [*PYODIDE_CORE, "pyodide-lock.json"]:
            (dest / name).write_bytes(t.extractfile(f"package/{name}").read())
    lock = json.loads((dest / "pyodide-lock.json").read_text())
    packages = {norm(k): (k, v) for k, v in lock["packages"].items()}

    need, todo = set(), list(BOOT_ROOTS)
    while todo:
        n = norm(todo.pop())
        if n in need: continue
        need.add(n)
        todo += packages[n][1]["depends"]
    if need != {norm(n) for n in BOOT_WHEELS}:
        sys.exit(f"FEL: pyodide-lock.json vill ha {sorted(need)} för att starta kärnan; "
                 f"tools/lite.py har {sorted(map(norm, BOOT_WHEELS))}.")
    kept = {}
    for name, whl in boot.items():
        key, entry = packages[norm(name)]
        if entry["version"] != BOOT_WHEELS[name][0]:
            sys.exit(f"FEL: pyodide-lock.json har {name} {entry['version']}, tools/lite.py {BOOT_WHEELS[name][0]}.")
        shutil.copy2(whl, dest / whl.name)
        kept[key] = {**entry, "file_name": whl.name, "sha256": sha256(whl)}
    for name, whl in extra.items():
        shutil.copy2(whl, dest / whl.name)
        kept[norm(name)] = lock_entry(norm(name), whl, LOCK_DEPENDS[norm(name)])
    missing = {norm(d) for e in kept.values() for d in e["depends"]} - {norm(k) for k in kept}
    if missing: sys.exit(f"FEL: pyodide-lock.json saknar {sorted(missing)}.")
    lock["packages"] = dict(sorted(kept.items()))
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    if bytecode: precompile(dest, course_imports())
    for entry in lock["packages"].values(): entry["sha256"] = sha256(dest / entry["file_name"])
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))


def course_imports() -> list[str]:
    """What to import to find the modules worth compiling: what the kernel imports when it starts, every
    module of plump_teach, and every module the course's notebooks import (their import statements)."""
    lib = ROOT / "plump_teach"
    mods = {*KERNEL_IMPORTS, *(".".join(("plump_teach", *f.relative_to(lib).with_suffix("").parts))
                               for f in lib.rglob("*.py") if f.stem != "__init__")}
    for f in notebook_sources():
        if f.suffix != ".ipynb": continue
        mods.update(notebook_imports(json.loads(f.read_text(encoding="utf-8"))))
    return sorted(mods)


def notebook_imports(nb: dict) -> list[str]:
    "The modules a notebook's code cells import (absolute imports), in the order the cells first import them."
    mods = {}
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code": continue
        src = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                        for line in "".join(cell["source"]).splitlines())
        try: tree = ast.parse(src)
        except SyntaxError: continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import): mods.update(dict.fromkeys(a.name for a in node.names))
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level: mods[node.module] = None
    return list(mods)


def precompile(dest: Path, imports: list[str]):
    """Add bytecode to the standard library zip and to every wheel in dest (in place), for the modules that
    importing `imports` loads: compiled by the site's own Pyodide, run in Node (tools/pyodide_compile.py).
    The result is cached under the hash of everything it is made from."""
    lock = json.loads((dest / "pyodide-lock.json").read_text())
    files = ["python_stdlib.zip", *sorted(e["file_name"] for e in lock["packages"].values())]
    h = hashlib.sha256(PYODIDE_TGZ_SHA256.encode() + json.dumps(imports).encode())
    for tool in PYC_TOOLS: h.update(tool.read_bytes())
    for name in files: h.update(f"{name}:{sha256(dest / name)}".encode())
    cached = CACHE / "pyc" / h.hexdigest()[:20]
    if not (cached / ".done").exists():
        node = shutil.which("node")
        if not node: sys.exit("FEL: node saknas (Debian: apt-get install -y nodejs npm); det behövs för att "
                              "kompilera Python-koden i förväg.")
        say(f"Kompilerar Python-koden i förväg ({len(imports)} importer, med webbplatsens egen Pyodide)")
        job = WORK / "pyc"
        shutil.rmtree(job, ignore_errors=True)
        job.mkdir(parents=True)
        for name in files: shutil.copy2(dest / name, job / name)
        (job / "job.json").write_text(json.dumps({
            "packages": sorted(lock["packages"]), "imports": imports,
            "files": [{"in": n, "out": f"out-{n}", "kind": "stdlib" if n.endswith(".zip") else "wheel"}
                      for n in files]}, indent=1))
        log = WORK / "pyc.log"
        with open(log, "w") as logf:
            r = subprocess.run([node, PYC_TOOLS[0], dest, job, PYC_TOOLS[1]], stdout=logf, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, timeout=900)
        if r.returncode:
            sys.exit(f"FEL: förkompileringen misslyckades; sista raderna i {log}:\n" +
                     "\n".join(log.read_text(errors="replace").splitlines()[-30:]))
        shutil.rmtree(cached, ignore_errors=True)
        cached.mkdir(parents=True)
        for name in files: (job / f"out-{name}").rename(cached / name)
        shutil.copy2(log, cached / "pyc.log")
        (cached / ".done").write_text("ok")
        shutil.rmtree(job)
        for old in sorted(cached.parent.iterdir(), key=lambda d: d.stat().st_mtime)[:-3]:   # keep the newest 3
            shutil.rmtree(old, ignore_errors=True)
    for name in files: shutil.copy2(cached / name, dest / name)


def site_notebook(nb: dict) -> dict:
    "The notebook as the site has it: unchanged, except that it asks for the Pyodide kernel."
    return {**nb, "metadata": {**nb.get("metadata", {}), "kernelspec": KERNELSPEC}}


def contents_dir(dest: Path):
    """files/: nbs/ as the students get it (the notebooks with the Pyodide kernel, other files as they are;
    the pupil course in nbs/elev without its JupyterLab-only cells, as in Voilà: plump_teach.course.build.no_code)."""
    sys.path.insert(0, str(ROOT))
    from plump_teach.course.build import no_code
    for f in notebook_sources():
        out = dest / f.relative_to(ROOT / "nbs")
        out.parent.mkdir(parents=True, exist_ok=True)
        if f.suffix == ".ipynb":
            nb = json.loads(f.read_text(encoding="utf-8"))
            if f.parent == ROOT / "nbs" / "elev": nb = no_code(nb)
            nb = site_notebook(nb)
            out.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        else:
            shutil.copy2(f, out)


@contextlib.contextmanager
def one_build_at_a_time():
    """Hold _lite/bygger.lock while building: a second build (another terminal, or the test suite's other process)
    waits for the first and then finds the site built, instead of both writing _lite/work/ at once. The lock goes
    with the process that holds it, also when it is killed. (Without fcntl, on Windows, builds are not guarded.)"""
    try: import fcntl
    except ImportError:
        yield
        return
    LITE.mkdir(parents=True, exist_ok=True)
    with open(LITE / "bygger.lock", "w") as f:
        try: fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("Ett annat bygge pågår; väntar tills det är klart")
            fcntl.flock(f, fcntl.LOCK_EX)
        try: yield
        finally: fcntl.flock(f, fcntl.LOCK_UN)


def build(force: bool = False, drive: bool = True, bytecode: bool = True, site: Path = SITE) -> Path:
    """Build the site into `site` (default _lite/site/); a JSON file beside it records what it was built from.
    `drive=False` and `bytecode=False` are for comparisons (see tests/benchmarks/bench_lite_start.py).
    One build at a time (one_build_at_a_time)."""
    with one_build_at_a_time():
        return _build(force, drive, bytecode, site)


def _build(force: bool, drive: bool, bytecode: bool, site: Path) -> Path:
    t0 = time.monotonic()
    site = site.resolve()
    stamp = site.with_name(site.name + ".json")   # kept outside the site
    fingerprint = inputs_fingerprint(f"drive={drive} bytecode={bytecode}")
    if (not force and stamp.exists() and (site / "index.html").exists()
            and json.loads(stamp.read_text()).get("inputs") == fingerprint):
        size, n = site_size(site)
        say(f"Webbplatsen i {shown(site)} är redan byggd från samma källor "
            f"({size / 1e6:.1f} MB, {n} filer); --force bygger om den.")
        return site

    if site.exists() and not (site / "jupyter-lite.json").exists() and any(site.iterdir()):
        sys.exit(f"FEL: {site} finns redan och är ingen byggd webbplats; bygget skulle ersätta den. "
                 f"Välj en ny eller tom mapp.")
    CACHE.mkdir(parents=True, exist_ok=True)
    venv = build_venv()
    check_kernel_pins(venv)
    tgz = pyodide_tarball()
    boot = wheels(venv, BOOT_WHEELS)
    runtime = wheels(venv, RUNTIME_WHEELS)

    shutil.rmtree(WORK, ignore_errors=True)
    lite_dir = WORK / "lite"
    lite_dir.mkdir(parents=True)
    say("Bygger plump_teach-hjulet från arbetskopian")
    plump = plump_teach_wheel(venv, WORK / "dist")
    pyodide_dir(tgz, boot, {**kernel_wheels(venv), **runtime, "plump-teach": plump}, lite_dir / "static" / "pyodide",
                bytecode)
    contents_dir(lite_dir / "files")
    settings = dict(PAGE_SETTINGS)
    if not drive: settings["disabledExtensions"] = [SERVICE_WORKER]
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(
        {"jupyter-lite-schema-version": 0, "jupyter-config-data": settings}, indent=2))

    say("jupyter lite build")
    out = WORK / "site"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY_"))}
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"), ("JUPYTER_RUNTIME_DIR", "runtime")):
        env[var] = str(WORK / "jupyter" / sub)
    log = WORK / "jupyter-lite-build.log"
    with open(log, "w") as logf:
        r = subprocess.run([str(venv_bin(venv, "jupyter")), "lite", "build", "--lite-dir", str(lite_dir),
                            "--output-dir", str(out), "--contents", "files", "--apps", "lab",
                            "--no-sourcemaps", "--no-unused-shared-packages"],
                           cwd=lite_dir, env=env, stdout=logf, stderr=subprocess.STDOUT)
    if r.returncode:
        sys.exit(f"FEL: jupyter lite build misslyckades; sista raderna i {log}:\n" +
                 "\n".join(log.read_text(errors="replace").splitlines()[-40:]))

    for m in out.rglob("*.map"): m.unlink()
    drop_build_files(out)
    front_page(out / "index.html")
    for page in GUARDED_PAGES: page_guard(out / page)
    early_start(out)
    warm_python(out)
    pupil_extension(out)
    offline_cache(out)
    check_site(out, bytecode)
    size, n = site_size(out)
    stamp.unlink(missing_ok=True)
    shutil.rmtree(site, ignore_errors=True)
    site.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(out, site)
    stamp.write_text(json.dumps({"inputs": fingerprint, "pyodide": PYODIDE_VERSION, "bytes": size, "files": n},
                                indent=1))
    say(f"Klart på {time.monotonic() - t0:.0f} s: {shown(site)} ({size / 1e6:.1f} MB, {n} filer). "
        f"Visa den med: python3 tools/lite.py serve" + ("" if site == SITE.resolve() else f" --dir {shown(site)}"))
    return site


def pupil_extension(out: Path):
    "Install the pupil mode (labextension/, also installed into JupyterLab by pip) as a federated extension of the built site."
    js = PUPIL_JS.read_bytes()
    name = f"remoteEntry.{hashlib.sha256(js).hexdigest()[:16]}.js"
    static = out / "extensions" / PUPIL_EXTENSION / "static"
    static.mkdir(parents=True, exist_ok=True)
    (static / name).write_bytes(js)
    cfg_file = out / "jupyter-lite.json"
    cfg = json.loads(cfg_file.read_text())
    data = cfg["jupyter-config-data"]
    data["federated_extensions"] = [e for e in data.get("federated_extensions", []) if e.get("name") != PUPIL_EXTENSION] + [
        {"name": PUPIL_EXTENSION, "load": f"static/{name}", "extension": "./extension"}]
    cfg_file.write_text(json.dumps(cfg, indent=2))


def front_page(index: Path):
    "Make the site's front page open the course start page instead of an empty JupyterLab."
    html = index.read_text(encoding="utf-8")
    if FRONT_REDIRECT not in html:
        sys.exit(f"FEL: hittar inte omdirigeringen i {index}; har jupyterlite-core ändrat sin index.html?")
    # only where page_guard found nothing wrong (otherwise its message stays, here)
    html = html.replace(FRONT_REDIRECT, "if (document.documentElement.classList.contains('plump-ok')) "
                                        f"window.location.replace({START_URL!r} + window.location.hash);")
    html = html.replace("</head>", f'<noscript><a href="{START_URL}">Öppna kursen</a></noscript>\n  </head>')
    index.write_text(html, encoding="utf-8")


def drop_build_files(out: Path):
    "Take away what only jupyter lite build needed (BUILD_FILES) and the icon fonts' older formats."
    for name in BUILD_FILES: (out / name).unlink(missing_ok=True)
    for f in out.glob("rspack.config*.js"): f.unlink()
    for f in old_fonts(out): f.unlink()


def old_fonts(out: Path) -> list[Path]:
    return [f.with_suffix(ext) for f in (out / "build").glob("*.woff2") for ext in OLD_FONT_FORMATS
            if f.with_suffix(ext).exists()]


def leftover_build_files(out: Path) -> list[str]:
    found = {name for name in BUILD_FILES if (out / name).exists()}
    found |= {f.name for f in out.glob("rspack.config*.js")}
    found |= {f.relative_to(out).as_posix() for f in old_fonts(out)}
    return sorted(found)


def page_guard(page: Path):
    """The Swedish message for a page that cannot start (tools/lite_guard.html): opened as a file, a browser
    too old, or JupyterLab not started after a minute. Its style and check go first in <head>, the
    message first in <body> (the site's index.html has none: one is added)."""
    guard = PAGE_GUARD.read_text(encoding="utf-8")
    head, _, body = guard.partition("<!-- plump-body")
    body = "<!-- plump-body" + body
    html = page.read_text(encoding="utf-8")
    if "plump-fel" in html: return
    if "<head>" not in html: sys.exit(f"FEL: {page} har ingen <head>; har jupyterlite-core ändrat sina sidor?")
    # after the page's <meta charset> (it must come within the first 1024 bytes), or with one of its own
    if (m := re.search(r"<meta charset=[^>]*>", html)): html = html[:m.end()] + "\n" + head + html[m.end():]
    else: html = html.replace("<head>", '<head>\n    <meta charset="utf-8">\n' + head, 1)
    html = html.replace("<html>", '<html lang="sv">', 1)
    # JupyterLites engelska rad för en webbläsare utan JavaScript ersätts av meddelandet
    html = re.sub(r"\s*<noscript>\s*<div[^>]*>\s*JupyterLite requires JavaScript.*?</noscript>", "", html, flags=re.S)
    if (m := re.search(r"<body[^>]*>", html)):
        html = html[:m.end()] + "\n" + body + html[m.end():]
    else:
        html = html.replace("</html>", f"<body>\n{body}</body>\n</html>")
    page.write_text(html, encoding="utf-8")


def early_start(out: Path):
    """lab/index.html (tools/lite_early.html): in pupil mode a Swedish line at the bottom from the first second, and
    the lesson kept where the pupil reads while its cells run; in every mode JupyterLite's service-worker version
    written before JupyterLite reads it (else its first controlled visit unregisters the service worker while
    Python starts, and Python does not see the lesson's folder)."""
    page = out / "lab" / "index.html"
    head, _, body = PAGE_EARLY.read_text(encoding="utf-8").partition("<!-- plump-early-body")
    html = page.read_text(encoding="utf-8")
    if "plump-laddar" in html: return
    if "</head>" not in html or '<div id="plump-fel"' not in html:
        sys.exit(f"FEL: {page} saknar </head> eller meddelandet från page_guard")
    html = html.replace("</head>", head + "</head>", 1)
    html = html.replace('<div id="plump-fel"', "<!-- plump-early-body" + body + '<div id="plump-fel"', 1)
    # the version JupyterLite keeps beside its service worker, written before JupyterLite reads it (lite_early.html)
    version = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"].get("appVersion")
    if not version: sys.exit(f"FEL: {out / 'jupyter-lite.json'} saknar appVersion; har JupyterLite ändrats?")
    html = replace_once(html, "/*plump-lite-version*/null", json.dumps(version), "lab/index.html")
    page.write_text(html, encoding="utf-8")


def replace_once(text: str, old: str, new: str, where: str) -> str:
    if text.count(old) != 1:
        sys.exit(f"FEL: hittar inte {old[:60]!r} exakt en gång i {where}; har jupyterlite-pyodide-kernel ändrats?")
    return text.replace(old, new)


def code_pages(out: Path) -> dict[str, list[str]]:
    """The site's notebooks with code (their path under files/): the pages whose Python lite_early.html may start,
    each with the course's modules its cells import (plump_teach's and fastcore's), which the early worker
    imports after the kernel's own while JupyterLab draws the page."""
    pages = {}
    for f in sorted((out / "files").rglob("*.ipynb")):
        nb = json.loads(f.read_text(encoding="utf-8"))
        if any(c.get("cell_type") == "code" for c in nb.get("cells", [])):
            pages[f.relative_to(out / "files").as_posix()] = [
                m for m in notebook_imports(nb) if m.split(".")[0] in ("plump_teach", "fastcore")]
    return pages


def warm_python(out: Path):
    """Python started while the page draws, on a return visit in pupil mode (tools/lite_early.html,
    tools/lite_warm_worker.js): the kernel's worker gets the prelude, its initRuntime takes the Pyodide the prelude
    loads, and the kernel's initWorker takes the worker lab/index.html made; lab/index.html gets what to start."""
    static = out / KERNEL_EXTENSION
    workers = list(static.glob("comlink.worker.*.js"))
    if len(workers) != 1: sys.exit(f"FEL: {len(workers)} comlink.worker.*.js i {static}, väntade en")
    js = workers[0].read_text(encoding="utf-8")
    for old, new in WARM_INIT_RUNTIME: js = replace_once(js, old, new, workers[0].name)
    workers[0].write_text(WARM_WORKER.read_text(encoding="utf-8") + js, encoding="utf-8")
    chunks = [f for f in static.glob("*.js") if WARM_INIT_WORKER[0] in f.read_text(encoding="utf-8")]
    if len(chunks) != 1: sys.exit(f"FEL: kärnans initWorker finns i {len(chunks)} filer i {static}, väntade en")
    chunks[0].write_text(replace_once(chunks[0].read_text(encoding="utf-8"), *WARM_INIT_WORKER, chunks[0].name),
                         encoding="utf-8")
    kernel = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    warm = {"worker": f"{KERNEL_EXTENSION}/{workers[0].name}", "pyodide": kernel["pyodideUrl"].removeprefix("./"),
            "options": kernel.get("loadPyodideOptions", {}), "imports": KERNEL_IMPORTS,
            "code": code_pages(out)}
    page = out / "lab" / "index.html"
    page.write_text(replace_once(page.read_text(encoding="utf-8"), "/*plump-warm*/null",
                                 json.dumps(warm, ensure_ascii=False), "lab/index.html"), encoding="utf-8")


# The order the service worker fetches the files in: what a pupil's lesson needs first (Python, the course, the
# pages and the extensions), JupyterLab's parts that only some pages load last.
CACHE_ORDER = ["static/pyodide/", "files/elev/", "api/", "extensions/", "build/lab/", "", "build/"]


def cached_files(out: Path) -> list[str]:
    "What the service worker keeps for offline use: every file of the site but itself and the licences."
    files = [f.relative_to(out).as_posix() for f in out.rglob("*")
             if f.is_file() and f.name not in NOT_CACHED
             and f.relative_to(out).as_posix() not in ("service-worker.js", SW_ORIGINAL)]
    group = lambda name: next(i for i, p in enumerate(CACHE_ORDER) if name.startswith(p) and (p or "/build/" not in "/" + name))
    return sorted(files, key=lambda name: (group(name), name))


def offline_cache(out: Path) -> str:
    """JupyterLite's service worker becomes service-worker-jupyterlite.js, and service-worker.js (the one
    JupyterLite registers) is the course's layer (tools/lite_service_worker.js) with the file list and a
    version made from every file's content, which then imports it. Returns the version."""
    sw = out / "service-worker.js"
    original = sw.read_text(encoding="utf-8")
    if "PLUMP_VERSION" in original: sys.exit(f"FEL: {sw} har redan kursens lager.")
    (out / SW_ORIGINAL).write_text(original, encoding="utf-8")
    files = cached_files(out)
    layer = SW_LAYER.read_text(encoding="utf-8")
    h = hashlib.sha256(layer.encode() + original.encode())
    for name in files: h.update(f"{name}:{sha256(out / name)}\n".encode())
    version = h.hexdigest()[:16]
    sw.write_text(f"// Skriven av tools/lite.py; se tools/lite_service_worker.js.\n"
                  f"const PLUMP_VERSION = {json.dumps(version)};\n"
                  f"const PLUMP_FILES = {json.dumps(files, indent=0, ensure_ascii=False)};\n\n"
                  f"{layer}\nimportScripts('./{SW_ORIGINAL}');\n", encoding="utf-8")
    return version


def service_worker_files(out: Path) -> tuple[str, list[str]]:
    "The version and the file list in a built site's service-worker.js."
    text = (out / "service-worker.js").read_text(encoding="utf-8")
    version = re.search(r'^const PLUMP_VERSION = "([0-9a-f]+)";', text, re.M)
    files = re.search(r"^const PLUMP_FILES = (\[.*?\]);", text, re.M | re.S)
    if not (version and files): return "", []
    return version.group(1), json.loads(files.group(1))


def server_modules() -> set[str]:
    """plump_teach's modules that import, at their top, a package only the classroom server has (SERVER_PACKAGES)
    or such a module of plump_teach: Pyodide cannot import them."""
    lib = ROOT / "plump_teach"
    imports = {}
    for f in lib.rglob("*.py"):
        mod = ".".join(("plump_teach", *f.relative_to(lib).with_suffix("").parts)).removesuffix(".__init__")
        pkg = mod if f.stem == "__init__" else mod.rpartition(".")[0]
        try: tree = ast.parse(f.read_text(encoding="utf-8"))
        except SyntaxError: continue
        names = set()
        for n in tree.body:
            if isinstance(n, ast.Import): names |= {a.name for a in n.names}
            elif isinstance(n, ast.ImportFrom):
                base = n.module or ""
                if n.level:
                    up = pkg.split(".")[:len(pkg.split(".")) - (n.level - 1)]
                    base = ".".join(up + ([n.module] if n.module else []))
                names.add(base)
                names |= {f"{base}.{a.name}" for a in n.names}
        imports[mod] = (f.relative_to(ROOT).as_posix(), names)
    bad = {m for m, (_, names) in imports.items() if any(n.split(".")[0] in SERVER_PACKAGES for n in names)}
    while True:
        more = {m for m, (_, names) in imports.items() if m not in bad and names & bad}
        if not more: break
        bad |= more
    return {imports[m][0] for m in bad}


def check_site(out: Path, bytecode: bool = True):
    "The site is self-contained: local Pyodide, no PyPI fallback, every notebook and wheel in place."
    cfg = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = cfg["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    problems = []
    if not str(kernel.get("pyodideUrl", "")).startswith("./"): problems.append(f"pyodideUrl {kernel.get('pyodideUrl')}")
    if kernel.get("disablePyPIFallback") is not True: problems.append("disablePyPIFallback")
    pupil = [e for e in cfg.get("federated_extensions", []) if e.get("name") == PUPIL_EXTENSION]
    if not pupil or not (out / "extensions" / PUPIL_EXTENSION / pupil[0]["load"]).exists():
        problems.append("elevläget (labextension/) saknas")
    for nb in notebook_sources():
        if nb.suffix == ".ipynb" and not (out / "files" / nb.relative_to(ROOT / "nbs")).exists():
            problems.append(f"files/{nb.name} saknas")
    lock = json.loads((out / "static" / "pyodide" / "pyodide-lock.json").read_text())["packages"]
    for name in PRELOAD:
        if name not in lock: problems.append(f"pyodide-lock.json saknar {name}")
    for entry in lock.values():
        whl = out / "static" / "pyodide" / entry["file_name"]
        if not whl.exists() or sha256(whl) != entry["sha256"]: problems.append(f"{whl.name} saknas eller har fel sha256")
    with zipfile.ZipFile(out / "static" / "pyodide" / lock["plump-teach"]["file_name"]) as z:
        names = set(z.namelist())
    # every module of the library is in the wheel (a subpackage left out of pyproject's package list is not)
    source = {f.relative_to(ROOT).as_posix() for f in (ROOT / "plump_teach").rglob("*.py")}
    if missing := sorted(source - names): problems.append(f"plump_teach-hjulet saknar {', '.join(missing)}")
    # precompile() gave every module of plump_teach its bytecode (for the Python of the pinned Pyodide)
    # (except the server's own modules: they import what the browser does not have, see SERVER_PACKAGES)
    if bytecode:
        tag = "cpython-" + PYODIDE_VERSION.split(".")[0]
        server = server_modules()   # once: it parses every module of the library
        no_pyc = [n for n in names if n.endswith(".py") and n not in server and
                  f"{n.rpartition('/')[0]}/__pycache__/{Path(n).stem}.{tag}.pyc" not in names]
        if no_pyc: problems.append(f"plump_teach-hjulet saknar bytekod för {', '.join(sorted(no_pyc))}")
    # only what a browser needs, and everything it needs kept for offline use
    if junk := leftover_build_files(out): problems.append(f"byggfiler kvar: {', '.join(junk)}")
    version, kept = service_worker_files(out)
    if not version: problems.append("service-worker.js saknar kursens lager (offline_cache)")
    elif missing := sorted(set(cached_files(out)) - set(kept)):
        problems.append(f"service-worker.js sparar inte {', '.join(missing[:5])}")
    elif gone := sorted(f for f in kept if not (out / f).is_file()):
        problems.append(f"service-worker.js vill spara filer som inte finns: {', '.join(gone[:5])}")
    if not (out / SW_ORIGINAL).exists(): problems.append(f"{SW_ORIGINAL} saknas")
    for page in GUARDED_PAGES:
        if 'id="plump-fel"' not in (out / page).read_text(encoding="utf-8"):
            problems.append(f"{page} saknar meddelandet för en sida som inte kan starta")
    if problems: sys.exit("FEL: webbplatsen är inte komplett: " + "; ".join(problems))


# ------------------------------------------------------------------ serve

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                      ".json": "application/json", ".ipynb": "application/json", ".whl": "application/zip",
                      ".zip": "application/zip"}

    def log_message(self, fmt, *args):
        if not getattr(self.server, "quiet", False): super().log_message(fmt, *args)


def serve(port: int, directory: Path = SITE, quiet: bool = False):
    if not (directory / "index.html").exists():
        sys.exit(f"Webbplatsen finns inte i {directory}. Bygg den först: python3 tools/lite.py build")
    handler = functools.partial(Handler, directory=str(directory))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as httpd:
        httpd.quiet = quiet
        say(f"Kursen finns på http://127.0.0.1:{httpd.server_address[1]}/ (avsluta med Ctrl+C)")
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass


def main(argv=None):
    p = argparse.ArgumentParser(prog="tools/lite.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="bygg webbplatsen i _lite/site/")
    b.add_argument("--force", action="store_true", help="bygg om även om inget har ändrats")
    b.add_argument("--no-drive", action="store_true",
                   help="snabbare start, men Python ser inte notebookmappen (filer sparas bara i minnet)")
    b.add_argument("--no-bytecode", action="store_true",
                   help="kompilera inte Python-koden i förväg (långsammare start; för jämförelser)")
    b.add_argument("--out", type=Path, default=SITE, help="mappen att bygga i (förval _lite/site)")
    s = sub.add_parser("serve", help="visa webbplatsen på 127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--dir", type=Path, default=SITE, help="mappen som visas (förval _lite/site)")
    s.add_argument("--quiet", action="store_true", help="logga inte varje begäran")
    a = p.parse_args(argv)
    if sys.version_info < (3, 11): sys.exit("tools/lite.py behöver Python 3.11 eller senare.")
    if a.cmd == "build": build(a.force, drive=not a.no_drive, bytecode=not a.no_bytecode, site=a.out)
    else: serve(a.port, a.dir, a.quiet)


if __name__ == "__main__":
    main()
