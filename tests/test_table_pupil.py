"""Spelbordet som en elev ser det (issue 39): raden om vems tur det är står inte kvar, Tips bara på elevens tur,
Nytt parti behåller nivån, slutet säger elevens placering i ord, och ställningen står vid handen på en telefon."""
from __future__ import annotations

import asyncio
import re

import pytest

from plump_teach.engine.plump_rules import PlumpRules
from plump_teach.engine.bismarck import normal_tricks
from plump_teach.ui.table import PlayTable, BismarckTable
from plump_teach.ui.table_after import places, places_text
from plump_teach.ui.styles import table_style


@pytest.fixture(autouse=True)
def _folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # bordet sparar sina partier i notebookens mapp


def greyed(t) -> list:
    return [c for c, b in t.card_buttons.items() if "pt-nej" in b._dom_classes]


def move(t):
    "Ett tillåtet drag för eleven: Nästa giv, ett bud, ett kort, fyra kort att lägga bort, ett spelsätt."
    if t.paused == "result": return t.next_button.click()
    st = t.state
    if st.phase == "bidding": return next(b for b in t.bid_buttons.values() if not b.disabled).click()
    if st.phase == "discard":
        for c in list(t.card_buttons)[:4]: t.card_buttons[c].click()
        return t.discard_button.click()
    if st.phase == "mode": return next(b for b in t.mode_buttons.values() if not b.disabled).click()
    next(b for c, b in t.card_buttons.items() if c not in greyed(t)).click()


def test_wait_line_goes_away_and_tips_only_on_the_pupils_turn():
    "Med datorns takt: ett klick under datorns tur säger Vänta, och raden står inte kvar när turen har gått vidare."
    async def play():
        t = PlayTable(3, rules=PlumpRules(down_only=True), seed=5, pace=0.02, level="nybörjare")
        said = stayed = computer_turns = 0
        for _ in range(400):
            st = t.state
            if st is None: break
            mine = st.to_act == t.viewer and not t.paused
            if t.paused == "result" or mine:
                if "Vänta" in t.message.value: stayed += 1
                for _ in range(40):                  # bordet ritar om strax efter att turen har gått (en belastad dator)
                    if not t.tips_button.disabled or t.paused: break
                    await asyncio.sleep(0.025)
                assert not t.tips_button.disabled or t.paused
                move(t)
            else:
                computer_turns += 1
                if not t.tips_button.disabled and (t.state is None or t.state.to_act == t.viewer or t.paused): continue
                assert t.tips_button.disabled and "din tur" in t.tips_button.tooltip
                if t.card_buttons:
                    list(t.card_buttons.values())[0].click()
                    if "Vänta" in t.message.value: said += 1
            await asyncio.sleep(0.025)
        return t, said, stayed, computer_turns
    # en egen tråd med en egen händelseslinga: ett tidigare test i samma process kan ha lämnat en slinga igång
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as ex: t, said, stayed, computer_turns = ex.submit(asyncio.run, play()).result()
    t._cancel_timer()
    assert computer_turns > 5 and said > 0
    assert stayed == 0


def test_new_game_keeps_the_chosen_level():
    t = PlayTable()
    t.form.level_choice.value = "expert"
    t.form.seed_input.value = "3"
    t.form.start_button.click()
    assert t.level == "expert"
    t.new_button.click()     # partiet sparas i notebookens mapp, så Nytt parti går direkt till inställningen
    assert t.form.start_button in t.form.children and t.form.level_choice.value == "expert"
    assert "Expert" in t.form.level_info.value


def _finish(t):
    for _ in range(3000):
        if t.game.deal is None: return t
        move(t)
    raise AssertionError("partiet tog inte slut")


PLACE_WORDS = ("etta", "tvåa", "trea", "fyra", "femma", "sexa")


@pytest.mark.parametrize("seed", range(1, 5))
def test_the_end_says_the_pupils_place_in_words(seed):
    "Placeringen räknad ur partiets summor: flest poäng vinner, lika summor delar placeringen."
    t = _finish(PlayTable(3, rules=PlumpRules(down_only=True), seed=seed, first_deal=4, pace=0, level="nybörjare"))
    text = re.sub("<[^>]+>", "", t.after.children[0].value)
    totals = t.game.totals
    mine = totals[0]
    place = 1 + sum(x > mine for x in totals)
    tied = [t.game.players[s] for s in range(1, 3) if totals[s] == mine]
    if place == 1 and not tied: assert "Du vann!" in text
    else:
        assert "Du vann" not in text
        assert f"Du kom {'delad ' if tied else ''}{PLACE_WORDS[place - 1]}" in text
        for name in tied: assert name in text.split("Du kom")[1].split(".")[0]


def test_places_with_ties_and_two_pupils(monkeypatch):
    t = PlayTable(3, rules=PlumpRules(down_only=True), seed=2, first_deal=5, pace=0, humans=(0, 1))
    totals = [10, 10, 3]                                                   # två lika: båda delar förstaplatsen
    monkeypatch.setattr(type(t.game), "totals", property(lambda self: list(totals)))
    assert places(t.game.totals) == {0: (1, [1]), 1: (1, [0]), 2: (3, [])}
    words = re.sub("<[^>]+>", "", places_text(t.session))
    assert words == "Elev 1 kom delad etta med Elev 2. Elev 2 kom delad etta med Elev 1."
    totals[:] = [3, 10, 10]
    assert re.sub("<[^>]+>", "", places_text(t.session)) == "Elev 1 kom trea. Elev 2 kom delad etta med Datorn Anna."
    totals[:] = [12, 10, 3]
    assert re.sub("<[^>]+>", "", places_text(t.session)) == "Elev 1 vann! Elev 2 kom tvåa."


def _check_score_line(t):
    st = t.state
    line = re.sub("<[^>]+>", "", t.score_line.value)
    if st is None or t.paused == "handover": return line == ""
    s, totals = t.viewer, t.game.totals
    if t.kind == "plump":
        bid = st.view(s).bids[s]
        assert f"Ditt bud: {'inget än' if bid is None else bid}" in line
        assert f"Dina poäng: {totals[s]}" in line
    else:
        if st.mode: assert f"(normalt {normal_tricks(st.mode, s == st.forehand)})" in line
    assert f"Dina stick: {st.taken[s]}" in line
    best = max(totals)
    leaders = [t.game.players[p] for p in range(len(totals)) if totals[p] == best]
    if len(leaders) == len(totals): assert "Alla har lika många poäng." in line
    elif leaders == ["Du"]: assert "Du leder." in line
    else: assert all(n in line.split("·")[-1] for n in leaders) and "Du" not in line.split("·")[-1]
    return True


@pytest.mark.parametrize("make", [lambda: PlayTable(4, rules=PlumpRules(down_only=True), seed=4, first_deal=4, pace=0),
                                  lambda: BismarckTable(3, seed=3, pace=0, short=True)], ids=["plump", "bismarck"])
def test_the_score_line_beside_the_hand_is_true(make):
    "Raden vid handen (syns på en telefon): budet, sticken, poängen och vem som leder, som partiet räknar dem."
    t = make()
    checked = 0
    for _ in range(3000):
        if t.game.deal is None: break
        if _check_score_line(t): checked += 1
        move(t)
    assert checked > 10
    assert t.score_line.value == ""
    css = table_style()
    assert "@media (max-width:900px){.pt-bord .pt-poangrad{display:block}}" in css


def test_a_big_hand_lies_in_two_rows_on_a_phone():
    "Bismarcks 16-20 kort och Plumps största händer: kortklassen som lägger dem lite över varandra på en smal skärm."
    t = BismarckTable(3, seed=3, pace=0, short=True)
    assert len(t.card_buttons) == 20 and "pt-hand-tat-10" in t.hand_box._dom_classes   # förhand: tio i varje rad
    css = table_style()
    assert ".pt-bord .pt-hand-tat-10 .pt-kort{margin-right:min(2px, calc((100% - 1px) / 10 - 60px))}" in css
    plump = PlayTable(3, rules=PlumpRules(down_only=True), seed=1, pace=0)       # tio kort: fem i varje rad
    assert len(plump.card_buttons) == 10 and "pt-hand-tat-5" in plump.hand_box._dom_classes
    small = PlayTable(3, rules=PlumpRules(down_only=True), seed=1, first_deal=7, pace=0)
    assert len(small.card_buttons) <= 8 and not any(c.startswith("pt-hand-tat") for c in small.hand_box._dom_classes)


@pytest.mark.parametrize("level", ["nybörjare", "van"])
def test_the_short_review_after_a_deal_speaks_at_the_tables_level(level):
    """Issue 39: efter en giv säger den korta genomgången hur ofta i ord för en nybörjare, i antal ("i 51 av dem")
    först på nivån van; datorernas skäl vid bordet har inga regelkoder."""
    t = PlayTable(3, rules=PlumpRules(down_only=True), seed=4, first_deal=3, pace=0, level=level)
    for _ in range(500):
        if t.paused == "result": break
        move(t)
    text = re.sub("<[^>]+>", "", t.result_html)
    assert not re.search(r"\((?:regel |se )?[PB]\d", text), text
    review = text.split("Kort genomgång", 1)[1]
    counts = re.search(r"\bi \d+ av (?:dem|\d+)", review)
    if level == "nybörjare":
        assert counts is None and not re.search(r"%|snitt|provgiv", review), review
    else:
        assert counts, review
