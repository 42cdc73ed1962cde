"""Tips i steg och den korta genomgången efter varje giv (issue 29, "Lagom för en tolvåring").

Tips at the table teaches in steps: first a question about the position, then ("Visa rådet") the advice in words,
and only at the computer levels van and expert, only after the advice ("Visa datorns siffror"), the computer's
numbers explained in words. Every number a pupil sees is checked here against the engine, not against the text's
own facts: the tricks still needed are the bid minus the tricks taken in the state, the bid sum and its over/under
words agree with `bid_balance`, a card said to take the trick takes it when the engine plays it, the advised move
is legal and is the move `hint` chooses, and the counts of the numbers step agree with the sample count and the
chances behind the advice. After each deal the table shows a short analysis: the result and the bid with at most
one number per bid, and the costliest card; it is deterministic (a fixed number of samples, fixed seeds).
"""
from __future__ import annotations

import re
import time

import pytest

from plump_teach.bots.coach import NUMBERS_LEVELS, hint
from plump_teach.bots.tip_steps import tip_question, tip_steps
from plump_teach.bots.review import analyse_deal, deal_summary
from plump_teach.bots.players import make_bot
from plump_teach.bots.search import signed_decimal
from plump_teach.engine.actions import Bid, ChooseMode, Discard, PlayCard
from plump_teach.engine.bismarck import normal_tricks
from plump_teach.engine.bismarck_game import BismarckGame
from plump_teach.engine.cards import Cards, sort_hand
from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpRules, bid_balance
from plump_teach.engine.state import BismarckState, PlumpState
from plump_teach.engine.tricks import trick_winner
from plump_teach.ui.table import BismarckTable, PlayTable

from test_table import click_once, play_to_end

CODE = re.compile(r"\((?:regel )?[PB]\d{1,2}")


def number(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    assert m, (pattern, text)
    return int(m.group(1))


def outcome(st, seat: int, card):
    """What the engine does with `card`: ('wins', True/False) when it completes the trick, else whether it lies
    highest in the unfinished trick ('leads', True/False)."""
    s = st.clone()
    s.apply(PlayCard(card))
    if len(s.trick) == 0:                          # the trick is complete: who took it
        lead, cards, win = s.history[-1]
        return 'wins', win == seat
    i = trick_winner(list(s.trick), s.trump)
    return 'leads', (s.leader + i) % s.n == seat


def check_plump_tip(st, seat: int):
    "Every sentence of the three steps for `seat` in the Plump state `st`, against the engine."
    view = st.view(seat)
    s = tip_steps(view)
    d = hint(view)
    assert s.action == d.action and s.action in st.legal_actions()
    text = s.question + " " + s.advice
    assert "%" not in text and not CODE.search(text + " ".join(s.numbers)), text
    legal = st.legal_actions()
    forced = st.phase == 'playing' and len(legal) == 1      # nothing to think about: said once, plainly
    assert ("?" in s.question) != forced, s.question
    if st.phase == 'bidding':
        earlier = [b for x, b in enumerate(st.bids) if b is not None and x != seat]
        last = not st.rules.simultaneous_bids and sum(b is None for b in st.bids) == 1
        if "Vilket bud får du inte bjuda?" in s.question:
            assert last
            if len(earlier) == 1:                # one bidder before: named, not 'tillsammans'
                who = next(x for x, b in enumerate(st.bids) if b is not None and x != seat)
                assert number(rf"{re.escape(view.names[who])} har bjudit (\d+),", s.question) == sum(earlier)
            else:
                assert number(r"De andra har bjudit (\d+) tillsammans", s.question) == sum(earlier)
            assert number(r"och det finns (\d+) stick", s.question) == st.cards
            f = number(r"Bud (\d+) får du inte bjuda", s.advice)
            assert Bid(f) not in legal and sum(earlier) + f == st.cards       # the dealer's restriction (P6)
        elif st.cards > 1:
            aces = [c for c in st.view(seat).hand if c.rank == 14]
            assert ("Räkna dina ess" in s.question) == bool(aces)
            assert ("Du har inga ess" in s.question) == (not aces)
            if "De andra har bjudit" in s.question:
                assert number(r"De andra har bjudit (\d+)", s.question) == sum(earlier)
        assert number(r"^Bjud (\d+)\.", s.advice) == s.action.tricks
        if st.cards > 1:
            k = d.details['samples']
            assert number(r"Datorn provade (\d+) sätt", s.numbers[0]) == k
            for line in s.numbers[1:]:
                m = re.search(r"Med bud (\d+) träffade (?:datorn budet|den) i (\d+) av de (\d+)\.", line)
                if m:
                    b, hits, of = map(int, m.groups())
                    assert of == k and hits == round(d.details['chance'][b] * k) and 0 <= hits <= k
        return s
    bid, taken = st.bids[seat], st.taken[seat]
    if len(legal) == 1:
        assert s.question == f"Du har bara ett kort du får lägga: {s.action.card}." and s.advice == f"Lägg {s.action.card}."
        return s
    if "Du bjöd" in s.question:
        assert number(r"Du bjöd (\d+)", s.question) == bid
        assert number(r"har tagit (\d+)", s.question) == taken
    if "Du behöver" in s.advice:
        assert number(r"Du behöver (\d+) stick till", s.advice) == bid - taken > 0
    if "Buden är tillsammans" in s.advice:
        total = number(r"Buden är tillsammans (\d+)", s.advice)
        assert total == sum(st.bids) and number(r"finns (?:bara )?(\d+) stick", s.advice) == st.cards
        kind = bid_balance(st.cards, st.bids)
        assert ("Alla kan inte träffa" in s.advice) == (kind == 'överbud')
        assert ("Någon får fler stick än den bjöd" in s.advice) == (kind == 'underbud')
    card = s.action.card
    if f"{card} tar sticket." in s.advice: assert outcome(st, seat, card) == ('wins', True)
    if f"{card} tar inte sticket" in s.advice or f"{card} kan inte ta sticket" in s.advice:
        assert outcome(st, seat, card)[1] is False
    if f"Med {card} ligger du högst" in s.advice: assert outcome(st, seat, card) == ('leads', True)
    if "Inget av dina kort slår" in s.advice:
        assert all(outcome(st, seat, a.card)[1] is False for a in legal)
    m = re.search(r"(\S+) slår (\S+), men spara det", s.advice)
    if m: assert any(str(a.card) == m.group(1) and outcome(st, seat, a.card)[1] for a in legal)
    k, ch = d.details['samples'], d.details['chance']
    assert number(r"Datorn provade (\d+) sätt", s.numbers[0]) == k
    for c, hits in re.findall(r"Med (\S+) (?:träffade du budet|bara) i (\d+) av", " ".join(s.numbers)):
        real = next(x for x in ch if str(x) == c)
        assert int(hits) == round(ch[real] * k) <= k
    if "träffade du budet i" in " ".join(s.numbers):
        assert round(ch[card] * k) == max(round(p * k) for p in ch.values())     # the advised card hit most often
    return s


def play_plump(seed: int, n: int, rules=PlumpRules(down_only=True), first_deal=4, check=check_plump_tip):
    "A deal where seats 0 (the dealer) and 1 (förhand) are checked at every decision; all play as the 'van' computer."
    g = PlumpGame([f"p{i}" for i in range(n)], rules, seed=seed, first_deal=first_deal)
    bots = [make_bot('van', seed=seed * 10 + i) for i in range(n)]
    kinds = set()
    while not g.deals:
        st = PlumpState.from_game(g)
        s = st.to_act
        if s in (0, 1):
            steps = check(st, s)
            kinds.add(steps.question.split("?")[0][:24])
        a = bots[s].decide(st.view(s)).action
        if isinstance(a, Bid): g.bid(s, a.tricks)
        else: g.play(s, a.card)
    return g, kinds


@pytest.mark.parametrize("seed,n", [(1, 3), (2, 4), (3, 5), (4, 2), (6, 4), (9, 3)])
def test_every_plump_tip_is_true_against_the_engine(seed, n):
    _, kinds = play_plump(seed, n)
    assert len(kinds) >= 2, kinds      # more than one kind of question in a deal


def test_the_dealer_and_the_first_lead_get_their_own_questions():
    "Seat 0 deals in the first deal (bids last) and förhand leads; with two players seat 0 also leads deal 2."
    seen = []
    def check(st, seat):
        s = check_plump_tip(st, seat)
        seen.append(s.question + " " + s.advice)
        return s
    for seed in range(1, 8):
        play_plump(seed, 3, check=check)
        play_plump(seed, 2, first_deal=5, check=check)
    assert any("Vilket bud får du inte bjuda?" in q for q in seen)
    assert any("Hur många stick behöver du till?" in q for q in seen)
    assert any("fler eller färre än sticken?" in q and "Buden är tillsammans" in q for q in seen)
    assert any("ligger du högst" in q or "tar sticket." in q for q in seen)


def test_the_one_card_deal_and_its_numbers():
    "P15: the question names the card; the numbers say how often it took the trick, out of the fixed samples."
    rules = PlumpRules(down_only=True)
    g = PlumpGame(["Du", "Anna", "Bo"], rules, seed=3, first_deal=9)
    st = PlumpState.from_game(g)
    while st.to_act != 1: st.apply(make_bot('van', 1).decide(st.view(st.to_act)).action)
    assert st.cards == 1 and len(st.legal_actions()) == 2       # förhand bjuder först: 0 och 1 är tillåtna
    s = tip_steps(st.view(1))
    card = st.view(1).hand[0]
    assert s.question.startswith(f"Kan ditt {card} ta sticket?")
    p = hint(st.view(1)).details['chance']
    k = number(r"provade (\d+) sätt", s.numbers[0])
    assert number(r"tog sticket i (\d+) av dem", s.numbers[1]) == round(p * k)
    word = "oftare än det missar" if p > 0.5 else "missar sticket oftare" if p < 0.5 else "lika ofta"
    assert word in s.advice, (p, s.advice)


def check_bismarck_tip(st, seat: int):
    view = st.view(seat)
    s = tip_steps(view)
    d = hint(view)
    assert s.action == d.action and s.action in st.legal_actions()
    assert "%" not in s.question + s.advice and not CODE.search(s.question + s.advice + " ".join(s.numbers))
    if st.phase == 'playing' and len(st.legal_actions()) > 1:
        normal = normal_tricks(st.mode, seat == st.forehand)
        if "normalen för dig är" in s.question:
            assert number(r"normalen för dig är (\d+)", s.question) == normal
            assert number(r"tagit (\d+)", s.question) == st.taken[seat]
        if "förhand" in s.question and "Vem spelar" in s.question:
            assert s.question.endswith(f"{st.names[st.forehand]} är förhand.")
        partner = 3 - seat - st.forehand
        if "ligger redan högst" in s.advice:
            i = trick_winner(list(st.trick), st.trump)
            assert (st.leader + i) % 3 == partner and s.advice.count(st.names[partner]) >= 1
        card = s.action.card
        if f"{card} tar sticket." in s.advice: assert outcome(st, seat, card) == ('wins', True)
        if f"{card} tar inte sticket" in s.advice: assert outcome(st, seat, card)[1] is False
        if f"Med {card} ligger du högst" in s.advice: assert outcome(st, seat, card) == ('leads', True)
        k, val = d.details['samples'], d.details['value']
        assert number(r"Datorn provade (\d+) sätt", s.numbers[0]) == k
        assert f"delade med {k}" in s.numbers[1]
        assert s.numbers[2] == f"Med {card} blev det {signed_decimal(val[card])} poäng i snitt."
    if st.phase == 'discard':
        rest = s.facts['discards']           # every card still to lay away, in one Tips (B9)
        assert s.action.card in rest and len(rest) == 4 - len(view.discards or ())
        listed = str(Cards(sort_hand(rest)))
        assert s.advice.startswith(f"Lägg bort {listed}" + (" på en gång" if len(rest) > 1 else ":")), s.advice
        for suit in re.findall(r"inga (\w+) kvar", s.advice):       # a void claimed: every card of the suit goes
            sym = {'spader': '♠', 'hjärter': '♥', 'ruter': '♦', 'klöver': '♣'}[suit]
            assert all(c in rest for c in view.hand if c.suit == sym), s.advice
    if st.phase == 'mode':
        assert isinstance(s.action, ChooseMode) and s.advice.startswith("Välj ")
    if s.numbers and st.phase in ('discard', 'mode'):
        k = number(r"provade (\d+) sätt", s.numbers[0])
        assert f"delade med {k}" in s.numbers[1] and s.numbers[2].startswith("Poäng i snitt: ")
    return s


@pytest.mark.parametrize("dealer", [2, 0, 1])
def test_every_bismarck_tip_is_true_against_the_engine(dealer):
    "Seat 0 as förhand (dealer 2) discards, chooses and plays; as a partner it plays with the other one."
    g = BismarckGame(["Du", "Anna", "Bo"], seed=7 + dealer, short=True, dealer=dealer)
    bots = [make_bot('van', seed=i) for i in range(3)]
    while not g.deals:
        st = BismarckState.from_game(g)
        s = st.to_act
        if s == 0: check_bismarck_tip(st, 0)
        if st.phase == 'discard':
            a = bots[s].decide(st.view(s)).action
            st2 = st.clone(); st2.apply(a)
            if s == 0:           # the tip for the next card, after the first one is laid away
                check_bismarck_tip(st2, 0)
            cards = [a.card]
            for _ in range(3):
                b = bots[s].decide(st2.view(s)).action
                st2.apply(b); cards.append(b.card)
            g.discard(s, cards)
            continue
        a = bots[s].decide(st.view(s)).action
        if isinstance(a, ChooseMode): g.choose_mode(s, a.mode, a.trump)
        else: g.play(s, a.card)


def test_the_steps_come_in_order_at_the_table():
    "Tips gives only the question; Visa rådet the advice; Visa datorns siffror only then, at level van."
    t = PlayTable(3, level="van", rules=PlumpRules(down_only=True), seed=5, first_deal=5, pace=0)
    assert t.advice_button.layout.display == "none" and t.numbers_button.layout.display == "none"
    assert t.show_numbers() is None                                 # nothing before the question and the advice
    q = t.show_tips()
    html = t.tips_html.value
    assert q == tip_question(t.state.view(0))[0] and "Rådet" not in html and "Datorns siffror" not in html
    assert t.advice_button.layout.display == "" and t.numbers_button.layout.display == "none"
    assert t.show_numbers() is None and "Datorns siffror" not in t.tips_html.value   # not before the advice
    t.advice_button.click()
    html = t.tips_html.value
    assert html.index("Tips:") < html.index("Rådet:") and "Datorns siffror" not in html
    assert t.advice_button.layout.display == "none" and t.numbers_button.layout.display == ""
    t.tips_button.click()                                           # Tips again: no numbers without asking
    assert "Datorns siffror" not in t.tips_html.value and t.tips_used == 1
    t.numbers_button.click()
    html = t.tips_html.value
    assert html.index("Rådet:") < html.index("Datorns siffror")
    assert all(line in html for line in t.tip.numbers) and t.numbers_button.layout.display == "none"
    assert t.tips_used == 1
    b = t.tip.action.tricks
    t.bid_buttons[b].click()                                        # a move clears the tips
    assert t.tips_html.value == "" and t.tip_step == 0


def test_no_numbers_at_the_beginner_level():
    t = PlayTable(3, level="nybörjare", rules=PlumpRules(down_only=True), seed=5, first_deal=5, pace=0)
    assert "nybörjare" not in NUMBERS_LEVELS and {"van", "expert"} <= set(NUMBERS_LEVELS)
    t.tips_button.click()
    t.tips_button.click()                                           # a second press gives the advice
    assert "Rådet:" in t.tips_html.value
    assert t.numbers_button.layout.display == "none" and t.show_numbers() is None
    assert "Datorns siffror" not in t.tips_html.value


def test_bismarck_steps_at_the_table():
    b = BismarckTable(3, level="expert", seed=11, pace=0)
    b.tips_button.click()
    assert "Lägg bort" not in b.tips_html.value and "?" in b.tips_html.value
    b.advice_button.click()
    assert "Rådet:</b> Lägg bort " in b.tips_html.value
    card = b.tip.action.card
    assert card in b.card_buttons
    b.card_buttons[card].click()                      # the pupil picks that card: the tip is for the next one
    b.advice_button.click()
    rest = b.tip.facts['discards']                    # one Tips names all the cards still to lay away
    assert b.tip.action.card != card and card not in rest and len(rest) == 3
    assert f"Lägg bort {Cards(sort_hand(rest))} på en gång" in b.tips_html.value


def summary_lines(html: str) -> list[str]:
    box = html.split("Kort genomgång", 1)[1]
    return [re.sub(r"<[^>]+>", "", x).replace("&nbsp;", " ") for x in re.findall(r"<li>(.*?)</li>", box)]


def test_a_short_analysis_after_each_deal_is_true_and_deterministic():
    "After each deal, until Nästa giv: the result and the bid with one number per bid, and the costliest card."
    t = PlayTable(3, rules=PlumpRules(down_only=True), seed=17, first_deal=7, pace=0)
    seen = 0
    for _ in range(400):
        if t.game.deal is None: break
        if t.paused == "result":
            k = len(t.game.deals) - 1
            d = t.game.deals[k]
            assert "Kort genomgång" in t.result_html and "Kort genomgång" in t.action_box.children[0].value
            lines = summary_lines(t.result_html)
            hit = d.bids[0] == d.taken[0]
            assert lines[0] == (f"Du bjöd {d.bids[0]} och tog {d.taken[0]}: "
                                + (f"träff, {d.points()[0]} poäng." if hit else "plump."))
            a = analyse_deal(t.game, 0, k, seed=t.game.seed)          # the same fixed samples give the same text
            assert deal_summary(a) == lines
            said = re.findall(r"bud (\d+)(?: träffade)?(?: bara)? i (\d+)", lines[1])
            assert said and len(said) == len({b for b, _ in said}) <= 2       # one number per bid
            for b, n in said: assert int(n) == round(a.chance[int(b)] * a.samples) <= a.samples
            assert number(r"provade (\d+) sätt", lines[1]) == a.samples
            if a.costly:
                c = a.costly[0]
                assert lines[2].startswith(f"Dyrast var stick {c.trick}: du lade {c.played}, men {c.better}")
                assert number(rf"med {re.escape(str(c.better))} träffade den budet i (\d+)", lines[2]) == \
                    round(c.chance_better * c.samples)
            elif d.cards > 1: assert lines[2].startswith("Inget av korten du lade kostade mycket")
            else: assert len(lines) == 2                     # one card: no choice, no line about the cards
            seen += 1
        click_once(t)
    assert seen == 2 and t.game.deal is None            # three deals: the last one's analysis is under the ranking
    assert "Kort genomgång" in t.after.children[0].value


def test_the_full_analysis_gives_one_number_per_bid():
    t = PlayTable(3, rules=PlumpRules(down_only=True), seed=17, first_deal=8, pace=0)
    play_to_end(t)
    for k in range(len(t.game.deals)):
        t.after.analysis_buttons[k].click()
        html = t.after.analysis_html.value
        a = t.session.analysis(k, 0)
        assert "pt-stapel" not in html and "%" not in a.verdict
        said = re.findall(r"(?:[Bb]ud|bjudit) (\d+),?(?: som)?(?: träffade)?(?: bara)? i (\d+)\b", a.verdict)
        assert said and len(said) == len({b for b, _ in said})
        for b, n in said: assert int(n) == round(a.chance[int(b)] * a.samples)


def test_the_analysis_of_a_ten_card_deal_is_quick():
    "A fixed number of samples; printed (run with -s): seconds for the analysis of one deal with ten cards."
    g = PlumpGame(["Du", "Anna", "Bo", "Cissi"], PlumpRules(down_only=True), seed=5)
    bots = [make_bot('van', seed=i) for i in range(4)]
    while not g.deals:
        st = PlumpState.from_game(g)
        a = bots[st.to_act].decide(st.view(st.to_act)).action
        if isinstance(a, Bid): g.bid(st.to_act, a.tricks)
        else: g.play(st.to_act, a.card)
    assert g.deals[0].cards == 10
    t0 = time.perf_counter()
    a = analyse_deal(g, 0, 0, seed=g.seed)
    took = time.perf_counter() - t0
    print(f"\n[genomgång] en giv med 10 kort: {took:.2f} s")
    assert deal_summary(analyse_deal(g, 0, 0, seed=g.seed)) == deal_summary(a)
    assert took < 3, took
