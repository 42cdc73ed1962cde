"""The three sources' rule sets (P17 presets) played as whole games, checked against the sources' own figures.

G = seeds/plump-guide.txt, R = seeds/plump-regler.txt, U = seeds/plump-uppat.txt (see RULES.md).
Each game is played card by card with seeded random legal moves through `PlumpGame`, to the end.
"""
import random

import pytest

from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpRules, PlumpError
from plump_teach.engine.plump_rules import RULE_PRESETS, rule_preset, draw_for_dealer, hit_points, forehand

NAMES = ["Anna", "Bo", "Cissi", "Dan", "Erik", "Fia"]


def play_game(game, seed):
    """Play every deal to the end with random legal bids and cards; return what each deal looked like."""
    rng = random.Random(seed)
    seen = []
    while game.phase != 'over':
        d = game.deal
        seen.append(dict(cards=d.cards, dealer=d.dealer, order=list(d.order), turned=d.trump_card, trump=d.trump,
                         dealt=sum(len(h) for h in d.hands)))
        while game.phase == 'bidding':
            game.bid(game.to_act, rng.choice(game.legal_bids()))
        while game.phase == 'playing':
            game.play(game.to_act, rng.choice(list(game.legal_cards())))
    for d in game.deals:  # every score is the rule set's own score for that bid and result
        assert d.points() == [hit_points(d.bids[s], d.taken[s], d.cards, game.rules) for s in range(game.n)]
    assert game.totals == [sum(d.points()[s] for d in game.deals) for s in range(game.n)]
    return seen


@pytest.mark.parametrize("n, deals", [(2, 19), (3, 19), (4, 19), (5, 19), (6, 15)])
def test_guide_whole_game(n, deals):
    """G: ten cards down to one and back up, 19 deals; eight with six players, 15 deals; trump every deal."""
    g = PlumpGame(NAMES[:n], PlumpRules.preset('guiden'), seed=100 + n)
    seen = play_game(g, n)
    top = 8 if n == 6 else 10
    assert len(g.deals) == deals and [s['cards'] for s in seen] == [*range(top, 0, -1), *range(2, top + 1)]
    assert all(s['trump'] == s['turned'].suit for s in seen)
    assert all(s['order'][0] == forehand(s['dealer'], n) for s in seen)  # förhand bids first


@pytest.mark.parametrize("n", [3, 4, 5])
def test_rules_text_whole_game(n):
    """R: down from ten to one, then a one-card deal for each player; no trump in the first deal; a turned ace is sang."""
    g = PlumpGame(NAMES[:n], PlumpRules.preset('regeltexten'), seed=200 + n)
    seen = play_game(g, n)
    assert [s['cards'] for s in seen] == [*range(10, 0, -1), *[1] * (n - 1)]
    assert len(g.deals) == 9 + n
    assert sorted(s['dealer'] for s in seen if s['cards'] == 1) == list(range(n))  # everyone deals a one-card deal
    assert seen[0]['trump'] is None
    for s in seen[1:]:
        assert s['trump'] == (None if s['turned'].rank == 14 else s['turned'].suit)


def test_rules_text_turned_ace_happens_and_means_sang():
    """Over many seeds, some second deal turns an ace and is played without trump (R). The first deal turns no
    card at all (R: trump from the second deal on)."""
    aces = 0
    for seed in range(40):
        g = PlumpGame(NAMES[:4], PlumpRules.preset('regeltexten'), seed=seed)
        assert (g.deal.trump_card, g.deal.trump) == (None, None)
        while g.phase == 'bidding':
            g.bid(g.to_act, g.legal_bids()[0])
        g.record_result([g.deal.cards, 0, 0, 0])
        if g.deal.trump_card.rank == 14:
            aces += 1
            assert g.deal.trump is None
    assert aces > 0


@pytest.mark.parametrize("n, deals", [(4, 13), (5, 10), (2, 26), (3, 17), (6, 8)])
def test_upward_whole_game(n, deals):
    """U: one card, then one more each deal while the deck lasts; 4 players 13 deals, 5 players 10 deals.
    The dealer is drawn, bids first, and a deal with no stock left has no trump."""
    preset = rule_preset('uppat')
    assert preset.draw_for_dealer
    dealer, _ = draw_for_dealer(n, rng=n)
    g = PlumpGame(NAMES[:n], preset.rules, seed=300 + n, dealer=dealer)
    seen = play_game(g, n)
    assert len(g.deals) == deals and [s['cards'] for s in seen] == list(range(1, deals + 1))
    assert seen[0]['dealer'] == dealer
    assert all(s['order'][0] == s['dealer'] for s in seen)  # bidding starts with the dealer
    for s in seen:
        if s['dealt'] == 52:
            assert s['turned'] is None and s['trump'] is None
        else:
            assert s['trump'] == s['turned'].suit
    assert (seen[-1]['dealt'] == 52) == (52 % n == 0)


def test_upward_only_alone_follows_the_guide_at_an_empty_stock():
    """The fields combine: upward_only is the schedule only; without empty_stock_sang the guide's
    way applies (turn before the deal, shuffle back in), with it the upward source's (sang)."""
    alone = PlumpGame(NAMES[:4], PlumpRules(upward_only=True), seed=5, first_deal=12)
    dealt = [c for h in alone.deal.hands for c in h]
    assert alone.deal.cards == 13 and alone.deal.trump_card in dealt
    assert alone.deal.trump == alone.deal.trump_card.suit
    preset = PlumpGame(NAMES[:4], PlumpRules.preset('uppat'), seed=5, first_deal=12)
    assert preset.deal.trump_card is None and preset.deal.trump is None


def test_guide_worked_example_p18_p19():
    """G's score sheet example: deal of five cards (Dan deals) and of four (Anna deals); totals 23, 0, 10, 11."""
    g = PlumpGame(NAMES[:4], PlumpRules.preset('guiden'), seed=1, first_deal=5, dealer="Dan")
    assert g.deal.cards == 5 and g.players[g.to_act] == "Anna"
    g.bid("Anna", 2).bid("Bo", 1).bid("Cissi", 0)
    with pytest.raises(PlumpError, match="Givaren får inte bjuda 2"):
        g.bid("Dan", 2)
    g.bid("Dan", 1).record_result({"Anna": 2, "Bo": 2, "Cissi": 0, "Dan": 1})
    assert g.deals[-1].points() == [12, 0, 10, 11]
    assert g.deal.cards == 4 and g.players[g.deal.dealer] == "Anna"
    g.bid("Bo", 2).bid("Cissi", 1).bid("Dan", 1)
    with pytest.raises(PlumpError, match="Givaren får inte bjuda 0"):
        g.bid("Anna", 0)
    g.bid("Anna", 1).record_result({"Anna": 1, "Bo": 1, "Cissi": 2, "Dan": 0})
    assert g.deals[-1].points() == [11, 0, 0, 0]
    assert g.totals == [23, 0, 10, 11]
    rows = g.sheet(only_played=True).rows
    assert [g.sheet().cell_text(rows[0], s) for s in range(4)] == ["12", "1 plump", "10", "11"]


def test_rules_text_scoring_examples():
    """R: a hit 3 scores 13 and a hit 5 scores 15; a hit zero scores 10."""
    g = PlumpGame(NAMES[:3], PlumpRules.preset('regeltexten'), seed=2, first_deal=3)  # seven cards, Anna deals
    assert g.deal.cards == 7 and g.deal.trump is None  # the first deal played is without trump
    g.bid("Bo", 3).bid("Cissi", 0).bid("Anna", 5)
    g.record_result({"Anna": 4, "Bo": 3, "Cissi": 0})
    assert g.deals[-1].points() == [0, 13, 10]
    g.bid("Cissi", 0).bid("Anna", 5)  # six cards, Bo deals
    g.bid("Bo", 0)
    g.record_result({"Anna": 5, "Bo": 0, "Cissi": 1})
    assert g.deals[-1].points() == [15, 10, 0]


def test_upward_scoring_examples():
    """U: a hit bid of four scores 14; a hit zero scores 5 plus the tricks in the deal."""
    g = PlumpGame(NAMES[:4], PlumpRules.preset('uppat'), seed=3, first_deal=6, dealer="Anna")  # seven cards
    assert g.deal.cards == 7 and g.players[g.to_act] == "Anna"  # the dealer bids first
    g.bid("Anna", 4).bid("Bo", 0).bid("Cissi", 1)
    with pytest.raises(PlumpError, match="Den som bjuder sist får inte bjuda 2"):
        g.bid("Dan", 2)
    g.bid("Dan", 1).record_result({"Anna": 4, "Bo": 0, "Cissi": 2, "Dan": 1})
    assert g.deals[-1].points() == [14, 12, 0, 11]
    assert g.sheet().cell_text(g.sheet().rows[0], 1) == "12"


def test_presets_are_known_by_name_and_recognised():
    assert list(RULE_PRESETS) == ['guiden', 'regeltexten', 'uppat']
    for key, p in RULE_PRESETS.items():
        assert PlumpRules.preset(key) == p.rules and p.rules.preset_key() == key
        assert PlumpRules.preset(p.title.upper()) == p.rules
        assert PlumpRules.from_dict(p.rules.to_dict()).preset_key() == key
    assert PlumpRules(sang=True).preset_key() is None
    for bad in ['bridge', '', None, 3, ['uppat']]:
        with pytest.raises(PlumpError, match="Välj en av: guiden .*regeltexten .*uppat"):
            PlumpRules.preset(bad)
