"""House rules (P3-P16) as they act inside whole deals and games, beyond the notebook lessons.

Each test names the rule it pins down and would fail if the engine got that rule wrong.
"""
import pytest

from plump_teach.engine.cards import parse_cards, FULL_DECK
from plump_teach.engine.plump import PlumpDeal
from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpRules, PlumpError, deal_schedule
from plump_teach.engine.plump_rules import turns_no_card

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
    # no card is turned in the first deal (nobody sees a stock card), but the hands are the seed's hands
    assert g.deal.trump_card is None and g.deal.trump is None
    assert g.deal.dealt == PlumpGame(NAMES, seed=3).deal.dealt
    assert PlumpGame(NAMES, seed=3).deal.trump == PlumpGame(NAMES, seed=3).deal.trump_card.suit


@pytest.mark.parametrize("first_deal", [1, 5, 18])
def test_p8_first_deal_sang_means_the_first_deal_played(first_deal):
    """A game that starts later in the schedule still plays its own first deal without trump."""
    g = PlumpGame(NAMES, PlumpRules(first_deal_sang=True), seed=3, first_deal=first_deal)
    assert g.deal.trump_card is None and g.deal.trump is None
    if first_deal < 18:
        while g.phase == 'bidding':
            g.bid(g.to_act, g.legal_bids()[0])
        g.record_result([g.deal.cards, 0, 0, 0])
        assert g.deal.trump == g.deal.trump_card.suit  # the second deal played has a turned card and trump


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
    assert g.deal.cards == 3 and g.players[g.to_act] == "Cissi"  # Bo deals now
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
    from plump_teach.engine.plump_game import ScoreSheet
    s = ScoreSheet(["A", "B", "C", "D"], [], [20, 31, 20, 5])
    assert s.ranking() == [(1, "B", 31), (2, "A", 20), (2, "C", 20), (4, "D", 5)]


def test_p13_ten_scores_110_puts_the_one_in_front_of_every_two_digit_bid():
    """G: with the house rule the hit bid gets a "1" in front: 10 -> 110, and in a 13-card deal 11..13 -> 111..113."""
    rules = PlumpRules(thirteen_cards=True, ten_scores_110=True)
    for bid in (10, 11, 12, 13):
        g = PlumpGame(NAMES, rules, seed=bid)
        assert g.deal.cards == 13
        g.bid("Bo", bid).bid("Cissi", 0).bid("Dan", 0).bid("Anna", 0 if bid < 13 else 1)
        g.record_result({"Bo": bid, "Cissi": 0, "Dan": 0, "Anna": 13 - bid})
        assert g.deals[0].points()[1] == 100 + bid
    g = PlumpGame(NAMES, PlumpRules(thirteen_cards=True), seed=1)
    g.bid("Bo", 12).bid("Cissi", 0).bid("Dan", 0).bid("Anna", 0)
    g.record_result([1, 12, 0, 0])
    assert g.deals[0].points()[1] == 22  # without the house rule the tens digit grows


def test_p14_zero_scores_five_is_written_05_and_totals_stay_numbers():
    g = PlumpGame(NAMES, PlumpRules(zero_scores_five=True), seed=1, first_deal=8)  # two cards, Anna deals
    g.bid("Bo", 0).bid("Cissi", 0).bid("Dan", 1).bid("Anna", 0)
    g.record_result({"Anna": 1, "Bo": 0, "Cissi": 0, "Dan": 1})
    sheet = g.sheet()
    assert [sheet.cell_text(sheet.rows[0], s) for s in range(4)] == ["0 plump", "05", "05", "11"]
    assert sheet.totals == [0, 5, 5, 11] and g.totals == [0, 5, 5, 11]
    assert "05" in str(sheet).splitlines()[1]
    assert str(sheet).splitlines()[-1].split() == ["Summa", "0", "5", "5", "11"]
    assert sheet._repr_html_().count(">05<") == 2
    plain = PlumpGame(NAMES, seed=1, first_deal=8)
    plain.bid("Bo", 0).bid("Cissi", 0).bid("Dan", 1).bid("Anna", 0)
    plain.record_result({"Anna": 1, "Bo": 0, "Cissi": 0, "Dan": 1})
    assert plain.sheet().cell_text(plain.sheet().rows[0], 1) == "10"


HANDS_2 = ["♠2 ♥3", "♠4 ♥5", "♠6 ♥7", "♠8 ♥9"]
WHOLE_DECK = [[FULL_DECK[i] for i in range(s, 52, 4)] for s in range(4)]


@pytest.mark.parametrize("rules, first_deal, hands, trump_card", [
    (PlumpRules(empty_stock_sang=True, thirteen_cards=True), 0, WHOLE_DECK, "♠2"),
    (PlumpRules.preset('uppat'), 12, WHOLE_DECK, "♥E"),
])
def test_set_hands_trump_card_cannot_override_empty_stock_sang(rules, first_deal, hands, trump_card):
    g = PlumpGame(NAMES, rules, seed=1, first_deal=first_deal)
    before = g.to_json(), g.deal.hands
    with pytest.raises(PlumpError, match="vänds inget trumfkort"):
        g.set_hands(hands, trump_card)
    assert (g.to_json(), g.deal.hands) == before
    with pytest.raises(PlumpError, match="vänds inget trumfkort"):
        PlumpGame(NAMES, rules, seed=1, first_deal=first_deal, hands=hands, trump_card=trump_card)
    assert g.set_hands(hands).deal.trump is None


@pytest.mark.parametrize("rules, first_deal, trump", [
    (PlumpRules(sang=True), 8, None),
    (PlumpRules(turned_ace_sang=True), 8, None),
    (PlumpRules(first_deal_sang=True), 8, None),
    (PlumpRules(first_deal_sang=True), 0, None),
    (PlumpRules(), 8, '♦'),
])
def test_set_hands_trump_card_follows_the_house_rules(rules, first_deal, trump):
    rest = [c for c in FULL_DECK if str(c) != "♦E"]
    hands = HANDS_2 if first_deal == 8 else [rest[s:40:4] for s in range(4)]
    g = PlumpGame(NAMES, rules, seed=1, first_deal=first_deal)
    if turns_no_card(rules, opening_deal=True):
        # P8: a deal that is sang by the house rules turns no card, so a trump card is refused and nothing changes
        before = g.to_json(), g.deal.hands, g.deal.trump_card
        with pytest.raises(PlumpError, match="då vänds inget kort upp"):
            g.set_hands(hands, "♦E")
        assert (g.to_json(), g.deal.hands, g.deal.trump_card) == before
        assert (g.set_hands(hands).deal.trump, g.deal.trump_card) == (None, None)
    else:
        assert g.set_hands(hands, "♦E").deal.trump == trump


def test_a_game_saved_with_a_card_turned_in_a_sang_deal_still_loads():
    """Files written before P8 was fixed may hold a trump card in a deal that is sang by the house rules; they load,
    without the card (nobody at the table saw it)."""
    g = PlumpGame(NAMES, PlumpRules(sang=True), seed=1, first_deal=8)
    g.set_hands(HANDS_2)
    d = g.to_dict()
    d['events'][0][2] = "♦E"
    loaded = PlumpGame.from_dict(d)
    assert (loaded.deal.trump_card, loaded.deal.hands) == (None, g.deal.hands)
    assert loaded.to_dict() == g.to_dict()


def test_set_hands_with_a_stock_and_no_trump_card_is_refused():
    g = PlumpGame(NAMES, seed=1, first_deal=8)
    before = g.to_json(), g.deal.hands, g.deal.trump_card
    with pytest.raises(PlumpError, match="Ange trumfkortet också: i den här given 44 kort blir kvar i talongen"):
        g.set_hands(HANDS_2)
    assert (g.to_json(), g.deal.hands, g.deal.trump_card) == before
    g13 = PlumpGame(NAMES, PlumpRules(thirteen_cards=True), seed=1)  # no stock, the guide's way: turned before the deal
    with pytest.raises(PlumpError, match="översta kortet vänds före utdelningen"):
        g13.set_hands(WHOLE_DECK)
    assert g13.set_hands(WHOLE_DECK, "♣5").deal.trump == '♣'
    assert PlumpGame(NAMES, PlumpRules(sang=True), seed=1, first_deal=8).set_hands(HANDS_2).deal.trump is None


def test_set_hands_given_by_name_and_refused_cleanly():
    g = PlumpGame(NAMES, seed=1, first_deal=8)
    g.set_hands({" dan ": HANDS_2[3], "Anna": HANDS_2[0], "Bo": HANDS_2[1], "Cissi": HANDS_2[2]}, "♦2")
    assert [str(h) for h in g.deal.hands] == [str(h) for h in PlumpGame(NAMES, seed=1, first_deal=8, hands=HANDS_2, trump_card="♦2").deal.hands]
    with pytest.raises(PlumpError, match="Dan saknas"):
        g.set_hands({"Anna": HANDS_2[0], "Bo": HANDS_2[1], "Cissi": HANDS_2[2]}, "♦2")
    for bad in ["♠2 ♥3", 5, None]:
        with pytest.raises(PlumpError, match="lista med en hand per spelare"):
            g.set_hands(bad, "♦2")


ZWSP = "\u200b"


@pytest.mark.parametrize("players, fragment", [
    ("Abc", "lista med namn"),
    ({"Anna": 1, "Bo": 2}, "lista med namn"),
    (["Åsa", "A\u030asa", "Bo"], "Två spelare heter Åsa"),
    (["Anna", "Anna" + ZWSP, "Bo"], "Två spelare heter Anna"),
    (["Anna", "ANNA", "Bo"], "Två spelare heter ANNA"),
    (["Anna", "\u0410nna", "Bo"], "Två spelare heter \u0410nna"),   # a Cyrillic А looks like A (issue 27)
    (["Bo", "ＢＯ", "Anna"], "Två spelare heter ＢＯ"),                # fullwidth letters
    (["Anna", ZWSP], "Spelare 2 behöver ett namn"),
    (["Anna", 7], "Spelare 2 behöver ett namn skrivet med bokstäver"),
    (["Anna"], "2–6 spelare"),
])
def test_p2_players_are_a_list_of_different_names(players, fragment):
    with pytest.raises(PlumpError, match=fragment):
        PlumpGame(players, seed=1)


def test_p2_names_are_cleaned_and_found_as_they_look():
    g = PlumpGame(["  Åsa ", "Anna" + ZWSP + " Karin", "Lars"], seed=1)
    assert g.players == ["Åsa", "Anna Karin", "Lars"]
    assert g.seat("A\u030asa") == 0 and g.seat("anna karin") == 1 and g.seat(" LARS ") == 2
    assert g.players[g.to_act] == "Anna Karin"
    g.bid("ANNA KARIN" + ZWSP, 1)
    assert g.deal.bids[1] == 1
    with pytest.raises(PlumpError, match="Det finns ingen spelare 'Erik' i partiet; spelarna är Åsa, Anna Karin och Lars."):
        g.seat("Erik")
    for bad in [None, 1.0, True, 3, -1, ["Åsa"]]:     # inget namn och ingen plats: ett fel av fel sort (WrongArgument)
        with pytest.raises(PlumpError, match=r"Ange spelaren med namn \(Åsa, Anna Karin, Lars\) eller plats 0–2"):
            g.seat(bad)


def test_default_seat_names_are_the_seats_of_the_api_and_take_the_genitive():
    "Issue 40: without names a message says the seat as the code counts it (from 0), so plats 2 is seat 2."
    d = PlumpDeal(3, ["♠E ♥3", "♥K ♥D", "♠2 ♦E"], "♠7", dealer=0)
    assert d.names == ["plats 0", "plats 1", "plats 2"]
    with pytest.raises(PlumpError, match="Det är inte plats 2:s tur, utan plats 1:s."):
        d.bid(2, 0)
    with pytest.raises(PlumpError, match="Platsen 3 finns inte"):
        d.bid(3, 0)
    with pytest.raises(PlumpError, match="ska vara exakt 3|behöver exakt 3"):
        PlumpDeal(3, ["♠E ♥3", "♥K ♥D", "♠2 ♦E"], "♠7", names=["Anna", "Bo"])


def test_names_ending_in_s_x_z_take_no_genitive_s():
    g = PlumpGame(["Anna", "Lars", "Max", "Inez"], seed=1, first_deal=9)  # one card; Lars bids first
    with pytest.raises(PlumpError, match="Det är inte Max tur, utan Lars.$"):
        g.bid("Max", 0)
    g.bid("Lars", 0).bid("Max", 0).bid("Inez", 0).bid("Anna", 0)
    wrong = next(c for c in FULL_DECK if c not in g.deal.hand(1))
    with pytest.raises(PlumpError, match="finns inte på Lars hand"):
        g.play("Lars", wrong)
    assert "Larss" not in str(g.sheet()) and "Larss" not in g.deal._repr_html_()


def test_no_internal_codes_in_card_messages():
    g = PlumpGame(["Anna", "Bo", "Cissi"], PlumpRules(must_trump=True), seed=1, first_deal=7,
                  hands=["♠2 ♥3 ♣4", "♠4 ♥5 ♦2", "♣6 ♦7 ♦8"], trump_card="♦E")
    g.bid("Bo", 0).bid("Cissi", 0).bid("Anna", 0)
    g.play("Bo", "♠4")
    with pytest.raises(PlumpError) as follow:
        g.play("Cissi", "♣6")  # void in spades, holds trump: must trump
    g.play("Cissi", "♦7")
    with pytest.raises(PlumpError) as follow2:
        g.play("Anna", "♣4")
    for e in (follow, follow2):
        msg = str(e.value)
        assert "follow_suit" not in msg and "must_trump" not in msg and "not_in_hand" not in msg
        assert "Trumftvång" in msg or "måste följa färg" in msg


EVIL = '<img src=x onerror="alert(1)">'


def test_html_escapes_player_names():
    g = PlumpGame([EVIL, "Bo", "Cissi"], seed=1, first_deal=7,
                  hands=["♠2 ♥3 ♣4", "♠4 ♥5 ♦2", "♣6 ♦7 ♦8"], trump_card="♦E")
    g.bid("Bo", 0).bid("Cissi", 0).bid(EVIL, 0)
    g.play("Bo", "♠4").play("Cissi", "♦7").play(EVIL, "♠2")
    for html in (g.sheet()._repr_html_(), g.deal._repr_html_(), g.deal.tricks_html()._repr_html_()):
        assert "<img" not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    from plump_teach.engine.plump_game import ScoreSheet
    rows = [{'cards': '<b>3</b>', 'dealer': 0, 'bids': ['<i>', 1], 'points': None, 'hit': [False, False],
             'tricks': None, 'renons': []}]
    html = ScoreSheet(["<u>A</u>", "B"], rows, ['<s>', 0])._repr_html_()
    assert "<b>" not in html and "<i>" not in html and "<u>" not in html and "<s>" not in html


@pytest.mark.parametrize("d, fragment", [
    ({'sang': 1}, "ska vara True eller False"),
    ({'sang': 'ja'}, "ska vara True eller False"),
    ({'zero_scores_five': None}, "lyckat nollbud ger 5 poäng .* ska vara True eller False"),
    ({'sang': [True]}, "inte en lista"),
    ({3: True}, "Okänd husregel: 3"),
    ({'jokrar': True, 'sang': True}, "Okänd husregel: jokrar"),
    ([], "lexikon"),
    ("sang", "lexikon"),
    ({'upward_only': True, 'down_only': True}, "uppåt från ett kort"),
])
def test_rules_from_dict_refuses_cleanly(d, fragment):
    with pytest.raises(PlumpError, match=fragment) as e:
        PlumpRules.from_dict(d)
    assert "upward_only" not in str(e.value) and "zero_scores_five" not in str(e.value)
