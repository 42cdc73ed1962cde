"""The start page's marks and the tab's name in a real Chromium (issue 39): JupyterLab's pupil mode
and the zero-install site (the classroom's static start page: tests/test_start_page.py).

The pupil has reached the goal in lesson 4 and has three right in a row in lesson 5 (the file .plump-framsteg.json
beside the lessons, as the lessons' Python writes it). The start page in the pupil mode shows "✓ Målet klart" after
lesson 4's link and nowhere else, at 1280x900 and 390x844 (screenshots start-page-*.png); the tab reads the page's
name, on the start page and in lesson 6 ("Lektion 6: Spela med riktiga kort", not "06_spela_med… - JupyterLab").

JupyterLab's file service refuses files whose names start with a dot unless `--ContentsManager.allow_hidden=True`:
`run.py kurs` must pass it (run.lab_args) for the extension to read the progress. About 30 s: JupyterLab starts,
the start page has no Python, lesson 6 starts one kernel.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from browser_helpers import screenshot
from lite_helpers import PUPIL_TITLES, link, wait_pupil_page
from plump_teach.course.catalogue import PUPIL_LESSONS
from plump_teach.course.progress import GOAL_MARK, GOAL_MARK_CLASS, PROGRESS_FILE, new_progress, record_task

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import run  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

HIDDEN = "--ContentsManager.allow_hidden=True"
LESSONS = {l.number: l for l in PUPIL_LESSONS}


def progress() -> dict:
    p = new_progress()
    for _ in range(5): p = record_task(p, LESSONS[4].kinds[0], "first_try", LESSONS[4].file)
    for _ in range(3): p = record_task(p, LESSONS[5].kinds[0], "first_try", LESSONS[5].file)
    return p


JS_MARKS = """(cls) => [...document.querySelectorAll('#jp-main-dock-panel .jp-NotebookPanel')]
  .filter(p => p.checkVisibility())
  .flatMap(p => [...p.querySelectorAll('.' + cls)])
  .map(s => { const a = s.previousElementSibling; const r = s.getBoundingClientRect();
              return {link: a ? a.textContent : '', text: s.textContent, right: r.right}; })"""


def test_lab_start_page_marks_reached_goals(page, jupyterlab, tmp_path):
    elev = tmp_path / "kurs" / "elev"
    shutil.copytree(ROOT / "nbs" / "elev", elev, ignore=shutil.ignore_patterns(".plump-framsteg*"))
    (elev / PROGRESS_FILE).write_text(json.dumps(progress()), encoding="utf-8")
    args = [a for a in run.lab_args([]) if a.startswith(("--LabApp.default_url=", "--ContentsManager."))]
    base = jupyterlab(elev, extra_args=args)
    page.goto(base + "/")                        # where `run.py kurs` opens the browser: the start page, pupil mode
    wait_pupil_page(page, "start.ipynb")
    page.wait_for_function("(cls) => document.querySelector('.' + cls)", arg=GOAL_MARK_CLASS, timeout=20_000)
    for w, h in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(600)
        link(page, LESSONS[4].title).scroll_into_view_if_needed()
        marks = page.evaluate(JS_MARKS, GOAL_MARK_CLASS)
        assert marks == [{"link": LESSONS[4].title, "text": GOAL_MARK, "right": marks[0]["right"]}], marks
        assert marks[0]["right"] <= w, marks                  # the mark fits in the page
        screenshot(page, f"start-page-marks-{w}x{h}", full_page=False)


def test_lab_tab_has_the_pages_name_not_the_files(page, jupyterlab, tmp_path):
    elev = tmp_path / "kurs" / "elev"
    shutil.copytree(ROOT / "nbs" / "elev", elev, ignore=shutil.ignore_patterns(".plump-framsteg*"))
    args = [a for a in run.lab_args([]) if a.startswith("--LabApp.default_url=")]
    base = jupyterlab(elev, extra_args=args)
    page.goto(base + "/")
    wait_pupil_page(page, "start.ipynb")
    page.wait_for_timeout(1500)                               # JupyterLab writes its own title a while later too
    assert page.title() == PUPIL_TITLES["start.ipynb"], page.title()
    link(page, LESSONS[6].title).click()
    wait_pupil_page(page, LESSONS[6].file)
    page.wait_for_function("(t) => document.title === t", arg=LESSONS[6].name, timeout=10_000)
    page.wait_for_timeout(1500)
    assert page.title() == "Lektion 6: Spela med riktiga kort", page.title()


@pytest.fixture
def lite_base(lite_site, tmp_path):
    from browser_helpers import server_env, start_server
    from lite_helpers import LITE
    servers = []
    cmd = lambda port: [sys.executable, str(LITE), "serve", "--quiet", "--port", str(port), "--dir", str(lite_site)]
    try:
        yield start_server(cmd, "/jupyter-lite.json", ROOT, tmp_path / "lite-serve.log", server_env(tmp_path), servers)
    finally:
        for s in servers: s.stop()


def test_lite_start_page_marks_reached_goals_and_the_tab_has_the_pages_name(page, lite_base):
    """On the site the lessons' Python keeps the progress in the browser's storage (the drive's elev/); here another
    page's kernel writes the file there, as a lesson's goal does, then the start page opens in the pupil mode."""
    import base64
    from browser_helpers import LITE_BOOT_TIMEOUT, wait_for_kernel_idle, wait_for_lite_notebook
    page.goto(f"{lite_base}/lab/index.html?path=index.ipynb&elev=0")
    wait_for_lite_notebook(page, "index.ipynb")
    wait_for_kernel_idle(page, timeout=LITE_BOOT_TIMEOUT)
    data = base64.b64encode(json.dumps(progress()).encode()).decode()
    page.locator("#jp-main-dock-panel .jp-NotebookPanel .jp-Notebook .jp-Cell").filter(visible=True).last.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")
    page.keyboard.insert_text(f"import base64; open('elev/{PROGRESS_FILE}', 'wb').write(base64.b64decode('{data}')); "
                              "print('SKRIV' + 'EN')")
    page.keyboard.press("Shift+Enter")
    page.locator(".jp-OutputArea-output", has_text="SKRIVEN").first.wait_for(timeout=LITE_BOOT_TIMEOUT)
    page.goto(f"{lite_base}/lab/index.html?path=elev/start.ipynb&elev=1")
    wait_pupil_page(page, "start.ipynb")
    page.wait_for_function("(cls) => document.querySelector('.' + cls)", arg=GOAL_MARK_CLASS, timeout=20_000)
    for w, h in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(600)
        link(page, LESSONS[4].title).scroll_into_view_if_needed()
        marks = page.evaluate(JS_MARKS, GOAL_MARK_CLASS)
        assert [(m["link"], m["text"]) for m in marks] == [(LESSONS[4].title, GOAL_MARK)], marks
        assert marks[0]["right"] <= w, marks
        screenshot(page, f"start-page-marks-lite-{w}x{h}", full_page=False)
    assert page.title() == PUPIL_TITLES["start.ipynb"], page.title()
    page.set_viewport_size({"width": 1280, "height": 900})
    link(page, LESSONS[6].title).click()
    page.wait_for_function("(t) => document.title === t", arg=LESSONS[6].name, timeout=LITE_BOOT_TIMEOUT)
    page.wait_for_timeout(1500)
    assert page.title() == "Lektion 6: Spela med riktiga kort", page.title()
