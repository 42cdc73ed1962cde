"""Issue 38: a lesson's puzzles and its goal continue after a reload (a fresh kernel), as the trainer does, for a pupil
the classroom knows (a Recorder and a ResultStore in a tmp folder, no browser)."""
from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import pytest

from plump_teach.classroom import pupil_kernel
from plump_teach.course.results import ResultStore, set_recorder, tasks_of
from plump_teach.classroom.pupil_kernel import attach_pupil

ALI = 'a1b2c3d4e5f60718'
LESSON1, LESSON4 = '01_vad_ar_plump.ipynb', '04_buden.ipynb'


@pytest.fixture(autouse=True)
def no_classroom(monkeypatch):
    for k in ('PLUMP_TEACH_RESULTAT', 'HTTP_COOKIE', 'SCRIPT_NAME', 'VOILA_PREHEAT'): monkeypatch.delenv(k, raising=False)
    set_recorder(None)
    monkeypatch.setattr(pupil_kernel, '_waited', False)
    yield
    set_recorder(None)


def classroom(monkeypatch, folder: Path, page: str):
    monkeypatch.setenv('PLUMP_TEACH_RESULTAT', str(folder))
    monkeypatch.setenv('HTTP_COOKIE', f'plump_klass=k3x9; plump_elev={ALI}; plump_namn={quote("Ali")}')
    monkeypatch.setenv('SCRIPT_NAME', f'/voila/render/{page}')


def right(w): return sorted(w.puzzle.answers)[0]
def wrong(w): return next(o.key for o in w.puzzle.options if o.key not in w.puzzle.answers)
def tasks(folder): return tasks_of(ResultStore(folder).events(ALI))
def reload(): set_recorder(None)                # a fresh kernel: nobody is known until attach_pupil


def test_a_lesson_puzzle_continues_where_the_pupil_was_after_a_reload(tmp_path, monkeypatch):
    from plump_teach.ui.puzzle_widget import PuzzleWidget
    classroom(monkeypatch, tmp_path, LESSON1)
    a, b = PuzzleWidget('trick_winner', 1), PuzzleWidget('trick_winner', 3)     # two puzzles of one kind on the page
    attach_pupil()
    a.answer(right(a)); a.new_button.click()
    a.answer(wrong(a)); a.answer(right(a)); a.new_button.click()
    a.answer(right(a))                                     # Uppgift 3 solved, then the page is reloaded
    assert [(e['number'], e['start']) for e in tasks(tmp_path)] == [(1, 1), (2, 1), (3, 1)]
    reload()
    a2, b2 = PuzzleWidget('trick_winner', 1), PuzzleWidget('trick_winner', 3)   # the page as it runs again
    assert a2.puzzle.number == 1                           # before the pupil is known: as the lesson wrote it
    attach_pupil()
    assert a2.puzzle.number == 4 and 'Välkommen tillbaka! Du fortsätter på uppgift 4.' in a2.header.value
    assert 'Uppgift 4 · nivå 1' in a2.header.value
    assert b2.puzzle.number == 3 and 'Välkommen' not in b2.header.value       # the other puzzle has not been touched
    assert len(tasks(tmp_path)) == 3                       # the reload itself records nothing (no skipped task)
    a2.new_button.click()                                  # left without a try: skipped, counted from where it went on
    assert a2.puzzle.number == 5 and 'Välkommen' not in a2.header.value
    assert [(e['number'], e['outcome'], e['start']) for e in tasks(tmp_path)][-1] == (4, 'skipped', 1)
    reload()
    a3 = PuzzleWidget('trick_winner', 1)
    attach_pupil()
    assert a3.puzzle.number == 5


def test_a_puzzle_starts_as_written_on_another_page_long_after_or_outside_the_classroom(tmp_path, monkeypatch):
    from plump_teach.ui.puzzle_widget import PuzzleWidget
    store = ResultStore(tmp_path)
    old = (datetime.now().astimezone() - timedelta(hours=4)).isoformat(timespec='seconds')
    store.record(ALI, {'type': 'task', 'page': LESSON1, 'kind': 'trick_winner', 'number': 6, 'level': 1, 'start': 1,
                       'outcome': 'first_try', 'time': old})
    store.record(ALI, {'type': 'task', 'page': LESSON4, 'kind': 'trick_winner', 'number': 8, 'level': 1, 'start': 1,
                       'outcome': 'first_try'})
    w = PuzzleWidget('trick_winner', 1)                    # outside the classroom nothing is read
    assert w.puzzle.number == 1
    classroom(monkeypatch, tmp_path, LESSON1)
    w = PuzzleWidget('trick_winner', 1)
    attach_pupil()
    assert w.puzzle.number == 1 and 'Välkommen' not in w.header.value     # four hours ago, and lesson 4 is another page
    store.record(ALI, {'type': 'task', 'page': LESSON1, 'kind': 'trick_winner', 'number': 6, 'level': 1, 'start': 1,
                       'outcome': 'shown'})
    set_recorder(None)
    w = PuzzleWidget('trick_winner', 1)
    attach_pupil()
    assert w.puzzle.number == 7                              # just now: it goes on


def test_a_puzzle_the_pupil_already_tried_or_in_the_trainer_is_left_alone(tmp_path, monkeypatch):
    from plump_teach.ui.puzzle_trainer import PuzzleTrainer
    from plump_teach.ui.puzzle_widget import PuzzleWidget
    ResultStore(tmp_path).record(ALI, {'type': 'task', 'page': 'traning.ipynb', 'kind': 'score', 'number': 2,
                                       'level': 1, 'start': 2, 'outcome': 'first_try'})
    classroom(monkeypatch, tmp_path, 'traning.ipynb')
    w, untouched = PuzzleWidget('score', 2), PuzzleWidget('score', 2)
    w.answer(wrong(w))                                      # tried before the pupil was known: stays
    t = PuzzleTrainer(kinds=['score'], rounds=3, seed=4)
    attach_pupil()
    assert w.puzzle.number == 2 and w.wrong_tries and untouched.puzzle.number == 3
    t.start()
    assert t.widget.puzzle.number == t.plan[0][1]


def test_the_lesson_goal_continues_with_the_same_task_after_a_reload(tmp_path, monkeypatch):
    from plump_teach.ui.puzzle_goal import GoalWidget
    classroom(monkeypatch, tmp_path, LESSON4)
    g = GoalWidget(LESSON4)
    attach_pupil()
    seen = []
    for _ in range(2):
        seen.append((g.widget.puzzle.kind, g.widget.puzzle.number))
        g.widget.answer(right(g.widget)); g.widget.new_button.click()
    third = (g.widget.puzzle.kind, g.widget.puzzle.number)  # shown, not answered, when the page is reloaded
    assert [(e['seed'], e['index'], e['streak']) for e in tasks(tmp_path)] == [(g.seed, 1, 1), (g.seed, 2, 2)]
    reload()
    again = GoalWidget(LESSON4)                             # a new random seed until the pupil is known
    attach_pupil()
    assert again.seed == g.seed and (again.widget.puzzle.kind, again.widget.puzzle.number) == third
    assert again.streak == 2 and 'Välkommen tillbaka! Du fortsätter på uppgift 3 med 2 rätt i rad.' in again.message.value
    assert len(tasks(tmp_path)) == 2                        # the reload records nothing
    again.widget.answer(right(again.widget))
    assert (tasks(tmp_path)[-1]['index'], tasks(tmp_path)[-1]['streak'], again.streak) == (3, 3, 3)
    again.widget.new_button.click()
    assert 'Välkommen' not in again.message.value
    reload()
    fresh = GoalWidget(LESSON4, seed=g.seed)                # the same seed from the start gives the same tasks
    order = [(fresh.widget.puzzle.kind, fresh.widget.puzzle.number)]
    for _ in range(3):
        fresh.widget.show_button.click(); fresh.advance()
        order.append((fresh.widget.puzzle.kind, fresh.widget.puzzle.number))
    assert order == seen + [third, (again.widget.puzzle.kind, again.widget.puzzle.number)]


def test_a_goal_on_another_page_or_long_ago_starts_afresh(tmp_path, monkeypatch):
    from plump_teach.ui.puzzle_goal import GoalWidget
    store = ResultStore(tmp_path)
    old = (datetime.now().astimezone() - timedelta(hours=4)).isoformat(timespec='seconds')
    store.record(ALI, {'type': 'task', 'page': LESSON4, 'kind': 'score', 'number': 3, 'level': 1, 'outcome': 'first_try',
                       'streak': 1, 'seed': 55, 'index': 1, 'time': old})
    store.record(ALI, {'type': 'task', 'page': '05_poangen_och_protokollet.ipynb', 'kind': 'score', 'number': 3,
                       'level': 1, 'outcome': 'first_try', 'streak': 1, 'seed': 56, 'index': 1})
    classroom(monkeypatch, tmp_path, LESSON4)
    g = GoalWidget(LESSON4, seed=9)
    attach_pupil()
    assert g.seed == 9 and g.drawn == 1 and 'Välkommen' not in g.message.value
    store.record(ALI, {'type': 'task', 'page': LESSON4, 'kind': 'score', 'number': 3, 'level': 1, 'outcome': 'shown',
                       'streak': 0, 'seed': 57, 'index': 4})
    set_recorder(None)
    g = GoalWidget(LESSON4, seed=9)
    attach_pupil()
    assert (g.seed, g.drawn) == (57, 5) and 'Du fortsätter på uppgift 5.' in g.message.value
