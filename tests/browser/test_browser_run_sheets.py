"""Körschemat i en riktig Chromium: en översikt och sedan exakt en A4-sida per lektion, som sidan lovar (issue 38:
lektion 1 och 6 spillde ett stycke på en andra sida). Kom igång är en sida, och protokollet för det korta partiet också.

The run sheets printed to PDF in Chromium: the overview plus exactly one A4 page per lesson; the setup guide and the
short-game protocol are one page each. One Chromium print of each page, a few seconds in all.
"""
import re

import pytest

from plump_teach.course.catalogue import PUPIL_LESSONS
from plump_teach.course.pack import pack_pages
from plump_teach.course.run_sheet_pages import run_sheets_page, setup_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]

A4_PORTRAIT = (595, 842)


def pdf_sizes(page, html: str) -> list[tuple[int, int]]:
    "Sidstorlekarna (punkter) i PDF:en som Chromium skriver ut från `html` på A4."
    page.set_content(html, wait_until="load")
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    page.emulate_media(media="screen")
    sizes = []
    for m in re.finditer(rb'/Type\s*/Page(?![s\w])', pdf):
        start, end = pdf.rfind(b'obj', 0, m.start()), pdf.find(b'endobj', m.end())
        box = re.search(rb'/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]', pdf[start:end])
        x0, y0, x1, y1 = map(float, box.groups())
        sizes.append((round(x1 - x0), round(y1 - y0)))
    return sizes


def test_every_run_sheet_is_one_a4_page(page):
    "Körschemat: översikten på en sida och varje lektion på en egen sida, ingen lektion på två."
    html = run_sheets_page()
    assert "Varje lektion har en egen sida" in html
    assert pdf_sizes(page, html) == [A4_PORTRAIT] * (1 + len(PUPIL_LESSONS))
    page.set_content(html, wait_until="load")
    page.emulate_media(media="print")
    # varje lektion börjar på en ny sida och är lägre än sidan (A4 utan marginalerna: 273 mm)
    heights = page.evaluate("""() => [...document.querySelectorAll('.lesson')].map(e => [e.id,
        getComputedStyle(e).breakBefore, e.getBoundingClientRect().height])""")
    page.emulate_media(media="screen")
    mm273 = 273 / 25.4 * 96
    assert len(heights) == len(PUPIL_LESSONS)
    for name, brk, h in heights:
        assert brk == 'page' and h < mm273, (name, brk, round(h), round(mm273))


def test_setup_page_and_short_protocol_are_one_page(page):
    assert pdf_sizes(page, setup_page()) == [A4_PORTRAIT]
    assert pdf_sizes(page, pack_pages()['protokoll-plump-kort.html'][1]) == [A4_PORTRAIT]
