"""Benchmark: random playouts of 4-player 10-card Plump deals, plump_teach vs OpenSpiel.

Run:  python tests/benchmarks/bench_playouts.py [--seconds 2]

Both sides do the same work per playout: shuffle and deal, random legal bids,
random legal cards to the end, scores.  OpenSpiel's oh_hell is driven from
Python through pyspiel (chance and player actions chosen with Python's random).
The two are measured in alternating rounds; the median round counts.

A second table measures what a bot does many times per decision, from one
position in the middle of a deal (bids made, two tricks played): copying the
state (plump_teach.engine.state's clone, which shares the deal until a move, so
also clone + one card; copy.deepcopy of a PlumpDeal; OpenSpiel's clone), one
seat's view, dealing the unseen cards from it, and playing the position
to the end with random cards (plump_teach.engine.state.playout; OpenSpiel: clone and
random actions to the terminal state), next to a whole random playout.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import pyspiel  # noqa: E402

from plump_teach.engine.sim import random_playout  # noqa: E402
from plump_teach.engine.state import PlumpState
from plump_teach.engine.playout import playout# noqa: E402
from plump_teach.engine.actions import Bid
from plump_teach.engine.plump import PlumpDeal  # noqa: E402
from plump_teach.engine.cards import Card  # noqa: E402
import copy  # noqa: E402

PLAYERS, CARDS, ROUNDS = 4, 10, 10
GAME = pyspiel.load_game(f"oh_hell(players={PLAYERS},num_tricks_fixed={CARDS},"
                         "off_bid_penalty=true,points_per_trick=1)")
OS_SUITS = ("♣", "♦", "♠", "♥")  # OpenSpiel's suit order (see tests/test_openspiel.py)


def card_to_os(card):
    return (card.rank - 2) * 4 + OS_SUITS.index(card.suit)


def os_to_card(action):
    return Card(OS_SUITS[action % 4], action // 4 + 2)


def position(seed=3, tricks_played=2):
    """The same mid-deal position in both engines: 4 players, 10 cards, dealer 0, random legal bids made and
    `tricks_played` tricks played with random legal cards.  Returns (our PlumpState, OpenSpiel state)."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[p:PLAYERS * CARDS:PLAYERS] for p in range(PLAYERS)]  # OpenSpiel deals round-robin from player 0
    trump = deck[PLAYERS * CARDS]
    os_state = GAME.new_initial_state()
    for a in [CARDS, 0] + [h[i] for i in range(CARDS) for h in hands] + [trump]:
        os_state.apply_action(a)
    state = PlumpState.from_deal(PlumpDeal(PLAYERS, [[os_to_card(a) for a in h] for h in hands],
                                           trump_card=os_to_card(trump), dealer=0))
    while state.phase == "bidding" or sum(state.taken) < tricks_played:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        os_state.apply_action(52 + action.tricks if isinstance(action, Bid) else card_to_os(action.card))
    assert sorted(card_to_os(a.card) for a in state.legal_actions()) == sorted(os_state.legal_actions())
    return state, os_state


def os_playout_from(os_state, rng):
    state = os_state.clone()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


def ours(rng):
    return random_playout(rng, players=PLAYERS, cards=CARDS)


def openspiel(rng):
    state = GAME.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():  # all chance outcomes are equally likely here
            action = rng.choice(state.legal_actions())
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return [max(0, int(r)) for r in state.returns()]  # Plump score


def rate(playout, rng, seconds):
    """Playouts per second over (at least) `seconds` of wall-clock time."""
    count, start = 0, time.perf_counter()
    end = start + seconds
    while True:
        playout(rng)
        count += 1
        now = time.perf_counter()
        if now >= end:
            return count / (now - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="length of each measurement (default 1)")
    parser.add_argument("--rounds", type=int, default=ROUNDS,
                        help=f"alternating rounds per engine (default {ROUNDS})")
    args = parser.parse_args()

    engines = {"plump_teach": ours, "OpenSpiel": openspiel}
    rngs = {name: random.Random(1) for name in engines}
    for name, engine in engines.items():  # warm-up
        rate(engine, rngs[name], 0.2)

    rates = {name: [] for name in engines}
    for i in range(args.rounds):  # alternate, and swap who goes first each round
        order = list(engines) if i % 2 == 0 else list(engines)[::-1]
        for name in order:
            rates[name].append(rate(engines[name], rngs[name], args.seconds))

    print(f"Random playouts, {PLAYERS} players x {CARDS} cards, "
          f"{args.rounds} rounds x {args.seconds:g} s each (median / best):")
    for name, values in rates.items():
        print(f"  {name:12} {statistics.median(values):10,.0f} / {max(values):10,.0f} playouts/s")
    ratio = statistics.median(rates["plump_teach"]) / statistics.median(rates["OpenSpiel"])
    # The machine's speed drifts; a ratio taken within each round (both engines measured back to back)
    # is steadier than a ratio of medians taken over the whole run.
    per_round = [a / b for a, b in zip(rates["plump_teach"], rates["OpenSpiel"])]
    print(f"  plump_teach/OpenSpiel = {ratio:.2f} (ratio of medians), "
          f"{statistics.median(per_round):.2f} (median of per-round ratios, range "
          f"{min(per_round):.2f}-{max(per_round):.2f})")

    # From one position, as a bot searching a decision does it many times.
    state, os_state = position()
    view = state.view(state.to_act)
    first_card, os_first = state.legal_actions()[0], os_state.legal_actions()[0]
    rng = random.Random(2)
    tasks = {
        "plump_teach clone (PlumpState.clone)": lambda r: state.clone(),
        "copy.deepcopy of the PlumpDeal": lambda r: copy.deepcopy(state.deal),
        "OpenSpiel clone": lambda r: os_state.clone(),
        "plump_teach clone + one card (copy made at the move)": lambda r: state.clone().apply(first_card),
        "OpenSpiel clone + one card": lambda r: os_state.clone().apply_action(os_first),
        "plump_teach legal_actions": lambda r: state.legal_actions(),
        "OpenSpiel legal_actions": lambda r: os_state.legal_actions(),
        "plump_teach view (what one seat sees)": lambda r: state.view(state.to_act),
        "plump_teach view + info_key": lambda r: state.view(state.to_act).info_key(),
        "OpenSpiel information_state_string": lambda r: os_state.information_state_string(os_state.current_player()),
        "plump_teach view + sample": lambda r: state.view(state.to_act).sample(r),
        "plump_teach view.sample (unseen cards dealt)": lambda r: view.sample(r),
        "plump_teach playout from the position": lambda r: playout(state, r),
        "plump_teach sample + playout": lambda r: playout(view.sample(r), r),
        "OpenSpiel clone + random to the end": lambda r: os_playout_from(os_state, r),
        "plump_teach random_playout (whole deal)": lambda r: ours(r),
    }
    print(f"\nFrom one position ({PLAYERS} players, {CARDS} cards, bids made, 2 tricks played), "
          f"{args.rounds} rounds x {args.seconds / 2:g} s (median per second):")
    measured = {name: [] for name in tasks}
    for i in range(args.rounds):
        for name in (list(tasks) if i % 2 == 0 else list(tasks)[::-1]):
            measured[name].append(rate(tasks[name], rng, args.seconds / 2))
    med = {name: statistics.median(v) for name, v in measured.items()}
    for name, v in med.items():
        print(f"  {name:48} {v:12,.0f} /s")
    print(f"  clone vs deepcopy: {med['plump_teach clone (PlumpState.clone)'] / med['copy.deepcopy of the PlumpDeal']:.0f}x; "
          f"playout from the position vs OpenSpiel clone + random: "
          f"{med['plump_teach playout from the position'] / med['OpenSpiel clone + random to the end']:.2f}x; "
          f"clone vs OpenSpiel clone: {med['plump_teach clone (PlumpState.clone)'] / med['OpenSpiel clone']:.2f}x "
          f"(the deal is shared until a move; with one card: "
          f"{med['plump_teach clone + one card (copy made at the move)'] / med['OpenSpiel clone + one card']:.2f}x); "
          f"legal actions vs OpenSpiel: {med['plump_teach legal_actions'] / med['OpenSpiel legal_actions']:.2f}x; "
          f"view + info_key vs OpenSpiel's information-state string: "
          f"{med['plump_teach view + info_key'] / med['OpenSpiel information_state_string']:.2f}x; "
          f"vs a whole random_playout: "
          f"{med['plump_teach playout from the position'] / med['plump_teach random_playout (whole deal)']:.2f}x")


if __name__ == "__main__":
    main()
