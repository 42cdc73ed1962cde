"""Elevläget på webbplatsen utan installation, i en riktig Chromium: kursen som en elev går igenom den.

The pupil mode of the JupyterLite site (issue 11), served by `tools/lite.py serve` on a free loopback port: the
front page is the pupil start page without JupyterLab's chrome; each lesson opened by its link runs by itself,
shows no code and nothing wider than the page at 1280, 768 and 390 px; the links lead through every lesson to the
trainer and the glossary, and a glossary link opens at its word. The site is built once per run (`lite_site` in
conftest.py). A module of its own so that it can run beside the site's other modules (tests/conftest.py).
"""
from __future__ import annotations

import time

import pytest

from browser_helpers import outputs, right_and_wrong, screenshot, wait_for_text
from lite_helpers import SIZES, check_pupil_page, link, wait_pupil_page
from plump_teach.course.catalogue import PUPIL_LESSONS
from plump_teach.puzzles.registry import make_puzzle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1500)]


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
        # every lesson at the phone's size (the narrowest, the smallest taps); lessons 1 and 7 (the table) at all three;
        # test_browser_pupil.py checks every lesson at all three sizes in JupyterLab, with the same pupil mode
        check_pupil_page(page, lesson.file, SIZES if lesson.number in (1, 7) else SIZES[-1:])
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
