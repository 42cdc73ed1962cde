"""Precise errors under PlumpTeachError (issue 40): an illegal move (with its rule), not your turn, wrong phase and
wrong argument types are each a class of their own, the same in both games, and each is still the game's own error
(`PlumpError`, `BismarckError`), so catches written before keep working. A refused move changes nothing."""
from __future__ import annotations

import random

import pytest

from plump_teach import (Bid, BismarckError, BismarckGame, BismarckState, ChooseMode, Discard, IllegalMove,
                         NotYourTurn, PlayCard, PlumpError, PlumpGame, PlumpState, PlumpTeachError, WrongArgument,
                         WrongPhase, playout)


def refused(thing, call, kind, game_error, rule=None):
    before = thing.to_dict()
    with pytest.raises(kind) as info:
        call()
    assert isinstance(info.value, game_error) and isinstance(info.value, PlumpTeachError)
    if rule is not None: assert info.value.rule == rule, str(info.value)
    assert thing.to_dict() == before
    return info.value


def plump_in_play(seed=3):
    g = PlumpGame(["Anna", "Bo", "Cissi"], seed=seed, first_deal=10)    # 3 cards each
    while g.phase == "bidding":
        g.apply(PlumpState.from_game(g).legal_actions()[0])
    return g


def test_plump_moves_refused_by_kind():
    g = PlumpGame(["Anna", "Bo", "Cissi"], seed=1, first_deal=10)
    to_act = g.to_act
    other = (to_act + 1) % 3
    e = refused(g, lambda: g.bid(other, 0), NotYourTurn, PlumpError)
    assert g.players[other] in str(e) and g.players[to_act] in str(e)           # names, not seats
    refused(g, lambda: g.play(to_act, g.deal.hand(to_act)[0]), WrongPhase, PlumpError)
    refused(g, lambda: g.apply("bud 2"), WrongArgument, PlumpError)
    assert isinstance(pytest.raises(TypeError, g.apply, "bud 2").value, WrongArgument)
    refused(g, lambda: g.bid(to_act, 0.5), WrongArgument, PlumpError)
    # the dealer's forbidden bid (P6)
    while g.to_act != g.deal.dealer:
        g.apply(Bid(PlumpState.from_game(g).legal_actions()[0].tricks))
    forbidden = next(b for b in range(g.deal.cards + 1) if b not in g.legal_bids())
    refused(g, lambda: g.bid(g.to_act, forbidden), IllegalMove, PlumpError, rule="P6")


def test_a_revoke_is_an_illegal_move_with_its_rule():
    for seed in range(1, 40):
        g = plump_in_play(seed)
        g.play(g.to_act, g.legal_cards()[0])
        seat = g.to_act
        wrong = [c for c in g.deal.hand(seat) if c not in g.legal_cards()]
        if wrong:
            refused(g, lambda: g.play(seat, wrong[0]), IllegalMove, PlumpError, rule="P10")
            s = PlumpState.from_game(g)
            refused(s, lambda: s.apply(PlayCard(wrong[0])), IllegalMove, PlumpError, rule="P10")
            refused(s, lambda: s.apply(Bid(1)), WrongPhase, PlumpError)
            return
    pytest.fail("ingen giv med en möjlig renons bland fröna")


def test_states_and_playouts_refuse_wrong_arguments():
    s = PlumpState.new(players=4, cards=5, seed=2)
    refused(s, lambda: s.apply("bud 2"), WrongArgument, PlumpError)
    refused(s, lambda: s.apply(PlayCard(s.hand(s.to_act)[0])), WrongPhase, PlumpError)
    with pytest.raises(WrongArgument):
        playout(s, 1)
    playout(s.clone(), random.Random(1))


def test_bismarck_moves_refused_by_kind():
    g = BismarckGame(["Anna", "Bo", "Cissi"], seed=4, short=True)
    fh = g.forehand
    refused(g, lambda: g.play(fh, g.deal.hand(fh)[0]), WrongPhase, BismarckError)
    refused(g, lambda: g.discard((fh + 1) % 3, g.deal.hand((fh + 1) % 3)[:4]), NotYourTurn, BismarckError)
    refused(g, lambda: g.discard(fh, g.deal.hand(fh)[:3]), IllegalMove, BismarckError, rule="B2")
    refused(g, lambda: g.apply("♠E"), WrongArgument, BismarckError)
    s = BismarckState.from_game(g)
    refused(s, lambda: s.apply(ChooseMode("sang")), WrongPhase, BismarckError)
    g.discard(fh, g.deal.hand(fh)[:4])
    refused(g, lambda: g.apply(Discard(g.deal.hand(fh)[0])), WrongPhase, BismarckError)
    # a mode whose place in the short game is another deal's (B5)
    wrong = next(m for m in ("spader", "trumf", "sang", "pass") if m not in g.deal.modes)
    refused(g, lambda: g.choose_mode(fh, wrong), IllegalMove, BismarckError)


def test_a_finished_game_takes_no_move():
    g = PlumpGame(["Anna", "Bo", "Cissi"], seed=1, first_deal=16)
    while g.phase != "over":
        st = PlumpState.from_game(g)
        g.apply(st.legal_actions()[0])
    refused(g, lambda: g.apply(Bid(0)), WrongPhase, PlumpError)
