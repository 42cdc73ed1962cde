"""Benchmark: random playouts of 4-player 10-card Plump deals, plump_teach vs OpenSpiel.

Run:  python tests/benchmarks/bench_playouts.py [--seconds 2]

Both sides do the same work per playout: shuffle and deal, random legal bids,
random legal cards to the end, scores.  OpenSpiel's oh_hell is driven from
Python through pyspiel (chance and player actions chosen with Python's random).
The two are measured in alternating rounds; the median round counts.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import pyspiel  # noqa: E402

from plump_teach.sim import random_playout  # noqa: E402

PLAYERS, CARDS, ROUNDS = 4, 10, 10
GAME = pyspiel.load_game(f"oh_hell(players={PLAYERS},num_tricks_fixed={CARDS},"
                         "off_bid_penalty=true,points_per_trick=1)")


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
    for name, playout in engines.items():  # warm-up
        rate(playout, rngs[name], 0.2)

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


if __name__ == "__main__":
    main()
