"""Issue 38, the store and the teacher's page: the same pupil on two rows (find_by_name, merge), pupils removed by the
teacher (remove), "arbetar just nu" from the pages the server knows are open, and the teacher's buttons."""
from __future__ import annotations

import os
import re
import stat
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from plump_teach.course.results import ResultStore, name_key, same_names
from plump_teach.course.teacher_page import class_csv, merge_page, remove_page, table_csv, teacher_page
from plump_teach.engine.cards import PlumpTeachError

ADA1, ADA2, ADA3, BO = '00000000000000a1', '00000000000000a2', '00000000000000a3', '00000000000000b0'


def at(minute: int) -> str: return f'2026-12-01T09:{minute:02d}:00+01:00'


def task(name: str, minute: int, **kw) -> dict:
    return {'type': 'task', 'name': name, 'page': '04_buden.ipynb', 'kind': 'score', 'number': minute, 'level': 1,
            'rule': 'P13', 'outcome': 'first_try', 'seconds': 4.0, 'time': at(minute), **kw}


def class_of_three(folder: Path) -> ResultStore:
    "Ada on two rows (the second in a new browser, her name typed differently), and Bo."
    s = ResultStore(folder)
    s.record(ADA1, task('Ada Åkesson', 1))
    s.record(BO, task('Bo', 2))
    s.record(ADA2, task('ada   a\u030akesson', 3))          # 'å' as a plus a combining ring, more spaces
    s.record(ADA1, task('Ada Åkesson', 4, outcome='shown'))
    s.record(ADA2, task('ada åkesson', 5))
    return s


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob('*')) if p.is_file()}


# --------------------------------------------------------------------------- find_by_name

def test_find_by_name_normalises_and_puts_the_latest_first(tmp_path):
    s = class_of_three(tmp_path)
    assert name_key('  ADA  A\u030aKESSON ') == name_key('ada åkesson') == 'ada åkesson'
    assert s.find_by_name('Ada Åkesson') == [ADA2, ADA1]           # ADA2 worked last (09:05)
    assert s.find_by_name('bo') == [BO]
    assert s.find_by_name('') == [] and s.find_by_name('   ') == [] and s.find_by_name('Cissi') == []
    s.record(ADA1, task('Ada Åkesson', 6))
    assert s.find_by_name('ada åkesson') == [ADA1, ADA2]
    s.record(ADA3, {'type': 'page', 'time': at(7)})                 # no name: never found, not even by ''
    assert ADA3 not in s.find_by_name('')
    s.record(ADA1, task('Ada Å.', 8))                               # the latest name counts
    assert s.find_by_name('Ada Åkesson') == [ADA2]
    assert same_names(s.all_events()) == []


# --------------------------------------------------------------------------- merge

def test_merge_puts_every_event_in_time_order_and_keeps_the_old_file(tmp_path):
    s = class_of_three(tmp_path)
    before = s.events(ADA1) + s.events(ADA2)
    old = (tmp_path / f'elev-{ADA2}.jsonl').read_bytes()
    assert s.merge(ADA2, ADA1) is None
    assert s.pupils() == [ADA1, BO]
    merged = s.events(ADA1)
    assert [e['time'] for e in merged] == [at(1), at(3), at(4), at(5)]
    assert sorted(map(str, merged)) == sorted(map(str, before))     # nothing lost, nothing added
    assert (tmp_path / 'sammanslagna' / f'elev-{ADA2}.jsonl').read_bytes() == old
    assert not [p for p in tmp_path.rglob('*.tmp')]                 # no temporary file left
    assert stat.S_IMODE(os.stat(tmp_path / f'elev-{ADA1}.jsonl').st_mode) == 0o600
    assert s.find_by_name('Ada Åkesson') == [ADA1]


def test_a_page_still_open_for_the_merged_row_writes_on_the_row_that_is_kept(tmp_path):
    s = class_of_three(tmp_path)
    s.merge(ADA2, ADA1)
    s.record(ADA2, task('Ada Åkesson', 9))                          # the old browser's kernel goes on recording
    assert s.pupils() == [ADA1, BO] and s.events(ADA1)[-1]['time'] == at(9)
    assert s.events(ADA2) == s.events(ADA1)                          # and reads the pupil's events from there
    assert s.table_folder(ADA2) == s.table_folder(ADA1)


def test_merge_moves_the_saved_tables_without_overwriting_one(tmp_path):
    s = class_of_three(tmp_path)
    for pid, text in ((ADA1, 'ett'), (ADA2, 'två')):
        s.table_folder(pid).mkdir(parents=True)
        (s.table_folder(pid) / 'spelbordet-1.json').write_text(text)
    (s.table_folder(ADA2) / 'spelbordet-2.json').write_text('tre')
    s.merge(ADA2, ADA1)
    kept = {p.name: p.read_text() for p in s.table_folder(ADA1).iterdir()}
    assert sorted(kept.values()) == ['ett', 'tre', 'två'] and kept['spelbordet-1.json'] == 'ett'
    assert all(n.startswith('spelbordet') and n.endswith('.json') for n in kept)   # the table still finds them
    assert {p.name for p in (tmp_path / 'sammanslagna' / f'spelbord-{ADA2}').iterdir()} == {'spelbordet-1.json',
                                                                                           'spelbordet-2.json'}
    assert not (tmp_path / 'spelbord' / ADA2).exists()


@pytest.mark.parametrize('source,target,words', [(ADA1, ADA1, 'sig själv'), ('0000000000000fff', ADA1, 'finns inte'),
                                                 (ADA1, '0000000000000fff', 'finns inte'), ('../x', ADA1, '16 tecken')])
def test_a_bad_merge_is_a_swedish_error_and_changes_nothing(tmp_path, source, target, words):
    s = class_of_three(tmp_path)
    s.table_folder(ADA1).mkdir(parents=True)
    (s.table_folder(ADA1) / 'spelbordet-1.json').write_text('ett')
    before = files(tmp_path)
    with pytest.raises(PlumpTeachError, match=words): s.merge(source, target)
    assert files(tmp_path) == before and sorted(os.listdir(tmp_path)) == sorted(
        ['spelbord', f'elev-{ADA1}.jsonl', f'elev-{ADA2}.jsonl', f'elev-{BO}.jsonl'])


def test_a_failing_write_during_merge_puts_everything_back(tmp_path, monkeypatch):
    from plump_teach.course import results
    s = class_of_three(tmp_path)
    before = files(tmp_path)
    def full_disk(path, data): raise OSError(28, 'No space left on device')
    real = results._write_new
    monkeypatch.setattr(results, '_write_new', lambda p, d: real(p, d) if p.suffix == '.till' else full_disk(p, d))
    with pytest.raises(OSError): s.merge(ADA2, ADA1)
    after = files(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith('sammanslagna')} == before
    assert s.pupils() == [ADA1, ADA2, BO]


# --------------------------------------------------------------------------- remove

def test_removed_pupils_are_kept_apart_and_vanish_from_the_page_and_the_csv(tmp_path):
    s = class_of_three(tmp_path)
    s.record(BO, {'type': 'deal', 'name': 'Bo', 'game': 'plump', 'cards': 5, 'bid': 1, 'tricks': 1, 'hit': True,
                  'points': 11})
    s.table_folder(BO).mkdir(parents=True)
    (s.table_folder(BO) / 'spelbordet-1.json').write_text('{}')
    old = (tmp_path / f'elev-{BO}.jsonl').read_bytes()
    new = s.remove(BO)
    assert new == tmp_path / 'borttagna' / f'elev-{BO}.jsonl' and new.read_bytes() == old
    assert (tmp_path / 'borttagna' / f'spelbord-{BO}' / 'spelbordet-1.json').exists()
    assert s.pupils() == [ADA1, ADA2] and BO not in s.all_events()
    assert BO not in class_csv(s) and BO not in table_csv(s) and ';Bo;' not in class_csv(s)
    page = teacher_page(s, form_key='k')
    assert BO not in page and '>Bo <' not in page and '2 elever' in page
    s.record(BO, task('Bo', 30))                                    # Bo comes back and is removed again: numbered
    assert s.remove(BO) == tmp_path / 'borttagna' / f'elev-{BO}-2.jsonl'
    assert (tmp_path / 'borttagna' / f'elev-{BO}.jsonl').read_bytes() == old
    with pytest.raises(PlumpTeachError, match='finns inte'): s.remove(BO)
    with pytest.raises(PlumpTeachError, match='16 tecken'): s.remove('../../etc')


# --------------------------------------------------------------------------- the teacher's page

def test_working_comes_only_from_the_open_pages_when_the_server_says_which(tmp_path):
    s = ResultStore(tmp_path)
    for pid, name in ((ADA1, 'Ada'), (BO, 'Bo')): s.record(pid, {'type': 'page', 'name': name, 'page': 'start.ipynb'})
    assert '2 elever, 2 arbetar just nu' in teacher_page(s) and teacher_page(s).count('● arbetar') == 2
    page = teacher_page(s, working={BO, 'ffffffffffffffff'})       # a page for a pupil not on the list counts not
    assert '2 elever, 1 arbetar just nu' in page and page.count('● arbetar') == 1
    row = re.search(r'<tr><th scope="row">Bo .*?</tr>', page).group(0)
    assert '● arbetar' in row
    later = teacher_page(s, working=set())
    assert '0 arbetar just nu' in later and '● arbetar' not in later


def test_the_buttons_are_only_there_with_the_form_key_and_post_the_right_fields(tmp_path):
    s = class_of_three(tmp_path)
    assert 'ta-bort' not in teacher_page(s) and 'sla-ihop' not in teacher_page(s)
    page = teacher_page(s, form_key='nyckel"<x>')
    forms = re.findall(r'<form method="post" action="/larare/ta-bort".*?</form>', page)
    assert len(forms) == 3 and all('name="nyckel" value="nyckel&quot;&lt;x&gt;"' in f for f in forms)
    assert {re.search(r'name="elev" value="([0-9a-f]{16})"', f).group(1) for f in forms} == {ADA1, ADA2, BO}
    merge = re.findall(r'<form method="post" action="/larare/sla-ihop">.*?</form>', page)
    assert len(merge) == 1 and f'name="fran" value="{ADA1}"' in merge[0] and f'name="till" value="{ADA2}"' in merge[0]
    assert 'Samma namn på flera rader' in page and 'står på 2 rader' in page and 'blir kvar' in page
    assert 'name="ja"' not in page                                  # the refreshing page never removes in one click


def test_the_pages_that_confirm_need_the_box_and_say_what_happens(tmp_path):
    s = class_of_three(tmp_path)
    page = remove_page(s, BO, 'k')
    assert 'refresh' not in page and 'action="/larare/ta-bort"' in page and f'name="elev" value="{BO}"' in page
    assert '<input type="checkbox" name="ja" value="1" required>' in page and 'borttagna' in page
    assert 'Ingenting raderas' in page and 'href="/larare"' in page
    page = merge_page(s, ADA1, ADA2, 'k')
    assert f'name="fran" value="{ADA1}"' in page and f'name="till" value="{ADA2}"' in page and 'name="ja"' in page
    assert f'Raden <span class="id">{ADA2[:6]}</span> blir kvar' in page and 'sammanslagna' in page
    assert 'finns inte' in remove_page(s, '0000000000000fff', 'k') and 'name="ja"' not in remove_page(s, 'x', 'k')
    assert 'sig själv' in merge_page(s, BO, BO, 'k')


def test_a_page_of_500_made_up_names_renders_quickly_and_loses_the_removed_ones(tmp_path):
    s = ResultStore(tmp_path)
    ids = [f'{i:016x}' for i in range(500)]
    for i, pid in enumerate(ids):
        s.record(pid, {'type': 'page', 'name': f'Namn {i % 490}', 'page': 'start.ipynb'})
        s.record(pid, task(f'Namn {i % 490}', i % 60))
    for pid in ids[:20]: s.remove(pid)
    t = time.perf_counter()
    page = teacher_page(s, form_key='k', working=set(ids[:50]))
    seconds = time.perf_counter() - t
    assert seconds < 5, seconds                                     # 0.1 s on the 2-core laptop
    assert '480 elever, 30 arbetar just nu' in page and page.count('action="/larare/ta-bort"') == 480
    assert not any(f'value="{pid}"' in page for pid in ids[:20])
