"""Förkompilerar Python-koden som kärnan och kursen importerar (körs i Pyodide av tools/lite.py).

Runs inside Pyodide (under Node, through tools/pyodide_run.mjs) with the build's job folder at /job.
Without bytecode, Pyodide compiles every module it imports from source each time a kernel starts; for the
kernel's own start (IPython, ipykernel …) that was about four of its six seconds here. This job finds the
modules that matter and ships their bytecode:

1. it loads the site's packages from its pyodide-lock.json (job "packages") and imports what the kernel
   imports when it starts and what the course's notebooks import (job "imports"); every module in
   sys.modules then has a file, and those files are the ones to compile;
2. for each zip in job "files" ({"in", "out", "kind"}: the standard library zip, the wheels) it writes
   "out": the same zip plus a .pyc for each of those files that it holds, compiled by the very Python
   that runs in the browser. Other modules still compile when first imported, as before.

  kind "stdlib": the .pyc lies beside its .py (zipimport's layout): os.py -> os.pyc
  kind "wheel":  the .pyc goes into __pycache__ (importlib's layout), and the wheel's RECORD lists it

The sources stay, for tracebacks and `??`. The .pyc files are "unchecked-hash" ones: nothing compares
them with the source at import time (the site's files never change under a running kernel), and the same
source always gives the same bytes.
"""
import base64
import hashlib
import importlib
import importlib.util
import json
import os
import py_compile
import shutil
import sys
import warnings
import zipfile

import pyodide_js

JOB = "/job"
TMP = "/tmp/pyc"
V = sys.version_info
PREFIX = {"stdlib": f"/lib/python{V.major}{V.minor}.zip/",                     # where Pyodide has them
          "wheel": f"/lib/python{V.major}.{V.minor}/site-packages/"}
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def pyc_name(name: str, kind: str) -> str:
    return name + "c" if kind == "stdlib" else importlib.util.cache_from_source(name)


def compiled(source: bytes, path: str) -> bytes | None:
    "The .pyc bytes for one source file, or None when it does not compile (it could not be imported either)."
    shutil.rmtree(TMP, ignore_errors=True)
    os.makedirs(TMP)
    src, dst = f"{TMP}/m.py", f"{TMP}/m.pyc"
    with open(src, "wb") as f: f.write(source)
    try:
        py_compile.compile(src, cfile=dst, dfile=path, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    except py_compile.PyCompileError:
        return None
    with open(dst, "rb") as f: return f.read()


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compile_zip(src: str, out: str, kind: str, wanted: set[str]) -> int:
    with zipfile.ZipFile(src) as zin:
        infos = zin.infolist()
        names = {i.filename for i in infos}
        added = []
        for info in infos:
            path = PREFIX[kind] + info.filename
            target = pyc_name(info.filename, kind)
            if path not in wanted or target in names: continue
            data = compiled(zin.read(info), path)
            if data is not None: added.append((target, data))
        record = next((i for i in infos if kind == "wheel" and i.filename.endswith(".dist-info/RECORD")), None)
        with zipfile.ZipFile(out + ".tmp", "w", zipfile.ZIP_DEFLATED) as zout:
            for info in infos:
                if info is not record: zout.writestr(info, zin.read(info))
            for name, data in added:
                zi = zipfile.ZipInfo(name, FIXED_TIME)
                zi.compress_type, zi.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
                zout.writestr(zi, data)
            if record is not None:
                lines = zin.read(record).decode().rstrip("\n").split("\n")
                lines[-1:-1] = [record_line(n, d) for n, d in added]   # RECORD's own line stays last
                zout.writestr(record, ("\n".join(lines) + "\n").encode())
    os.replace(out + ".tmp", out)
    return len(added)


warnings.simplefilter("ignore")   # SyntaxWarnings in third-party sources are not the students' business
with open(f"{JOB}/job.json") as f: job = json.load(f)

await pyodide_js.loadPackage(job["packages"])
failed = []
for name in job["imports"]:
    try: importlib.import_module(name)
    except Exception as e: failed.append(f"{name} ({type(e).__name__}: {e})")
sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__   # pyodide_kernel takes them over for its kernel
wanted = {os.path.normpath(f) for m in list(sys.modules.values())
          if isinstance(f := getattr(m, "__file__", None), str) and f.endswith(".py")}
print(f"{len(wanted)} moduler importeras när kärnan startar och av kursens notebooks")
if failed: print("gick inte att importera här (kompileras inte i förväg): " + "; ".join(failed))

for item in job["files"]:
    n = compile_zip(f"{JOB}/{item['in']}", f"{JOB}/{item['out']}", item["kind"], wanted)
    print(f"{item['in']}: {n} .pyc")
