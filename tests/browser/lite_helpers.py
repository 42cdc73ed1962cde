"""Webbplatsen utan installation i webbläsartesterna: var den byggs och hur en elevsida känns igen och granskas.

Shared by the zero-install site's test modules (test_browser_lite*.py, test_browser_table_lite.py): the paths of
tools/lite.py and the site, and the pupil-mode pages: when a page is ready (JS_PUPIL_READY), what must hold at
1280, 768 and 390 px (JS_PUPIL_PAGE, check_pupil_page) and its links. The fixtures `lite_site` (the site, built
once per run) and `lite_server` (served on a free loopback port) are in conftest.py.
"""
from __future__ import annotations

from pathlib import Path

from browser_helpers import LITE_BOOT_TIMEOUT, screenshot, settle_layout
from plump_teach.course.catalogue import PUPIL_LESSONS

ROOT = Path(__file__).resolve().parents[2]
LITE = ROOT / "tools" / "lite.py"
BUILD_TIMEOUT = 1200       # s: the first build downloads the build tools, Pyodide and the wheels

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
  // länkar i texten och "Visa svaret" (<summary>): minst 44 px att trycka på på en telefon (issue 39)
  const smallLinks = [...panel.querySelectorAll('.jp-MarkdownCell a, .jp-Cell summary')].filter(e => e.checkVisibility())
    .map(e => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.height > 0 && r.height < 43.5)
    .map(([e, r]) => `${e.tagName.toLowerCase()} "${e.textContent.trim().slice(0, 30)}" ${Math.round(r.height)} px`);
  const shown = sel => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility()).length;
  return {vw, docWide: document.documentElement.scrollWidth > vw + 1, bad: bad.slice(0, 8), count: bad.length, small, smallLinks,
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


def check_pupil_page(page, name: str, sizes=SIZES):
    "The page at the three sizes (or `sizes`): nothing too wide, no chrome, no code, no error, tap targets; screenshots."
    for w, h in sizes:
        page.set_viewport_size({"width": w, "height": h})
        settle_layout(page)
        r = page.evaluate(JS_PUPIL_PAGE)
        screenshot(page, f"lite-elev-{name.removesuffix('.ipynb')}-{w}x{h}", full_page=False)
        assert not r["chrome"], f"{name} {w}x{h}: JupyterLabs ramar syns: {r['chrome']}"
        assert r["code"] == 0, f"{name} {w}x{h}: kod syns"
        assert not r["docWide"] and r["count"] == 0, f"{name} {w}x{h}: för breda: {r['bad']}"
        assert r["small"] == 0, f"{name} {w}x{h}: {r['small']} knappar lägre än 44 px"
        if w <= 600: assert not r["smallLinks"], f"{name} {w}x{h}: lägre än 44 px: {r['smallLinks'][:5]}"
        for word in ("Traceback", "Error", "Run All", "import ", "installera"):
            assert word not in r["text"], f"{name}: {word!r} syns"


# the goal marks on the start page: each mark with the link before it and where it ends
JS_MARKS = """(cls) => [...document.querySelectorAll('#jp-main-dock-panel .jp-NotebookPanel')]
  .filter(p => p.checkVisibility())
  .flatMap(p => [...p.querySelectorAll('.' + cls)])
  .map(s => { const a = s.previousElementSibling; const r = s.getBoundingClientRect();
              return {link: a ? a.textContent : '', text: s.textContent, right: r.right}; })"""


def check_start_page(page, reached: list[str], tag: str):
    """The start page open in the pupil mode (issue 39): "✓ Målet klart" after the links to the lessons titled
    `reached` and after no other, inside the page at 1280x900 and 390x844 (screenshots start-page-marks-<tag>-*);
    the tab reads the page's name; lesson 6 opened by its link gives the tab its name, not the file's."""
    from browser_helpers import LITE_BOOT_TIMEOUT, screenshot
    from plump_teach.course.catalogue import PUPIL_LESSONS
    from plump_teach.course.progress import GOAL_MARK, GOAL_MARK_CLASS
    wait_pupil_page(page, "start.ipynb")
    page.wait_for_function("(cls) => document.querySelector('.' + cls)", arg=GOAL_MARK_CLASS, timeout=20_000)
    for w, h in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(600)
        link(page, reached[0]).scroll_into_view_if_needed()
        marks = page.evaluate(JS_MARKS, GOAL_MARK_CLASS)
        assert [(m["link"], m["text"]) for m in marks] == [(t, GOAL_MARK) for t in reached], marks
        assert all(m["right"] <= w for m in marks), marks          # the mark fits in the page
        screenshot(page, f"start-page-marks-{tag}-{w}x{h}", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function("(t) => document.title === t", arg=PUPIL_TITLES["start.ipynb"], timeout=10_000)
    six = next(l for l in PUPIL_LESSONS if l.number == 6)
    link(page, six.title).click()
    page.wait_for_function("(t) => document.title === t", arg=six.name, timeout=LITE_BOOT_TIMEOUT)
    page.wait_for_timeout(1500)                    # JupyterLab writes its own title a while later too
    assert page.title() == "Lektion 6: Spela med riktiga kort", page.title()
