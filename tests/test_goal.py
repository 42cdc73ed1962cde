"""The lesson's goal, five right in a row (issue 29), and the trainer that brings back what went wrong.

Headless, through the widgets as a pupil clicks them: the streak counts and resets, the goal is reached at five and
still reached when the lesson is opened again (a new widget, and a new Python process, read the store), a corrupt or
half-written progress file loses no earlier progress and is kept aside, the trainer brings a wrong kind back later in
the session and in the next one, the classroom keeps the goal in the pupil's events and the teacher's page shows it,
and no widget shows a rule code. Every test has its own progress file (tests/conftest.py, fresh_progress).
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from plump_teach.course import results
from plump_teach.course.catalogue import PUPIL_LESSONS, lesson_of
from plump_teach.course.progress import (GOAL_STREAK, PROGRESS_ENV, PROGRESS_MAX_BYTES, ProgressFile, due_kinds,
                                         goal_reached, goal_state, new_progress, progress_from_events, record_task)
from plump_teach.course.results import RESULTS_ENV, Recorder, ResultStore, set_recorder
from plump_teach.course.teacher_page import class_csv, teacher_page
from plump_teach.engine.plump_rules import PlumpError
from plump_teach.puzzles.registry import PUZZLE_KINDS
from plump_teach.ui.puzzle_goal import GoalWidget, show_goal
from plump_teach.ui.puzzle_trainer import PuzzleTrainer

from test_pupil_surface import codes_in, widget_texts

ALI = 'a1b2c3d4e5f60718'
GOALS = [l for l in PUPIL_LESSONS if l.kinds]


@pytest.fixture(autouse=True)
def no_classroom(monkeypatch):
    for k in (RESULTS_ENV, 'HTTP_COOKIE', 'SCRIPT_NAME', 'VOILA_PREHEAT'): monkeypatch.delenv(k, raising=False)
    set_recorder(None)
    yield
    set_recorder(None)


def store_file() -> ProgressFile: return ProgressFile(os.environ[PROGRESS_ENV])


def press(w, key):
    next(b for b in w.buttons if b.option_key == key).click()


def right(w): return sorted(w.puzzle.answers)[0]
def wrong(w): return next(o.key for o in w.puzzle.options if o.key not in w.puzzle.answers)


def solve(g: GoalWidget, how: str = 'right') -> str:
    "Solve the goal's puzzle as a pupil does, then press Nästa uppgift; returns what the goal said."
    w = g.widget
    if how == 'hint': w.hint_button.click()
    if how == 'wrong': press(w, wrong(w))
    if how == 'shown': w.show_button.click()
    else: press(w, right(w))
    said = g.message.value
    w.new_button.click()
    return said


# --------------------------------------------------------------------------- the streak

def test_the_streak_counts_right_answers_and_a_mistake_or_the_answer_starts_it_again():
    g = show_goal('04_buden.ipynb', seed=11)
    assert '0 rätt i rad av 5' in g.count.value and not g.reached
    assert 'Rätt! Nu har du 1 rätt i rad.' in solve(g)
    assert 'Nu har du 2 rätt i rad' in solve(g) and '2 rätt i rad av 5' in g.count.value
    said = solve(g, 'hint')                                 # right after a hint: right, but not in the streak
    assert 'ledtråd' in said and 'fortfarande 2 i rad' in said and g.streak == 2
    w = g.widget
    press(w, wrong(w))                                      # the first wrong try resets what the pupil sees at once
    assert '0 rätt i rad av 5' in g.count.value and 'börjar om från 0' in g.message.value
    press(w, right(w))
    assert 'Rätt till slut!' in g.message.value and g.streak == 0
    w.new_button.click()
    solve(g)
    assert 'börjar om från 0' in solve(g, 'shown') and g.streak == 0
    assert goal_state(store_file().load(), '04_buden.ipynb') == {'streak': 0, 'best': 2, 'reached': ''}


def test_next_is_refused_until_the_puzzle_is_done_so_no_puzzle_is_skipped():
    g = show_goal('03_given_och_trumfen.ipynb', seed=2)
    first = (g.widget.puzzle.kind, g.widget.puzzle.number)
    g.widget.new_button.click()
    assert (g.widget.puzzle.kind, g.widget.puzzle.number) == first and 'Lös uppgiften först' in g.message.value
    assert not store_file().path.exists()                   # nothing to save yet


def test_puzzles_mix_the_lessons_kinds_vary_and_repeat_with_the_seed():
    for lesson in GOALS:
        a, b = GoalWidget(lesson.file, seed=5), GoalWidget(lesson.file, seed=5)
        tasks = [a._next_task() for _ in range(12)]
        assert tasks == [b._next_task() for _ in range(12)]
        assert {k for k, _ in tasks} == set(lesson.kinds)
        if len(lesson.kinds) > 1: assert all(x[0] != y[0] for x, y in zip(tasks, tasks[1:]))
        assert len({n for _, n in tasks}) >= 10
    assert [GoalWidget('04_buden.ipynb', seed=5)._next_task() for _ in range(6)] != \
           [GoalWidget('04_buden.ipynb', seed=6)._next_task() for _ in range(6)]
    g = GoalWidget('08_bjuda_klokt.ipynb', seed=1)          # level 2 lesson: level 2 puzzles
    assert g.widget.puzzle.level == lesson_of('08_bjuda_klokt.ipynb').level == 2


# --------------------------------------------------------------------------- reached, and kept

def test_the_goal_is_reached_at_five_and_still_reached_after_a_restart():
    g = show_goal('02_korten_och_sticken.ipynb', seed=3)
    said = [solve(g) for _ in range(GOAL_STREAK - 1)]
    assert not g.reached and 'En till!' in said[-1]
    said = solve(g)
    assert 'Målet är nått: du kan lektion 2!' in said and g.reached
    assert 'Målet är nått: du kan lektion 2!' in g.banner.value and g.widget in g.children   # keep practising here
    again = show_goal('02_korten_och_sticken.ipynb')        # the lesson opened again
    assert again.reached and again.children == (again.banner, again.more_button)
    assert 'Målet är nått: du kan lektion 2!' in again.banner.value and 'Öva mer' in again.banner.value
    again.more_button.click()
    assert again.widget in again.children and '0 rätt i rad av 5' not in again.count.value
    solve(again, 'shown')                                   # a mistake while practising keeps the goal
    assert again.reached and again.streak == 0
    # a new Python process (a restarted kernel) reads the same file
    code = ("from plump_teach.ui.puzzle_goal import show_goal as s; g = s('02_korten_och_sticken.ipynb'); "
            "h = s('04_buden.ipynb'); print(g.reached, h.reached)")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=os.environ, timeout=120)
    assert out.stdout.split() == ['True', 'False'], out.stderr


def test_a_streak_not_finished_goes_on_where_it_was():
    g = show_goal('05_poangen_och_protokollet.ipynb', seed=8)
    for _ in range(3): solve(g)
    h = show_goal('05_poangen_och_protokollet.ipynb', seed=9)
    assert h.streak == 3 and '3 rätt i rad av 5' in h.count.value
    solve(h); solve(h)
    assert h.reached


def test_two_lessons_open_at_once_do_not_overwrite_each_other():
    a, b = show_goal('01_vad_ar_plump.ipynb', seed=1), show_goal('03_given_och_trumfen.ipynb', seed=1)
    for _ in range(GOAL_STREAK):
        solve(a); solve(b)
    p = store_file().load()
    assert goal_reached(p, '01_vad_ar_plump.ipynb') and goal_reached(p, '03_given_och_trumfen.ipynb')


# --------------------------------------------------------------------------- the file

def test_a_half_written_or_corrupt_file_loses_no_earlier_progress_and_is_kept_aside():
    f = store_file()
    g = show_goal('01_vad_ar_plump.ipynb', seed=4)
    for _ in range(GOAL_STREAK): solve(g)
    h = show_goal('04_buden.ipynb', seed=4)
    solve(h); solve(h)
    torn = f.path.read_bytes()[:57]                         # a write cut off half-way
    f.path.write_bytes(torn)
    (f.path.parent / (f.path.name + '.123-abcd.tmp')).write_bytes(b'{"version": 1, "go')   # a crashed write's temp file
    again = show_goal('01_vad_ar_plump.ipynb')
    assert again.reached                                    # from the previous version
    aside = list(f.path.parent.glob(f'{f.path.stem}.trasig-*{f.path.suffix}'))
    assert len(aside) == 1 and aside[0].read_bytes() == torn
    assert goal_state(f.load(), '04_buden.ipynb')['streak'] == 2    # the copy is the last save: nothing is gone
    h2 = show_goal('04_buden.ipynb', seed=5)
    solve(h2)
    data = json.loads(f.path.read_text(encoding='utf-8'))
    assert data['goals']['04_buden.ipynb']['streak'] == 3 and data['goals']['01_vad_ar_plump.ipynb']['reached']
    assert aside[0].read_bytes() == torn                    # never overwritten


def test_a_file_that_is_not_progress_is_never_overwritten_silently(tmp_path):
    f = ProgressFile(tmp_path / 'framsteg.json')
    f.path.write_text('["ett protokoll, inte framsteg"]', encoding='utf-8')
    assert f.load() == new_progress()
    assert not f.path.exists() and len(list(tmp_path.glob('framsteg.trasig-*.json'))) == 1
    f.path.write_text('{"version": 1, "goals": {"04_buden.ipynb": {"streak": "x"}}, "kinds": []}', encoding='utf-8')
    assert f.load()['goals'] == {'04_buden.ipynb': {'streak': 0, 'best': 0, 'reached': ''}}   # what is usable is read,
    assert not f.path.exists() and len(list(tmp_path.glob('framsteg.trasig-*.json'))) == 2    # and the file kept aside
    f.path.write_bytes(b'\xff\xfe not utf-8')
    f.save(record_task(new_progress(), 'score', 'shown'))
    assert len(list(tmp_path.glob('framsteg.trasig-*.json'))) == 3 and due_kinds(f.load()) == ['score']



@pytest.mark.parametrize('strange', ['{"version": true}', '{"version": 1, "goals": []}'])
def test_a_file_of_the_wrong_shape_loses_no_goal_and_is_kept_aside(strange):
    """Issue 37, item 15: a file that parses but is not exactly progress (True == 1 in Python; a list for goals) used to
    count as valid and empty, so the next answer overwrote the file and the copy without the goal reached. Now it is
    kept aside, the copy is read, the pupil is told, and the file and the copy both keep the goal."""
    f = store_file()
    g = show_goal('04_buden.ipynb', seed=2)
    for _ in range(GOAL_STREAK): solve(g)
    assert g.reached
    f.path.write_text(strange, encoding='utf-8')
    h = show_goal('05_poangen_och_protokollet.ipynb', seed=2)
    aside = list(f.path.parent.glob(f'{f.path.stem}.trasig-*{f.path.suffix}'))
    assert [a.read_text(encoding='utf-8') for a in aside] == [strange]
    assert f'Filen med dina framsteg var skadad eller ändrad. Den ligger kvar som {aside[0].name}.' in h.message.value
    solve(h)
    for path in (f.path, f.backup):
        data = json.loads(path.read_text(encoding='utf-8'))
        assert data['goals']['04_buden.ipynb']['reached'] and data['goals']['05_poangen_och_protokollet.ipynb']['streak'] == 1
    assert show_goal('04_buden.ipynb').reached
    f.path.write_text(strange, encoding='utf-8')                  # changed again while the lesson is open
    said = solve(h)
    assert 'Rätt! Nu har du 2 rätt i rad.' in said and 'Filen med dina framsteg var skadad eller ändrad.' in said
    assert len(list(f.path.parent.glob(f'{f.path.stem}.trasig-*{f.path.suffix}'))) == 2
    assert goal_reached(json.loads(f.path.read_text(encoding='utf-8')), '04_buden.ipynb')


def test_a_broken_file_does_not_cost_the_last_save_and_the_pupil_is_told():
    """Issue 37, item 15: the copy was one save behind, so a file broken right after the goal was reached came back
    with a streak of 4 and no goal. Now the copy is written after the file with the same content."""
    f = store_file()
    g = show_goal('04_buden.ipynb', seed=3)
    for _ in range(GOAL_STREAK): solve(g)
    assert f.backup.read_bytes() == f.path.read_bytes()
    f.path.write_bytes(f.path.read_bytes()[:30])
    again = show_goal('04_buden.ipynb')
    assert again.reached and again.streak == GOAL_STREAK
    assert 'Filen med dina framsteg var skadad eller ändrad.' in ''.join(widget_texts(again))
    f.path.write_text('{"version": 1.0, "goals": {}, "kinds": {}}', encoding='utf-8')
    t = PuzzleTrainer(kinds=['score'], rounds=5, seed=1)
    assert 'Filen med dina framsteg var skadad eller ändrad.' in t.status.value and t.status in t.children
    assert len(list(f.path.parent.glob(f'{f.path.stem}.trasig-*{f.path.suffix}'))) == 2
    f.path.write_bytes(b' ' * PROGRESS_MAX_BYTES + b'{}')                    # too large to be progress: not read at all
    assert goal_reached(store_file().load(), '04_buden.ipynb')
    assert len(list(f.path.parent.glob(f'{f.path.stem}.trasig-*{f.path.suffix}'))) == 3


REACHED = ('01_vad_ar_plump.ipynb', '04_buden.ipynb')


def valid_progress() -> dict:
    "Two goals reached (one of them practised after), one on its way, a kind due and one learnt: all with fixed times."
    p, t = new_progress(), iter(f'2026-01-12T09:{m:02d}:00+01:00' for m in range(60))
    for lesson in REACHED:
        for _ in range(GOAL_STREAK): p = record_task(p, 'trick_winner', 'first_try', lesson, next(t))
    p = record_task(p, 'bid_balance', 'shown', '04_buden.ipynb', next(t))
    for _ in range(3): p = record_task(p, 'score', 'first_try', '05_poangen_och_protokollet.ipynb', next(t))
    return p


def type_confused(d: dict):
    """Copies of `d` changed in the ways a hand or another program changes a file: every value swapped for one of
    another type (bool for int, a float, a text, null, a list, a dict, the value wrapped in a list) or out of range,
    every key removed, junk added in every dict, and a few wrong shapes of the whole."""
    others = [True, False, 1, 0, 2.0, '1', '', None, [], {}, -1, 10 ** 7]

    def nodes(node, path):
        yield path, node
        if isinstance(node, dict):
            for k, v in node.items(): yield from nodes(v, path + (k,))

    def changed(path, how):
        new = copy.deepcopy(d)
        parent = new
        for k in path[:-1]: parent = parent[k]
        how(parent, path[-1])
        return new

    for path, node in nodes(d, ()):
        if path:
            for v in others + [[node]]:
                if type(v) is type(node) and v not in (-1, 10 ** 7): continue        # the same type: not confused
                yield changed(path, lambda parent, k: parent.__setitem__(k, v))
            yield changed(path, lambda parent, k: parent.pop(k))
        if isinstance(node, dict):
            yield changed(path + ('junk',), lambda parent, k: parent.__setitem__(k, 1)) if path else {**d, 'junk': 1}
    yield [d]
    yield {**d, 'goals': list(d['goals'].items())}
    yield {**d, 'kinds': [[k, v] for k, v in d['kinds'].items()]}
    yield {'version': True}
    yield {'version': 1, 'goals': []}


def test_a_type_confused_file_never_loses_a_goal_reached_and_is_always_kept_aside(tmp_path):
    """Issue 37, item 15: a valid file changed in some 300 type-confused ways. After the next answer, no goal already
    reached is lost (in what the pupil sees, the file or the copy), the longest streak stays, and the changed file is
    kept aside as a .trasig copy. Under 20 s: each case is a few small files."""
    good = valid_progress()
    mutations = list(type_confused(good))
    assert len(mutations) > 250
    for i, m in enumerate(mutations):
        f = ProgressFile(tmp_path / f'{i}' / 'framsteg.json')
        f.save(good)
        f.path.write_text(json.dumps(m, ensure_ascii=False), encoding='utf-8')
        after = ProgressFile(f.path)
        p = after.update(lambda q: record_task(q, 'score', 'shown', '05_poangen_och_protokollet.ipynb'))
        for got in (p, json.loads(f.path.read_text(encoding='utf-8')), json.loads(f.backup.read_text(encoding='utf-8')),
                    ProgressFile(f.path).load()):
            for lesson in REACHED:
                assert goal_state(got, lesson)['reached'] == goal_state(good, lesson)['reached'], (m, lesson)
                assert goal_state(got, lesson)['best'] >= GOAL_STREAK, (m, lesson)
        kept = list(f.path.parent.glob('framsteg.trasig-*.json'))
        assert len(kept) == 1 and kept[0].read_text(encoding='utf-8') == json.dumps(m, ensure_ascii=False), m
        assert after.notice, m


def test_bad_input_changes_nothing(tmp_path):
    p = record_task(new_progress(), 'score', 'first_try', '05_poangen_och_protokollet.ipynb')
    before = json.dumps(p, sort_keys=True)
    for args in [('schack', 'first_try'), ('score', 'bra'), ('score', 'first_try', '07_spelbordet.ipynb'),
                 ('score', 'first_try', 'finns_inte.ipynb')]:
        with pytest.raises(PlumpError): record_task(p, *args)
    assert json.dumps(p, sort_keys=True) == before
    for bad in ('07_spelbordet.ipynb', 'finns_inte.ipynb', None, 4):
        with pytest.raises(PlumpError, match='inget mål'): show_goal(bad)
    with pytest.raises(PlumpError, match='Fröet'): show_goal('04_buden.ipynb', seed=-1)
    f = ProgressFile(tmp_path / 'f.json')
    with pytest.raises(PlumpError): f.update(lambda q: record_task(q, 'schack', 'shown'))
    assert not f.path.exists()


def test_an_unwritable_place_lets_the_pupil_go_on_and_says_so(tmp_path, monkeypatch):
    blocker = tmp_path / 'en_fil'
    blocker.write_text('x')
    monkeypatch.setenv(PROGRESS_ENV, str(blocker / 'framsteg.json'))   # its folder is a file: nothing can be written
    g = show_goal('01_vad_ar_plump.ipynb', seed=1)
    said = solve(g)
    assert g.streak == 1 and 'Det gick inte att spara' in said


# --------------------------------------------------------------------------- the trainer

def test_the_trainer_brings_a_wrong_kind_back_in_the_session_and_the_next():
    kinds = ['trick_winner', 'bid_balance', 'score', 'trump', 'schedule']
    t = PuzzleTrainer(kinds=kinds, rounds=8, seed=4).start()
    assert t.why == {}
    w = t.widget
    first = w.puzzle.kind
    press(w, wrong(w)); press(w, right(w)); w.new_button.click()       # right after a mistake: comes back
    assert t.plan[4][0] == first and t.why == {4: 'again'}
    w.hint_button.click(); press(w, right(w)); w.new_button.click()     # a hint is not wrong: nothing comes back
    assert t.why == {4: 'again'}
    for _ in range(2): press(w, right(w)); w.new_button.click()
    assert w.puzzle.kind == first and 'Den här sorten gick fel nyss' in t.status.value
    assert 'P' not in ''.join(codes_in(widget_texts(t)))
    assert due_kinds(store_file().load()) == [first]
    w.show_button.click(); w.new_button.click()                         # wrong again: it stays for next time
    while t.index < len(t.plan): press(t.widget, right(t.widget)); t.widget.new_button.click()
    assert 'kommer tillbaka nästa gång' in t.summary.value
    nxt = PuzzleTrainer(kinds=kinds, rounds=8, seed=77)
    assert any('Förra gången gick' in c.value and PUZZLE_KINDS[first].title in c.value
               for c in nxt.children if hasattr(c, 'value') and isinstance(c.value, str))
    nxt.start()
    assert nxt.widget.puzzle.kind == first and nxt.why[0] == 'last_time'
    assert 'Den här sorten gick fel förra gången. Nu igen!' in nxt.status.value
    press(nxt.widget, right(nxt.widget))
    assert due_kinds(store_file().load()) == []                           # right at once: learnt again
    later = PuzzleTrainer(kinds=kinds, rounds=8, seed=78).start()
    assert later.why == {}


def test_a_due_kind_outside_the_chosen_kinds_waits_and_many_due_kinds_leave_room():
    f = store_file()
    p = new_progress()
    for k in ['score', 'trump', 'schedule', 'trick_winner', 'bid_balance', 'right_card']: p = record_task(p, k, 'shown')
    f.save(p)
    t = PuzzleTrainer(kinds=['forbidden_bid'], rounds=5, seed=1).start()
    assert t.why == {} and {k for k, _ in t.plan} == {'forbidden_bid'}
    t = PuzzleTrainer(kinds=list(PUZZLE_KINDS)[:8], rounds=6, seed=1).start()
    assert sorted(t.why) == [0, 2, 4] and all(v == 'last_time' for v in t.why.values())


# --------------------------------------------------------------------------- the classroom

def classroom_recorder(tmp_path, page: str) -> Recorder:
    return Recorder(ResultStore(tmp_path / 'res'), ALI, 'Ali', page)


def test_in_the_classroom_the_goal_lives_in_the_pupils_events_and_the_teacher_sees_it(tmp_path, monkeypatch):
    monkeypatch.setenv(RESULTS_ENV, str(tmp_path / 'res'))
    g = show_goal('04_buden.ipynb', seed=3)              # a preheated kernel: the pupil is not known yet
    assert g.streak == 0 and not g.reached
    rec = classroom_recorder(tmp_path, '04_buden.ipynb')
    set_recorder(rec)
    for _ in range(GOAL_STREAK): solve(g)
    assert g.reached
    tasks = [e for e in rec.events() if e['type'] == 'task']
    assert [e['streak'] for e in tasks] == [1, 2, 3, 4, 5] and all(e['page'] == '04_buden.ipynb' for e in tasks)
    assert not store_file().path.exists()                # no file in the classroom: the pupils share the folder
    again = show_goal('04_buden.ipynb')                  # reopened in a new kernel, with the recorder
    assert again.reached
    set_recorder(None)
    fresh = show_goal('04_buden.ipynb')                  # a new preheated kernel ...
    assert not fresh.reached
    set_recorder(classroom_recorder(tmp_path, '04_buden.ipynb'))   # ... learns who the pupil is
    assert fresh.reached and fresh.children == (fresh.banner, fresh.more_button)
    page = teacher_page(ResultStore(tmp_path / 'res'), 'k')
    section = page.split('<h2>Målen i lektionerna</h2>')[1].split('<h2>')[0]
    assert 'Ali' in section and '✔ nått' in section and '<td class="n">1</td>' in section
    rows = class_csv(ResultStore(tmp_path / 'res')).splitlines()
    assert rows[0].endswith(';i rad') and [r.rsplit(';', 1)[1] for r in rows[1:]] == ['1', '2', '3', '4', '5']


def test_in_the_classroom_the_trainer_brings_back_from_the_events_and_resumes_the_same_plan(tmp_path, monkeypatch):
    monkeypatch.setenv(RESULTS_ENV, str(tmp_path / 'res'))
    rec = classroom_recorder(tmp_path, '04_buden.ipynb')
    set_recorder(rec)
    g = show_goal('04_buden.ipynb', seed=3)
    solve(g, 'shown')
    shown_kind = rec.events()[-1]['kind']
    set_recorder(None)
    trainer = PuzzleTrainer(kinds=list(PUZZLE_KINDS)[:6], rounds=8, seed=21)
    set_recorder(classroom_recorder(tmp_path, 'traning.ipynb'))
    assert trainer.due == [shown_kind]
    trainer.start()
    assert trainer.widget.puzzle.kind == shown_kind and trainer.why[0] == 'last_time'
    w = trainer.widget
    press(w, right(w)); w.new_button.click()
    w.show_button.click(); w.new_button.click()          # task 2 wrong: comes back at task 6
    plan, why = list(trainer.plan), dict(trainer.why)
    assert why == {0: 'last_time', 5: 'again'}
    session = next(e for e in reversed(results.current_recorder().events()) if e['type'] == 'session')
    assert session['again'] == [shown_kind]
    set_recorder(None)
    reloaded = PuzzleTrainer()                           # the page reloaded: the same session goes on
    set_recorder(classroom_recorder(tmp_path, 'traning.ipynb'))
    assert (reloaded.plan, reloaded.why, reloaded.index) == (plan, why, 2)
    assert 'Välkommen tillbaka' in reloaded.status.value


# --------------------------------------------------------------------------- what the pupil sees

@pytest.mark.parametrize('lesson', GOALS, ids=lambda l: l.file)
def test_no_goal_shows_a_rule_code(lesson):
    g = show_goal(lesson.file, seed=lesson.number)
    texts = widget_texts(g)
    for how in ['right', 'hint', 'wrong', 'shown', 'right', 'right', 'right', 'right', 'right']:
        g.widget.hint_button.click()
        texts += widget_texts(g)
        solve(g, how)
        texts += widget_texts(g)
    texts += widget_texts(show_goal(lesson.file))
    assert not codes_in(texts), codes_in(texts)
    assert not any('Traceback' in t or 'Error' in t for t in texts)
