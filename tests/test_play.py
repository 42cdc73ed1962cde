"""Property tests for plump_teach.engine.state, the player interface (bots, hints and the play table use it).

Hypothesis draws a table and valid house rules (the same strategy as tests/test_properties.py) and a seed for
random legal moves.  At every step of a deal the tests check, against the deal itself (which the OpenSpiel
cross-check and the rule tests already pin down):

- the state's legal actions are the deal's legal bids and cards (P5, P6, P10, P16), and an action outside them
  is refused with a Swedish message and changes nothing;
- apply followed by undo restores the position exactly; a clone shares nothing with its original;
- each seat's view hides the other hands: the real hidden cards are all among `unseen`, every void the view
  infers is true, and the view's cards add up to the deck;
- a sample of the view keeps everything the seat knows (own hand, cards played, hand sizes, voids, legal moves);
- a playout from any sample ends with as many tricks as the deal has and leaves the state untouched.

Bismarck runs the same checks through all four modes (B2 discards one card at a time, B4/B5 modes, B6 play).
"""

from __future__ import annotations

import random

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plump_teach.engine.bismarck import BismarckError
from plump_teach.engine.bismarck_game import BismarckGame
from plump_teach.engine.cards import DECK_IDS, SUITS, card_from_id, parse_card, parse_cards
from plump_teach.engine.state import BismarckState, PlumpState
from plump_teach.engine.playout import playout
from plump_teach.engine.actions import Bid, ChooseMode, Discard, PlayCard
from plump_teach.engine.plump import PlumpDeal
from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpError, PlumpRules, deal_schedule

from test_properties import valid_rules

NAMES = ("Anna", "Bo", "Cissi", "Dan", "Eva", "Fredrik")


def snapshot(state):
    d, tp = state.deal, state.deal.tricks
    return (d.phase, [sorted(h) for h in tp.hands], list(tp.trick), list(tp.history), list(tp.taken), tp.leader,
            list(getattr(d, 'bids', [])), getattr(d, 'mode', None), getattr(d, 'trump', None),
            list(getattr(state, 'pending', [])), None if getattr(d, 'discards', None) is None else sorted(map(str, d.discards)))


def check_view(state, seat, rng):
    v = state.view(seat)
    d, tp = state.deal, state.deal.tricks
    played = {c for _, t, _ in tp.history for c in t} | set(tp.trick)
    own = {c.id for c in v.hand}
    seen = {c.id for h in v.others.values() for c in h}
    unseen = {c.id for c in v.unseen}
    assert not (own & unseen) and not (played & unseen) and not (seen & unseen)
    # the real cards of every seat the view does not show are among the unseen ones
    for s in range(state.n):
        if s == seat and v.hand: assert own == set(tp.hands[s]) - set(getattr(state, 'pending', ()) and
                                                                      (c.id for c in state.pending))
        elif s not in v.others and s != seat: assert set(tp.hands[s]) <= unseen | own, s
        # every inferred void is true
        for suit in v.voids[s]:
            assert not any(c >> 4 == SUITS.index(suit) for c in tp.hands[s]), (s, suit)
    extra = {state.trump_card.id} if getattr(state, 'trump_card', None) is not None else set()
    if state.game == 'bismarck' and seat == state.forehand and v.discards is not None:
        extra = {c.id for c in v.discards}
    assert own | seen | unseen | played | extra == set(DECK_IDS)
    # a sample keeps everything the seat knows
    s = v.sample(rng)
    assert [len(h) for h in s.deal.tricks.hands] == [len(h) for h in tp.hands] or state.game == 'bismarck'
    assert (s.deal.tricks.trick, s.deal.tricks.history, s.taken) == (tp.trick, tp.history, state.taken)
    if v.hand: assert set(s.hand(seat)) == set(v.hand)
    for o, h in v.others.items(): assert set(s.hand(o)) == set(h), o      # the cards the seat sees stay as they are
    # P15: with the card on the forehead a seat sees the others' cards while bidding, and keeps them for the whole deal
    if state.game == 'plump' and state.cards == 1 and state.rules.blind_one_card:
        others = [o for o in range(state.n) if o != seat]
        assert sorted(v.others) == others, (state.phase, v.others)
        if state.phase == 'bidding': assert not v.hand
    for o in range(state.n):
        if o == seat: continue
        assert not any(c.suit in v.voids[o] for c in s.hand(o))
    if v.to_act == seat: assert s.legal_actions() == state.legal_actions()
    if state.phase in ('bidding', 'playing', 'done'):
        before = snapshot(s)
        tricks = playout(s, rng)
        assert sum(tricks) == state.cards and snapshot(s) == before
    return v


def step(state, rng):
    "One random legal action through the state, with the undo, clone and refusal checks."
    legal = state.legal_actions()
    assert legal
    before = snapshot(state)
    # a refused action changes nothing
    wrong = [a for a in (Bid(state.cards + 1), PlayCard(card_from_id(DECK_IDS[0])), Discard(card_from_id(DECK_IDS[-1])),
                         ChooseMode('sang')) if a not in legal]
    bad = rng.choice(wrong)
    why = state.why_illegal(bad)
    assert isinstance(why, str) and why and "Traceback" not in why
    try:
        state.apply(bad)
        raise AssertionError(f"{bad} was accepted")
    except (PlumpError, BismarckError):
        pass
    assert snapshot(state) == before
    action = rng.choice(legal)
    assert state.why_illegal(action) is None
    copy = state.clone()
    state.apply(action)
    assert snapshot(copy) == before                  # the clone shares nothing
    state.undo()
    assert snapshot(state) == before
    state.apply(action)
    return action


def deal_actions_match(state):
    d = state.deal
    if state.game == 'plump':
        want = [Bid(b) for b in d.legal_bids()] if d.phase == 'bidding' else [PlayCard(c) for c in d.legal_cards()]
        assert state.legal_actions() == want


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_plump_state_follows_the_deal(data):
    n = data.draw(st.integers(2, 6))
    rules = data.draw(valid_rules(n))
    schedule = deal_schedule(n, rules)
    first = data.draw(st.integers(0, len(schedule) - 1))
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    game = PlumpGame(list(NAMES[:n]), rules=rules, seed=rng.randrange(2**32), first_deal=first,
                     dealer=rng.randrange(n))
    for _ in range(2):                       # two deals from the drawn start (or fewer if the schedule ends)
        if game.deal is None: break
        state = PlumpState.from_game(game)
        while not state.is_terminal():
            deal_actions_match(state)
            for seat in range(n): check_view(state, seat, rng)
            step(state, rng)
        check_view(state, 0, rng)
        assert state.returns() == [p for p in state.deal.points()]
        for a in state.actions:              # the same actions drive the game
            seat = game.deal.to_act
            game.bid(seat, a.tricks) if isinstance(a, Bid) else game.play(seat, a.card)
        assert game.deals[-1].points() == state.returns()


def test_a_seat_keeps_what_it_saw_with_the_card_on_the_forehead_p15():
    "Issue 27: after the bids the view still has the others' cards, and a sample deals them the cards they hold."
    state = PlumpState(PlumpDeal(3, ['♠2', '♥K', '♦7'], trump_card='♣5', dealer=2,
                                 rules=PlumpRules(blind_one_card=True)))
    assert state.view(0).others == {1: parse_cards('♥K'), 2: parse_cards('♦7')} and not state.view(0).hand
    for _ in range(3): state.apply(state.legal_actions()[0])
    assert state.phase == 'playing'
    v = state.view(0)
    assert v.others == {1: parse_cards('♥K'), 2: parse_cards('♦7')} and v.hand == parse_cards('♠2')
    assert parse_card('♥K') not in v.unseen and parse_card('♦7') not in v.unseen
    rng = random.Random(1)
    for _ in range(20):
        s = v.sample(rng)
        assert [s.hand(i) for i in range(3)] == [parse_cards('♠2'), parse_cards('♥K'), parse_cards('♦7')]


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), short=st.booleans())
def test_bismarck_state_follows_the_deal(seed, short):
    rng = random.Random(seed)
    game = BismarckGame(["Anna", "Björn", "Cecilia"], seed=seed, short=short)
    for _ in range(3):
        if game.deal is None: break
        state = BismarckState.from_game(game)
        moves = 0
        while not state.is_terminal():
            if state.phase == 'playing' and moves % 5: step(state, rng)   # views every fifth card keeps it quick
            else:
                for seat in range(3): check_view(state, seat, rng)
                step(state, rng)
            moves += 1
        assert sum(state.returns()) == 0
        for a in state.actions:
            seat = game.deal.to_act
            if isinstance(a, Discard): continue
            if isinstance(a, ChooseMode):
                game.discard(seat, state.deal.discards)
                game.choose_mode(seat, a.mode, a.trump)
            else: game.play(seat, a.card)
        assert game.deals[-1].points() == state.returns()


# --------------------------------------------------------------------------- copy on write, lazy views (issue 28)

def _snapshot(st):
    return (st.phase, st.to_act, [list(st.hand(s)) for s in range(st.n)], list(st.taken), list(st.trick),
            len(st.history), list(st.actions))


@pytest.mark.parametrize("game", ["plump", "bismarck"])
def test_clones_share_the_deal_until_one_of_them_moves(game):
    "A clone and its original stay independent whichever moves first, through chains of clones, moves and undos."
    rng = random.Random(7)
    st = PlumpState.new(players=4, cards=6, seed=3) if game == "plump" else BismarckState.new(seed=3)
    for _ in range(60):
        if st.is_terminal(): break
        before = _snapshot(st)
        a, b = st.clone(), st.clone()
        c = a.clone()
        a.apply(rng.choice(a.legal_actions()))
        assert _snapshot(st) == before and _snapshot(b) == before and _snapshot(c) == before
        if not c.is_terminal():
            c.apply(rng.choice(c.legal_actions()))
            c.undo()
            assert _snapshot(c) == before
        st.apply(rng.choice(st.legal_actions()))
        assert _snapshot(b) == before                   # the original moved after cloning: the clone is untouched
        b.apply(rng.choice(b.legal_actions()))
        b.undo()
        assert _snapshot(b) == before


@pytest.mark.parametrize("game", ["plump", "bismarck"])
def test_a_refused_card_keeps_the_moves_and_every_undo(game):
    """Issue 41: cards in the state's core undo through the core (`parent`); a refused card writes the core into the
    deal, and its cards become moves that undo through the deal. Either way `actions` lists every move in order, a
    refused card changes nothing, and undoing k moves gives the position of replaying all but the last k."""
    rng = random.Random(41)
    new = (lambda seed: PlumpState.new(players=4, cards=5, seed=seed)) if game == "plump" else BismarckState.new
    refused = 0
    for seed in range(60):
        st, done = new(seed), []
        while not st.is_terminal():
            legal = st.legal_actions()
            others = [c for s in range(st.n) if s != st.to_act for c in st.deal.hand(s)]   # never allowed
            if st.phase == "playing" and others and rng.random() < 0.3:
                before = (_snapshot(st), st.info_key(st.to_act))
                with pytest.raises((PlumpError, BismarckError)): st.apply(PlayCard(rng.choice(others)))
                assert (_snapshot(st), st.info_key(st.to_act)) == before
                refused += 1
            a = rng.choice(legal)
            st.apply(a); done.append(a)
            assert st.actions == done
        k = rng.randrange(1, len(done) + 1)
        for _ in range(k): st.undo()
        again = new(seed)
        for a in done[:len(done) - k]: again.apply(a)
        assert st.actions == done[:len(done) - k] and _snapshot(st) == _snapshot(again)
        assert st.info_key(0) == again.info_key(0) and st.legal_actions() == again.legal_actions()
    assert refused > 100


@pytest.mark.parametrize("game", ["plump", "bismarck"])
def test_a_view_keeps_what_the_seat_saw_when_it_was_made(game):
    rng = random.Random(2)
    st = PlumpState.new(players=3, cards=8, seed=5) if game == "plump" else BismarckState.new(seed=5)
    for _ in range(12 if game == "plump" else 9): st.apply(rng.choice(st.legal_actions()))
    seat = st.to_act
    v = st.view(seat)
    seen = (list(v.hand), list(v.trick), len(v.history), list(v.legal_actions()), list(v.unseen), v.info_key())
    for _ in range(5): st.apply(rng.choice(st.legal_actions()))          # the state goes on; the view does not
    assert (list(v.hand), list(v.trick), len(v.history), list(v.legal_actions()), list(v.unseen), v.info_key()) == seen


@pytest.mark.parametrize("game", ["plump", "bismarck"])
def test_the_information_key_is_what_the_seat_knows(game):
    rng = random.Random(4)
    st = PlumpState.new(players=4, cards=7, seed=8) if game == "plump" else BismarckState.new(seed=8)
    for _ in range(20): st.apply(rng.choice(st.legal_actions()))
    seat = st.to_act
    v = st.view(seat)
    key = v.info_key()
    assert hash(key) == hash(v.info_key())
    for _ in range(10):                                   # other cards in the other hands: the same information set
        other = v.sample(rng)
        assert other.view(seat).info_key() == key
    assert st.view((seat + 1) % st.n).info_key() != key
    st.apply(rng.choice(st.legal_actions()))
    assert st.view(seat).info_key() != key


def test_the_information_key_tells_apart_what_the_seat_holds_and_nothing_else():
    "Swap one card between Anna (seat 0) and Bo (seat 1): Anna's and Bo's keys change, Cissi's (seat 2) does not."
    from plump_teach.engine.plump import PlumpDeal
    one = PlumpDeal(3, ["♠E ♥2 ♦5", "♣K ♦3 ♠9", "♥E ♠2 ♣7"], trump_card="♥9", dealer=2)
    two = PlumpDeal(3, ["♣K ♥2 ♦5", "♠E ♦3 ♠9", "♥E ♠2 ♣7"], trump_card="♥9", dealer=2)
    a, b = PlumpState.from_deal(one), PlumpState.from_deal(two)
    assert a.view(0).info_key() != b.view(0).info_key() and a.view(1).info_key() != b.view(1).info_key()
    assert a.view(2).info_key() == b.view(2).info_key()


@pytest.mark.parametrize("seed", range(12))
def test_a_position_round_trips_through_json_at_any_point(seed):
    "to_dict / from_dict (and `load`) give the same position: the same moves, hands, legal actions and information."
    import json
    from plump_teach import load
    from plump_teach.engine.plump_rules import PlumpRules, RULE_PRESETS
    rng = random.Random(seed)
    if seed % 3 == 2:
        st = BismarckState.new(seed=seed)
    else:
        rules = rng.choice([PlumpRules(), *(p.rules for p in RULE_PRESETS.values())])
        n = rng.randint(2, 6)
        st = PlumpState.new(players=n, cards=rng.randint(1, 52 // n), seed=seed, rules=rules)
    for _ in range(rng.randint(0, 40)):
        if st.is_terminal(): break
        st.apply(rng.choice(st.legal_actions()))
    text = json.dumps(st.to_dict(), ensure_ascii=False)
    again = load(text)
    assert type(again) is type(st) and again.to_dict() == st.to_dict()
    assert (again.phase, again.to_act, again.legal_actions()) == (st.phase, st.to_act, st.legal_actions())
    assert all(again.view(s).info_key() == st.view(s).info_key() for s in range(st.n))
    if not st.is_terminal():                                             # and it plays on the same way
        a = st.legal_actions()[-1]
        assert again.apply(a).to_dict() == st.clone().apply(a).to_dict()
