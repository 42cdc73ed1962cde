"""Elevens yta utan regelkoder (issue 29): det en elev ser säger regeln i ord, aldrig "P6" eller "(regel B4)".

Rule IDs belong in the library, the tests, the teacher's pages and the lesson plan. On pupil pages they are kept as
HTML comments (`<!-- regel P6 -->`, which no renderer shows), so the course can still check that every rule is taught
(test_pupil_lessons); in the widgets every HTML box on the table and in the puzzles goes through `pupil_text`, which
takes the codes the engine adds to its sentences away. These tests play as a pupil does and read every text, button
and tooltip the widgets show.
"""
import html
import json
import re
from pathlib import Path

import pytest

from plump_teach.engine.plump_rules import PlumpError, PlumpRules, bid_error
from plump_teach.puzzles.registry import PUZZLE_KINDS
from plump_teach.ui.lesson import PupilHTML, pupil_text
from plump_teach.ui.puzzle_widget import PuzzleWidget
from plump_teach.ui.table import BismarckTable, PlayTable

from test_table import click_once

ELEV = Path(__file__).resolve().parents[1] / "nbs" / "elev"
CODE = re.compile(r"(?<![\w%-])[PB]\d{1,2}(?!\d)")


def shown(text: str) -> str:
    "Det en läsare ser av HTML: utan stilmallar, kommentarer och taggar."
    return html.unescape(re.sub(r"<style.*?</style>|<!--.*?-->|<[^>]+>", " ", text, flags=re.S))


def widget_texts(w, out=None, skip_hidden: bool = False) -> list[str]:
    """Allt en widget visar: värden, knapptexter, tips (tooltip), platshållare och valen i menyer, ner genom barnen;
    med `skip_hidden` inte det som är dolt (layout.display 'none') just nu."""
    out = [] if out is None else out
    if skip_hidden and getattr(getattr(w, "layout", None), "display", None) == "none": return out
    for attr in ("value", "description", "tooltip", "placeholder"):
        v = getattr(w, attr, None)
        if isinstance(v, str): out.append(v)
    for o in getattr(w, "options", ()) or ():
        out.append(str(o[0] if isinstance(o, tuple) else o))
    for c in getattr(w, "children", ()) or ():
        widget_texts(c, out, skip_hidden)
    return out


def codes_in(texts) -> list[str]:
    found = []
    for t in texts:
        plain = shown(t)
        found += [plain[max(0, m.start() - 50): m.end() + 10].strip() for m in CODE.finditer(plain)]
    return found


def test_pupil_text_takes_the_codes_and_nothing_else():
    assert pupil_text("Att lägga ♣6 vore renons (B6).") == "Att lägga ♣6 vore renons."
    assert pupil_text("Välj spelsätt (B4):") == "Välj spelsätt:"
    assert pupil_text("Buden (regel P5, P6 och P16) är sagda.") == "Buden är sagda."
    assert pupil_text("Från tio kort (P3–P4) ner") == "Från tio kort ner"
    kept = "Lägg ♥E (ditt högsta kort), ta 2 stick (av 5) i P-huset"
    assert pupil_text(kept) == kept
    assert pupil_text(None) is None and pupil_text("") == ""
    box = PupilHTML("Förbjudet (P6).")
    assert box.value == "Förbjudet."
    box.value = "Nu (B7) igen"
    assert box.value == "Nu igen"


def test_the_engine_still_names_the_rule_for_the_library_and_the_teacher():
    "pupil_text is a way of showing, not a change to the engine: its sentences keep the rule for others."
    assert "(P6)" in bid_error(0, 3, [1, 2], 3, PlumpRules())


@pytest.mark.parametrize("name", sorted(p.name for p in ELEV.glob("*.ipynb")))
def test_pupil_pages_show_no_rule_codes(name):
    nb = json.loads((ELEV / name).read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert not codes_in([text]), f"{name}: {codes_in([text])}"


def play_with_tips(t, limit=2500) -> list[str]:
    "A pupil's game: Tips at every own turn, every text read after each click, to the end and the analysis."
    seen = widget_texts(t)
    for _ in range(limit):
        if t.game.deal is None: break
        if not t.paused and t.state.to_act in t.humans and not t.tips_button.disabled:
            t.tips_button.click()            # the three steps of Tips: the question, the advice, the numbers
            seen += widget_texts(t)
            t.advice_button.click()
            seen += widget_texts(t)
            if t.numbers_button.layout.display != "none":
                t.numbers_button.click()
                seen += widget_texts(t)
        if t.last_button.layout.display != "none" and not t.last_button.disabled:
            t.last_button.click(); seen += widget_texts(t); t.last_button.click()
        click_once(t)
        seen += widget_texts(t)
    assert t.game.deal is None, "partiet tog inte slut"
    seen += widget_texts(t)
    return seen


@pytest.mark.parametrize("rules", [PlumpRules(down_only=True), PlumpRules(down_only=True, blind_one_card=True),
                                   PlumpRules(down_only=True, no_zero_twice=True, must_trump=True)])
def test_a_whole_plump_game_at_the_table_shows_no_rule_code(rules):
    t = PlayTable(3, level="van", rules=rules, seed=4, pace=0, first_deal=4)   # van: datorns siffror finns också
    assert not codes_in(play_with_tips(t))


def test_a_short_bismarck_game_at_the_table_shows_no_rule_code():
    t = BismarckTable(3, seed=3, pace=0, short=True)
    assert not codes_in(play_with_tips(t))


def test_the_tables_setup_shows_no_rule_code():
    t = PlayTable()
    seen = widget_texts(t)
    for key in [v for _, v in t.form.rules_choice.options]:
        t.form.rules_choice.value = key
        seen += widget_texts(t)
    for level in [v for _, v in t.form.level_choice.options] if isinstance(t.form.level_choice.options[0], tuple) else t.form.level_choice.options:
        t.form.level_choice.value = level
        seen += widget_texts(t)
    t.setup("bismarck")
    seen += widget_texts(t)
    assert not codes_in(seen)


@pytest.mark.parametrize("kind,level", [(k.key, l) for k in PUZZLE_KINDS.values() for l in k.levels])
def test_puzzles_show_no_rule_code_as_the_pupil_goes_through_them(kind, level):
    seen = []
    for number in (1, 2):
        w = PuzzleWidget(kind, number, level)
        seen += widget_texts(w)
        w.hint_button.click()
        seen += widget_texts(w)
        wrong = [b for b in w.buttons if b.option_key not in w.puzzle.answers]
        if wrong:
            wrong[0].click()
            seen += widget_texts(w)
        w.show_button.click()
        seen += widget_texts(w)
    assert not codes_in(seen), codes_in(seen)[:5]
