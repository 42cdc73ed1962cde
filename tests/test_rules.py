"""House rules (P3-P16) as they act inside whole deals and games, beyond the notebook lessons.

Each test names the rule it pins down and would fail if the engine got that rule wrong.
"""
import pytest

from plump_teach.cards import parse_cards, FULL_DECK
from plump_teach.plump import PlumpDeal, PlumpGame, PlumpRules, PlumpError, deal_schedule

NAMES = ["Anna", "Bo", "Cissi", "Dan"]


def play_all(deal, choose=lambda opts: opts[0]):
    """Finish the bidding and play of a PlumpDeal, always taking the first legal option."""
    while deal.phase == 'bidding':
        deal.bid(deal.to_act, choose(deal.legal_bids()))
    while deal.phase == 'playing':
        deal.play(deal.to_act, choose(deal.legal_cards()))
    return deal


def test_p8_first_deal_sang_only_in_the_first_deal_of_the_game():
    rules = PlumpRules(first_deal_sang=True)
    g = PlumpGame(NAMES, rules, seed=3)
    assert g.deal.trump_card is not None and g.deal.trump is None
    assert PlumpGame(NAMES, seed=3).deal.trump == PlumpGame(NAMES, seed=3).deal.trump_card.suit


@pytest.mark.parametrize("first_deal", [1, 5, 18])
def test_p8_first_deal_sang_means_the_first_deal_played(first_deal):
    """A game that starts later in the schedule still plays its own first deal without trump."""
    g = PlumpGame(NAMES, PlumpRules(first_deal_sang=True), seed=3, first_deal=first_deal)
    assert g.deal.trump_card is not None and g.deal.trump is None
    if first_deal < 18:
        while g.phase == 'bidding':
            g.bid(g.to_act, g.legal_bids()[0])
        g.record_result([g.deal.cards, 0, 0, 0])
        assert g.deal.trump == g.deal.trump_card.suit  # the second deal played has trump


def test_p8_sang_every_deal():
    g = PlumpGame(NAMES, PlumpRules(sang=True), seed=4)
    for _ in range(3):
        assert g.deal.trump is None
        g.bid(g.to_act, 0); g.bid(g.to_act, 0); g.bid(g.to_act, 0)
        g.bid(g.to_act, g.legal_bids()[0])
        g.record_result([g.deal.cards, 0, 0, 0])


@pytest.mark.parametrize("empty_stock_sang", [False, True])
def test_p8_no_stock_left(empty_stock_sang):
    """Thirteen cards to four players deals the whole deck (P3); the trump follows P8's variants."""
    rules = PlumpRules(thirteen_cards=True, empty_stock_sang=empty_stock_sang)
    g = PlumpGame(NAMES, rules, seed=5)
    assert g.deal.cards == 13
    dealt = [c for h in g.deal.hands for c in h]
    assert sorted(dealt, key=lambda c: c.id) == sorted(FULL_DECK, key=lambda c: c.id)
    if empty_stock_sang:
        assert g.deal.trump_card is None and g.deal.trump is None
    else:  # turned before the deal and shuffled back in: it sits in someone's hand
        assert g.deal.trump_card in dealt and g.deal.trump == g.deal.trump_card.suit


def test_p8_turned_ace_in_a_game():
    hands = ["♠2 ♥3", "♠4 ♥5", "♠6 ♥7", "♠8 ♥9"]
    g = PlumpGame(NAMES, PlumpRules(turned_ace_sang=True), seed=1, first_deal=8, hands=hands, trump_card="♦E")
    assert g.deal.trump is None
    g = PlumpGame(NAMES, seed=1, first_deal=8, hands=hands, trump_card="♦E")
    assert g.deal.trump == '♦'


def test_p9_highest_bidder_leads_and_tie_goes_to_the_seat_nearest_after_the_dealer():
    hands = ["♠2 ♥3 ♣4", "♠4 ♥5 ♣5", "♠6 ♥7 ♣6", "♠8 ♥9 ♣7"]
    d = PlumpDeal(4, hands, "♦2", dealer=0, rules=PlumpRules(highest_bidder_leads=True))
    for seat, b in [(1, 1), (2, 2), (3, 2), (0, 1)]:  # Cissi and Dan tie on 2; Cissi sits first after Anna
        d.bid(seat, b)
    assert d.to_act == 2
    d = PlumpDeal(4, hands, "♦2", dealer=0)
    for seat, b in [(1, 1), (2, 2), (3, 2), (0, 1)]:
        d.bid(seat, b)
    assert d.to_act == 1  # default: förhand leads


def test_p5_dealer_bids_first_moves_the_restriction_to_the_last_bidder():
    hands = ["♠2 ♥3", "♠4 ♥5", "♠6 ♥7", "♠8 ♥9"]
    d = PlumpDeal(4, hands, "♦2", dealer=0, rules=PlumpRules(dealer_bids_first=True))
    assert d.order == [0, 1, 2, 3]
    d.bid(0, 0); d.bid(1, 1); d.bid(2, 0)
    assert d.legal_bids() == [0, 2]
    with pytest.raises(PlumpError, match="Den som bjuder sist får inte bjuda 1"):
        d.bid(3, 1)


def test_p6_simultaneous_bids_allow_an_even_sum():
    d = PlumpDeal(2, ["♠2", "♠3"], "♦2", dealer=0, rules=PlumpRules(simultaneous_bids=True))
    d.bid(1, 0)
    assert d.legal_bids() == [0, 1]
    d.bid(0, 1)


def test_p10_must_trump_inside_a_deal():
    hands = ["♠2 ♥3", "♣4 ♥5", "♠6 ♥7"]
    d = PlumpDeal(3, hands, "♥2", dealer=2, rules=PlumpRules(must_trump=True))
    d.bid(0, 0); d.bid(1, 0); d.bid(2, 0)
    d.play(0, "♠2")
    assert d.legal_cards() == parse_cards("♥5")
    with pytest.raises(PlumpError, match="Trumftvång"):
        d.play(1, "♣4")
    d2 = PlumpDeal(3, hands, "♥2", dealer=2)
    d2.bid(0, 0); d2.bid(1, 0); d2.bid(2, 0)
    d2.play(0, "♠2")
    d2.play(1, "♣4")  # without the house rule a void player may discard


def test_p16_no_zero_twice_follows_the_previous_deal_in_a_game():
    g = PlumpGame(NAMES, PlumpRules(no_zero_twice=True), seed=9, first_deal=6)  # 4 cards, Anna deals
    assert g.deal.cards == 4
    g.bid("Bo", 0).bid("Cissi", 1).bid("Dan", 1).bid("Anna", 0)
    g.record_result([1, 0, 1, 2])
    assert g.deal.cards == 3 and g.to_act == "Cissi"  # Bo deals now
    assert 0 in g.legal_bids()                         # Cissi bid 1 last time
    g.bid("Cissi", 1)
    assert 0 in g.legal_bids()                         # Dan bid 1
    g.bid("Dan", 1)
    assert g.legal_bids() == [1, 2, 3]                 # Anna bid 0 last time
    with pytest.raises(PlumpError, match="noll två gånger"):
        g.bid("Anna", 0)
    g.bid("Anna", 1)
    g.bid("Bo", 2)


def test_p16_dealer_keeps_zero_when_it_is_the_only_way_to_keep_the_sum_off():
    # Dealer Cissi bid 0 last deal; in the one-card deal the others bid 0, 0: a bid of 1 would make the sum 1.
    g = PlumpGame(["Anna", "Bo", "Cissi"], PlumpRules(no_zero_twice=True), seed=2, first_deal=8, dealer="Bo")
    g.bid("Cissi", 0).bid("Anna", 1).bid("Bo", 2)
    g.record_result([1, 1, 0])
    assert g.deal.cards == 1 and g.players[g.deal.dealer] == "Cissi"
    g.bid("Anna", 0).bid("Bo", 0)
    assert g.legal_bids() == [0]
    g.bid("Cissi", 0)


def test_p3_schedule_drives_the_game_and_the_dealer_rotates():
    for n in range(2, 7):
        names = NAMES[:n] if n <= 4 else NAMES + ["Erik", "Fia"][: n - 4]
        g = PlumpGame(names, seed=n, dealer=1)
        seen = []
        while g.phase != 'over':
            seen.append((g.deal.cards, g.deal.dealer))
            while g.phase == 'bidding':
                g.bid(g.to_act, g.legal_bids()[-1])
            g.record_result([g.deal.cards] + [0] * (n - 1))
        assert [c for c, _ in seen] == deal_schedule(n)
        assert [d for _, d in seen] == [(1 + i) % n for i in range(len(seen))]


def test_p12_renons_scores_a_plump_even_on_the_exact_bid():
    g = PlumpGame(NAMES, seed=1, first_deal=9)  # one card each
    g.bid("Bo", 1).bid("Cissi", 0).bid("Dan", 0).bid("Anna", 1)
    g.record_result({"Anna": 0, "Bo": 1, "Cissi": 0, "Dan": 0}, renons=["Bo"])
    assert g.deals[-1].points() == [0, 0, 10, 10]
    sheet = g.sheet(only_played=True)
    assert 'renons' in sheet._repr_html_()


def test_p14_sheet_has_every_row_of_the_schedule_from_the_start():
    g = PlumpGame(NAMES, seed=1)
    sheet = g.sheet()
    assert [r['cards'] for r in sheet.rows] == deal_schedule(4)
    assert sheet.totals == [0, 0, 0, 0]
    html = sheet._repr_html_()
    assert html.count('<tr>') == 1 + 19 + 1  # header, a row per deal, totals


def test_p14_ranking_shares_places_on_ties():
    from plump_teach.plump import ScoreSheet
    s = ScoreSheet(["A", "B", "C", "D"], [], [20, 31, 20, 5])
    assert s.ranking() == [(1, "B", 31), (2, "A", 20), (2, "C", 20), (4, "D", 5)]
