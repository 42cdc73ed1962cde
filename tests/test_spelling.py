"""Stavningskontroll på svenska: allt som en elev läser ska finnas i ordboken eller i ordlistan.

Swedish spell check with Debian's hunspell and the sv_SE dictionary (package hunspell-sv), over

* the markdown prose and the code comments of every notebook in nbs/ (recursively, so new lessons are
  checked as they come),
  with code spans, code blocks, link URLs, HTML tags, LaTeX, card codes (♠10, ♥E) and rule ids
  (P1–P21, B1–B9) removed first;
* the texts of the puzzles (every kind, level and number 1..30: title, question, situation, the
  options' labels, the feedback of every option, the hint), the house rules' texts, the rule presets,
  the Swedish messages of a set of representative bad calls and the help of the command `plump-teach`;
* the widgets as they are shown: the puzzle trainer, a puzzle after a hint and a wrong answer, and the
  score keeper's first page;
* the teacher's pack: rule sheets, blank score sheets, a worksheet and its answer key.

A word that is neither in the dictionary nor in tests/ordlista.txt fails the test, listed with where
it occurs. Missing hunspell or sv_SE: skipped locally, a failure when the environment variable CI is
set (the same policy as the browser tests).
"""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORDLIST = Path(__file__).with_name("ordlista.txt")
INSTALL_HINT = "apt-get install -y hunspell hunspell-sv"
NUMBERS = range(1, 31)


# --------------------------------------------------------------------------- hunspell

def _unavailable(sv: str, en: str):
    msg = (f"Stavningskontrollen kan inte köras: {sv} saknas. Installera med: {INSTALL_HINT}.\n"
           f"The spell check cannot run: {en} is missing. Install with: {INSTALL_HINT}.")
    if os.environ.get("CI"):
        pytest.fail(msg + "\nCI är satt, så testet misslyckas i stället för att hoppas över "
                    "(CI is set, so this fails instead of skipping).", pytrace=False)
    pytest.skip(msg)


def _hunspell() -> str:
    exe = shutil.which("hunspell")
    if exe is None:
        _unavailable("programmet hunspell", "the hunspell program")
    r = subprocess.run([exe, "-D"], input="", capture_output=True, text=True)
    if not re.search(r"sv_SE(\.dic)?\s*$", r.stdout + r.stderr, re.M):
        _unavailable("den svenska ordboken sv_SE (paketet hunspell-sv)", "the Swedish dictionary sv_SE")
    return exe


def unknown_words(words, exe: str) -> set[str]:
    "De av `words` som hunspell inte känner igen (ett ord per rad in, ett per rad ut)."
    r = subprocess.run([exe, "-d", "sv_SE", "-i", "utf-8", "-l"], input="\n".join(sorted(words)) + "\n",
                       capture_output=True, text=True, check=True)
    return set(r.stdout.split())


ENDINGS = ("", "s", "n", "ns", "en", "ens", "et", "ets", "t", "ts", "na", "nas", "ar", "arna", "er", "erna", "e")

def allowed(word: str, listed: set[str]) -> bool:
    "Ordet står i listan, eller är ett listat ord med en svensk böjningsändelse (givschema -> givschemat)."
    w = word.casefold()
    return any(w[:len(w) - len(e)] in listed for e in ENDINGS if w.endswith(e) and len(w) > len(e))


def wordlist() -> set[str]:
    "Ordlistan: ett ord per rad; rader som börjar med # och det som står efter # är kommentarer."
    words = set()
    for line in WORDLIST.read_text(encoding="utf-8").splitlines():
        w = line.split("#", 1)[0].strip()
        if w: words.add(w.casefold())
    return words


# --------------------------------------------------------------------------- texter

WORD = re.compile(r"[^\W\d_]+(?:[-’'][^\W\d_]+)*")
SUITS = "♠♥♦♣"

def strip_text(text: str) -> str:
    "Ta bort det som inte är svensk prosa: html-taggar, url:er, kortkoder och regelns id."
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S | re.I)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(rf"[{SUITS}]\ufe0f?\s?(?:10|[2-9EKDJAQ]|Kn)?", " ", text)    # ♠10, ♥E, ♣Kn, ♦
    text = re.sub(r"\b[PB]\d{1,2}\b", " ", text)                           # regelns id
    text = re.sub(r"\w*_\w*", " ", text)                                     # identifierare: dealer_bid
    text = re.sub(r"'[a-z_]+'", " ", text)                                   # nycklar i koden: 'score'
    return text


def strip_markdown(md: str) -> str:
    "Markdownens prosa: utan kodblock, kodspann, LaTeX och länkarnas adresser."
    md = re.sub(r"```.*?```", " ", md, flags=re.S)
    md = re.sub(r"`[^`]*`", " ", md)
    md = re.sub(r"\$\$.*?\$\$", " ", md, flags=re.S)
    md = re.sub(r"\$[^$\n]+\$", " ", md)
    md = re.sub(r"\]\([^)]*\)", "] ", md)          # [text](adress) -> [text]
    md = re.sub(r"^\s*\[[^\]]+\]:\s*\S+", " ", md, flags=re.M)
    md = re.sub(r"<!--.*?-->", " ", md, flags=re.S)
    md = re.sub(r"\*+", "", md)                     # fetstil och kursiv: **s**pader
    return strip_text(md)


COMMENT = re.compile(r"""^[^'"#]*#(?![|]|[0-9a-fA-F]{3,8}\b)\s?(.*)$""")   # inte #| och inte färgen #ccc
PRAGMA = re.compile(r"(type|pragma):|noqa\b")           # rader till verktygen (# type: ignore[override], # noqa: F401)

def comments(code: str) -> str:
    "Kodcellens kommentarer (inte nbdev:s #| och inte # inuti strängar), med kodspann bortplockade."
    found = [m.group(1) for line in code.splitlines() if (m := COMMENT.match(line)) and not PRAGMA.match(m.group(1))]
    text = re.sub(r"\b(True|False|None)\b", " ", "\n".join(found))           # Pythons ord
    text = re.sub(r"\b[A-Z]?[a-z]+[A-Z]\w*", " ", text)                       # klassnamn: IntText
    return strip_markdown(text)


def notebook_texts():
    "(källa, text) för varje markdowncell och kodcellernas kommentarer i nbs/, också i undermappar."
    for nb in sorted((ROOT / "nbs").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts: continue
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        for i, c in enumerate(cells, 1):
            if c["cell_type"] == "markdown":
                yield f"{nb.relative_to(ROOT)}, cell {i}", strip_markdown("".join(c["source"]))
            elif c["cell_type"] == "code":
                yield f"{nb.relative_to(ROOT)}, cell {i} (kommentar)", comments("".join(c["source"]))


def puzzle_texts():
    "(källa, text) för alla pussel: varje sort, nivå och nummer 1..30."
    import plump_teach.puzzles.bismarck  # noqa: F401  (registrerar Bismarcks sorter)
    from plump_teach.puzzles.registry import PUZZLE_KINDS, make_puzzle
    for kind, k in PUZZLE_KINDS.items():
        for level in k.levels:
            for n in NUMBERS:
                p = make_puzzle(kind, n, level)
                src = f"pussel {kind} nivå {level} nr {n}"
                yield src, " ".join([p.title, p.question, p.situation, p.hint])
                for o in p.options:
                    f = p.check(o.key)
                    yield f"{src}, svaret {o.key}", " ".join([o.label, o.aria, f.text, f.html])


def rule_texts():
    from plump_teach.engine.plump_rules import HOUSE_RULE_TEXT, RULE_PRESETS
    for k, t in HOUSE_RULE_TEXT.items():
        yield f"HOUSE_RULE_TEXT[{k!r}]", t
    for k, p in RULE_PRESETS.items():
        yield f"RULE_PRESETS[{k!r}]", f"{p.title} {p.description}"


def widget_strings(w, seen=None):
    "Texterna som en widget och dess barn visar: värden, beskrivningar, platshållare, tips och alternativ."
    seen = set() if seen is None else seen
    if id(w) in seen: return
    seen.add(id(w))
    labels = getattr(w, "_options_labels", None)
    if labels is not None:                        # en lista att välja i: värdet är en nyckel, etiketterna syns
        yield from (o for o in labels if isinstance(o, str))
    for attr in ("description", "placeholder", "tooltip") + (() if labels is not None else ("value",)):
        v = getattr(w, attr, None)
        if isinstance(v, str): yield v
    for c in getattr(w, "children", ()) or ():
        yield from widget_strings(c, seen)


def widget_texts(tmp_path):
    "Pusselträningen, ett pussel efter ett fel svar och en ledtråd, och protokollförarens första sida."
    from plump_teach.ui.keeper import ProtocolWidget
    from plump_teach.ui.puzzle_trainer import PuzzleTrainer
    from plump_teach.ui.puzzle_widget import show_puzzle
    yield "PuzzleTrainer", " ".join(widget_strings(PuzzleTrainer(rounds=3, seed=1)))
    for kind in ("dealer_bid", "right_card", "sheet_error", "bismarck_discard"):
        w = show_puzzle(kind, 1)
        wrong = next(o.key for o in w.puzzle.options if o.key not in w.puzzle.answers)
        w.show_hint()
        w.answer(wrong)
        yield f"show_puzzle({kind!r}, 1) efter fel svar", " ".join(widget_strings(w))
    text = " ".join(widget_strings(ProtocolWidget(tmp_path / "protokoll.json")))
    yield "ProtocolWidget", re.sub(r"\S*protokoll\.json", " ", text.replace(str(tmp_path), " "))   # sökvägen


def teacher_texts():
    "Lärarmaterialets sidor: regelbladen, de tomma protokollen, lektionsplanen, arbetsbladet och facit."
    import plump_teach.puzzles.bismarck  # noqa: F401
    from plump_teach.course import teacher as t, worksheets as w, lesson_plan as lp
    from plump_teach.engine.plump_rules import RULE_PRESETS
    from plump_teach.puzzles.registry import PUZZLE_KINDS
    for k, p in RULE_PRESETS.items():
        yield f"lärarmaterial: regelblad Plump ({k})", t.rule_sheet_plump(p.rules)
    yield "lärarmaterial: regelblad Bismarck", t.rule_sheet_bismarck()
    for n in range(2, 7):
        yield f"lärarmaterial: tomt protokoll Plump, {n} spelare", t.blank_sheet_plump(n)
    yield "lärarmaterial: tomt protokoll Bismarck", t.blank_sheet_bismarck()
    numbers = [1, 2, 3]                                 # varje sort med tre nummer, på varje nivå den har
    for level in (1, 2):
        kinds = [k for k, v in PUZZLE_KINDS.items() if level in v.levels]
        yield f"lärarmaterial: arbetsblad, nivå {level}", w.worksheet(kinds, numbers, level)
        yield f"lärarmaterial: facit, nivå {level}", w.answer_key(kinds, numbers, level)
    yield "lärarmaterial: lektionsplan", lp.lesson_plan()


def cli_texts():
    "Hjälpen och ett fel på kommandoraden `plump-teach`, utan programmets namn och pusselsorternas nycklar."
    from plump_teach.classroom.app import cli_parser
    from plump_teach.puzzles.registry import PUZZLE_KINDS
    ap = cli_parser()
    text = ap.format_help() + ap.format_usage()
    for key in sorted(PUZZLE_KINDS, key=len, reverse=True):
        text = text.replace(key, " ")
    yield "plump-teach -h", re.sub(r"plump-teach|--[\w-]+", " ", text)


def _bad_calls():
    "Representativa felaktiga anrop; vart och ett ska ge ett ValueError med ett svenskt meddelande."
    from plump_teach.engine import bismarck as bm
    from plump_teach.engine.cards import parse_card, parse_cards
    from plump_teach.engine.plump_game import PlumpGame
    from plump_teach.engine.bismarck_game import BismarckGame
    from plump_teach.engine.plump_rules import PlumpRules, deal_schedule, rule_preset
    from plump_teach.engine.scoresheet import ScoreKeeper
    from plump_teach.puzzles.registry import make_puzzle

    def game():
        return PlumpGame(["Anna", "Bo", "Cissi"], seed=1)

    return {
        "parse_card('♠1')": lambda: parse_card("♠1"),
        "parse_card('X')": lambda: parse_card("X"),
        "parse_cards('♠2 ♠2')": lambda: parse_cards("♠2 ♠2"),
        "PlumpGame(en spelare)": lambda: PlumpGame(["Anna"]),
        "PlumpGame(samma namn)": lambda: PlumpGame(["Anna", "Anna", "Bo"]),
        "bud av fel spelare": lambda: game().bid("Cissi", 0),
        "bud för högt": lambda: (lambda g: g.bid(g.to_act, 99))(game()),
        "okänd spelare": lambda: game().bid("Olle", 0),
        "kort före buden": lambda: (lambda g: g.play(g.to_act, g.deal.hands[0][0]))(game()),
        "deal_schedule(9)": lambda: deal_schedule(9),
        "rule_preset('x')": lambda: rule_preset("x"),
        "PlumpRules(två schemaregler)": lambda: PlumpRules(down_only=True, upward_only=True),
        "make_puzzle('x')": lambda: make_puzzle("x"),
        "make_puzzle(nummer 0)": lambda: make_puzzle("score", 0),
        "make_puzzle(nivå 3)": lambda: make_puzzle("score", 1, 3),
        "svar som inte finns": lambda: make_puzzle("score", 1).check("x"),
        "PlumpGame.from_json('{}')": lambda: PlumpGame.from_json("{}"),
        "PlumpGame.from_json('x')": lambda: PlumpGame.from_json("x"),
        "bismarck.check_mode('x')": lambda: bm.check_mode("x"),
        "bismarck.parse_suit('x')": lambda: bm.parse_suit("x"),
        "bismarck.left_of(5)": lambda: bm.left_of(5),
        "bismarck_score(fel stick)": lambda: bm.bismarck_score("trumf", [5, 5, 5], 0),
        "BismarckDeal(en hand)": lambda: bm.BismarckDeal(["♠2"], "♠3"),
        "BismarckGame(två spelare)": lambda: BismarckGame(["Anna", "Bo"]),
        "Bismarck: fel spelare lägger bort": lambda: (lambda g: g.discard(g.players[0], "♠2 ♠3 ♠4 ♠5"))(
            BismarckGame(["Anna", "Björn", "Cecilia"], seed=1)),
        "Bismarck: okänt spelsätt": lambda: (lambda g: g.choose_mode(g.players[1], "schack"))(
            BismarckGame(["Anna", "Björn", "Cecilia"], seed=1)),
        "protokoll: bud av fel spelare": lambda: ScoreKeeper(["Anna", "Bo", "Cissi"]).bid("Anna", 0),
        "protokoll: stick före buden": lambda: ScoreKeeper(["Anna", "Bo", "Cissi"]).tricks([1, 2, 3]),
    }


def error_texts():
    for name, call in _bad_calls().items():
        try:
            call()
        except ValueError as e:
            yield f"felet vid {name}", str(e)
        except Exception:    # ett anrop som inte längre passar API:t: hoppa över, andra tester ser felen
            continue


# --------------------------------------------------------------------------- testen

def check(sources) -> dict[str, list[str]]:
    "Okända ord -> var de står, för (källa, text) i `sources`."
    exe = _hunspell()
    where = defaultdict(list)
    for src, text in sources:
        for w in WORD.findall(strip_text(text)):
            if len(w) > 1 and src not in where[w]:
                where[w].append(src)
    listed = wordlist()
    parts = {p for w in where for p in re.split(r"[-’']", w) if len(p) > 1}
    bad = {w for w in unknown_words(set(where) | parts, exe) if not allowed(w, listed)}
    # ett ord med bindestreck är rätt om det står i listan, eller om varje led är rätt
    return {w: s for w, s in where.items() if not allowed(w, listed)
            and (any(p in bad for p in re.split(r"[-’']", w) if len(p) > 1) if re.search(r"[-’']", w)
                 else w in bad)}


def report(found: dict[str, list[str]]) -> str:
    lines = [f"{len(found)} ord finns varken i ordboken sv_SE eller i tests/ordlista.txt "
             "(rätta stavningen, eller lägg till ordet i listan med ett skäl):"]
    for w in sorted(found, key=str.casefold):
        s = found[w]
        lines.append(f"  {w}: {', '.join(s[:3])}{' …' if len(s) > 3 else ''}")
    return "\n".join(lines)


def test_notebook_prose_is_swedish():
    found = check(notebook_texts())
    assert not found, report(found)


def test_widget_and_error_texts_are_swedish():
    found = check([*puzzle_texts(), *rule_texts(), *error_texts(), *cli_texts()])
    assert not found, report(found)


def test_widgets_are_swedish(tmp_path):
    found = check(widget_texts(tmp_path))
    assert not found, report(found)


def test_teacher_pack_is_swedish():
    found = check(teacher_texts())
    assert not found, report(found)


def test_check_finds_a_misspelling():
    "Kontrollen hittar ett felstavat ord och säger var det står; kod, kort och id räknas inte."
    found = check([("prov", strip_markdown("Givaren bjuder sisst. `legal_bids` ♠10 ♥E P13 <b>x</b> **s**pader "
                                           "https://ex.se/abc legal_bids 'score' ettkortsgivarna"))])
    assert list(found) == ["sisst"] and found["sisst"] == ["prov"]
    code = "#| export\nx = 1  # follow suit if you can\ncss = 'color: #ccc'\n# `legal_bids` ger True\ny = 2  # type: ignore[override]"
    assert comments(code).split() == ["follow", "suit", "if", "you", "can", "ger"]
    assert strip_markdown("Se [reglerna](https://x.se/yy) och `make_puzzle`.").split() == ["Se", "[reglerna]", "och", "."]


def test_error_calls_give_messages():
    "Varje felaktigt anrop i listan ger verkligen ett felmeddelande (annars kontrolleras inget)."
    texts = dict(error_texts())
    assert len(texts) == len(_bad_calls()), sorted(set(_bad_calls()) - {k[9:] for k in texts})


def test_wordlist_is_needed():
    "Varje ord i ordlistan saknas verkligen i sv_SE (annars ska det inte stå där)."
    exe = _hunspell()
    listed = {line.split("#", 1)[0].strip() for line in WORDLIST.read_text(encoding="utf-8").splitlines()} - {""}
    known = listed - unknown_words(listed, exe)
    assert not known, f"Dessa ord finns redan i ordboken och kan tas bort ur tests/ordlista.txt: {sorted(known)}"
