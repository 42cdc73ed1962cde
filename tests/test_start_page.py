"""The start page marks the lessons whose goal is reached, and every page's tab has its name (issue 39).

Three ways through the course, one mark: "✓ Målet klart" after the link to a lesson whose goal is reached.

* JupyterLab's pupil mode and the zero-install site: labextension/ reads .plump-framsteg.json beside the start page
  (tests/browser/test_browser_goal.py checks it in Chromium, after a real goal); here: the extension and the library agree on the
  mark, its class and the file's name.
* The classroom: the server shows the start page as a static page; `mark_reached` puts the mark in for the pupil's
  progress, taken from the pupil's events in the results folder (`progress_from_events`).

The tab: the built course (Voilà, the classroom and the site) has each page's name in `metadata.title`, which Voilà's
page uses as its <title>; the extension sets the same name in JupyterLab and on the site.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from plump_teach.course.build import build_course, page_title
from plump_teach.course.catalogue import PUPIL_LESSONS
from plump_teach.course.progress import (GOAL_MARK, GOAL_MARK_CLASS, PROGRESS_FILE, mark_reached, new_progress,
                                         progress_from_events, record_task)
from plump_teach.course.results import Recorder, ResultStore

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = ROOT / "labextension" / "static" / "remoteEntry.js"
PUPIL = "a1b2c3d4e5f60718"


@pytest.fixture(scope="module")
def room(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("klassrum")
    build_course(d, classroom=True)
    return d


@pytest.fixture(scope="module")
def start_html(room) -> str:
    from plump_teach.classroom.server import static_page
    return static_page(room / "start.ipynb")


def reach(progress: dict, lesson, times: int = 5) -> dict:
    for _ in range(times): progress = record_task(progress, lesson.kinds[0], "first_try", lesson.file)
    return progress


def marked_after(html: str) -> list[str]:
    "The lesson files whose link on the page is followed by the mark."
    import re
    return re.findall(r'<a\b[^>]*href="([^"]+)"[^>]*>(?:(?!</a>).)*</a><span class="' + GOAL_MARK_CLASS + '"', html, re.S)


def test_the_classroom_start_page_marks_only_the_lessons_whose_goal_is_reached(start_html, tmp_path):
    lessons = {l.number: l for l in PUPIL_LESSONS}
    assert GOAL_MARK not in start_html                      # today's main: no mark at all
    assert mark_reached(start_html, new_progress()) == start_html
    # the pupil's events in the results folder, as the classroom's widgets record them
    store = ResultStore(tmp_path / "resultat")
    rec = Recorder(store, PUPIL, "Ali", lessons[4].file)
    for streak in range(1, 6):
        rec.record("task", kind=lessons[4].kinds[0], outcome="first_try", streak=streak)
    rec2 = Recorder(store, PUPIL, "Ali", lessons[5].file)
    for streak in range(1, 4):                              # three right in lesson 5: not yet
        rec2.record("task", kind=lessons[5].kinds[0], outcome="first_try", streak=streak)
    html = mark_reached(start_html, progress_from_events(store.events(PUPIL)))
    assert marked_after(html) == [lessons[4].file]
    assert html.count(GOAL_MARK) == 1
    # every lesson with a goal gets its mark, in the page's order; lessons 6 and 7 have no goal and no mark
    p = new_progress()
    for l in PUPIL_LESSONS:
        if l.kinds: p = reach(p, l)
    html = mark_reached(start_html, p)
    assert marked_after(html) == [l.file for l in PUPIL_LESSONS if l.kinds]
    assert mark_reached(html, p) == html                    # shown twice: still one mark per lesson


def test_the_mark_is_the_same_in_the_extension_and_the_library():
    js = EXTENSION.read_text(encoding="utf-8")
    for word in (GOAL_MARK, GOAL_MARK_CLASS, PROGRESS_FILE, "document.title"):
        assert word in js, word


def test_every_built_page_has_its_name_as_title_in_the_tab(room):
    for l in PUPIL_LESSONS:
        nb = json.loads((room / l.file).read_text(encoding="utf-8"))
        assert nb["metadata"]["title"] == l.name == page_title(nb)
    titles = {f.name: json.loads(f.read_text(encoding="utf-8"))["metadata"].get("title") for f in room.glob("*.ipynb")}
    assert all(titles.values()), titles
    assert "_" not in "".join(titles.values()) and ".ipynb" not in "".join(titles.values())


def test_voilas_page_and_the_classrooms_start_page_carry_the_name_in_their_title(room, start_html):
    from nbconvert import HTMLExporter
    import nbformat
    assert "<title>Plump och Bismarck: elevkursen</title>" in start_html
    nb = nbformat.read(str(room / "06_spela_med_riktiga_kort.ipynb"), as_version=4)
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)   # Voilà's lab template extends this one
    assert "<title>Lektion 6: Spela med riktiga kort</title>" in body
