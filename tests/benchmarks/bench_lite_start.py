"""Benchmark: the JupyterLite site, from page open to the first clickable puzzle.

Run:  python tests/benchmarks/bench_lite_start.py [--rounds 3] [--variants bytecode,source,no-drive]

Builds the site in up to three variants with tools/lite.py (the default one in _lite/site, the others in
_lite/bench-*), serves each on a free loopback port with `tools/lite.py serve`, and opens
pussel.ipynb in headless Chromium with an empty browser cache, as a student who just got the link:
Run All, then the time until the first puzzle's buttons can be clicked. The variants take turns round by
round, so the machine's load falls on all of them alike; the median round counts.

  bytecode   what `tools/lite.py build` makes: the modules the kernel and the course import come with
             bytecode compiled by the site's own Pyodide
  source     --no-bytecode: the same site without it (every kernel start compiles them from source)
  no-drive   --no-drive: without JupyterLite's file-sync service worker (files Python writes are not kept)

Issue 6's target: at most 15 s on these machines. Needs the browser-test tools (`.[dev]`, Chromium).

  --school-day  (issue 12) the pupil's way instead: lesson 1 in pupil mode (?elev=1, it runs by itself), time
             from page open to its first puzzle's button, for a first visit (empty browser), a return visit
             (same browser, new tab) and a return visit with the server stopped and the browser offline
             (everything from the service worker's cache); the same in a browser without service workers (return
             visit from the browser's HTTP cache only; offline it cannot start). Also prints how
             long keeping the whole course took and what the first visit and the cache weigh (raw, gzip, brotli).

  --timeline  (issue 39) where the time goes: lesson 1 (to its first puzzle's button) and lesson 7 (to the
             table's "Börja spela") in pupil mode, first visit (empty browser) and return visit (same browser, new
             tab, the course kept by the service worker), one line per phase with the median of the rounds, in
             seconds from page open: the HTML, JupyterLab's shell, the lesson's page drawn, Pyodide's start
             (pyodide.asm.wasm asked for), the course's packages fetched (plump_teach's wheel), the first cell's
             output, the first widget, clickable; also when the Swedish line at the bottom first showed, what it
             said at 1 s, and how far the lesson was scrolled before it was clickable (a jump; read in animation
             frames, i.e. as painted). The load beside.
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
from plump_teach.puzzles.registry import make_puzzle  # noqa: E402
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


LESSON_1 = "/lab/index.html?path=elev/01_vad_ar_plump.ipynb&elev=1"
JS_KEPT = """async ([name, done]) => !!(await (await caches.open(name)).match(done))"""


def lesson_clickable(page, base: str, wrong: str, timeout_ms: float = 180_000) -> float:
    "Open lesson 1 in pupil mode; seconds until its first puzzle's button `wrong` is visible."
    from browser_helpers import outputs
    t0 = time.monotonic()
    page.goto(base + LESSON_1, timeout=timeout_ms)
    widget = outputs(page).filter(has_text="Vem tar sticket?").first
    widget.get_by_role("button", name=wrong, exact=True).wait_for(state="visible", timeout=timeout_ms)
    return time.monotonic() - t0


def school_day(rounds: int):
    site = build("bytecode")
    version, files = lite.service_worker_files(site)
    _, wrong = right_and_wrong(make_puzzle("trick_winner", 1))
    times = {k: [] for k in ("sw-first", "sw-return", "sw-offline", "sw-kept", "http-first", "http-return")}
    first_files = set()
    tmp = Path(tempfile.mkdtemp(prefix="bench-lite-dag-"))
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            for r in range(rounds):
                for sw in ("allow", "block"):
                    port = free_port()
                    base = f"http://127.0.0.1:{port}"
                    srv = Server([sys.executable, str(ROOT / "tools" / "lite.py"), "serve", "--quiet", "--port", str(port),
                                  "--dir", str(site)], ROOT, tmp / f"{r}-{sw}.log", server_env(tmp / f"{r}-{sw}"))
                    try:
                        srv.wait_until_answers(base + "/jupyter-lite.json")
                        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers=sw)
                        if sw == "block":   # som en webbläsare utan servicearbetare (JupyterLite arbetar då utan sin disk)
                            ctx.add_init_script("delete Navigator.prototype.serviceWorker;")
                        own = []
                        ctx.on("request", lambda q: own.append(q.url) if getattr(q, "service_worker", None) is None else None)
                        page = ctx.new_page()
                        key = "sw" if sw == "allow" else "http"
                        t0 = time.monotonic()
                        times[f"{key}-first"].append(lesson_clickable(page, base, wrong))
                        if sw == "allow":
                            first_files |= set(lite.site_paths(base, own))
                            while not page.evaluate(JS_KEPT, [f"plump-kurs-{version}", base + "/.plump-sparad"]):
                                assert time.monotonic() - t0 < 600, "kursen sparades inte på tio minuter"
                                page.wait_for_timeout(250)
                            times["sw-kept"].append(time.monotonic() - t0)
                        page.close()
                        page = ctx.new_page()
                        times[f"{key}-return"].append(lesson_clickable(page, base, wrong))
                        page.close()
                    finally:
                        srv.stop()
                    if sw == "allow":
                        ctx.set_offline(True)
                        page = ctx.new_page()
                        times["sw-offline"].append(lesson_clickable(page, base, wrong))
                    ctx.close()
                    print(f"   runda {r + 1}  {sw:5s} " + "  ".join(f"{k} {v[-1]:5.1f} s" for k, v in times.items()
                                                           if v and k.startswith("sw" if sw == "allow" else "http")), flush=True)
            browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    med = {k: statistics.median(v) for k, v in times.items() if v}
    print(f"\nElevläget, lektion 1: sidan öppnad -> första pusslets knapp syns, median av {rounds} rundor")
    print(f"  med servicearbetaren:   första besöket {med['sw-first']:5.1f} s   återbesök {med['sw-return']:5.1f} s   "
          f"återbesök utan nät {med['sw-offline']:5.1f} s   (hela kursen sparad {med['sw-kept']:.1f} s efter att sidan öppnades)")
    print(f"  utan servicearbetaren:  första besöket {med['http-first']:5.1f} s   återbesök {med['http-return']:5.1f} s   "
          f"(bara webbläsarens vanliga cache; utan nät startar sidan inte)")
    mb = lambda n: "–" if n is None else f"{n / 1e6:.1f} MB"
    for label, names in (("lektion 1 laddar", first_files), ("cachen (hela kursen)", files)):
        t = lite.transfer_sizes(site, names)
        print(f"  {label:22s} {t['files']:4d} filer  {mb(t['raw'])} okomprimerat, {mb(t['gzip'])} gzip, {mb(t['brotli'])} brotli")
    size, n = lite.site_size(site)
    print(f"  webbplatsen            {n:4d} filer  {size / 1e6:.1f} MB")


# In every page, from its first script: when each phase was first seen (ms since the page was asked for),
# what the pupil mode's Swedish line said, and how far down the lesson was scrolled.
JS_TIMELINE = """(() => {
  if (window.top !== window) return;
  const t = window.__plumpTimes = {}, seen = window.__plumpLines = [];
  let maxScroll = 0;
  const mark = (k, ok) => { if (ok && !(k in t)) t[k] = Math.round(performance.now()); };
  const tick = () => {
    const d = document;
    mark('lab', !!d.querySelector('#jp-main-dock-panel'));
    const panel = [...d.querySelectorAll('#jp-main-dock-panel .jp-NotebookPanel')].find(p => p.checkVisibility());
    mark('page', !!(panel && panel.querySelector('.jp-MarkdownCell h1')));
    if (panel) {
      mark('output', !!panel.querySelector('.jp-OutputArea-output'));
      mark('widget', !!panel.querySelector('.jp-OutputArea-output .jupyter-widgets'));
    }
    const b = d.querySelector('.plump-elev-banner'), early = d.querySelector('#plump-laddar');
    const line = b && b.style.display !== 'none' ? b.textContent
               : (early && early.checkVisibility() ? early.textContent : '');
    if (line && (!seen.length || seen[seen.length - 1][1] !== line)) seen.push([Math.round(performance.now()), line]);
    mark('line', !!line);
  };
  setInterval(tick, 40);
  // the scroll as painted: read in an animation frame, after the frame's scroll events have run (a scroll that the
  // page puts back in its scroll event never reaches the screen; read between two tasks it would count as a jump)
  const frame = () => {
    const panel = [...document.querySelectorAll('#jp-main-dock-panel .jp-NotebookPanel')].find(p => p.checkVisibility());
    const sc = panel && panel.querySelector('.jp-WindowedPanel-outer');
    if (sc) maxScroll = Math.max(maxScroll, sc.scrollTop);
    window.__plumpMaxScroll = maxScroll;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();"""

LESSON_7 = "/lab/index.html?path=elev/07_spelbordet.ipynb&elev=1"
PHASES = [("html", "sidans HTML"), ("line", "svenska raden syns"), ("lab", "JupyterLabs ram"), ("page", "lektionens text ritad"),
          ("pyodide", "Pyodide börjar (pyodide.asm.wasm)"), ("packages", "kursens paket hämtade (plump_teach)"),
          ("session", "lektionens Python-session begärd"),
          ("output", "första cellens utdata"), ("widget", "första widgeten ritad"), ("clickable", "klickbar")]


def timeline_visit(page, base: str, path: str, button) -> dict:
    "Open `path`; the phases' times in s since the page was asked for, until `button(page)` is visible."
    net = {}
    t0 = time.time()
    def on_request(q):
        if "pyodide.asm.wasm" in q.url: net.setdefault("pyodide", time.time() - t0)
    def on_done(q):
        if "/plump_teach-" in q.url and q.url.endswith(".whl"): net.setdefault("packages", time.time() - t0)
    page.on("request", on_request)
    page.on("requestfinished", on_done)
    page.goto(base + path, timeout=180_000)
    button(page).wait_for(state="visible", timeout=180_000)
    clickable = time.time() - t0
    js = page.evaluate("""() => { const n = performance.getEntriesByType('navigation')[0];
        const tider = window.__plumpTider || {};
        return {times: {...window.__plumpTimes,
                        ...(tider.python != null ? {session: tider.python} : {})},
                lines: window.__plumpLines, scroll: window.__plumpMaxScroll || 0,
                html: n ? n.responseEnd : null}; }""")
    page.remove_listener("request", on_request)
    page.remove_listener("requestfinished", on_done)
    out = {k: v / 1000 for k, v in js["times"].items()}
    out.update(net, clickable=clickable)
    if js["html"] is not None: out["html"] = js["html"] / 1000
    out["_lines"], out["_scroll"] = js["lines"], js["scroll"]
    return out


def timeline(rounds: int, sites: list[Path] | None = None):
    """The phases for each of `sites` (default: build _lite/site), the sites taking turns round by round so that the
    machine's load falls on all of them alike."""
    import os
    from browser_helpers import outputs
    sites = sites or [build("bytecode")]
    _, wrong = right_and_wrong(make_puzzle("trick_winner", 1))
    lessons = {
        "lektion 1": (LESSON_1, lambda p: outputs(p).filter(has_text="Vem tar sticket?").first
                      .get_by_role("button", name=wrong, exact=True)),
        "lektion 7": (LESSON_7, lambda p: outputs(p).get_by_role("button", name="Börja spela").first),
    }
    runs = {(s, l, v): [] for s in sites for l in lessons for v in ("första", "återbesök")}
    loads = []
    tmp = Path(tempfile.mkdtemp(prefix="bench-lite-tid-"))
    servers = {}
    try:
        for i, site in enumerate(sites):
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            srv = Server([sys.executable, str(ROOT / "tools" / "lite.py"), "serve", "--quiet", "--port", str(port),
                          "--dir", str(site)], ROOT, tmp / f"serve{i}.log", server_env(tmp / f"serve{i}"))
            servers[site] = (srv, base)
            srv.wait_until_answers(base + "/jupyter-lite.json")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            for r in range(rounds):
                for site in (sites if r % 2 == 0 else sites[::-1]):
                    base = servers[site][1]
                    for lesson, (path, button) in lessons.items():
                        ctx = browser.new_context(viewport={"width": 1280, "height": 900})   # empty cache
                        ctx.add_init_script(JS_TIMELINE)
                        for visit in ("första", "återbesök"):
                            if visit == "återbesök":   # the service worker keeps the course meanwhile
                                page = ctx.new_page()
                                page.goto(base + "/lab/index.html?path=elev/ordlista.ipynb&elev=1")
                                t1 = time.monotonic()
                                while not page.evaluate(JS_KEPT_ANY, base + "/.plump-sparad"):
                                    if time.monotonic() - t1 > 300: break
                                    page.wait_for_timeout(250)
                                page.close()
                            loads.append(os.getloadavg()[0])
                            page = ctx.new_page()
                            runs[(site, lesson, visit)].append(timeline_visit(page, base, path, button))
                            page.close()
                            print(f"   runda {r + 1}  {site.name} {lesson} {visit:9s} klickbar "
                                  f"{runs[(site, lesson, visit)][-1]['clickable']:5.1f} s  (last {loads[-1]:.1f})", flush=True)
                        ctx.close()
            browser.close()
    finally:
        for srv, _ in servers.values(): srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"\nTidslinjen, elevläget: sekunder från att sidan begärdes, median av {rounds} rundor "
          f"(last under mätningen {min(loads):.1f}-{max(loads):.1f}, {os.cpu_count()} kärnor)")
    med = lambda k, key: (lambda xs: f"{statistics.median(xs):13.1f}" if xs else f"{'–':>13s}")(
        [x[key] for x in runs[k] if key in x])
    for site in sites:
        keys = [k for k in runs if k[0] == site]
        print(f"\n  {site.name}")
        print(f"  {'':38s}" + "".join(f"{(l[-1] + ' ' + v[:5]):>13s}" for _, l, v in keys))
        for key, label in PHASES:
            print(f"  {label:38s}" + "".join(med(k, key) for k in keys))
        print(f"  {'rullad före klickbar (px)':38s}" + "".join(
            f"{statistics.median(x['_scroll'] for x in runs[k]):13.0f}" for k in keys))
        for k in keys:
            print(f"    {k[1]} {k[2]}, raden: " + " | ".join(f"{t / 1000:.1f} s {text[:40]}" for t, text in runs[k][-1]["_lines"]))


JS_KEPT_ANY = """async (done) => { for (const n of await caches.keys()) if (await (await caches.open(n)).match(done)) return true;
                                   return false; }"""


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--variants", default="bytecode,source", help="kommaseparerade, av: " + ", ".join(VARIANTS))
    p.add_argument("--school-day", action="store_true",
                   help="elevens väg: första besöket, återbesök och återbesök utan nät (issue 12)")
    p.add_argument("--timeline", action="store_true",
                   help="var tiden går: lektion 1 och 7, första besöket och återbesök, fas för fas (issue 39)")
    p.add_argument("--site", type=Path, action="append",
                   help="med --timeline: en redan byggd webbplats (kan ges flera gånger; annars byggs _lite/site)")
    a = p.parse_args()
    if a.timeline:
        if not CHROMIUM.exists(): sys.exit(f"{CHROMIUM} saknas (apt-get install -y chromium)")
        return timeline(a.rounds, a.site)
    if a.school_day:
        if not CHROMIUM.exists(): sys.exit(f"{CHROMIUM} saknas (apt-get install -y chromium)")
        return school_day(a.rounds)
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
