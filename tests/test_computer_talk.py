"""Issue 39, "the computer talks like a statistician": the words the computers and Tips say to a pupil.

Frequencies in words are true for the counts (`FREQUENCY_BANDS`); no "%", "snitt" or "provgivar" in a sentence a
pupil reads outside "Datorns siffror" (`Decision.numbers`, `TipSteps.numbers`), at every level; a plump is never
praised; the full analysis shows no rule codes; Bismarck's förhand is never asked what is missing to the normal
once it is reached; a forced card is said once and plainly. Each test keeps under 20 s with few samples.
"""
from __future__ import annotations

import html
import random
import re

import pytest

from plump_teach.bots.decision import FREQUENCY_BANDS, chance_words, frequency_words
from plump_teach.bots.players import make_bot, public_reason
from plump_teach.bots.tip_steps import tip_question, tip_steps
from plump_teach.bots.review import analyse_deal, deal_summary
from plump_teach.bots.own_puzzles import own_puzzles
from plump_teach.bots.search import simulated_bid
from plump_teach.engine.actions import Bid, ChooseMode
from plump_teach.engine.bismarck import normal_tricks
from plump_teach.engine.plump_rules import PlumpRules
from plump_teach.engine.state import BismarckState, PlumpState
from plump_teach.ui.analysis import analysis_html, deal_summary_html

from test_pupil_surface import shown, widget_texts

NUMBER_WORDS = re.compile(r"%|snitt|provgivar")
CODE = re.compile(r"\((?:regel |se )?[PB]\d{1,2}")
LEVELS = ('nybörjare', 'van', 'expert')


def expected_word(h: int, k: int) -> str:
    "The bands written out by hand, from the counts: 0 aldrig, 1-10 % nästan aldrig, … all of them alltid."
    if h == 0: return "aldrig"
    if h == k: return "alltid"
    if 100 * h <= 10 * k: return "nästan aldrig"
    if 100 * h < 35 * k: return "sällan"
    if 100 * h <= 65 * k: return "ungefär varannan gång"
    if 100 * h < 90 * k: return "oftast"
    return "nästan alltid"


def test_the_frequency_words_are_true_for_the_counts():
    for k in (1, 2, 3, 7, 10, 20, 60, 100, 300):
        words = [frequency_words(h, k) for h in range(k + 1)]
        assert words == [expected_word(h, k) for h in range(k + 1)], k
        assert words[0] == "aldrig" and words[-1] == "alltid"
    order = [w for _, w in FREQUENCY_BANDS]
    assert chance_words(0.05) == "nästan aldrig" and order.index(chance_words(0.5)) > order.index(chance_words(0.2))


def pupil_sentences(game: str, seed: int, level: str, tips: bool):
    """Every sentence of one deal a pupil could read at `level`: each computer's reason (and what it says aloud),
    and, with `tips`, each Tips question and advice; with the decisions, to check the words against the counts."""
    st = PlumpState.new(players=4, cards=4 + seed % 3, seed=seed) if game == 'plump' else BismarckState.new(seed=seed)
    bot = make_bot(level, seed=seed, samples=6)
    rng = random.Random(seed)
    while not st.is_terminal():
        v = st.view(st.to_act)
        d = bot.decide(v)
        yield d.reason, d
        yield public_reason(d, v), d
        if tips and (rng.random() < 0.12 or len(st.legal_actions()) == 1):
            s = tip_steps(v)
            yield s.question, None
            yield s.advice, None
        st.apply(d.action)


@pytest.mark.parametrize("level", LEVELS)
def test_no_numbers_words_in_what_the_pupil_reads(level):
    "Over many deals of Plump and Bismarck at every level: the reasons and Tips have no %, snitt or provgivar."
    bad, seen = [], 0
    for seed in range(8):
        for game in ('plump', 'bismarck'):
            for text, _ in pupil_sentences(game, seed, level, tips=(level == 'van' and seed < 4)):
                seen += 1
                if NUMBER_WORDS.search(text): bad.append(text)
    assert seen > 300 and not bad, bad[:5]


def test_the_expert_bid_says_how_often_in_words_and_the_counts_behind_datorns_siffror():
    "The words of the expert's bid match its counts; the counts ('i 42 av 60') are only in `numbers`."
    checked = 0
    for seed in range(12):
        st = PlumpState.new(players=4, cards=5, seed=seed)
        while st.phase == 'bidding':
            v = st.view(st.to_act)
            d = simulated_bid(v, random.Random(seed), samples=20)
            b, k = d.action.tricks, d.details['samples']
            h = round(d.details['chance'][b] * k)
            assert f"träffade bud {b} {frequency_words(h, k)}" in d.reason, d.reason
            assert not NUMBER_WORDS.search(d.reason) and f"i {h} av {k}" in d.numbers, d.numbers
            exp = d.details['expected']
            if "inget annat bud gav fler poäng" in d.reason: assert exp[b] >= max(exp.values()) - 1e-6
            checked += 1
            st.apply(d.action)
    assert checked == 48


def finished_plump(seed: int, pupil_bid: int, cards: int = 4, n: int = 3):
    st = PlumpState.new(n, cards, seed=seed, dealer=n - 1)
    bot = make_bot('van', seed=seed)
    while st.phase != 'done':
        a = bot.decide(st.view(st.to_act)).action
        if st.phase == 'bidding' and st.to_act == 0:
            a = min(st.legal_actions(), key=lambda x: abs(x.tricks - pupil_bid))
        st.apply(a)
    return st.deal


def test_a_plump_is_never_praised_and_the_words_fit_the_level():
    "Issue 39: 'Du bjöd 1 och tog 4: plump' was followed by 'Bra spelat!'. Every plump says what happened instead."
    plumps = lessons = 0
    for seed in range(40):
        deal = finished_plump(300 + seed, pupil_bid=seed % 4)
        a = analyse_deal(deal, 0, seed=seed, samples=20, card_samples=4)
        for level in LEVELS:
            lines = deal_summary(a, level)
            text = ' '.join(lines)
            assert not re.search(r"snitt|provgivar|%", text), text
            if level == 'nybörjare':       # no counts: words that are true for them
                assert not re.search(r"i \d+ av", text), text
                h = round(a.chance[a.bid] * a.samples)
                if a.best_bid == a.bid: assert f"träffade {frequency_words(h, a.samples)}" in text, text
            if a.tricks != a.bid:
                plumps += level == 'van'
                assert "Bra spelat" not in text, text
                if not a.costly:
                    lesson = lines[-1]
                    d = a.tricks - a.bid
                    assert (f"tog {d} stick mer" in lesson) if d > 0 else (f"tog {-d} stick för lite" in lesson), lesson
                    assert "Att lära:" in lesson
                    if "högre bud" in lesson: assert a.best_bid > a.bid and f"bud {a.best_bid}" in lesson
                    if "lägre bud" in lesson: assert a.best_bid < a.bid and f"bud {a.best_bid}" in lesson
                    lessons += level == 'van'
        assert "Bra spelat" not in deal_summary_html(a, level='nybörjare') or a.tricks == a.bid
    assert plumps >= 10 and lessons >= 3, (plumps, lessons)


def test_the_full_analysis_has_no_rule_codes():
    "Issue 39: `analysis_html` showed '(P13)', '(P20)' to pupils; the numbers sit under 'Datorns siffror'."
    for seed in range(6):
        a = analyse_deal(finished_plump(500 + seed, seed % 3), 0, seed=seed, samples=20, card_samples=4)
        html = analysis_html(a, 1)
        assert not CODE.search(html) and "Datorns siffror" in html, html
    costly = 0
    for seed in range(2):
        st = BismarckState.new(seed=seed)
        bot = make_bot('van', seed=seed)
        while not st.is_terminal(): st.apply(bot.decide(st.view(st.to_act)).action)
        for seat in range(3):
            a = analyse_deal(st.deal, seat, seed=seed, samples=4, card_samples=4)
            html = analysis_html(a)
            assert not CODE.search(html) and "Datorns siffror" in html, html
            for c in a.costly:      # the words of a costly card (also the own puzzles), true for the numbers
                assert "fick du fler poäng med" in c.why and c.value_better > c.value_played
            for p in own_puzzles(a):
                assert not NUMBER_WORDS.search(p.title + p.explanation), p.explanation
                costly += 1
    assert costly >= 1


def test_the_full_analysis_after_the_game_speaks_the_tables_level():
    """Issue 39: after the game, "Titta på givarna igen" showed the bars, "snitt" and "i 42 av 100" to a nybörjare
    under an open heading. Now a nybörjare reads the short review in words; at van and expert the same review with
    counts, and the computer's numbers only inside the closed "Datorns siffror"."""
    analyses = [analyse_deal(finished_plump(900 + seed, seed % 3), 0, seed=seed, samples=20, card_samples=4)
                for seed in range(3)]
    st = BismarckState.new(seed=4)
    bot = make_bot('van', seed=4)
    while not st.is_terminal(): st.apply(bot.decide(st.view(st.to_act)).action)
    analyses += [analyse_deal(st.deal, seat, seed=4, samples=4, card_samples=4) for seat in range(3)]
    for a in analyses:
        easy = analysis_html(a, 1, 'nybörjare')
        assert not NUMBER_WORDS.search(easy) and "Datorns siffror" not in easy and "<details" not in easy, easy
        assert not re.search(r"\bi \d+ av\b", easy), easy
        for line in deal_summary(a, 'nybörjare'): assert html.escape(line) in easy
        for level in ('van', 'expert'):
            full = analysis_html(a, 1, level)
            outside = re.sub(r"<details.*?</details>", "", full, flags=re.S)
            assert full.count("<details") == 1 and "Datorns siffror" in full and "<details open" not in full
            assert not NUMBER_WORDS.search(outside), outside
            assert plain_text_of(a.verdict) in full


def test_a_costly_card_after_a_hit_says_it_went_well_anyway():
    """A pupil who hit the bid read "med ♥K aldrig" about the card that made the hit: the computer's sample deals,
    not this deal. After a hit the costly card's sentence ends by saying that it went well this time; after a
    plump it does not."""
    seen = {True: 0, False: 0}
    for seed in range(40):
        a = analyse_deal(finished_plump(900 + seed, seed % 3), 0, seed=seed, samples=20, card_samples=4)
        if not a.costly: continue
        hit = a.tricks == a.bid
        for level in LEVELS:
            line = next(t for t in deal_summary(a, level) if t.startswith("Dyrast var stick"))
            assert line.endswith("Den här gången gick det bra ändå.") == hit, line
        seen[hit] += 1
        if all(seen.values()): break
    assert all(seen.values()), seen


def plain_text_of(text: str) -> str:
    from plump_teach.bots.coach import plain_text
    from plump_teach.ui.analysis import nobreak_percent
    return nobreak_percent(html.escape(plain_text(text)))


def test_forehand_is_not_asked_what_is_missing_once_the_normal_is_reached():
    "Issue 39: 'Hur många stick fattas till normalen? Du har tagit 11, och normalen för dig är 8.'"
    over = under = 0
    for seed in range(30):
        st = BismarckState.new(seed=seed)
        bot = make_bot('expert', seed=seed, samples=4)
        while st.phase in ('discard', 'mode'):
            fh = st.to_act
            legal = st.legal_actions()
            trumf = [a for a in legal if isinstance(a, ChooseMode) and a.mode == 'trumf']
            st.apply(trumf[0] if trumf else bot.decide(st.view(fh)).action)
        while not st.is_terminal():
            seat = st.to_act
            if seat == st.forehand and len(st.legal_actions()) > 1:
                q, facts = tip_question(st.view(seat))
                taken, normal = st.taken[seat], normal_tricks(st.mode, True)
                assert facts['taken'] == taken and facts['normal'] == normal
                if "fattas" in q:
                    assert taken < normal, q
                    under += 1
                elif st.mode != 'pass':
                    assert f"Du har tagit {taken} stick, och normalen för dig är {normal}." in q, q
                    assert ("Du har nått normalen" in q) == (taken == normal), q
                    if taken > normal: assert "mer än normalen" in q, q
                    over += 1
            st.apply(bot.decide(st.view(seat)).action)
    assert over >= 3 and under >= 20, (over, under)


def test_a_forced_card_is_said_once_and_plainly():
    "Issue 39: 'Titta på dina kort. Hur många av dem får du lägga nu?' repeated for every forced card."
    forced = 0
    for seed in range(6):
        st = PlumpState.new(players=4, cards=6, seed=seed)
        bot = make_bot('van', seed=seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            if st.phase == 'playing' and len(legal) == 1:
                s = tip_steps(st.view(st.to_act))
                assert s.question == f"Du har bara ett kort du får lägga: {legal[0].card}." and s.advice == f"Lägg {legal[0].card}."
                forced += 1
            st.apply(bot.decide(st.view(st.to_act)).action)
    assert forced >= 5


def visible_text(widget) -> str:
    "Every text the pupil can read in a widget tree (`widget_texts`), as one string."
    return ' '.join(widget_texts(widget))


def outside_numbers(html: str) -> str:
    """The words shown before the heading 'Datorns siffror' (what follows it is the computer's figures, and may
    count); style sheets and tags (with their 'width:100%') are not words."""
    return shown(html).split("Datorns siffror")[0]


def test_the_own_puzzles_at_the_table_say_no_numbers_words_and_no_rule_codes():
    """Issue 39: after a Bismarck game the table's own puzzles said "Spela om lägena där ett annat kort hade gett fler
    poäng i snitt", "Finns det ett kort som ger fler poäng i snitt?" and showed "(B7)" and "(B9)". Every text of the
    practise part (heading, each puzzle, the nudges and the answer) is now free of numbers words and rule codes."""
    from plump_teach.ui.table import BismarckTable
    b = BismarckTable(3, seed=11, pace=0)
    while b.game.deal is not None:
        st = b.state
        if b.paused == "result": b.next_button.click()
        elif st.phase == "discard":
            for c in list(b.card_buttons)[:4]: b.card_buttons[c].click()
            b.discard_button.click()
        elif st.phase == "mode": [x for x in b.mode_buttons.values() if not x.disabled][-1].click()
        else: [x for c, x in b.card_buttons.items() if "pt-nej" not in x._dom_classes][-1].click()
    own = b.after.show_own_puzzles()
    assert own, "no costly card in the whole game"
    seen = []
    for i, (_, p) in enumerate(own):
        if i: b.after.next_puzzle.click()
        seen.append(visible_text(b.after.puzzle_box))
        others = [c for c in p.options if c not in (p.played, p.better)]
        for c in [p.played] + others[:1] + [p.better]:
            b.after.puzzle_cards[c].click()
            seen.append(b.after.puzzle_feedback.value)
    seen.append(visible_text(b.after_box))
    text = ' '.join(seen)
    assert "ger dig fler poäng" in text and "Det bättre kortet är" in text
    assert not NUMBER_WORDS.search(outside_numbers(text)), NUMBER_WORDS.findall(outside_numbers(text))
    assert not CODE.search(text.replace(visible_text(b.after.analysis_html), '')), CODE.findall(text)


def test_the_own_plump_puzzles_speak_at_the_tables_level():
    """Issue 39: an own Plump puzzle explained itself in counts ("i 7 av 20") at every level; at nybörjare it now says
    how often in words, true for the same counts, and at van and expert in counts. The card sentence is the same."""
    words = counts = 0
    for seed in range(30):
        a = analyse_deal(finished_plump(700 + seed, seed % 3), 0, seed=seed, samples=20, card_samples=6)
        for c, young, grown in zip(a.costly, own_puzzles(a, 'nybörjare'), own_puzzles(a, 'van')):
            k = c.samples
            hb, hp = round(c.chance_better * k), round(c.chance_played * k)
            assert not re.search(r"\bi \d+ av\b", young.explanation) and not NUMBER_WORDS.search(young.explanation)
            assert (f"med {c.better} hade du träffat budet {frequency_words(hb, k)}, med {c.played} "
                    f"{frequency_words(hp, k)}.") in young.explanation, young.explanation
            assert f"i {hb} av dem" in grown.explanation and f"bara i {hp}" in grown.explanation, grown.explanation
            assert (young.title, young.better, young.played) == (grown.title, grown.better, grown.played)
            words += 1
        counts += len(own_puzzles(a, 'expert')) == len(a.costly)
    assert words >= 3 and counts == 30, words


@pytest.mark.parametrize("level", ['nybörjare', 'van'])
def test_tips_at_the_table_keep_the_teachers_reason_off_the_pupils_screen(level):
    """`hint(view).reason` is the teacher's and programmer's text (with "%" and "provgivar", its docstring says so).
    At the table the pupil presses Tips, Visa rådet and (at van) Visa datorns siffror at every turn of a short game:
    no "%", "snitt" or "provgivar" shows outside "Datorns siffror", and the teacher's reason itself never shows."""
    from plump_teach.ui.table import PlayTable
    from plump_teach.engine.plump_rules import PlumpRules
    t = PlayTable(3, rules=PlumpRules(down_only=True), seed=23, first_deal=8, pace=0, level=level, path=False)
    steps = numbers = 0
    while t.game.deal is not None and steps < 12:
        if t.paused == "result":
            t.next_button.click()
            continue
        t.show_tips()
        tip = t.show_advice()
        if t.show_numbers(): numbers += 1
        screen = visible_text(t)
        rest = outside_numbers(screen.replace(t.tips_html.value, ''))     # the table around Tips: nothing after a heading
        assert "Datorns siffror" not in screen.replace(t.tips_html.value, '') and not NUMBER_WORDS.search(rest), rest
        assert not NUMBER_WORDS.search(outside_numbers(t.tips_html.value)), t.tips_html.value
        reason = tip.decision.reason
        assert NUMBER_WORDS.search(reason) is None or reason not in screen
        steps += 1
        if t.state.phase == "bidding": [b for b in t.bid_buttons.values() if not b.disabled][0].click()
        else: t.card_buttons[tip.action.card].click()
    assert steps >= 4 and (numbers > 0) == (level == 'van'), (steps, numbers)
