"""Property tests for the Plump engine: thousands of random, seeded games.

Hypothesis draws the table (2-6 players), a valid set of house rules, the
shuffle seed, where in the deal schedule the game starts, who deals first and
a seed for the "players"; a seeded `random.Random` then picks legal bids and
cards.  Some deals are played card by card, others are resolved with
`record_result` (random tricks summing to the card count), so that many whole
schedules fit in the time budget.  Every run is derandomized, so CI sees the
same examples every time.

Rule IDs refer to /work/shared/RULES.md (P3 schedule, P4 dealer, P5 bidding
order, P6 dealer's restriction, P8 trump, P9 first lead, P10 follow suit,
P11 trick winner, P12 renons, P13 scoring, P16 no zero twice).
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import fields

import pytest
from hypothesis import given
from hypothesis import strategies as st

from examples import prop_settings

from plump_teach.engine.cards import FULL_DECK, RANK_SYMBOLS, Card
from plump_teach.engine.plump import PlumpDeal
from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import (PlumpError, PlumpRules, deal_schedule, hit_points,
                                     legal_bids as rules_legal_bids, score, turns_no_card)
from plump_teach.engine.sim import random_playout
from plump_teach.engine.tricks import trick_winner

NAMES = ("Anna", "Bo", "Cissi", "Dan", "Eva", "Fredrik")
RULE_NAMES = tuple(f.name for f in fields(PlumpRules))
ASCII_SUIT = {'♠': 's', '♥': 'h', '♦': 'r', '♣': 'k'}

# One place to size the whole file.  Measured on the 2-core dev machine: 33-44 s for the file
# (1250 games, ~7300 deals played card by card, ~11000 recorded, ~221000 actions,
# 15000 playouts); `pytest tests/test_properties.py -s` prints these counts.
N_CARD_BY_CARD = 250      # games where every deal is played card by card
N_MIXED = 1000            # games mixing played and recorded deals
N_PLAYOUT = 300           # examples of sim.random_playout, 25 deals each
PLAYOUTS_PER_EXAMPLE = 25




# --------------------------------------------------------------------------- strategies

@st.composite
def valid_rules(draw, n: int) -> PlumpRules:
    "A house-rule combination `PlumpRules` accepts and that `deal_schedule(n, ...)` accepts."
    if draw(st.integers(0, 4)) == 0:
        return PlumpRules()
    flags = {name: draw(st.booleans()) for name in RULE_NAMES}
    if flags['upward_only']:          # refused together with the other schedule variants
        flags['down_only'] = flags['thirteen_cards'] = flags['one_card_deal_each'] = False
    if n not in (3, 4):               # 13 cards only for 3-4 players
        flags['thirteen_cards'] = False
    zero = draw(st.sampled_from(['ten', 'five', 'five_plus_tricks']))
    flags['zero_scores_five'] = zero == 'five'
    flags['zero_scores_five_plus_tricks'] = zero == 'five_plus_tricks'
    return PlumpRules(**flags)


@st.composite
def game_setups(draw, play_probs=(1.0,)):
    n = draw(st.integers(2, 6))
    rules = draw(valid_rules(n))
    schedule = deal_schedule(n, rules)
    start_late = draw(st.booleans())
    first_deal = draw(st.integers(0, len(schedule) - 1)) if start_late else 0
    return dict(n=n, rules=rules, first_deal=first_deal,
                dealer=draw(st.integers(0, n - 1)),
                seed=draw(st.integers(0, 2**32 - 1)),
                action_seed=draw(st.integers(0, 2**32 - 1)),
                play_prob=draw(st.sampled_from(play_probs)))


# --------------------------------------------------------------------------- independent oracles

def expected_order(dealer, n, rules):
    "P5: förhand first and the dealer last, or (house rule) the dealer first."
    first = dealer if rules.dealer_bids_first else (dealer + 1) % n
    return [(first + i) % n for i in range(n)]


def expected_first_leader(dealer, bids, rules):
    "P9: förhand leads; house rule: the highest bidder, ties to the nearest after the dealer."
    n = len(bids)
    if not rules.highest_bidder_leads:
        return (dealer + 1) % n
    top = max(bids)
    return next(s for s in ((dealer + 1 + i) % n for i in range(n)) if bids[s] == top)


def expected_points(bid: int, tricks: int, cards: int, rules: PlumpRules, renons: bool = False) -> int:
    "P13 and its variants, written out from the sources without the engine: a hit is the bid with a 1 in front (G)."
    if renons or bid != tricks:
        return 0
    if bid == 0 and rules.zero_scores_five:
        return 5
    if bid == 0 and rules.zero_scores_five_plus_tricks:
        return 5 + cards
    if rules.one_point_per_trick:
        return bid
    if bid < 10 or rules.ten_scores_110:
        return int("1" + str(bid))   # 3 -> 13; with ten_scores_110 also 10 -> 110, 13 -> 113
    return 10 + bid                  # the guide: the tens digit grows, 10 -> 20


def expected_trump(deal: PlumpDeal, rules: PlumpRules, index: int, first_deal: int = 0):
    "P8 and its variants; `first_deal_sang` is about the first deal played, wherever the game starts."
    tc = deal.trump_card
    if tc is None or rules.sang or (rules.first_deal_sang and index == first_deal):
        return None
    if rules.turned_ace_sang and tc.rank == 14:
        return None
    return tc.suit


def expected_legal_cards(hand, trick, trump, must_trump):
    "P10: follow suit if you can; trumftvång as a house rule; else anything."
    if not trick:
        return set(hand)
    led = trick[0].suit
    same = {c for c in hand if c.suit == led}
    if same:
        return same
    trumps = {c for c in hand if c.suit == trump}
    if must_trump and trump is not None and trumps:
        return trumps
    return set(hand)


_IMMUTABLE = {id(c): c for c in FULL_DECK}


def deal_copy(deal: PlumpDeal) -> PlumpDeal:
    "A deep copy of a deal that shares the (immutable) cards and rules: much faster than plain deepcopy."
    return copy.deepcopy(deal, {**_IMMUTABLE, id(deal.rules): deal.rules})


def card_text(card: Card, rng: random.Random):
    "The card as a `Card`, as '♥E' or as ascii text like 'hE' / 'k10'."
    r = rng.random()
    if r < 0.4:
        return card
    if r < 0.7:
        return str(card)
    return ASCII_SUIT[card.suit] + RANK_SYMBOLS[card.rank]


# --------------------------------------------------------------------------- the driver

class Driver:
    "Plays a `PlumpGame` with random legal actions and checks invariants along the way."

    ILLEGAL_PROB = 0.04     # chance per action to also try (and check) illegal actions
    ALL_OPTIONS_PROB = 0.03  # chance per action to try every legal option on a copy

    def __init__(self, setup):
        self.s = setup
        self.n, self.rules = setup['n'], setup['rules']
        self.names = list(NAMES[:self.n])
        dealer = setup['dealer']
        self.rng = random.Random(setup['action_seed'])
        self.game = PlumpGame(self.names, self.rules, seed=setup['seed'], first_deal=setup['first_deal'],
                              dealer=dealer if self.rng.random() < 0.5 else self.names[dealer])
        self.schedule = deal_schedule(self.n, self.rules)
        self.clones: list[PlumpGame] = []
        self.played_deals = self.recorded_deals = self.actions = 0
        # where to do the JSON round trip: a deal index (len(schedule) = after the game) and a step in it
        self.rt_deal = self.rng.randrange(setup['first_deal'], len(self.schedule) + 1)
        self.rt_step = None

    # ---- actions, applied to the game and to every clone restored from JSON
    def act(self, method, *args):
        getattr(self.game, method)(*args)
        for c in self.clones:
            getattr(c, method)(*args)
            assert c.to_act == self.game.to_act
        self.actions += 1

    def maybe_round_trip(self):
        if self.rt_step is None:
            return
        if self.rt_step > 0:
            self.rt_step -= 1
            return
        self.rt_step = None
        self.round_trip()

    def round_trip(self):
        g = self.game
        text = g.to_json()
        g2 = PlumpGame.from_json(text)
        assert g2 == g
        assert g2.to_json() == text
        assert g2.to_act == g.to_act
        assert g2.phase == g.phase
        assert g2.totals == g.totals
        assert g2.deal_index == g.deal_index
        assert len(g2.deals) == len(g.deals)
        if g.deal is None:
            assert g2.deal is None
        else:
            assert g2.deal.hands == g.deal.hands
            assert g2.deal.dealt == g.deal.dealt
            assert g2.deal.bids == g.deal.bids
            assert g2.deal.trick == g.deal.trick
            assert g2.deal.history == g.deal.history
            assert g2.deal.trump_card == g.deal.trump_card
            assert g2.legal_bids() == g.legal_bids()
            assert g2.legal_cards() == g.legal_cards()
        self.clones.append(g2)

    # ---- illegal actions: refused with PlumpError, nothing changes
    def refused(self, fn, *args, match=None):
        g = self.game
        before = g.to_json()
        deal = g.deal
        snap = None if deal is None else (deal.hands, list(deal.bids), list(deal.taken), deal.trick, deal.phase)
        with pytest.raises(PlumpError, match=match):
            fn(*args)
        assert g.to_json() == before
        assert g.deal is deal
        if deal is not None:
            assert (deal.hands, list(deal.bids), list(deal.taken), deal.trick, deal.phase) == snap

    def try_illegal_bids(self, legal, cards):
        g, rng = self.game, self.rng
        bad = [b for b in range(cards + 1) if b not in legal] + [-1, cards + 1, True, 1.0, "1", None]
        self.refused(g.bid, g.to_act, rng.choice(bad))
        other = rng.choice([p for p in self.names if p != g.players[g.to_act]])
        self.refused(g.bid, other, legal[0], match="tur")
        self.refused(g.play, g.to_act, g.deal.hand(g.deal.to_act)[0], match="inte .* nu")
        self.refused(g.bid, "Zorro", legal[0], match="ingen spelare")

    def try_illegal_cards(self, legal, hand):
        g, rng = self.game, self.rng
        deal = g.deal
        not_legal = [c for c in hand if c not in legal]
        if not_legal:
            self.refused(g.play, g.to_act, card_text(rng.choice(not_legal), rng),
                         match="måste följa färg|Trumftvång")
        not_in_hand = [c for c in FULL_DECK if c not in hand]
        self.refused(g.play, g.to_act, rng.choice(not_in_hand), match="finns inte på")
        seat = deal.to_act
        other = rng.choice([s for s in range(self.n) if s != seat])
        if deal.hand(other):
            self.refused(g.play, self.names[other], deal.hand(other)[0], match="tur")
        self.refused(g.bid, g.to_act, 0, match="inte .* nu")
        if deal.trick or deal.history:
            tricks = [0] * self.n
            tricks[0] = deal.cards
            self.refused(g.record_result, tricks, match="inget kort är spelat")

    # ---- one deal
    def start_deal_checks(self, deal: PlumpDeal, prev: PlumpDeal | None):
        g, n, rules = self.game, self.n, self.rules
        idx = g.deal_index
        cards = self.schedule[idx]
        assert deal.cards == cards
        # P4: the dealer rotates one seat per deal
        assert deal.dealer == (g.first_dealer + idx - g.first_deal) % n
        if prev is not None:
            assert deal.dealer == (prev.dealer + 1) % n
        # the hands partition n*cards distinct dealt cards
        dealt = [c for h in deal.dealt for c in h]
        assert all(len(h) == cards for h in deal.dealt)
        assert len(dealt) == n * cards == len(set(dealt))
        assert [list(h) for h in deal.dealt] == [list(h) for h in deal.hands]
        # P8: the turned card is not in a hand unless the whole deck is dealt; a deal that is sang by the house
        # rules (sang, or the first deal with first_deal_sang) turns no card
        if turns_no_card(rules, idx == g.first_deal):
            assert deal.trump_card is None
        elif n * cards < 52:
            assert deal.trump_card is not None and deal.trump_card not in set(dealt)
        elif rules.empty_stock_sang:
            assert deal.trump_card is None
        else:
            assert deal.trump_card in set(dealt)
        if n * cards == 52:
            STATS['whole_deck_deals'] += 1
        assert deal.trump == expected_trump(deal, rules, idx, g.first_deal)
        # P15: during bidding you see your own hand, or with 'kortet i pannan' everyone's but your own
        for seat in range(n):
            seen = set(deal.visible_hands(seat))
            assert seen == ({s for s in range(n) if s != seat} if cards == 1 and rules.blind_one_card else {seat})
        # P16: who bid zero in the previous deal of this game
        if rules.no_zero_twice and prev is not None:
            assert deal.zero_last == {s for s in range(n) if prev.bids[s] == 0}
        else:
            assert not deal.zero_last
        # P5
        assert deal.order == expected_order(deal.dealer, n, rules)
        assert deal.phase == 'bidding' and g.phase == 'bidding'
        # P14: the score sheet has a row per deal of the (remaining) schedule, labelled with its cards
        if self.rng.random() < 0.2:
            assert [r['cards'] for r in g.sheet().rows] == self.schedule[g.first_deal:]
        if not rules.dealer_bids_first:
            assert deal.order[-1] == deal.dealer

    def bid_step(self):
        g, deal, rng, rules = self.game, self.game.deal, self.rng, self.rules
        seat = deal.to_act
        assert g.to_act == seat and g.players[g.to_act] == self.names[seat]
        legal = g.legal_bids()
        earlier = [deal.bids[s] for s in deal.order if deal.bids[s] is not None]
        last = len(earlier) == self.n - 1
        assert legal and set(legal) <= set(range(deal.cards + 1)) and legal == sorted(legal)
        assert legal == rules_legal_bids(deal.cards, earlier, self.n, rules, seat in deal.zero_last)
        if last and not rules.simultaneous_bids:
            assert deal.cards - sum(earlier) not in legal     # P6
        if rules.no_zero_twice and seat in deal.zero_last:
            assert 0 not in legal or legal == [0]           # P16, unless zero is the only way out
        missing = set(range(deal.cards + 1)) - set(legal)
        if not rules.no_zero_twice or seat not in deal.zero_last:
            assert len(missing) <= (1 if last and not rules.simultaneous_bids else 0)
        if rng.random() < self.ILLEGAL_PROB:
            self.try_illegal_bids(legal, deal.cards)
        if rng.random() < self.ALL_OPTIONS_PROB:
            for b in legal:
                deal_copy(deal).bid(seat, b)
        self.act('bid', g.to_act if rng.random() < 0.7 else seat, rng.choice(legal))

    def after_bidding_checks(self, deal):
        rules = self.rules
        assert deal.phase == 'playing'
        assert all(b is not None for b in deal.bids)
        if not rules.simultaneous_bids:
            assert sum(deal.bids) != deal.cards                 # P6
        assert deal.leader == expected_first_leader(deal.dealer, deal.bids, rules)  # P9

    def play_step(self):
        g, deal, rng, rules = self.game, self.game.deal, self.rng, self.rules
        seat = deal.to_act
        assert g.to_act == seat and g.players[g.to_act] == self.names[seat]
        assert seat == (deal.leader + len(deal.trick)) % self.n
        hand = deal.hand(seat)
        legal = g.legal_cards()
        assert legal
        assert set(legal) == expected_legal_cards(hand, deal.trick, deal.trump, rules.must_trump)
        if rng.random() < self.ILLEGAL_PROB:
            self.try_illegal_cards(legal, hand)
        if rng.random() < self.ALL_OPTIONS_PROB:
            for c in legal:
                deal_copy(deal).play(seat, c)
        self.act('play', g.to_act if rng.random() < 0.7 else seat, card_text(rng.choice(legal), rng))

    def record_step(self):
        g, deal, rng = self.game, self.game.deal, self.rng
        cards = deal.cards
        if rng.random() < self.ILLEGAL_PROB:
            wrong = [0] * self.n
            wrong[rng.randrange(self.n)] = cards + rng.choice([-1, 1])
            if sum(wrong) != cards and min(wrong) >= 0:
                self.refused(g.record_result, wrong, match="summerar")
            self.refused(g.record_result, [cards] + [0] * (self.n - 2), match="var och en")
        tricks = [0] * self.n
        for _ in range(cards):
            tricks[rng.randrange(self.n)] += 1
        renons = []
        if rng.random() < 0.1:
            renons = [rng.choice(self.names)] if rng.random() < 0.5 else [rng.randrange(self.n)]
        arg = dict(zip(self.names, tricks)) if rng.random() < 0.3 else tricks
        self.act('record_result', arg, renons)

    def end_deal_checks(self, deal: PlumpDeal):
        n, rules = self.n, self.rules
        cards = deal.cards
        assert deal.phase == 'done'
        assert sum(deal.taken) == cards
        assert all(t >= 0 for t in deal.taken)
        if deal.played:
            hist = deal.history
            assert len(hist) == cards
            remaining = [set(h) for h in deal.dealt]
            played = []
            taken = [0] * n
            leader = expected_first_leader(deal.dealer, deal.bids, rules)
            for lead, trick, winner in hist:
                assert lead == leader                     # P9: first lead, then the winner leads
                assert len(trick) == n
                for i, c in enumerate(trick):
                    s = (lead + i) % n
                    assert c in remaining[s]
                    assert c in expected_legal_cards(remaining[s], trick[:i], deal.trump, rules.must_trump)
                    remaining[s].discard(c)
                    played.append(c)
                assert winner == (lead + trick_winner(list(trick), deal.trump)) % n   # P11
                taken[winner] += 1
                leader = winner
            assert taken == deal.taken
            assert len(played) == len(set(played)) == n * cards        # no card twice
            assert set(played) == {c for h in deal.dealt for c in h}
            assert all(not r for r in remaining) and all(not h for h in deal.hands)
        pts = deal.points()
        assert pts == [score(deal.bids[s], deal.taken[s], cards, rules, renons=s in deal.renons) for s in range(n)]
        assert pts == [expected_points(deal.bids[s], deal.taken[s], cards, rules, s in deal.renons) for s in range(n)]
        for s in range(n):
            assert pts[s] >= 0
            if s not in deal.renons:
                assert pts[s] == score(deal.bids[s], deal.taken[s], cards, rules)
            else:
                assert pts[s] == 0                          # P12
        if not rules.simultaneous_bids:
            assert min(pts) == 0                            # someone always misses (P6/P13)

    def run(self):
        g, rng = self.game, self.rng
        prev = None
        while g.deal is not None:
            deal = g.deal
            self.start_deal_checks(deal, prev)
            play = rng.random() < self.s['play_prob']
            if g.deal_index == self.rt_deal:
                self.rt_step = rng.randrange(self.n + (self.n * deal.cards if play else 1))
            while deal.phase == 'bidding':
                self.maybe_round_trip()
                self.bid_step()
            self.after_bidding_checks(deal)
            if play:
                while deal.phase == 'playing':
                    self.maybe_round_trip()
                    self.play_step()
                self.played_deals += 1
            else:
                self.maybe_round_trip()
                self.record_step()
                self.recorded_deals += 1
            assert g.deals[-1] is deal
            self.end_deal_checks(deal)
            prev = deal
        self.end_game_checks()

    def end_game_checks(self):
        g, n, rules = self.game, self.n, self.rules
        assert g.phase == 'over' and g.to_act is None and g.deal is None
        assert g.legal_bids() == [] and list(g.legal_cards()) == []
        assert [d.cards for d in g.deals] == deal_schedule(n, rules)[g.first_deal:]   # P3
        totals = [sum(d.points()[s] for d in g.deals) for s in range(n)]
        assert g.totals == totals
        assert all(t >= 0 for t in totals)
        sheet = g.sheet(only_played=True)
        assert sheet.totals == totals and len(sheet.rows) == len(g.deals)
        assert [r['points'] for r in sheet.rows] == [d.points() for d in g.deals]
        # g.sheet() (with the unplayed rows) is checked in test_finished_sheet_has_one_row_per_deal:
        # after the last deal it shows a phantom empty row (engine bug, see there).
        if self.rt_deal == len(self.schedule):
            self.round_trip()
        for c in self.clones:                       # the restored games continued identically
            assert c == g
            assert c.to_json() == g.to_json()
            assert c.totals == g.totals
            assert c.phase == 'over'
            assert [d.history for d in c.deals] == [d.history for d in g.deals]
        if self.rng.random() < 0.2:
            self.refused(g.bid, self.names[0], 0, match="Partiet är slut")
            self.refused(g.play, self.names[0], FULL_DECK[0], match="Partiet är slut")
            self.refused(g.record_result, [0] * n, match="Partiet är slut")


STATS = {'games': 0, 'played_deals': 0, 'recorded_deals': 0, 'actions': 0, 'round_trips': 0,
         'whole_deck_deals': 0, 'games_by_players': {n: 0 for n in range(2, 7)}, 'rule_on': {}}


def run_game(setup):
    d = Driver(setup)
    d.run()
    STATS['games'] += 1
    STATS['games_by_players'][d.n] += 1
    for name in d.rules.changed():
        STATS['rule_on'][name] = STATS['rule_on'].get(name, 0) + 1
    STATS['played_deals'] += d.played_deals
    STATS['recorded_deals'] += d.recorded_deals
    STATS['actions'] += d.actions
    STATS['round_trips'] += len(d.clones)
    return d


# --------------------------------------------------------------------------- the tests

@prop_settings(N_CARD_BY_CARD)
@given(game_setups(play_probs=(1.0,)))
def test_games_card_by_card(setup):
    "Every deal played card by card (the game may start anywhere in the schedule)."
    run_game(setup)


@prop_settings(N_MIXED)
@given(game_setups(play_probs=(0.0, 0.1, 0.3, 0.6)))
def test_games_mixed_played_and_recorded(setup):
    "Whole schedules, some deals played and the rest recorded with `record_result`."
    run_game(setup)


@prop_settings(400)
@given(st.integers(2, 6), st.fixed_dictionaries({name: st.booleans() for name in RULE_NAMES}))
def test_house_rule_combinations(n, flags):
    "Invalid combinations are refused with PlumpError; valid ones give a schedule and a game."
    bad_combo = (flags['upward_only'] and (flags['down_only'] or flags['thirteen_cards']
                                           or flags['one_card_deal_each'])) \
        or (flags['zero_scores_five'] and flags['zero_scores_five_plus_tricks'])
    if bad_combo:
        with pytest.raises(PlumpError, match="P3|P13"):
            PlumpRules(**flags)
        return
    rules = PlumpRules(**flags)
    assert PlumpRules.from_dict(rules.changed()) == rules
    if flags['thirteen_cards'] and n not in (3, 4):
        with pytest.raises(PlumpError, match="tretton kort"):
            deal_schedule(n, rules)
        with pytest.raises(PlumpError, match="tretton kort"):
            PlumpGame(list(NAMES[:n]), rules, seed=1)
        return
    sched = deal_schedule(n, rules)
    assert all(1 <= c <= 52 // n for c in sched)
    if rules.upward_only:
        assert sched == list(range(1, 52 // n + 1))
    else:
        top = 13 if rules.thirteen_cards else (8 if n == 6 else 10)
        assert sched[0] == top and sched.count(1) == (n if rules.one_card_deal_each else 1)
        assert len(sched) == top + (n - 1) * rules.one_card_deal_each + (0 if rules.down_only else top - 1)
    g = PlumpGame(list(NAMES[:n]), rules, seed=1)
    assert g.schedule == sched


@prop_settings(N_PLAYOUT)
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, 52 // n), valid_rules(n), st.integers(0, n - 1), st.integers(0, 2**32 - 1))))
def test_random_playout(args):
    "sim.random_playout: never negative, someone always misses (default rules: at least one 0)."
    n, cards, rules, dealer, seed = args
    rng = random.Random(seed)
    possible = {0} | {hit_points(b, b, cards, rules) for b in range(cards + 1)}
    for _ in range(PLAYOUTS_PER_EXAMPLE):
        pts = random_playout(rng, n, cards, rules, dealer)
        assert len(pts) == n
        assert all(type(p) is int and p >= 0 for p in pts)
        assert set(pts) <= possible
        if not rules.simultaneous_bids:
            assert 0 in pts
    default = [random_playout(rng, n, cards, PlumpRules(), dealer) for _ in range(PLAYOUTS_PER_EXAMPLE)]
    for pts in default:
        assert min(pts) == 0
        assert all(p == 0 or 10 <= p <= 10 + cards for p in pts)
    STATS['playouts'] = STATS.get('playouts', 0) + 2 * PLAYOUTS_PER_EXAMPLE


def test_round_trip_continues_identically_explicit():
    "A hand-picked case of the JSON property: save mid-trick, restore, feed the same moves to both."
    g = PlumpGame(list(NAMES[:4]), seed=2024)
    rng = random.Random(7)
    for _ in range(4 + 6):                    # all bids and 6 cards of deal 1
        if g.phase == 'bidding':
            g.bid(g.to_act, rng.choice(g.legal_bids()))
        else:
            g.play(g.to_act, rng.choice(g.legal_cards()))
    g2 = PlumpGame.from_json(g.to_json())
    assert g2 == g and g2.deal.hands == g.deal.hands and g2.to_act == g.to_act and g2.totals == g.totals
    rng1, rng2 = random.Random(99), random.Random(99)
    for game, r in ((g, rng1), (g2, rng2)):
        while game.phase != 'over':
            if game.phase == 'bidding':
                game.bid(game.to_act, r.choice(game.legal_bids()))
            else:
                game.play(game.to_act, r.choice(game.legal_cards()))
    assert g2 == g and g2.totals == g.totals
    assert json.loads(g.to_json())['events'] == json.loads(g2.to_json())['events']


def test_finished_sheet_has_one_row_per_deal():
    g = PlumpGame(["Anna", "Bo"], seed=0, first_deal=17)     # schedule 10..1..10: the last two deals, 9 and 10
    rng = random.Random(0)
    while g.phase != 'over':
        if g.phase == 'bidding':
            g.bid(g.to_act, rng.choice(g.legal_bids()))
        else:
            g.record_result([g.deal.cards, 0])
    assert len(g.deals) == 2
    assert [r['cards'] for r in g.sheet().rows] == [9, 10]
