"""Benchmark: the JupyterLite site, from page open to the first clickable puzzle.

Run:  python tests/benchmarks/bench_lite_start.py [--rounds 3] [--variants bytecode,source,no-drive]

Builds the site in up to three variants with tools/lite.py (the default one in _lite/site, the others in
_lite/bench-*), serves each on a free loopback port with `tools/lite.py serve`, and opens
09_pussel.ipynb in headless Chromium with an empty browser cache, as a student who just got the link:
Run All, then the time until the first puzzle's buttons can be clicked. The variants take turns round by
round, so the machine's load falls on all of them alike; the median round counts.

  bytecode   what `tools/lite.py build` makes: the modules the kernel and the course import come with
             bytecode compiled by the site's own Pyodide
  source     --no-bytecode: the same site without it (every kernel start compiles them from source)
  no-drive   --no-drive: without JupyterLite's file-sync service worker (files Python writes are not kept)

Issue 6's target: at most 15 s on these machines. Needs the browser-test tools (`.[dev]`, Chromium).
"""
import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))                        # plump_teach and tools.lite
sys.path.insert(0, str(ROOT / "tests" / "browser"))  # the browser tests' helpers

from playwright.sync_api import sync_playwright  # noqa: E402

from browser_helpers import (CHROMIUM, CHROMIUM_ARGS, Server, free_port, open_lite_puzzles,  # noqa: E402
                             right_and_wrong, server_env)
from plump_teach.puzzles import make_puzzle  # noqa: E402
from tools import lite  # noqa: E402

VARIANTS = {
    "bytecode": dict(site=lite.SITE),
    "source": dict(site=lite.LITE / "bench-source", bytecode=False),
    "no-drive": dict(site=lite.LITE / "bench-no-drive", drive=False),
}
TARGET_S = 15


def build(name: str) -> Path:
    options = VARIANTS[name]
    print(f"-- bygger {name}", flush=True)
    return lite.build(**options)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--variants", default="bytecode,source", help="kommaseparerade, av: " + ", ".join(VARIANTS))
    a = p.parse_args()
    names = [v for v in a.variants.split(",") if v]
    unknown = set(names) - set(VARIANTS)
    if unknown: sys.exit(f"okända varianter: {', '.join(sorted(unknown))}")
    if not CHROMIUM.exists(): sys.exit(f"{CHROMIUM} saknas (apt-get install -y chromium)")

    sites = {n: build(n) for n in names}
    _, wrong = right_and_wrong(make_puzzle("dealer_bid", 1))
    times = {n: [] for n in names}
    tmp = Path(tempfile.mkdtemp(prefix="bench-lite-"))
    servers = {}
    try:
        for n, site in sites.items():
            port = free_port()
            srv = Server([sys.executable, str(ROOT / "tools" / "lite.py"), "serve", "--quiet", "--port", str(port),
                          "--dir", str(site)], ROOT, tmp / f"{n}.log", server_env(tmp / n))
            srv.wait_until_answers(f"http://127.0.0.1:{port}/jupyter-lite.json")
            servers[n] = (srv, f"http://127.0.0.1:{port}")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            for r in range(a.rounds):
                order = names if r % 2 == 0 else names[::-1]
                for n in order:
                    ctx = browser.new_context(viewport={"width": 1280, "height": 900})   # empty cache
                    page = ctx.new_page()
                    t0 = time.monotonic()
                    open_lite_puzzles(page, servers[n][1], wrong)
                    times[n].append(time.monotonic() - t0)
                    ctx.close()
                    print(f"   runda {r + 1}  {n:9s} {times[n][-1]:5.1f} s", flush=True)
            browser.close()
    finally:
        for srv, _ in servers.values(): srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"\nSidan öppnad -> första pusslet klickbart, {a.rounds} rundor (mål: högst {TARGET_S} s)")
    med = {n: statistics.median(t) for n, t in times.items()}
    for n in names:
        size, files = lite.site_size(sites[n])
        print(f"  {n:9s} median {med[n]:5.1f} s   (min {min(times[n]):.1f}, max {max(times[n]):.1f})   "
              f"webbplatsen {size / 1e6:.1f} MB, {files} filer")
    if "bytecode" in med and "source" in med:
        print(f"  source/bytecode: {med['source'] / med['bytecode']:.2f}x")


if __name__ == "__main__":
    main()
