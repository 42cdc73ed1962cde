"""Kursen i webbläsaren: JupyterLite-webbplatsen (tools/lite.py) i en riktig Chromium.

The JupyterLite site in a real browser. The test builds the site with `tools/lite.py build` (once per
session; a build from the same sources is reused), serves it with `tools/lite.py serve` on a free
loopback port, opens the puzzle notebook (first, with a cold browser cache, as a student would), runs it
in Pyodide, clicks a wrong and then a right answer of the first puzzle and checks the Swedish feedback;
then opens the site's front page, which must show the course start page, and runs it. No request may
leave the loopback server. The site's size and the time from page open to clickable widget go into the test
output (run with -s to see them) and into the JUnit properties.

The score-sheet keeper's own cell (last in 58_keeper.ipynb) saves next to the notebook: in the
site that is the browser's storage, and a deal entered there is offered for resuming after the page is
opened again.

The library notebooks in one Pyodide kernel are in test_browser_lite_notebooks.py, the pupil mode in
test_browser_lite_pupil.py: modules of their own, so that the three can run side by side (tests/conftest.py).

A school day (issue 12): the site loaded once is kept by its service worker, and with the server stopped and
the browser offline a reload still opens the lesson and a puzzle answers; what the pupil downloaded and what
the cache holds are printed (raw, gzip, brotli). Opened as a file, the pages say in Swedish that a web server
is needed. A return visit in pupil mode opens one page and starts at most one Python, however many lesson
tabs the teacher mode left open. Python that cannot be loaded gives a Swedish message, not an endless wait.
"""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

from browser_helpers import (JS_RUN_STATE, LITE_BOOT_TIMEOUT, click, open_lite_puzzles, outputs,
                             play_first_deal, right_and_wrong, run_all_cells, screenshot, server_env, start_server,
                             wait_for_kernel_idle, wait_for_lite_notebook, wait_for_saved_tabs, wait_for_text)
from lite_helpers import LITE, ROOT, link, wait_pupil_page
from plump_teach.course.catalogue import PUPIL_LESSONS
from plump_teach.puzzles.registry import make_puzzle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1500)]

SIZE_LIMIT_MB = 60         # issue 6: the site without source maps
CLICKABLE_TARGET_S = 15    # issue 6: page open to clickable puzzle on these machines (printed, not asserted:
                           # tests/benchmarks/bench_lite_start.py measures it)


def test_built_site_keeps_what_the_pupil_pages_need(lite_site):
    """The real build (_lite/site, built once per run by the fixture lite_site): its service worker lists every
    file a pupil's page loads (the pages, the app, the extensions, Pyodide and every wheel, the pupil course),
    and jupyter lite build's own files are gone."""
    sys.path.insert(0, str(ROOT))
    from tools import lite
    site = lite_site
    version, files = lite.service_worker_files(site)
    assert version, "service-worker.js saknar kursens lager"
    kept = set(files)
    cfg = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    need = {"index.html", "lab/index.html", "jupyter-lite.json", "lab/jupyter-lite.json", "config-utils.js",
            "build/lab/bundle.js", "api/contents/all.json", "api/contents/elev/all.json"}
    need |= {f.relative_to(site).as_posix() for f in (site / "static" / "pyodide").iterdir()}
    need |= {f"extensions/{e['name']}/{e['load']}" for e in cfg["federated_extensions"]}
    need |= {f"files/elev/{f.name}" for f in (ROOT / "nbs" / "elev").glob("*.ipynb")}
    need |= {f.relative_to(site).as_posix() for f in (site / "build").glob("*.js")}
    assert need <= kept, sorted(need - kept)[:10]
    assert lite.leftover_build_files(site) == []
    assert not list(site.glob("rspack.config*.js")) and not (site / "package.json").exists()
    # Python started while the page draws (warm_python): the kernel's worker and initWorker are changed once each,
    # and lab/index.html knows which pages have code (lessons, not the start page or the glossary)
    static = site / lite.KERNEL_EXTENSION
    (worker,) = static.glob("comlink.worker.*.js")
    assert worker.read_text(encoding="utf-8").startswith(lite.WARM_WORKER.read_text(encoding="utf-8"))
    assert worker.read_text(encoding="utf-8").count("self.__plumpTake(e,this)") == 1
    assert sum(f.read_text(encoding="utf-8").count("self.__plumpKernelWorker(e)") for f in static.glob("*.js")) == 1
    page = (site / "lab" / "index.html").read_text(encoding="utf-8")
    warm = json.loads(re.search(r"var warm = (\{.*?\});", page).group(1))
    assert "elev/01_vad_ar_plump.ipynb" in warm["code"] and "elev/start.ipynb" not in warm["code"]
    assert (site / warm["worker"]).is_file() and (site / warm["pyodide"]).is_file()
    assert warm["imports"] == lite.KERNEL_IMPORTS
    assert warm["code"]["elev/01_vad_ar_plump.ipynb"][0] == "plump_teach.ui.lesson"   # its first cell's, first
    assert warm["code"]["elev/07_spelbordet.ipynb"][0] == "plump_teach.ui.table"


def site_mb(site: Path) -> tuple[float, int]:
    files = [f for f in site.rglob("*") if f.is_file()]
    return sum(f.stat().st_size for f in files) / 1e6, len(files)


def test_course_in_jupyterlite(page, lite_site, lite_server, request_log, record_property):
    mb, n = site_mb(lite_site)
    assert not list(lite_site.rglob("*.map")), "källkartor ska inte finnas i webbplatsen"

    # Pusselnotebooken först, som en elev som just fått länken (inget i webbläsarens cache): tiden
    # räknas från att sidan öppnas tills första pusslets knappar går att klicka.
    p = make_puzzle("dealer_bid", 1)
    right, wrong = right_and_wrong(p)
    t0 = time.monotonic()
    widget, wrong_button = open_lite_puzzles(page, lite_server, wrong)
    assert wrong_button.is_enabled()
    clickable = time.monotonic() - t0

    wrong_button.click()
    wait_for_text(page, "Inte riktigt.", within=widget)
    wait_for_text(page, "precis lika många som sticken", within=widget)
    screenshot(page, "lite-pussel-fel")
    widget.get_by_role("button", name=right, exact=True).click()
    wait_for_text(page, "Rätt!", within=widget)
    screenshot(page, "lite-pussel-ratt")
    # och resten av notebooken kördes utan fel
    state = page.wait_for_function(f"() => {{ const r = ({JS_RUN_STATE})(0); return r.done && r; }}",
                                   timeout=LITE_BOOT_TIMEOUT, polling=200).json_value()
    assert not state["errors"], state

    # Kursens tekniska startsida (för läraren och programmeraren, utan elevläget: ?elev=0) går att köra
    # (plump_teach och fastcore.test finns redan när kärnan har startat; ingen installationscell).
    page.goto(lite_server + "/lab/index.html?path=index.ipynb&elev=0")
    wait_for_lite_notebook(page, "index.ipynb")
    wait_for_text(page, "Elev: börja här", within="#jp-main-dock-panel .jp-NotebookPanel .jp-RenderedMarkdown")
    wait_for_kernel_idle(page, timeout=LITE_BOOT_TIMEOUT)
    state = run_all_cells(page, timeout=LITE_BOOT_TIMEOUT)
    assert not state["errors"], state
    screenshot(page, "lite-index")

    external = request_log.external()
    record_property("lite_site_mb", round(mb, 1))
    record_property("lite_site_files", n)
    record_property("lite_open_to_clickable_s", round(clickable, 1))
    print(f"\n[lite] webbplatsen: {mb:.1f} MB i {n} filer (utan källkartor); "
          f"sidan öppnad -> klickbart pussel: {clickable:.1f} s (mål {CLICKABLE_TARGET_S} s); "
          f"{len(request_log.urls)} begäranden, {len(external)} utanför loopback")
    assert not external, external
    assert mb <= SIZE_LIMIT_MB, f"webbplatsen är {mb:.1f} MB (högst {SIZE_LIMIT_MB})"


def open_protocol_notebook(page, base_url: str):
    "58_keeper.ipynb in the site, all cells run; returns its last output: the keeper for your own game."
    name = "58_keeper.ipynb"
    page.goto(f"{base_url}/lab/index.html?path={name}")
    wait_for_lite_notebook(page, name)
    wait_for_kernel_idle(page, timeout=LITE_BOOT_TIMEOUT)
    run_all_cells(page, timeout=LITE_BOOT_TIMEOUT)
    return outputs(page).last


def test_protocol_saved_in_the_browser_survives_reopening(page, lite_server):
    area = open_protocol_notebook(page, lite_server)
    play_first_deal(page, area)   # P6 from the engine, here in Pyodide
    sheet = area.locator(".plump-protokoll").inner_text()
    assert "13" in sheet   # Bo: 3 of 3 (P13)

    # Sidan öppnas igen (samma webbläsare, ny flik; kärnan startar om): protokollet finns kvar
    again = page.context.new_page()
    page.close()
    area = open_protocol_notebook(again, lite_server)
    wait_for_text(again, "Det finns ett sparat protokoll", within=area)
    click(area, "Fortsätt protokollet")
    wait_for_text(again, "Giv 2 av 19: 9 kort. Bo ger och Cissi är förhand. Cissi bjuder.", within=area)
    assert area.locator(".plump-protokoll").inner_text() == sheet
    screenshot(again, "lite-protokoll-efter-ny-flik")


# ------------------------------------------------------------------ en skoldag: utan nät, som fil, återkomst

JS_CACHE_STATE = """async ([name, done]) => {
  const c = await caches.open(name);
  return {entries: (await c.keys()).length, done: !!(await c.match(done)),
          usage: (await navigator.storage.estimate()).usage};
}"""
LESSON_1 = "elev/01_vad_ar_plump.ipynb"


def kernels(page) -> int:
    "The Pyodide kernels running for the page: each is a web worker of the kernel extension."
    return sum("pyodide-kernel-extension" in w.url for w in page.workers)


def tabs(page) -> int:
    return page.locator("#jp-main-dock-panel .lm-TabBar-tab").count()


def wait_for_cache(page, base: str, site: Path, timeout_s: float = 240) -> dict:
    "Wait until the service worker has kept the whole course (its mark .plump-sparad is in the cache)."
    sys.path.insert(0, str(ROOT))
    from tools import lite
    version, files = lite.service_worker_files(site)
    assert version and files, "service-worker.js saknar kursens lager"
    end = time.monotonic() + timeout_s
    while True:
        state = page.evaluate(JS_CACHE_STATE, [f"plump-kurs-{version}", base + "/.plump-sparad"])
        if state["done"]: return {**state, "files": files}
        assert time.monotonic() < end, f"kursen sparades inte i webbläsaren inom {timeout_s} s: {state}"
        page.wait_for_timeout(500)


def mb(n) -> str:
    return "–" if n is None else f"{n / 1e6:.1f} MB"


def test_course_works_offline_after_the_first_visit(page, lite_site, tmp_path, request_log, record_property):
    """A school day in one browser. The first visit, straight to lesson 1 in pupil mode (an empty browser): the
    pupil mode starts the lesson's Python as soon as the site's service worker is ready, before JupyterLab has
    drawn the lesson; the lesson uses that Python (one kernel), and Python sees the lesson's folder (the drive), so
    what a lesson saves is kept. The service worker then keeps the whole course; with the server stopped and the
    browser offline a reload opens the lesson with the Python started early (tools/lite_early.html), a puzzle
    answers, and the next lesson and the start page open too."""
    sys.path.insert(0, str(ROOT))
    from tools import lite
    servers = []
    cmd = lambda port: [sys.executable, str(LITE), "serve", "--quiet", "--port", str(port), "--dir", str(lite_site)]
    base = start_server(cmd, "/jupyter-lite.json", ROOT, tmp_path / "lite-serve.log", server_env(tmp_path), servers)
    own = []   # what the pages themselves ask for (not the service worker keeping the course)
    page.context.on("request", lambda r: own.append(r.url) if getattr(r, "service_worker", None) is None else None)
    page.context.add_init_script(JS_PANEL_SEEN)
    said = []
    page.on("console", lambda m: said.append(m.text))
    try:
        # första besöket: lektion 1 i elevläget, som en elev som fått länken
        t0 = time.monotonic()
        page.goto(f"{base}/lab/index.html?path={LESSON_1}&elev=1")
        wait_pupil_page(page, LESSON_1.split("/")[-1])
        first = time.monotonic() - t0
        started, panel = page.evaluate("() => [(window.__plumpTider || {}).python, window.__plumpPanel]")
        assert started is not None and panel is not None, (started, panel)
        assert started < panel, f"Python startade {started} ms, lektionen ritades {panel} ms"
        assert kernels(page) == 1
        assert any("will be synced with Jupyter Contents" in m for m in said), said
        assert page.evaluate("() => window.__plumpVarm") is None   # no service worker yet: nothing started early
        pupil = lite.site_paths(base, own)
        state = wait_for_cache(page, base, lite_site)
        kept = time.monotonic() - t0
    finally:
        for s in servers: s.stop()          # servern är borta ...
    page.context.set_offline(True)          # ... och nätet också (det stänger även loopback)

    t0 = time.monotonic()
    before_reload = len(said)
    page.reload()
    wait_pupil_page(page, LESSON_1.split("/")[-1])
    offline = time.monotonic() - t0
    assert page.evaluate("() => window.__plumpVarm") == "tagen"   # Python started at once, from the cache
    # The first visit the service worker controls: JupyterLite does not unregister it (lite_early.html wrote its
    # version first; before, Python often started while it was unregistered and did not see the lesson's folder)
    after = said[before_reload:]
    assert not any("New version, unregistering" in m for m in after), after
    assert any("will be synced with Jupyter Contents" in m for m in after), after
    p = make_puzzle("trick_winner", 1)
    right, wrong = right_and_wrong(p)
    widget = outputs(page).filter(has_text="Vem tar sticket?").first
    widget.get_by_role("button", name=wrong, exact=True).click()
    wait_for_text(page, "Försök igen!", within=widget)
    widget.get_by_role("button", name=right, exact=True).click()
    wait_for_text(page, "Rätt!", within=widget)
    screenshot(page, "lite-utan-nat-lektion")
    # the early Python (the kernel's modules imported before the lesson's folder was mounted) runs in the lesson's
    # folder on the browser's drive (mounted at /drive), where a lesson saves its progress
    (worker,) = [w for w in page.workers if "pyodide-kernel-extension" in w.url]
    where = worker.evaluate("() => self.__plumpPython.runPython('import os; os.getcwd()')")
    assert where == "/drive/elev", where
    assert kernels(page) == 1 and tabs(page) == 1
    # nästa lektion och startsidan, också utan nät
    link(page, f"{PUPIL_LESSONS[1].name} ▶").click()
    wait_pupil_page(page, PUPIL_LESSONS[1].file)
    again = page.context.new_page()
    again.goto(base + "/")
    wait_pupil_page(again, "start.ipynb")
    assert not request_log.external(), request_log.external()

    down = lite.transfer_sizes(lite_site, pupil)
    cache = lite.transfer_sizes(lite_site, state["files"])
    for key, value in [("pupil_download_raw_mb", down["raw"]), ("pupil_download_gzip_mb", down["gzip"]),
                       ("pupil_download_brotli_mb", down["brotli"]), ("offline_cache_mb", cache["raw"])]:
        record_property(f"lite_{key}", None if value is None else round(value / 1e6, 1))
    record_property("lite_first_visit_s", round(first, 1))
    record_property("lite_offline_reload_s", round(offline, 1))
    print(f"\n[lite] första besöket (lektion 1): {first:.1f} s; sidan laddar {down['files']} filer, "
          f"{mb(down['raw'])} ({mb(down['gzip'])} gzip, {mb(down['brotli'])} brotli); hela kursen sparad efter "
          f"{kept:.1f} s: {cache['files']} filer, {mb(cache['raw'])} ({mb(cache['gzip'])} gzip), webbläsarens "
          f"lagring {mb(state['usage'])}; omladdad utan nät: lektionen klar på {offline:.1f} s")


# when the lesson's panel first showed, in ms since the page was asked for
JS_PANEL_SEEN = """(() => { if (window.top !== window) return;
  new MutationObserver((_, obs) => {
    if (document.querySelector('#jp-main-dock-panel .jp-NotebookPanel .jp-MarkdownCell')) {
      window.__plumpPanel = Math.round(performance.now()); obs.disconnect(); }
  }).observe(document, { childList: true, subtree: true }); })();"""


def test_pages_opened_as_files_explain_what_to_do(page, lite_site):
    for name in ("index.html", "lab/index.html"):
        page.goto((lite_site / name).as_uri())
        message = page.locator("#plump-fel")
        message.wait_for(state="visible", timeout=10_000)
        text = message.inner_text()
        assert "Kursen måste visas av en webbserver" in text and "python3 tools/lite.py serve" in text, text
        screenshot(page, f"lite-som-fil-{name.replace('/', '-').removesuffix('.html')}")


def test_return_visit_opens_one_page_and_one_python(page, lite_server):
    """The teacher mode (?elev=0) leaves two lesson tabs in the saved workspace; the pupil who comes back gets
    the start page alone and no Python, then one Python for the lesson, and after a reload still one."""
    first, second = (f"elev/{lesson.file}" for lesson in PUPIL_LESSONS[:2])
    page.goto(f"{lite_server}/lab/index.html?path={first}&elev=0")
    wait_for_lite_notebook(page, PUPIL_LESSONS[0].file)
    wait_for_saved_tabs(page, [first])   # JupyterLab saves the workspace a while after the change
    page.goto(f"{lite_server}/lab/index.html?path={second}&elev=0")
    wait_for_lite_notebook(page, PUPIL_LESSONS[1].file)
    tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab")
    page.wait_for_function("() => document.querySelectorAll('#jp-main-dock-panel .lm-TabBar-tab').length >= 2",
                           timeout=LITE_BOOT_TIMEOUT)
    # JupyterLab saves the layout when it changes. The new tab could open while the saved workspace was still being
    # restored, and that save then kept only the old tab (1 run in 3, 2026-12-05): the teacher moves between the
    # tabs, as one does, and the layout is saved with both.
    tab.first.click()
    tab.last.click()
    wait_for_saved_tabs(page, [first, second])
    page.wait_for_function("() => document.querySelectorAll('#jp-main-dock-panel .lm-TabBar-tab').length >= 2",
                           timeout=LITE_BOOT_TIMEOUT)
    before = kernels(page)

    t0 = time.monotonic()
    page.goto(lite_server + "/")
    wait_pupil_page(page, "start.ipynb")
    took = time.monotonic() - t0
    page.wait_for_timeout(1000)
    assert (tabs(page), kernels(page)) == (1, 0)
    link(page, PUPIL_LESSONS[0].title).click()
    wait_pupil_page(page, PUPIL_LESSONS[0].file)
    assert kernels(page) == 1
    said = []
    page.on("worker", lambda w: w.on("console", lambda m: said.append(m.text)))
    page.reload()
    wait_pupil_page(page, PUPIL_LESSONS[0].file)
    page.wait_for_timeout(1000)
    assert (tabs(page), kernels(page)) == (1, 1)
    # The reload is a return visit: lab/index.html started Python's worker at once (tools/lite_early.html), and the
    # lesson's kernel took it over and used the Pyodide it had loaded (tools/lite_warm_worker.js)
    assert page.evaluate("() => window.__plumpVarm") == "tagen"
    assert "plump-teach: förladdat Python används" in said, said
    # ... with the kernel's own modules (IPython among them) imported while the page drew
    assert "plump-teach: kärnans och sidans moduler importerade i förväg" in said, said
    print(f"\n[lite] återkomst i elevläget efter {before} Python i lärarläget: startsidan på {took:.1f} s, "
          f"1 flik, 0 Python; lektionen och omladdningen: 1 flik, 1 Python, förladdad vid omladdningen")


def test_python_that_cannot_load_gives_a_swedish_message(browser, lite_server):
    """Pyodide cannot be fetched (the network is gone and nothing is kept): the line at the bottom says so in
    Swedish and what to do, instead of waiting forever."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    try:
        ctx.route("**/pyodide.asm.wasm", lambda route: route.abort())
        page = ctx.new_page()
        page.goto(f"{lite_server}/lab/index.html?path={LESSON_1}&elev=1")
        banner = page.locator(".plump-elev-banner")
        wait_for_text(page, "Python kan inte laddas", within=banner, timeout=60_000)
        assert "säg till din lärare" in banner.inner_text()
        screenshot(page, "lite-elev-python-saknas")
    finally:
        ctx.close()
