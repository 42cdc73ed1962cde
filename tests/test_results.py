"""The pupils' results (issue 12): the store, attach_pupil (plump_teach.classroom.pupil_kernel), the trainer that resumes, the teacher page and the CSV,
all through the public API of plump_teach.course.results and the widgets, headless (no browser, no server)."""
from __future__ import annotations

import csv
import html
import io
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from plump_teach.course import results
from plump_teach.classroom import pupil_kernel
from plump_teach.engine.plump_rules import PlumpError
from plump_teach.puzzles.registry import PUZZLE_KINDS
from plump_teach.course.results import (OUTCOMES, ResultStore, Recorder, by_kind, clean_event, count_outcomes,
                                        current_recorder, needs_practice, set_recorder, tasks_of, unfinished_session)
from plump_teach.classroom.pupil_kernel import attach_pupil
from plump_teach.course.teacher_page import CSV_COLUMNS, class_csv, teacher_page

ALI, BEA = 'a1b2c3d4e5f60718', '00000000000000be'
ENV = ('PLUMP_TEACH_RESULTAT', 'HTTP_COOKIE', 'SCRIPT_NAME', 'VOILA_PREHEAT')


@pytest.fixture(autouse=True)
def no_classroom(monkeypatch):
    "Every test starts and ends outside the classroom: no recorder, no classroom environment."
    for k in ENV: monkeypatch.delenv(k, raising=False)
    set_recorder(None)
    monkeypatch.setattr(pupil_kernel, '_waited', False)
    yield
    set_recorder(None)


def classroom(monkeypatch, folder: Path, pupil: str = ALI, name: str = 'Ali', page: str = 'traning.ipynb'):
    from urllib.parse import quote
    monkeypatch.setenv('PLUMP_TEACH_RESULTAT', str(folder))
    monkeypatch.setenv('HTTP_COOKIE', f'plump_klass=k3x9; plump_elev={pupil}; plump_namn={quote(name)}')
    monkeypatch.setenv('SCRIPT_NAME', f'/voila/render/{page}')


def task(**kw) -> dict:
    return {'type': 'task', 'page': 'traning.ipynb', 'kind': 'score', 'number': 1, 'level': 1, 'rule': 'P13',
            'outcome': 'first_try', 'seconds': 5.0, **kw}


def right(w): return sorted(w.puzzle.answers)[0]
def wrong(w): return next(o.key for o in w.puzzle.options if o.key not in w.puzzle.answers)


# --------------------------------------------------------------------------- the store

def test_store_round_trip_one_file_per_pupil(tmp_path):
    store = ResultStore(tmp_path / 'res')
    assert store.pupils() == [] and store.all_events() == {}
    a = [store.record(ALI, task(name='Ali', number=n)) for n in range(3)]
    b = [store.record(BEA.upper(), {'type': 'page', 'page': 'start.ipynb'})]
    assert store.events(ALI) == a and store.events(BEA) == b
    assert store.pupils() == sorted([ALI, BEA])
    assert sorted(p.name for p in (tmp_path / 'res').iterdir()) == sorted([f'elev-{ALI}.jsonl', f'elev-{BEA}.jsonl'])
    lines = (tmp_path / 'res' / f'elev-{ALI}.jsonl').read_text(encoding='utf-8').splitlines()
    assert [json.loads(l) for l in lines] == a and all(l.startswith('{"type":"task"') for l in lines)
    assert all(datetime.fromisoformat(e['time']).tzinfo is not None for e in a + b)


def test_the_store_keeps_nothing_else_about_the_pupil(tmp_path):
    store = ResultStore(tmp_path)
    ev = store.record(ALI, task(ip='10.0.0.7', user_agent='Firefox', cookie='plump_klass=x', email='a@b.se',
                                name='Ali\u0000\nBaba  ', kinds=['score', '../x', 3]))
    assert set(ev) <= {'type', 'time', 'name', 'page', 'kind', 'number', 'level', 'rule', 'outcome', 'seconds',
                       'index', 'seed', 'session', 'kinds', 'rounds'}
    assert ev['name'] == 'Ali Baba' and ev['kinds'] == ['score']
    text = (tmp_path / f'elev-{ALI}.jsonl').read_text(encoding='utf-8')
    assert '10.0.0.7' not in text and 'Firefox' not in text and 'plump_klass' not in text


def test_a_torn_last_line_is_skipped_and_the_next_event_is_kept(tmp_path):
    store = ResultStore(tmp_path)
    e1 = store.record(ALI, task())
    f = store.path(ALI)
    f.write_bytes(f.read_bytes() + b'{"type":"task","kind":"sco')
    assert store.events(ALI) == [e1]
    e2 = store.record(ALI, task(number=2))
    assert store.events(ALI) == [e1, e2]
    f.write_bytes(f.read_bytes() + b'\xff\xfe garbage\n[1,2]\n"x"\n{"type":"other"}\n' + b'[' * 100000 + b'\n')
    assert store.events(ALI) == [e1, e2]
    assert count_outcomes(store.events(ALI))['tasks'] == 2


@pytest.mark.parametrize('bad', ['', '0123', '0123456789abcdeg', '../../../etc/passw', '0123456789abcdef0',
                                 '0123456789abcdef\n', ' 0123456789abcdef', 'elev-0123456789ab', None, 17,
                                 b'0123456789abcdef', '０１２３４５６７８９ａｂｃｄｅｆ'])
def test_a_bad_pupil_id_is_refused(tmp_path, bad):
    store = ResultStore(tmp_path)
    with pytest.raises(PlumpError, match='16 tecken'): store.record(bad, task())
    with pytest.raises(PlumpError, match='16 tecken'): Recorder(store, bad)
    assert store.events(bad) == [] and list(tmp_path.iterdir()) == []


def test_a_bad_event_is_refused_in_swedish(tmp_path):
    store = ResultStore(tmp_path)
    with pytest.raises(PlumpError, match='sorten'): store.record(ALI, {'type': 'hemligt'})
    with pytest.raises(PlumpError, match='sorten'): store.record(ALI, {'name': 'utan sort'})


def test_two_processes_writing_for_the_same_pupil_never_mix_their_lines(tmp_path):
    code = ("import sys; from plump_teach.course.results import ResultStore\n"
            "s = ResultStore(sys.argv[1])\n"
            "for i in range(300): s.record('a1b2c3d4e5f60718', {'type': 'task', 'kind': 'score', 'number': i,"
            " 'seed': int(sys.argv[2]), 'outcome': 'shown', 'name': 'Ali ' + 'å' * 30, 'page': 'x' * 90})\n")
    procs = [subprocess.Popen([sys.executable, '-c', code, str(tmp_path), str(n)]) for n in range(4)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    store = ResultStore(tmp_path)
    evs = store.events(ALI)
    assert sorted((e['seed'], e['number']) for e in evs) == [(n, i) for n in range(4) for i in range(300)]
    assert len(store.path(ALI).read_bytes().splitlines()) == 1200


def test_a_recorder_never_stops_the_pupil(tmp_path):
    (tmp_path / 'fil').write_text('inte en mapp')
    rec = Recorder(ResultStore(tmp_path / 'fil'), ALI, 'Ali', 'traning.ipynb')
    assert rec.record('task', kind='score', outcome='shown') is None
    set_recorder(rec)
    from plump_teach.ui.puzzle_widget import PuzzleWidget
    w = PuzzleWidget('score', 1)
    w.show_button.click()                      # the disk refuses; the puzzle works as always
    assert w.finished and 'Svar:' in w.feedback.value


# --------------------------------------------------------------------------- summaries

def test_summaries_count_per_pupil_per_kind_and_rank_the_rules(tmp_path):
    store = ResultStore(tmp_path)
    for o in ['first_try', 'shown', 'skipped', 'with_hint']:
        store.record(ALI, task(kind='dealer_bid', rule='P6', outcome=o, seconds=10))
    for o in ['first_try', 'first_try', 'first_try', 'after_mistake']:
        store.record(BEA, task(kind='score', rule='P13', outcome=o, seconds=2.5))
    store.record(BEA, task(kind='trump', rule='P8', outcome='shown'))        # one task: too few to rank
    store.record(BEA, {'type': 'page', 'page': 'start.ipynb'})
    c = count_outcomes(store.events(ALI))
    assert c == {'tasks': 4, 'first_try': 1, 'with_hint': 1, 'after_mistake': 0, 'shown': 1, 'skipped': 1,
                 'seconds': 40.0}
    kinds = by_kind(store.all_events())
    assert list(kinds) == [k for k in PUZZLE_KINDS if k in {'dealer_bid', 'score', 'trump'}]
    assert (kinds['score']['tasks'], kinds['score']['first_try'], kinds['score']['seconds']) == (4, 3, 10.0)
    ranked = needs_practice(store.all_events())
    assert [(r['rule'], r['missed'], r['tasks']) for r in ranked] == [('P6', 3, 4), ('P13', 1, 4)]
    assert ranked[0]['lesson'] == 'Lektion 4: Buden' and ranked[0]['titles'] == [PUZZLE_KINDS['dealer_bid'].title]
    assert [r['rule'] for r in needs_practice(store.all_events(), min_tasks=1)] == ['P8', 'P6', 'P13']


# --------------------------------------------------------------------------- the teacher page and the CSV

def test_teacher_page_escapes_names_and_shows_the_class(tmp_path):
    store = ResultStore(tmp_path)
    evil = '<script>alert("x")</script>'
    store.record(ALI, task(name=evil, kind='dealer_bid', rule='P6', outcome='shown', page='04_buden.ipynb'))
    for o in ['shown', 'skipped']: store.record(BEA, task(kind='dealer_bid', rule='P6', outcome=o))
    page = teacher_page(store, now=datetime.now().astimezone() + timedelta(minutes=2))
    assert page.startswith('<!DOCTYPE html>') and '<html lang="sv">' in page
    assert evil not in page and '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;' in page
    assert '<script' not in page.replace('&lt;script', '')
    assert 'http://' not in page and 'https://' not in page and '//' not in page.replace('<!DOCTYPE', '')
    assert 'Elev utan namn' in page and BEA[:6] in page and ALI[:6] in page
    assert 'för 2 min sedan' in page and '2 elever, 2 arbetar just nu' in page
    assert 'Lektion 4: Buden' in page and 'Träningen' in page
    assert 'Det här behöver klassen öva på' in page and '<b>P6</b>' in page and '3 av 3 uppgifter' in page
    assert 'href="/larare/resultat.csv" download' in page and 'kod=' not in page and 'content="5"' in page   # ingen kod i länken
    assert '@media print' in page and 'name="viewport"' in page
    later = teacher_page(store, now=datetime.now().astimezone() + timedelta(hours=2))
    assert '0 arbetar just nu' in later and 'för 2 tim sedan' in later


def test_an_empty_class_tells_the_teacher_how_pupils_join(tmp_path):
    page = teacher_page(ResultStore(tmp_path / 'finns-inte'))
    assert 'Inga elever har börjat än' in page and '?kod=' in page
    page = teacher_page(ResultStore(tmp_path), join_url='http://192.168.1.5:8866/?kod=k3x9')
    assert 'http://192.168.1.5:8866/?kod=k3x9' in page


def test_class_csv_is_swedish_and_round_trips(tmp_path):
    store = ResultStore(tmp_path)
    store.record(ALI, task(name='Åsa; "Ö"', outcome='after_mistake', seconds=21.5, page='04_buden.ipynb',
                           kind='dealer_bid', rule='P6', number=175))
    time.sleep(1.1)
    store.record(BEA, task(name='=HYPERLINK("x")', outcome='skipped', seconds=3))
    store.record(BEA, {'type': 'page', 'page': 'start.ipynb'})
    text = class_csv(store)
    assert text.startswith('\ufeff') and '\r\n' in text
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=';'))
    assert rows[0] == CSV_COLUMNS == ['namn', 'elev', 'tid', 'sida', 'sort', 'regel', 'uppgift', 'nivå', 'utfall', 'sekunder',
                                      'i rad']
    assert len(rows) == 3 and all(len(r) == len(CSV_COLUMNS) for r in rows)
    first = dict(zip(rows[0], rows[1]))
    assert (first['namn'], first['elev'], first['sida'], first['sort'], first['regel'], first['uppgift'],
            first['utfall'], first['sekunder']) == ('Åsa; "Ö"', ALI, 'Lektion 4: Buden', 'Givarens bud', 'P6', '175',
                                                    'rätt efter ett fel', '21,5')
    datetime.strptime(first['tid'], '%Y-%m-%d %H:%M:%S')
    second = dict(zip(rows[0], rows[2]))
    assert second['namn'] == "'=HYPERLINK(\"x\")" and second['utfall'] == 'hoppade över' and second['sekunder'] == '3'
    assert first['i rad'] == second['i rad'] == ''        # inga uppgifter i en lektions mål
    assert set(OUTCOMES.values()) >= {r[8] for r in rows[1:]}
    assert class_csv(ResultStore(tmp_path / 'tom')) == '\ufeff' + ';'.join(CSV_COLUMNS) + '\r\n'


def test_table_csv_has_one_row_per_deal_and_seat(tmp_path):
    "Givarna vid spelbordet som CSV: Plump och Bismarck i samma fil, tomt där en kolumn inte hör till spelet."
    from plump_teach.course.teacher_page import TABLE_CSV_COLUMNS, table_csv
    store = ResultStore(tmp_path)
    store.record(ALI, {'type': 'deal', 'name': 'Åsa', 'game': 'plump', 'bots': 'nybörjare', 'number': 3, 'seed': 17,
                       'player': 'Du', 'cards': 8, 'bid': 2, 'tricks': 3, 'hit': False, 'points': 0, 'tips': 2})
    time.sleep(1.1)
    store.record(BEA, {'type': 'deal', 'name': '-1', 'game': 'bismarck', 'bots': 'expert', 'number': 1, 'seed': 4,
                       'player': 'Elev 1', 'mode': 'pass', 'forehand': False, 'tricks': 9, 'normal': 6, 'points': -3})
    store.record(BEA, task())                                            # en uppgift hör inte hit
    rows = list(csv.reader(io.StringIO(table_csv(store)[1:]), delimiter=';'))
    assert rows[0] == TABLE_CSV_COLUMNS and len(rows) == 3
    a, b = (dict(zip(rows[0], r)) for r in rows[1:])
    assert (a['namn'], a['spel'], a['parti'], a['giv'], a['datorns nivå'], a['kort'], a['bud'], a['stick'], a['träff'],
            a['spelsätt'], a['förhand'], a['poäng'], a['tips']) == \
        ('Åsa', 'Plump', '17', '3', 'nybörjare', '8', '2', '3', 'nej', '', '', '0', '2')
    assert (b['namn'], b['spel'], b['spelsätt'], b['förhand'], b['stick'], b['normal'], b['poäng'], b['bud'], b['träff']) == \
        ("'-1", 'Bismarck', 'pass', 'nej', '9', '6', '-3', '', '')
    assert table_csv(ResultStore(tmp_path / 'tom')) == '\ufeff' + ';'.join(TABLE_CSV_COLUMNS) + '\r\n'


# --------------------------------------------------------------------------- attach_pupil and the widgets

def test_without_the_classroom_nothing_is_recorded(tmp_path):
    from plump_teach.ui.puzzle_trainer import PuzzleTrainer
    attach_pupil()
    assert current_recorder() is None
    t = PuzzleTrainer(kinds=['score'], rounds=2, seed=1).start()
    t.widget.show_button.click(); t.widget.new_button.click()
    t.widget.show_button.click(); t.widget.new_button.click()
    assert 'Du löste 0 av 2' in t.summary.value and list(tmp_path.iterdir()) == []


def test_attach_pupil_reads_the_cookie_and_refuses_a_bad_id(tmp_path, monkeypatch):
    classroom(monkeypatch, tmp_path, name='Åsa <3 ', page='04_buden.ipynb')
    assert attach_pupil() is None                 # the hidden cell shows nothing
    rec = current_recorder()
    assert (rec.pupil_id, rec.name, rec.page) == (ALI, 'Åsa <3', '04_buden.ipynb')
    assert [(e['type'], e['name'], e['page']) for e in ResultStore(tmp_path).events(ALI)] == \
        [('page', 'Åsa <3', '04_buden.ipynb')]
    set_recorder(None)
    monkeypatch.setenv('HTTP_COOKIE', 'plump_elev=../../../../tmp/x; plump_namn=x')
    attach_pupil()
    assert current_recorder() is None and ResultStore(tmp_path).pupils() == [ALI]
    monkeypatch.setenv('HTTP_COOKIE', f'plump_elev={BEA}; plump_namn=%FF%FE')   # not UTF-8: replaced, not an error
    attach_pupil()
    assert current_recorder().pupil_id == BEA


def test_in_preheat_mode_attach_waits_for_the_request_once(tmp_path, monkeypatch):
    import plump_teach.classroom.pupil_kernel as R
    calls = []
    def arrives():
        calls.append(1)
        classroom(monkeypatch, tmp_path, pupil=BEA, name='Bea')
    monkeypatch.setenv('VOILA_PREHEAT', 'True')
    monkeypatch.setattr(R, 'wait_for_request', arrives)
    from plump_teach.ui.puzzle_widget import PuzzleWidget
    w = PuzzleWidget('score', 4)                  # made before the pupil is known, as Voilà pre-runs the page
    w.shown_at -= 600                             # ten minutes before the pupil comes
    attach_pupil()
    assert calls == [1] and current_recorder().name == 'Bea'
    w.answer(right(w))
    ev = tasks_of(ResultStore(tmp_path).events(BEA))
    assert [(e['kind'], e['number'], e['outcome'], e['rule']) for e in ev] == [('score', 4, 'first_try', 'P13')]
    assert ev[0]['seconds'] < 60                  # counted from when the pupil came, not from the pre-run
    attach_pupil()
    assert calls == [1]                            # never waits twice: there is only one request per kernel


def test_a_puzzle_widget_records_each_task_once_with_its_outcome(tmp_path, monkeypatch):
    from plump_teach.ui.puzzle_widget import PuzzleWidget
    classroom(monkeypatch, tmp_path, page='04_buden.ipynb')
    w = PuzzleWidget('dealer_bid', 17)
    attach_pupil()
    w.answer(wrong(w)); w.answer(right(w)); w.hint_button.click(); w.new_button.click()
    w.hint_button.click(); w.answer(right(w)); w.new_button.click()
    w.answer(wrong(w)); w.show_button.click(); w.show_button.click(); w.new_button.click()
    w.answer(right(w)); w.answer(right(w)); w.new_button.click()
    w.new_button.click()
    ev = tasks_of(ResultStore(tmp_path).events(ALI))
    assert [(e['number'], e['outcome']) for e in ev] == [(17, 'after_mistake'), (18, 'with_hint'), (19, 'shown'),
                                                          (20, 'first_try'), (21, 'skipped')]
    assert all(e['page'] == '04_buden.ipynb' and e['rule'] == 'P6' and 'index' not in e for e in ev)


def test_a_reloaded_trainer_continues_where_the_pupil_was(tmp_path, monkeypatch):
    from plump_teach.ui.puzzle_trainer import PuzzleTrainer
    classroom(monkeypatch, tmp_path)
    t = PuzzleTrainer(kinds=['score', 'trump', 'schedule'], rounds=4, seed=21, level=1)
    attach_pupil()
    t.start_button.click()
    w = t.widget
    w.answer(right(w)); w.new_button.click()
    w.answer(wrong(w)); w.answer(right(w))        # solved after a mistake, then the page is reloaded
    events = ResultStore(tmp_path).events(ALI)
    assert [e['type'] for e in events] == ['page', 'session', 'task', 'task']
    assert [(e['index'], e['seed'], e['session']) for e in tasks_of(events)] == [(1, 21, t.session), (2, 21, t.session)]
    again = PuzzleTrainer()                        # the page as it is before the pupil is known
    attach_pupil()
    assert 'Välkommen tillbaka! Du fortsätter på uppgift 3 av 4.' in again.status.value
    assert (again.plan, again.index, again.seed, again.session) == (t.plan, 2, 21, t.session)
    assert again.widget.puzzle.kind == t.plan[2][0] and again.widget.puzzle.number == t.plan[2][1]
    assert again.rounds.value == 4 and sorted(again.chosen) == ['schedule', 'score', 'trump']
    for _ in range(2): again.widget.show_button.click(); again.widget.new_button.click()
    assert 'Du löste 1 av 4 uppgifter rätt direkt' in again.summary.value
    assert '1 rätt direkt, 1 rätt efter ett fel, 2 visat svar' in again.summary.value
    assert [e['index'] for e in tasks_of(ResultStore(tmp_path).events(ALI))] == [1, 2, 3, 4]
    done = PuzzleTrainer()                         # a finished session is not resumed
    attach_pupil()
    assert done.widget is None and 'Välkommen' not in done.status.value


def test_a_session_on_another_page_or_long_ago_is_not_resumed(tmp_path, monkeypatch):
    from plump_teach.ui.puzzle_trainer import PuzzleTrainer
    store = ResultStore(tmp_path)
    old = (datetime.now().astimezone() - timedelta(hours=4)).isoformat(timespec='seconds')
    store.record(ALI, {'type': 'session', 'page': 'traning.ipynb', 'session': 'aa', 'seed': 3, 'kinds': ['score'],
                       'rounds': 5, 'level': 1, 'time': old})
    classroom(monkeypatch, tmp_path)
    t = PuzzleTrainer()
    attach_pupil()
    assert t.widget is None
    store.record(ALI, {'type': 'session', 'page': 'annan.ipynb', 'session': 'bb', 'seed': 3, 'kinds': ['score'],
                       'rounds': 5, 'level': 1})
    t = PuzzleTrainer()
    attach_pupil()
    assert t.widget is None
    store.record(ALI, {'type': 'session', 'page': 'traning.ipynb', 'session': 'cc', 'seed': 3, 'kinds': ['schack'],
                       'rounds': 5, 'level': 1})
    t = PuzzleTrainer()
    attach_pupil()                                 # a session the trainer cannot make: it starts as usual
    assert t.widget is None and t.start().widget is not None


def test_unfinished_session_takes_the_tasks_in_order_without_gaps():
    now = datetime.now().astimezone()
    s = {'type': 'session', 'page': 'p', 'session': 's', 'rounds': 5, 'time': now.isoformat()}
    t = lambda i: {'type': 'task', 'session': 's', 'index': i, 'outcome': 'shown', 'kind': 'score', 'time': now.isoformat()}
    assert unfinished_session([s, t(1), t(2), t(2), t(4)], 'p')[1] == [t(1), t(2)]
    assert unfinished_session([s, t(1), t(2), t(3), t(4), t(5)], 'p') is None
    assert unfinished_session([t(1)], 'p') is None


# --------------------------------------------------------------------------- property

names = st.text(max_size=60)
events = st.fixed_dictionaries(
    {'type': st.sampled_from(['page', 'session', 'task'])},
    optional={'name': names, 'page': st.text(max_size=120), 'kind': st.sampled_from(list(PUZZLE_KINDS) + ['x']),
              'number': st.integers(-5, 10 ** 10), 'level': st.integers(0, 3), 'rule': st.text(max_size=30),
              'outcome': st.sampled_from(list(OUTCOMES) + ['bad']), 'seconds': st.floats(allow_nan=True),
              'index': st.integers(1, 100), 'seed': st.integers(0, 10 ** 6), 'session': st.text(max_size=50),
              'kinds': st.lists(st.sampled_from(list(PUZZLE_KINDS) + ['Bad Kind', '']), max_size=40),
              'rounds': st.integers(1, 100), 'extra': st.text(), 'time': st.just('2026-12-01T09:00:00+01:00')})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from([ALI, BEA, 'ffffffffffffffff']), events), max_size=25))
def test_any_recorded_events_read_back_equal_and_the_counts_add_up(tmp_path_factory, seq):
    store = ResultStore(tmp_path_factory.mktemp('r'))
    written = {}
    for pid, ev in seq:
        written.setdefault(pid, []).append(store.record(pid, ev))
    assert store.all_events() == written
    for pid, evs in written.items():
        assert all(clean_event(e) == e for e in evs)
        assert all(len(json.dumps(e, ensure_ascii=False).encode()) < results.LINE_MAX for e in evs)
        c = count_outcomes(evs)
        assert c['tasks'] == sum(c[o] for o in OUTCOMES) == len(tasks_of(evs))
        assert c['tasks'] == sum(1 for p, e in seq if p == pid and e['type'] == 'task' and e.get('outcome') in OUTCOMES)
    total = sum(count_outcomes(evs)['tasks'] for evs in written.values())
    assert sum(c['tasks'] for c in by_kind(written).values()) == total
    assert all(0 < r['missed'] <= r['tasks'] for r in needs_practice(written, min_tasks=1))
    rows = list(csv.reader(io.StringIO(class_csv(store)[1:]), delimiter=';'))
    assert len(rows) == total + 1
    page = teacher_page(store)
    for evs in written.values():
        name = next((e['name'] for e in reversed(evs) if e.get('name')), '')
        assert (html.escape(name) if name else 'Elev utan namn') in page


def test_a_failing_wait_for_the_request_never_shows_the_pupil_an_error(tmp_path, monkeypatch):
    import plump_teach.classroom.pupil_kernel as R
    def fails(): raise ConnectionError('websocket closed')
    monkeypatch.setenv('VOILA_PREHEAT', 'True')
    monkeypatch.setattr(R, 'wait_for_request', fails)
    assert attach_pupil() is None and current_recorder() is None


def test_wait_for_request_reads_the_request_that_voila_sends_over_its_websocket(monkeypatch):
    "Den riktiga vägen: en websocket som Voilàs (voila/query/<kärnans id>) skickar anropets miljö när en elev kommer."
    import asyncio, socket, threading, websockets
    from plump_teach.classroom.pupil_kernel import wait_for_request
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]
    paths, ready, stop = [], threading.Event(), threading.Event()
    async def handler(ws, *rest):
        paths.append(getattr(getattr(ws, 'request', None), 'path', None) or (rest[0] if rest else ws.path))
        await asyncio.sleep(0.3)                   # eleven kommer lite senare
        await ws.send(json.dumps({'HTTP_COOKIE': 'plump_elev=0123456789abcdef', 'SCRIPT_NAME': '/voila/render/traning.ipynb'}))
    async def serve():
        async with websockets.serve(handler, '127.0.0.1', port):
            ready.set()
            while not stop.is_set(): await asyncio.sleep(0.05)
    t = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True); t.start()
    assert ready.wait(10)
    for k, v in {'VOILA_APP_IP': '127.0.0.1', 'VOILA_APP_PORT': str(port), 'VOILA_SERVER_URL': '/',
                 'VOILA_KERNEL_ID': 'abc-123'}.items(): monkeypatch.setenv(k, v)
    monkeypatch.delenv('VOILA_WS_BASE_URL', raising=False)
    monkeypatch.delenv('HTTP_COOKIE', raising=False); monkeypatch.delenv('SCRIPT_NAME', raising=False)
    try:
        wait_for_request(timeout=10)
        assert os.environ['HTTP_COOKIE'] == 'plump_elev=0123456789abcdef'
        assert os.environ['SCRIPT_NAME'] == '/voila/render/traning.ipynb'
        assert paths == ['/voila/query/abc-123']
    finally: stop.set(); t.join(5)


def test_the_results_module_does_not_import_voila_or_jupyter_server():
    "Varje förstartad kärna läser in plump_teach.classroom.pupil_kernel; voila och jupyter_server kostar sekunder processortid."
    code = ("import sys, plump_teach.classroom.pupil_kernel, plump_teach.ui.puzzle_widget, plump_teach.ui.puzzle_trainer, "
            "plump_teach.ui.puzzle_goal; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('voila', 'jupyter_server')))")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == '[]', out


def test_eight_threads_writing_for_the_same_pupil_never_mix_their_lines(tmp_path):
    import threading
    store, twin = ResultStore(tmp_path), '0000000000000001'
    def write_many(n):
        for i in range(200): store.record(twin, {'type': 'task', 'kind': 'score', 'number': i, 'seed': n,
                                                  'outcome': 'first_try', 'name': 'Tvilling ' + 'x' * 30})
    threads = [threading.Thread(target=write_many, args=(n,)) for n in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    evs = store.events(twin)
    assert len(evs) == 1600 and len(store.path(twin).read_bytes().split(b'\n')) == 1601
    assert sorted((e['seed'], e['number']) for e in evs) == [(n, i) for n in range(8) for i in range(200)]
