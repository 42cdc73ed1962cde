"""Det prova-widgetarna och pusslen säger är sant (issue 39): en bock (✔) bara där motorn säger ja, en text som
bara ber om det som går att göra, och ett "Rätt!" bara för det som uppgiften frågar efter."""
import itertools

from plump_teach.engine.tricks import legal_cards
from plump_teach.ui.tryout.tricks import FollowTry


def test_a_forbidden_card_never_gets_a_tick():
    "Lesson 2's 'Tryck på ett av Bos kort': the chosen card shows ✔ only if the engine allows it, else ✘."
    f = FollowTry(house_rules=True)
    checked = 0
    for led, trump, must in itertools.product(range(4), range(len(f.trump.buttons)), range(2)):
        f.led.buttons[led].click(); f.trump.buttons[trump].click(); f.must_trump.buttons[must].click()
        ok = legal_cards(f.hand, f.trick, f.trump_suit, f.must_trump.value)
        for i, card in enumerate(f.hand):
            f.card.buttons[i].click()
            marks = [b.description[0] for b in f.card.buttons if b.description[0] in '✓✔✘']
            assert marks == ['✔' if card in ok else '✘'], (card, f.trick, f.trump_suit, marks)
            assert ('ja.' if card in ok else 'nej.') in f.answer.value
            checked += 1
    assert checked == 4 * 5 * 2 * 7
    assert FollowTry().card.buttons[0].description == '✘ ♠K'   # the first card shown chosen is forbidden


def test_the_one_card_deal_takes_a_bid_before_the_cards_are_laid():
    """Lesson 3 says "Bestäm ditt bud och tryck sedan på Lägg korten": the widget has the bids the engine allows
    Anna, Lägg korten waits for one, and the result says whether her bid was met, by the engine's score."""
    import json
    from pathlib import Path
    from plump_teach.engine.plump_rules import score
    from plump_teach.engine.tricks import trick_winner
    from plump_teach.ui.tryout.deal import OneCardTry
    lesson = Path(__file__).resolve().parents[1] / "nbs" / "elev" / "03_given_och_trumfen.ipynb"
    assert "Bestäm ditt bud och tryck sedan på **Lägg korten**" in lesson.read_text(encoding="utf-8")
    for house_rules in (False, True):
        o = OneCardTry(house_rules=house_rules)
        for _ in range(12):
            for mode in ((False, True) if house_rules else (False,)):
                o.mode.value = mode
                for bid in (0, 1):
                    o.bid.value = None
                    d = o.deal()
                    assert [v for _, v in o.bid.options] == d.legal_bids() == [0, 1]
                    assert o.show_button.disabled and "Tryck på ditt bud" in o.view.value
                    o.bid.buttons[bid].click()
                    assert not o.show_button.disabled and f"Du bjuder {bid}." in o.view.value
                    o.show_button.click()
                    order = [(d.dealer + 1 + i) % 4 for i in range(4)]
                    winner = order[trick_winner([d.hand(s)[0] for s in order], d.trump)]
                    taken = int(winner == 0)
                    points = score(bid, taken, 1)
                    assert f"Du bjöd {bid} och tog {taken} stick" in o.view.value
                    assert (f"du träffade och får {points} poäng" if points else "du missade och får 0 poäng") in o.view.value
                    assert o.show_button.disabled and o.bid.layout.display == "none"
            o.new_button.click()
            assert o.bid.value is None and o.show_button.disabled and o.bid.layout.display is None


def test_the_dealers_bid_with_a_hand_asks_for_the_wise_bid_and_says_so():
    """Lesson 8's "Givarens bud" shows the dealer's hand: a bid that is only allowed (4 with ♠E ♥Kn ♣2 ♦6) is no
    longer "Rätt!". Right is the rule of thumb's bid (bots.heuristics.suggested_bid, the one definition), or the
    allowed bids next to it when it is the forbidden one; the question and every feedback say that both count."""
    from plump_teach.bots.heuristics import suggested_bid, three_piles
    from plump_teach.engine.plump_rules import legal_bids
    from plump_teach.puzzles.registry import make_puzzle
    from plump_teach.ui.lesson import pupil_text
    forbidden_thumb = unwise = 0
    for number in range(1, 301):
        p = make_puzzle('dealer_bid', number, 2)
        d = p.data
        ok = legal_bids(d['cards'], d['earlier_bids'], d['players'])
        thumb = suggested_bid(d['hand'])
        assert d['thumb'] == thumb and "tumregeln" in p.question and "förbjudet" in p.question
        want = {thumb} if thumb in ok else {b for b in (thumb - 1, thumb + 1) if b in ok}
        assert p.answers == {str(b) for b in want}
        forbidden_thumb += thumb not in ok
        piles = three_piles(d['hand'])
        for o in p.options:
            b, fb = int(o.key), p.check(o.key)
            assert fb.correct == (b in want)
            text = pupil_text(fb.text)
            assert f"({len(piles['sure'])})" in text and f"({len(piles['possible'])})" in text
            assert (f"får inte bjuda {b}" in text) == (b not in ok)
            if b in ok and b not in want:
                unwise += 1
                assert text.startswith("Inte riktigt.")
                assert f"får bjuda {b}" in text or "inget bud är förbjudet" in text
                assert "uppgiften frågar efter det kloka budet" in p.try_again(o.key).text
    assert forbidden_thumb and unwise
    # the hand: four cards, the rule of thumb says 1 (the ace), so 4 is allowed but not wise
    assert suggested_bid("♠E ♥Kn ♣2 ♦6") == 1
    assert make_puzzle('dealer_bid', 2, 1).answers == frozenset(
        map(str, legal_bids(*(make_puzzle('dealer_bid', 2, 1).data[k] for k in ('cards', 'earlier_bids', 'players')))))
