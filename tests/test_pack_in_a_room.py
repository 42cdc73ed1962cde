"""Lärarpaketet i ett riktigt klassrum (issue 38): det som körschemat, arbetsbladen, kom igång-sidan och sidan om Lgr22
säger stämmer med motorn, med lektionerna och med kommandona.

The teacher's pack in a real room: lesson 1's sentence about the example deal is the engine's deal; lesson 6 hands out a
printable short-game protocol; worksheets say when several answers are right; Bismarck tables for any class size and
honest timings; the Lgr22 page names only what the lessons contain (checked against the lesson texts), for grades 4-6
and 7-9; the setup guide names the real commands, port, Ctrl+C, Windows and the school network.
"""
import json
import re

import pytest

from plump_teach.course.build import pupil_dir
from plump_teach.course.catalogue import PUPIL_LESSONS
from plump_teach.course.pack import pack_pages
from plump_teach.course.run_sheets import (RUN_SHEETS, CLASS, bismarck_tables, lgr22_rows, plump_tables, run_sheet,
                                           tables_text)
from plump_teach.course.run_sheet_pages import PORT, lesson_worksheet, lgr22_page, setup_page
from plump_teach.course.trial_deals import Puzzles
from plump_teach.course.teacher import SHORT_GAME
from plump_teach.course.worksheets import CIRCLE, MANY_RIGHT, answer_key, for_pupils, worksheet
from plump_teach.engine.plump_rules import PlumpError

ELEV = pupil_dir()


def sheet_text(s) -> str:
    "Allt som körschemat för en lektion säger, som text."
    return "\n".join([*(p.what for p in s.phases), *(p.groups for p in s.phases), *(f"{a}\n{b}" for a, b in s.misconceptions),
                      *s.support, *s.extension, *(f"{q}\n{a}" for q, a in s.exit_ticket), *s.assess, s.unplugged])


def lesson_text(number: int) -> str:
    "Elevlektionens text (markdown och svaren till Att prata om) och dess körschema."
    l = next(x for x in PUPIL_LESSONS if x.number == number)
    cells = json.loads((ELEV / l.file).read_text(encoding='utf-8'))['cells']
    md = [''.join(c['source']) for c in cells if c['cell_type'] == 'markdown']
    answers = [a for c in cells for a in c['metadata'].get('plump_teach', {}).get('answers', [])]
    return " ".join([*md, *answers, sheet_text(RUN_SHEETS[l.file])])


# ---------------------------------------------------------------- lektion 1: meningen om exempelgiven

NAMES = r"(Anna|Bo|Cissi|Dan)"


def test_lesson_one_sentences_are_the_example_deal():
    """'Stanna vid Bo: han tog flest stick men fick 0' var falskt: Anna tog också 2. Varje påstående i körschemat för
    lektion 1 om vem som tog flest stick, vad någon bjöd och vad någon fick prövas mot exempelgiven som motorn spelar."""
    from plump_teach.ui.lesson import example_deal
    d = example_deal(5)
    names, bids, taken, points = list(d.names), list(d.bids), list(d.taken), list(d.points())
    text = sheet_text(run_sheet(1))
    checked = 0
    for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
        if "flest stick" in sentence and re.search(NAMES, sentence):
            who = set(re.findall(NAMES, sentence.split("flest stick")[0]))
            top = {names[i] for i, t in enumerate(taken) if t == max(taken)}
            assert who == top, f"{sentence!r}: flest stick tog {sorted(top)}"
            checked += 1
        for name, b, p in re.findall(NAMES + r" bjöd (\d+) och fick (\d+) poäng", sentence):
            i = names.index(name)
            assert (bids[i], points[i]) == (int(b), int(p)), sentence
            checked += 1
        for w, t in re.findall(r"(båda|alla) tog (\d+) stick", sentence):
            who = re.findall(NAMES, sentence)
            assert who and all(taken[names.index(n)] == int(t) for n in who), sentence
    assert checked >= 3


# ---------------------------------------------------------------- lektion 6: det korta partiets protokoll

def test_lesson_six_hands_out_the_short_game_protocol():
    "Lektion 6 spelar 5, 4, 3, 2 och 1 kort: paketet har ett protokoll med de raderna, och körschemat delar ut det."
    pages = pack_pages()
    html = pages['protokoll-plump-kort.html'][1]
    rows = re.findall(r'<tr><td class="n">(\d+)</td><td class="n">(\d+)</td>', html)
    assert [int(c) for _, c in rows] == list(SHORT_GAME) * 2 and SHORT_GAME == (5, 4, 3, 2, 1)   # två protokoll på bladet
    assert html.count('<th class="p">') == 5 * 2 and "Klipp här" in html        # bord med 3–5
    six = run_sheet(6)
    start = six.phases[0].what
    assert "protokollet för det korta partiet (5, 4, 3, 2 och 1 kort)" in start and "regelbladet" in start
    assert "19 givar" in start                               # regelbladet visar hela partiet: läraren vet det
    assert "ett protokoll och" not in start
    assert "protokollet för det korta partiet" in six.unplugged
    assert 'href="protokoll-plump-kort.html"' in setup_page()


@pytest.mark.parametrize("lesson", [pytest.param(l, id=l.file) for l in PUPIL_LESSONS])
def test_circle_the_letter_only_where_there_are_letters(lesson):
    "Arbetsbladet säger 'Ringa in bokstaven' bara när det har bokstäver att ringa in (lektion 6 har inga)."
    ws = lesson_worksheet(lesson)
    assert ("Ringa in bokstaven" in ws) == ('class="letter"' in ws), lesson.file
    assert ("Ringa in bokstaven" in ws) == any(isinstance(t, Puzzles) for t in run_sheet(lesson).tasks)


@pytest.mark.parametrize("lesson", [pytest.param(l, id=l.file) for l in PUPIL_LESSONS])
def test_several_right_answers_are_said_on_paper_and_in_the_key(lesson):
    """Där pusslet har flera rätta svar (lektion 10: spader och pass) säger arbetsbladet det, och facit visar alla som
    ska vara inringade; där det finns ett säger papperet inget om flera."""
    ws, key = lesson_worksheet(lesson), lesson_worksheet(lesson, key=True)
    assert "Står det att flera svar är rätt, ringa in alla" in ws or "Ringa in bokstaven" not in ws
    tasks = [t for t in ws.split('<section class="task">') if t.startswith("<h3>Uppgift")]
    keys = [t for t in key.split('<section class="task">') if t.startswith("<h3>Uppgift")]
    puzzles = [p for t in run_sheet(lesson).tasks if isinstance(t, Puzzles) for p in t.puzzles()]
    assert len(tasks) == len(keys) == len(puzzles)
    for p, task, k in zip(puzzles, tasks, keys):
        assert task.startswith(f"<h3>Uppgift {p.number}") and for_pupils(p.situation) in task
        assert (MANY_RIGHT in task) == (len(p.answers) > 1), (lesson.file, p.kind, p.number)
        assert ("Rätta svar, alla inringade:" in k) == (len(p.answers) > 1), (lesson.file, p.kind, p.number)


def test_the_generic_worksheet_says_several_answers_too():
    ws, key = worksheet('bismarck_modes', 1), answer_key('bismarck_modes', 1)
    assert CIRCLE in ws and MANY_RIGHT in ws and "Rätta svar, alla inringade:" in key


# ---------------------------------------------------------------- borden och tiden i Bismarck

@pytest.mark.parametrize("pupils", range(6, 61))
def test_tables_seat_every_pupil(pupils):
    p, b = plump_tables(pupils), bismarck_tables(pupils)
    assert sum(k * v for k, v in p.items()) == pupils and set(p) <= {3, 4, 5}
    assert sum(k * v for k, v in b.items()) == pupils and set(b) <= {3, 4}


def test_tables_bad_class():
    for bad in (5, 61, 28.0, "28", None, True):
        with pytest.raises(PlumpError, match="från 6 till 60"): bismarck_tables(bad)


def test_bismarck_lessons_seat_a_class_of_28_and_the_extra_pupil():
    "28 elever är 9 x 3 + 1: körschemat säger hur borden blir och vad den fjärde vid ett bord gör."
    assert bismarck_tables(28) == {3: 8, 4: 1} and tables_text(bismarck_tables(28)) == "8 bord med 3 och ett med 4"
    assert CLASS == 28
    for n in (10, 11):
        text = sheet_text(run_sheet(n))
        assert "sitter givaren över" in text, n
    assert "8 bord med 3 och ett med 4" in sheet_text(run_sheet(10))
    assert "7 bord med 4" in run_sheet(6).phases[0].what


_WORD_NUM = {'en': 1, 'ett': 1, 'två': 2, 'tre': 3, 'fyra': 4}


def test_bismarck_card_time_is_honest():
    """Lektion 10: en giv (ge 52 kort, sortera 20, lägga bort fyra, välja) tar 7–8 minuter; delen med korten ska rymma
    de givar som den lovar. Lektion 11: en giv med 16 stick tar 12–15 minuter, så delen lovar bara en."""
    for n in (10, 11):
        phase = next(p for p in run_sheet(n).phases if p.decks)
        per = re.search(r"En giv(?: med 16 stick)? tar (\d+)–(\d+) minuter", phase.what, re.I)
        assert per, n
        promised = re.search(r"hinn (\w+) givar", phase.what)
        deals = _WORD_NUM[promised.group(1)] if promised else 1
        assert deals * int(per.group(2)) <= phase.minutes, (n, deals, per.groups(), phase.minutes)
    assert "första giv" in next(p for p in run_sheet(11).phases if p.decks).what


# ---------------------------------------------------------------- Lgr22

def test_lgr22_names_only_what_the_lessons_do():
    """Varje lektion som sidan nämner för en del av kursplanen innehåller orden som raden säger (i elevlektionen eller
    i körschemat); procent, sannolikhet och chans nämns inte för en lektion som inte har dem."""
    if ELEV is None: pytest.skip("nbs/elev finns inte")
    rows = lgr22_rows()
    assert {r.grades for r in rows} >= {'4–6', '7–9'}
    for r in rows:
        assert r.lessons, r.area
        for number, words in r.lessons:
            text = lesson_text(number)
            for w in words: assert w.lower() in text.lower(), (r.area, number, w)
    html = lgr22_page()
    for r in rows:
        assert f"<td>{', '.join(str(k) for k, _ in r.lessons)}</td></tr>" in html
    for word in ("procent", "sannolik", "chans"):
        for r in rows:
            if word in re.sub(r"<[^>]+>", "", r.area).lower(): continue      # kursplanens ord
            claimed = word in r.course.lower() and "extralektionen" not in r.course
            if claimed:
                assert all(word in lesson_text(n).lower() for n, _ in r.lessons), (word, r.area)


def test_lgr22_covers_grades_7_to_9():
    html = lgr22_page()
    assert "årskurs 4–6 och 7–9" in html and "<td>7–9</td>" in html
    assert "finns inte i elevkursen" in html


# ---------------------------------------------------------------- kom igång

def test_setup_page_says_how_the_commands_run_on_any_computer_and_network():
    from plump_teach.classroom.app import cli_parser
    assert PORT == cli_parser().get_default('port')
    html = setup_page()
    for words in ("python3 run.py kurs", "py -3 run.py kurs", "python.org", "Ctrl+C", ".venv/bin/plump-teach --ip 0.0.0.0",
                  r".venv\Scripts\plump-teach --ip 0.0.0.0", f"port {PORT}", "brandväggen", "gästnät", "surfzon", "IT"):
        assert words in html, words
    assert "i lektion 2 en per par" not in html
    shown = re.findall(r"<code>\.venv(?:/bin/|\\Scripts\\)plump-teach (.*?)</code>", html)
    assert len(shown) == 3
    for args in shown:                                  # varje kommando på sidan går att köra med plump-teach
        a = cli_parser().parse_args(args.split())
        assert a.ip == '0.0.0.0' and a.port == PORT
    assert "--lektion" in shown[0]
    assert f"alltså\n{sum(bismarck_tables(CLASS).values())}" in html or f"alltså {sum(bismarck_tables(CLASS).values())}" in html



READY_KERNEL_MB = 65      # note 38: 81 kernels in waiting took 5.3 GB (5,300 / 81 = 65 MB each)


def kernels_for(args: list[str]) -> int:
    "How many kernels the classroom starts ahead for `plump-teach ARGS`, from the option defaults and the pupil pages."
    from pathlib import Path
    from plump_teach.classroom.app import cli_parser
    from plump_teach.classroom.server import has_code, lesson_pools
    a = cli_parser().parse_args(args)
    folder = Path(__file__).resolve().parents[1] / "nbs" / "elev"
    static = tuple(f.name for f in folder.glob("*.ipynb") if not has_code(json.loads(f.read_text(encoding="utf-8"))))
    ready = tuple(f.name for n in a.lektion for f in folder.glob(f"{n:02d}_*.ipynb"))
    pools = lesson_pools(folder, a.max_pupils, a.pool, a.lesson_pool, static=static, ready=ready)
    return sum(pools.size(n) for n in pools.names)


def test_the_memory_advice_is_true_for_the_option_defaults():
    """Issue 39: with --lektion and the defaults the classroom holds 81 kernels in waiting, about 5.3 GB, which an
    8 GB laptop hardly has. The setup page, the README and the docs' home page say how much a kernel takes and give a
    smaller --pool as a command that runs; every number follows from the option defaults and the measured 65 MB."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    full, small = kernels_for(["--lektion", "1"]), kernels_for(["--lektion", "1", "--pool", "10"])
    assert (full, small) == (81, 61)
    gb = lambda n: f"{n * READY_KERNEL_MB / 1000:.1f}".replace(".", ",").replace(",0", "")
    assert (gb(full), gb(small)) == ("5,3", "4")
    for where, text in (("kom-igang", setup_page()), ("README", (root / "README.md").read_text(encoding="utf-8")),
                        ("index", "".join("".join(c["source"]) for c in json.loads(
                            (root / "nbs" / "index.ipynb").read_text(encoding="utf-8"))["cells"]))):
        flat = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text))
        assert f"ungefär {READY_KERNEL_MB} MB" in flat and "8 GB" in flat, where
        assert f"{full} kärnor" in flat and f"{gb(full)} GB" in flat, where
        command = re.search(r"plump-teach (--ip 0\.0\.0\.0 --lektion \d+ --pool \d+)", flat)
        assert command, where
        assert kernels_for(command.group(1).split()[2:]) == small and f"{small} kärnor" in flat, where
        assert f"ungefär {gb(small)} GB" in flat, where


# ---------------------------------------------------------------- elevens blad utan regelkoder

_CODE = re.compile(r"\((?:regel |se )?[PB]\d{1,2}\b|class=\"rid\"")


def test_pupil_worksheets_have_no_rule_codes():
    """Arbetsbladen delas ut till eleverna: inga regelkoder (P13, B2) i pusslens text, husreglerna eller rubrikerna, som
    på elevens skärm. Facit är lärarens och har kvar dem."""
    for l in PUPIL_LESSONS:
        ws, key = lesson_worksheet(l), lesson_worksheet(l, key=True)
        assert not _CODE.search(ws), (l.file, _CODE.search(ws).group())
        assert _CODE.search(key), l.file
    assert not _CODE.search(worksheet(['score', 'trump', 'schedule'], [1, 17], 2))       # husregler med (P13), (P8), (P3)
    assert _CODE.search(answer_key(['score', 'trump', 'schedule'], [1, 17], 2))
    assert not _CODE.search(worksheet(['bismarck_discard'], [1, 2]))                    # (B2, B4) i situationen


def test_the_overview_rule_for_uneven_classes_is_the_tables():
    "Körschemats regel för en klass som inte går jämnt upp säger det som plump_tables och bismarck_tables gör, 6–60 elever."
    from plump_teach.course.run_sheet_pages import run_sheets_page
    text = re.sub(r"\s+", " ", run_sheets_page())
    assert ("Går klassen inte jämnt upp har i Plump ett bord fem elever eller ett eller två bord tre, och i Bismarck får "
            "ett eller två bord en fjärde") in text
    for n in range(6, 61):
        p, b = plump_tables(n), bismarck_tables(n)
        assert p.get(5, 0) <= 1 and p.get(3, 0) <= 2 and not (p.get(5) and p.get(3))
        assert b.get(4, 0) <= 2
