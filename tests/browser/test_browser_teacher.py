"""Lärarmaterialet i en riktig Chromium: varje sida skrivs ut som PDF på A4 och får det antal sidor som utlovas.

The teacher's pack in a real Chromium: each page is printed to PDF (A4) and must have the stated page count.
The lesson plan prints as an overview page plus one page per pupil lesson (plan_pages).
Screenshots at 1280x900 and 390x844 go to tests/browser/screenshots/lararmaterial-*.png.
"""
import re

import pytest

from browser_helpers import screenshot
from plump_teach.engine.plump_rules import PlumpRules, RULE_PRESETS
from plump_teach.course.teacher import blank_sheet_bismarck, blank_sheet_plump, rule_sheet_bismarck, rule_sheet_plump
from plump_teach.course.worksheets import answer_key, worksheet
from plump_teach.course.lesson_plan import lesson_plan, plan_pages, read_lessons
from plump_teach.course.pack import save_pack
from plump_teach.course.catalogue import PUPIL_LESSONS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

A4_PORTRAIT, A4_LANDSCAPE = (595, 842), (842, 595)   # punkter; Chromium avrundar till närmaste heltal
KINDS = ['bid_balance', 'score', 'trick_winner']       # 3 sorter x 2 nummer = 6 uppgifter


def pdf_pages(pdf: bytes) -> list[tuple[int, int]]:
    "Sidorna i en PDF från Chromium: (bredd, höjd) i punkter för varje /Type /Page (inte /Pages)."
    sizes = []
    for m in re.finditer(rb'/Type\s*/Page(?![s\w])', pdf):
        # MediaBox står i samma sidobjekt, före eller efter /Type
        start = pdf.rfind(b'obj', 0, m.start())
        end = pdf.find(b'endobj', m.end())
        box = re.search(rb'/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]', pdf[start:end])
        assert box, "sidan saknar MediaBox"
        x0, y0, x1, y1 = map(float, box.groups())
        sizes.append((round(x1 - x0), round(y1 - y0)))
    return sizes


def printed(page, html: str) -> list[tuple[int, int]]:
    page.set_content(html, wait_until="load")
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    page.emulate_media(media="screen")
    return pdf_pages(pdf)


def shots(page, name: str, html: str):
    "Skärmbilder i datorns och telefonens storlek; ingenting får vara bredare än sidan på telefonen."
    for w, h in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        page.set_content(html, wait_until="load")
        screenshot(page, f"lararmaterial-{name}-{w}x{h}")
    return page.evaluate("document.documentElement.scrollWidth")


PAGES = {
    'regelblad-plump': (lambda: rule_sheet_plump(), 1, A4_PORTRAIT),
    'regelblad-plump-regeltexten': (lambda: rule_sheet_plump(PlumpRules.preset('regeltexten')), 1, A4_PORTRAIT),
    'regelblad-bismarck': (lambda: rule_sheet_bismarck(), 1, A4_PORTRAIT),
    'protokoll-plump-4': (lambda: blank_sheet_plump(['Anna', 'Bo', 'Cissi', 'Dan']), 1, A4_PORTRAIT),
    'protokoll-plump-6': (lambda: blank_sheet_plump(6), 1, A4_LANDSCAPE),
    'protokoll-bismarck': (lambda: blank_sheet_bismarck(['Anna', 'Björn', 'Cecilia']), 1, A4_PORTRAIT),
    'protokoll-bismarck-kort': (lambda: blank_sheet_bismarck(short=True), 1, A4_PORTRAIT),
}


@pytest.mark.parametrize("name", list(PAGES))
def test_page_prints_on_stated_a4_pages(page, name):
    make, count, size = PAGES[name]
    html = make()
    test_sizes = printed(page, html)
    assert test_sizes == [size] * count, f"{name}: {test_sizes}"
    width = shots(page, name, html)
    assert width <= 390, f"{name} är {width} px bred på en telefon (390 px)"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("preset", list(RULE_PRESETS))
def test_blank_plump_sheet_is_one_page_for_every_preset(page, players, preset):
    "Protokollet ryms på ett blad för 2-6 spelare och varje regeluppsättning; 5-6 spelare liggande."
    html = blank_sheet_plump(players, PlumpRules.preset(preset))
    size = A4_LANDSCAPE if players >= 5 else A4_PORTRAIT
    assert printed(page, html) == [size]


def test_worksheet_and_answer_key_of_six_tasks(page):
    "Sex uppgifter (tre sorter, nummer 1 och 17): arbetsbladet är två sidor, facit en."
    ws, key = worksheet(KINDS, [1, 17]), answer_key(KINDS, [1, 17])
    assert printed(page, ws) == [A4_PORTRAIT] * 2
    assert printed(page, key) == [A4_PORTRAIT] * 1
    assert shots(page, "arbetsblad", ws) <= 390
    assert shots(page, "facit", key) <= 390


def test_no_task_is_split_between_pages(page):
    "Ingen uppgift delas mellan två sidor: varje uppgifts överkant och underkant hamnar på samma blad."
    ws = worksheet(['right_card', 'sheet_error', 'bismarck_discard', 'score'], [3, 17])
    page.set_viewport_size({"width": 1280, "height": 900})
    page.set_content(ws, wait_until="load")
    page.emulate_media(media="print")
    n = len(pdf_pages(page.pdf(format="A4", prefer_css_page_size=True)))
    assert n >= 2
    # break-inside: avoid gäller varje uppgift
    avoid = page.evaluate("[...document.querySelectorAll('.task')].map(e => getComputedStyle(e).breakInside)")
    assert avoid and set(avoid) == {"avoid"}
    page.emulate_media(media="screen")
    screenshot(page, "lararmaterial-arbetsblad-blandat-1280x900")


def test_lesson_plan_prints_one_page_per_lesson(page):
    """Lektionsplanen: översikten på första sidan och sedan en sida för varje lektion, som sidan själv säger.
    Ingen fråga med sitt svar och inget pussel delas mellan två sidor."""
    plans = read_lessons()
    count = plan_pages(plans)
    html = lesson_plan()
    assert f"Planen är {count} sidor" in html
    assert printed(page, html) == [A4_PORTRAIT] * count
    page.set_viewport_size({"width": 1280, "height": 900})
    page.set_content(html, wait_until="load")
    page.emulate_media(media="print")
    style = page.evaluate("""() => ({
        lesson: [...document.querySelectorAll('.lesson')].map(e => getComputedStyle(e).breakBefore),
        items: [...document.querySelectorAll('.qa > li, .puzzles > li')].map(e => getComputedStyle(e).breakInside)})""")
    page.emulate_media(media="screen")
    assert style['lesson'] == ['page'] * len(plans)
    assert len(style['items']) == sum(len(p.questions) + len(p.tasks) for p in plans)
    assert set(style['items']) == {'avoid'}
    assert shots(page, "lektionsplan", html) <= 390


def test_saved_pack_opens_from_files_and_prints(page, tmp_path):
    "Hela lärarmaterialet från save_pack, öppnat som file://-adresser: varje fil får sitt antal A4-sidor."
    paths = save_pack(tmp_path / "lararmaterial")
    stated = {'index.html': 1, 'lektionsplan.html': plan_pages(read_lessons()), 'regelblad-plump.html': 1, 'regelblad-bismarck.html': 1,
              **{f'protokoll-plump-{n}.html': 1 for n in range(2, 7)}, 'protokoll-plump-kort.html': 1,
              'protokoll-bismarck.html': 1, 'protokoll-bismarck-kort.html': 1, 'arbetsblad.html': 2, 'facit.html': 1,
              'kom-igang.html': 1}                      # kom igång-guiden är en sida
    # högst så många sidor: körschemat (en översikt och en sida per lektion), Lgr22, och varje lektions
    # arbetsblad (högst tre sidor för en elev) och facit
    at_most = {'korschema.html': 1 + len(PUPIL_LESSONS), 'lgr22.html': 2,
               **{f'arbetsblad-{l.number:02d}.html': 3 for l in PUPIL_LESSONS},
               **{f'facit-{l.number:02d}.html': 2 for l in PUPIL_LESSONS}}
    assert sorted(p.name for p in paths) == sorted(stated | at_most)
    for p in paths:
        page.goto(p.as_uri(), wait_until="load")
        assert page.title(), p.name
        page.emulate_media(media="print")
        sizes = pdf_pages(page.pdf(format="A4", prefer_css_page_size=True))
        page.emulate_media(media="screen")
        if p.name in stated: assert len(sizes) == stated[p.name], f"{p.name}: {len(sizes)} sidor"
        else: assert 1 <= len(sizes) <= at_most[p.name], f"{p.name}: {len(sizes)} sidor"
        assert set(sizes) <= {A4_PORTRAIT, A4_LANDSCAPE}
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(paths[0].as_uri())
    page.get_by_role("link", name="Facit till arbetsbladet").click()
    page.wait_for_url("**/facit.html")
    screenshot(page, "lararmaterial-index-1280x900")
