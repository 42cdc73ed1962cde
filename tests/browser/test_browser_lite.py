"""Kursen i webbläsaren: JupyterLite-webbplatsen (tools/lite.py) i en riktig Chromium.

The JupyterLite site in a real browser. The test builds the site with `tools/lite.py build` (once per
session; a build from the same sources is reused), serves it with `tools/lite.py serve` on a free
loopback port, opens the puzzle notebook (first, with a cold browser cache, as a student would), runs it
in Pyodide, clicks a wrong and then a right answer of the first puzzle and checks the Swedish feedback;
then opens the site's front page, which must show the course start page, and runs it. No request may
leave the loopback server. The site's size and the time from page open to clickable widget go into the test
output (run with -s to see them) and into the JUnit properties.

The score-sheet keeper's own cell (last in 13_protokollforare.ipynb) saves next to the notebook: in the
site that is the browser's storage, and a deal entered there is offered for resuming after the page is
opened again.

Then every other library notebook of the course, one after another in one Pyodide kernel of one page
(`library_notebooks_in_pyodide`): each runs in Pyodide without an error and without a request off loopback (a
notebook that used something Pyodide or the site lacks would fail here, not in a classroom). Notebooks written for
the purpose, each with one fault, show that this run catches what a fresh kernel per notebook caught.

A school day (issue 12): the site loaded once is kept by its service worker, and with the server stopped and
the browser offline a reload still opens the lesson and a puzzle answers; what the pupil downloaded and what
the cache holds are printed (raw, gzip, brotli). Opened as a file, the pages say in Swedish that a web server
is needed. A return visit in pupil mode opens one page and starts at most one Python, however many lesson
tabs the teacher mode left open. Python that cannot be loaded gives a Swedish message, not an endless wait.
"""
from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from browser_helpers import (JS_RUN_STATE, RequestLog, KERNEL_TIMEOUT, LITE_BOOT_TIMEOUT, click, open_lite_puzzles, outputs, play_first_deal,
                             right_and_wrong, run_all_cells, screenshot, server_env, start_server, tail,
                             unavailable, wait_for_kernel_idle, wait_for_lite_notebook, wait_for_text)
from plump_teach.lesson import PUPIL_LESSONS
from plump_teach.puzzles import make_puzzle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1500)]

ROOT = Path(__file__).resolve().parents[2]
LITE = ROOT / "tools" / "lite.py"
BUILD_TIMEOUT = 1200       # s: the first build downloads the build tools, Pyodide and the wheels
SIZE_LIMIT_MB = 60         # issue 6: the site without source maps
CLICKABLE_TARGET_S = 15    # issue 6: page open to clickable puzzle on these machines (printed, not asserted:
                           # tests/benchmarks/bench_lite_start.py measures it)


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory):
    "Build (or reuse) the site once per session; return its folder."
    if not (shutil.which("npm") and shutil.which("node")) and not (ROOT / "_lite" / "site" / "index.html").exists():
        unavailable("npm och node (för att hämta Pyodide och kompilera i förväg)",
                    "npm and node (to fetch Pyodide and precompile)")
    log = tmp_path_factory.mktemp("lite") / "build.log"
    t0 = time.monotonic()
    with open(log, "w") as f:
        r = subprocess.run([sys.executable, str(LITE), "build"], cwd=ROOT, stdout=f, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=BUILD_TIMEOUT)
    took = time.monotonic() - t0
    if r.returncode:
        pytest.fail(f"tools/lite.py build misslyckades ({r.returncode}):\n{tail(log, 80)}", pytrace=False)
    print(f"\n[lite] tools/lite.py build: {took:.1f} s\n{tail(log, 3)}")
    return ROOT / "_lite" / "site"


@pytest.fixture
def lite_server(lite_site, tmp_path):
    "Serve the site with `tools/lite.py serve` on a free loopback port; stopped after the test."
    servers = []
    cmd = lambda port: [sys.executable, str(LITE), "serve", "--port", str(port), "--dir", str(lite_site)]
    try:
        yield start_server(cmd, "/jupyter-lite.json", ROOT, tmp_path / "lite-serve.log", server_env(tmp_path),
                           servers)
    finally:
        for s in servers: s.stop()


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
    wait_for_kernel_idle(page)
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
    "13_protokollforare.ipynb in the site, all cells run; returns its last output: the keeper for your own game."
    name = "13_protokollforare.ipynb"
    page.goto(f"{base_url}/lab/index.html?path={name}")
    wait_for_lite_notebook(page, name)
    wait_for_kernel_idle(page)
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


# ------------------------------------------------------------------ elevläget

PUPIL_TITLES = {"start.ipynb": "Plump och Bismarck: elevkursen", "traning.ipynb": "Träna på allt",
                "ordlista.ipynb": "Ordlista", **{l.file: l.name for l in PUPIL_LESSONS}}
SIZES = ((1280, 900), (768, 1024), (390, 844))

# Elevsidan är klar: den svenska raden längst ner är borta, den synliga notebooken har sidans rubrik, och
# en sida med kod har fått utdata.
JS_PUPIL_READY = """(title) => {
  const banner = document.querySelector('.plump-elev-banner');
  const panel = [...document.querySelectorAll('#jp-main-dock-panel .jp-NotebookPanel')].find(p => p.checkVisibility());
  if (!banner || banner.style.display !== 'none' || !panel) return false;
  const shown = sel => [...document.querySelectorAll(sel)].some(e => e.checkVisibility());
  if (shown('.lm-MenuBar') || shown('.jp-DirListing') || shown('#jp-main-statusbar')) return false;   // ramarna göms strax
  const h1 = panel.querySelector('.jp-MarkdownCell h1');
  if (!h1 || !h1.textContent.includes(title)) return false;
  const code = panel.querySelectorAll('.jp-CodeCell').length;
  return code === 0 || panel.querySelectorAll('.jp-OutputArea-output').length > 0;
}"""

# Inget i sidan är bredare än fönstret eller gömmer en sidoscroll; JupyterLabs ramar syns inte; ingen kod
# och inget felmeddelande syns.
JS_PUPIL_PAGE = """() => {
  const vw = document.documentElement.clientWidth;
  const panel = [...document.querySelectorAll('#jp-main-dock-panel .jp-NotebookPanel')].find(p => p.checkVisibility());
  const bad = [];
  panel.querySelectorAll('.jp-Cell *').forEach(el => {
    if (!el.checkVisibility()) return;
    const r = el.getBoundingClientRect();
    if (r.width === 0) return;
    const wide = r.right > vw + 1 || r.left < -1;
    const scrolls = el.scrollWidth > el.clientWidth + 1 && !['visible', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    if (wide || scrolls) bad.push({tag: el.tagName, cls: String(el.className?.baseVal ?? el.className).slice(0, 60),
                                   right: Math.round(r.right), scroll: el.scrollWidth, client: el.clientWidth});
  });
  const small = [...panel.querySelectorAll('.jp-OutputArea-output button')].filter(b => b.checkVisibility())
    .map(b => b.getBoundingClientRect()).filter(r => r.height > 0 && r.height < 43.5).length;
  const shown = sel => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility()).length;
  return {vw, docWide: document.documentElement.scrollWidth > vw + 1, bad: bad.slice(0, 8), count: bad.length, small,
          chrome: [['meny', shown('.lm-MenuBar')], ['filer', shown('.jp-DirListing')], ['verktygsrad', shown('.jp-NotebookPanel-toolbar')],
                   ['statusrad', shown('#jp-main-statusbar')], ['flikar', shown('#jp-main-dock-panel .lm-TabBar')]].filter(x => x[1]),
          code: shown('.jp-CodeCell .jp-InputArea-editor') + shown('.jp-InputPrompt'),
          text: panel.innerText};
}"""


def link(page, text: str):
    "A link in the visible page (pages without code stay open in the background and have the same links)."
    return page.locator("#jp-main-dock-panel .jp-NotebookPanel:visible .jp-MarkdownCell a", has_text=text).first


def wait_pupil_page(page, name: str):
    page.wait_for_function(JS_PUPIL_READY, arg=PUPIL_TITLES[name], timeout=LITE_BOOT_TIMEOUT, polling=250)


def check_pupil_page(page, name: str):
    "The page at the three sizes: nothing too wide, no chrome, no code, no error, tap targets; screenshots."
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(600)
        r = page.evaluate(JS_PUPIL_PAGE)
        screenshot(page, f"lite-elev-{name.removesuffix('.ipynb')}-{w}x{h}", full_page=False)
        assert not r["chrome"], f"{name} {w}x{h}: JupyterLabs ramar syns: {r['chrome']}"
        assert r["code"] == 0, f"{name} {w}x{h}: kod syns"
        assert not r["docWide"] and r["count"] == 0, f"{name} {w}x{h}: för breda: {r['bad']}"
        assert r["small"] == 0, f"{name} {w}x{h}: {r['small']} knappar lägre än 44 px"
        for word in ("Traceback", "Error", "Run All", "import ", "installera"):
            assert word not in r["text"], f"{name}: {word!r} syns"


def test_pupil_course_in_jupyterlite(page, lite_server, request_log):
    """The pupil's way through the site (issue 11): the front page is the pupil start page without
    JupyterLab's chrome or a file browser; each lesson opened by its link runs by itself (no Run All), shows
    no code and nothing wider than the page at 1280, 768 and 390 px; the next-lesson links lead through all
    eight lessons to the trainer; the glossary opens at the word."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(lite_server + "/")
    wait_pupil_page(page, "start.ipynb")
    check_pupil_page(page, "start.ipynb")
    page.set_viewport_size({"width": 1280, "height": 900})
    link(page, PUPIL_LESSONS[0].title).click()
    for lesson, nxt in zip(PUPIL_LESSONS, [*PUPIL_LESSONS[1:], None]):
        t0 = time.monotonic()
        wait_pupil_page(page, lesson.file)
        print(f"\n[lite] {lesson.name}: klar efter {time.monotonic() - t0:.1f} s")
        check_pupil_page(page, lesson.file)
        if lesson.number == 1:
            p = make_puzzle("trick_winner", 1)
            right, wrong = right_and_wrong(p)
            widget = outputs(page).filter(has_text="Vem tar sticket?").first
            widget.get_by_role("button", name=wrong, exact=True).click()
            wait_for_text(page, "Försök igen!", within=widget)
        page.set_viewport_size({"width": 1280, "height": 900})
        label = f"{nxt.name} ▶" if nxt else "Träna på allt ▶"
        link(page, label).click()
    wait_pupil_page(page, "traning.ipynb")
    check_pupil_page(page, "traning.ipynb")
    page.get_by_role("button", name="Starta").click()
    wait_for_text(page, "Uppgift 1 av 10")
    # ordlistan öppnas vid ordet
    link(page, "Ordlistan").click()
    wait_pupil_page(page, "ordlista.ipynb")
    check_pupil_page(page, "ordlista.ipynb")
    assert not request_log.external(), request_log.external()


def test_glossary_opens_at_the_word_in_jupyterlite(page, lite_server):
    page.set_viewport_size({"width": 768, "height": 1024})
    page.goto(lite_server + "/lab/index.html?path=elev/03_given_och_trumfen.ipynb&elev=1")
    wait_pupil_page(page, "03_given_och_trumfen.ipynb")
    link(page, "talong").click()
    wait_pupil_page(page, "ordlista.ipynb")
    heading = page.locator('#jp-main-dock-panel .jp-NotebookPanel [data-jupyter-id="talong"], '
                           '#jp-main-dock-panel .jp-NotebookPanel [id="talong"]').first
    page.wait_for_function("(el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.top < 200; }",
                           arg=heading.element_handle(), timeout=10_000)
    screenshot(page, "lite-elev-ordlista-talong", full_page=False)


# Klassrummets server (10_app, 25_klassrummet) körs på lärarens dator: tornado, Voilà och segno finns inte i
# webbläsarens Python, så de två sidorna går att läsa på webbplatsen men inte att köra där.
SERVER_NOTEBOOKS = ("10_app.ipynb", "25_klassrummet.ipynb")
OTHER_NOTEBOOKS = sorted(f.name for f in (ROOT / "nbs").glob("*.ipynb")
                         if f.name not in ("09_pussel.ipynb", "index.ipynb", *SERVER_NOTEBOOKS))


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
        wait_for_kernel_idle(page)
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
    sys.path.insert(0, str(ROOT))
    from tools import lite
    servers = []
    cmd = lambda port: [sys.executable, str(LITE), "serve", "--quiet", "--port", str(port), "--dir", str(lite_site)]
    base = start_server(cmd, "/jupyter-lite.json", ROOT, tmp_path / "lite-serve.log", server_env(tmp_path), servers)
    own = []   # what the pages themselves ask for (not the service worker keeping the course)
    page.context.on("request", lambda r: own.append(r.url) if getattr(r, "service_worker", None) is None else None)
    try:
        # första besöket: startsidan och en lektion, som en elev
        t0 = time.monotonic()
        page.goto(base + "/")
        wait_pupil_page(page, "start.ipynb")
        link(page, PUPIL_LESSONS[0].title).click()
        wait_pupil_page(page, LESSON_1.split("/")[-1])
        first = time.monotonic() - t0
        pupil = lite.site_paths(base, own)
        state = wait_for_cache(page, base, lite_site)
        kept = time.monotonic() - t0
    finally:
        for s in servers: s.stop()          # servern är borta ...
    page.context.set_offline(True)          # ... och nätet också (det stänger även loopback)

    t0 = time.monotonic()
    page.reload()
    wait_pupil_page(page, LESSON_1.split("/")[-1])
    offline = time.monotonic() - t0
    p = make_puzzle("trick_winner", 1)
    right, wrong = right_and_wrong(p)
    widget = outputs(page).filter(has_text="Vem tar sticket?").first
    widget.get_by_role("button", name=wrong, exact=True).click()
    wait_for_text(page, "Försök igen!", within=widget)
    widget.get_by_role("button", name=right, exact=True).click()
    wait_for_text(page, "Rätt!", within=widget)
    screenshot(page, "lite-utan-nat-lektion")
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
    print(f"\n[lite] första besöket (startsidan + lektion 1): {first:.1f} s; sidorna laddar {down['files']} filer, "
          f"{mb(down['raw'])} ({mb(down['gzip'])} gzip, {mb(down['brotli'])} brotli); hela kursen sparad efter "
          f"{kept:.1f} s: {cache['files']} filer, {mb(cache['raw'])} ({mb(cache['gzip'])} gzip), webbläsarens "
          f"lagring {mb(state['usage'])}; omladdad utan nät: lektionen klar på {offline:.1f} s")


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
    for lesson in PUPIL_LESSONS[:2]:
        page.goto(f"{lite_server}/lab/index.html?path=elev/{lesson.file}&elev=0")
        wait_for_lite_notebook(page, lesson.file)
        page.wait_for_timeout(2000)        # JupyterLab sparar arbetsytan en stund efter ändringen
    page.wait_for_function("() => document.querySelectorAll('#jp-main-dock-panel .lm-TabBar-tab').length >= 2",
                           timeout=KERNEL_TIMEOUT)
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
    page.reload()
    wait_pupil_page(page, PUPIL_LESSONS[0].file)
    page.wait_for_timeout(1000)
    assert (tabs(page), kernels(page)) == (1, 1)
    print(f"\n[lite] återkomst i elevläget efter {before} Python i lärarläget: startsidan på {took:.1f} s, "
          f"1 flik, 0 Python; lektionen och omladdningen: 1 flik, 1 Python")


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
