"""Elevens väg in i JupyterLab (issue 29): `python3 run.py kurs` öppnar elevläget, inte hela JupyterLab.

The pupil's way in on a computer with the course installed: JupyterLab started with the arguments `run.py kurs`
gives it (tests import them from run.py, so the test follows the command) opens at the pupils' start page in
the pupil mode of labextension/ (`?elev=1`): no menus, toolbar, file browser or code, nothing wider than the page
at 1280, 768 and 390 px, and the first lesson runs by itself from its link. `kurs --larare` keeps full JupyterLab on
the course's index page for the teacher.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from browser_helpers import outputs, right_and_wrong, wait_for_text
from lite_helpers import check_pupil_page, link, wait_pupil_page
from plump_teach.course.catalogue import PUPIL_LESSONS
from plump_teach.puzzles.registry import make_puzzle

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import run  # noqa: E402  (kommandot run.py kurs, vars argument testet använder)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def test_kurs_gives_the_pupil_the_pupil_mode_and_the_teacher_full_jupyterlab():
    pupil, teacher = run.lab_args([]), run.lab_args(["--larare", "--port", "8890"])
    assert f"--LabApp.default_url={run.PUPIL_START}" in pupil and "index.ipynb" not in pupil
    assert teacher[0] == "index.ipynb" and not any(a.startswith("--LabApp.default_url") for a in teacher)
    assert teacher[-2:] == ["--port", "8890"] and "--larare" not in teacher
    for args in (pupil, teacher): assert set(run.QUIET_LAB) <= set(args)
    assert run.LAB_OVERRIDES["@jupyterlab/apputils-extension:notification"] == {"fetchNews": "false",
                                                                               "checkForUpdates": False}
    # issue 29: JupyterLab sparar inte elevens utdata i lektionsfilen av sig själv
    assert run.LAB_OVERRIDES["@jupyterlab/docmanager-extension:plugin"] == {"autosave": False}


def test_the_pupils_way_in_opens_the_pupil_mode_in_jupyterlab(page, jupyterlab):
    # the fixture already passes QUIET_LAB and --allow-root (twice is an error); the start page comes from run.py
    args = [a for a in run.lab_args([]) if a.startswith("--LabApp.default_url=")]
    base = jupyterlab(ROOT / "nbs" / "elev", extra_args=args)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base + "/")                      # där webbläsaren som `run.py kurs` öppnar hamnar
    wait_pupil_page(page, "start.ipynb")
    check_pupil_page(page, "start.ipynb")
    assert "elev/start.ipynb" in page.url
    page.set_viewport_size({"width": 1280, "height": 900})
    first = PUPIL_LESSONS[0]
    link(page, first.title).click()
    wait_pupil_page(page, first.file)
    check_pupil_page(page, first.file)
    p = make_puzzle("trick_winner", 1)
    right, wrong = right_and_wrong(p)
    widget = outputs(page).filter(has_text="Vem tar sticket?").first
    widget.get_by_role("button", name=wrong, exact=True).click()
    wait_for_text(page, "Försök igen!", within=widget)
    # overrides.json, som run.py skriver i .venv, gäller i JupyterLab: ingen autosparning i lektionen
    plugin = page.request.get(f"{base}/lab/api/settings/@jupyterlab/docmanager-extension:plugin").json()
    assert plugin["schema"]["properties"]["autosave"]["default"] is False, plugin["schema"]["properties"]["autosave"]
    # Opened by its address (a link from the teacher, or typed), a lesson's Python is started by the pupil mode
    # while JupyterLab draws, and the lesson uses it: one kernel for the lesson on the server
    second = PUPIL_LESSONS[1]
    page.goto(f"{base}/doc/tree/elev/{second.file}")
    wait_pupil_page(page, second.file)
    assert page.evaluate("() => (window.__plumpTider || {}).python") is not None
    outputs(page).first.wait_for(state="visible")
    sessions = [s for s in page.request.get(f"{base}/api/sessions").json() if s["path"].endswith(second.file)]
    assert len(sessions) == 1, sessions
