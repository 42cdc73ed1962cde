"""A reuser's scripts: a greedy Plump bot, a Monte Carlo bidder, a Bismarck loop, a file reader."""
from __future__ import annotations

import random

from plump_teach import (SUITS, Action, Bid, BismarckGame, BismarckState, Card, CardPolicy, Cards, Decision, PlayCard,
                         PlayoutContext, PlumpGame, PlumpState, PlumpTeachError, SeatView, load, make_bot, playout,
                         trick_winner)


def greedy(view: SeatView) -> Action:
    actions: list[Action] = view.legal_actions()
    plays = [a for a in actions if isinstance(a, PlayCard)]
    if plays:
        return max(plays, key=lambda a: a.card.rank)
    return actions[0]


def monte_carlo_bid(state: PlumpState, seat: int, samples: int = 20) -> int:
    best, best_score = 0, -1.0
    for action in state.legal_actions():
        assert isinstance(action, Bid)
        total = 0.0
        for i in range(samples):
            s = state.view(seat).sample(random.Random(i))
            s.apply(action)
            total += playout(s, random.Random(i))[seat]
        if total > best_score:
            best, best_score = action.tricks, total
    return best


def play_plump(seed: int) -> list[int]:
    game = PlumpGame(["Anna", "Bo", "Cissi"], seed=seed, first_deal=7)
    bot = make_bot("nybörjare", seed=seed)
    while game.phase != "over":
        state = PlumpState.from_game(game)
        to_act = state.to_act
        assert to_act is not None
        d: Decision = bot.decide(state.view(to_act))
        game.apply(d.action)
    return game.totals


def play_bismarck(seed: int) -> list[int]:
    game = BismarckGame(["Anna", "Bo", "Cissi"], seed=seed, short=True)
    bot = make_bot("van", seed=seed)
    while game.phase != "over":
        state = BismarckState.from_game(game)
        seat = state.to_act
        assert seat is not None
        game.apply(bot.decide(state.view(seat)).action)
    return game.totals


def against_random(seed: int) -> list[int]:
    "Seat 0 plays at the 'van' level, the others at random (OpenSpiel's random bot as a yardstick)."
    game = PlumpGame(["Anna", "Bo", "Cissi"], seed=seed, first_deal=7)
    bots = [make_bot("van", seed=seed), make_bot("random", seed=seed), make_bot("random", seed=seed + 1)]
    while game.phase != "over":
        state = PlumpState.from_game(game)
        seat = state.to_act
        assert seat is not None
        game.apply(bots[seat].decide(state.view(seat)).action)
    return game.totals


def the_game_loop(seed: int) -> list[int]:
    "The same loop on a whole game as on a state, as in OpenSpiel: view, legal_actions, apply, undo, clone, returns."
    game = PlumpGame(["Anna", "Bo", "Cissi"], seed=seed, first_deal=14)
    bot = make_bot("van", seed=seed)
    first = game.legal_actions()[0]
    trial = game.clone().apply(first)
    assert trial != game and trial.undo() == game
    while not game.is_terminal():
        seat = game.to_act
        assert seat is not None
        game.apply(bot.decide(game.view(seat)).action)
    return game.returns()


def lowest(seat: int, legal: list[int], ctx: PlayoutContext) -> int:
    "A playout policy: always the lowest card (ids have the rank in the low four bits)."
    return min(legal, key=lambda c: c & 15)


def simulate(state: PlumpState, policy: CardPolicy = lowest) -> list[int]:
    return playout(state.view(0).sample(random.Random(1)), random.Random(1), policy)


def who_takes(trick: str, trump: str | None) -> int:
    assert trump is None or trump in SUITS
    return trick_winner(trick, trump)


def hand_of(state: PlumpState, seat: int) -> Cards:
    cards: Cards = state.view(seat).hand
    first: Card = cards[0]
    print(first.suit, first.rank)
    return cards


def read(path: str) -> None:
    try:
        thing = load(path)
    except PlumpTeachError as e:
        print(e)
        return
    print(type(thing).__name__)


if __name__ == "__main__":
    s = PlumpState.new(players=4, cards=5, seed=1)
    print(monte_carlo_bid(s, s.to_act or 0), play_plump(1), play_bismarck(1), greedy(s.view(s.to_act or 0)))
    hand_of(s, 0)
    print(against_random(2), who_takes("♠2 ♠E ♥3", "♥"), the_game_loop(3))
