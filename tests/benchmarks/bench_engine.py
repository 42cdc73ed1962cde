"""Benchmark for issue 41 (Snabb motor): the engine's public API per operation, beside OpenSpiel's oh_hell.

Run:  python tests/benchmarks/bench_engine.py [--rounds 5] [--seconds 0.4]

Positions: six deals of 4 players x 10 cards (seeds 1-6), dealt identically in both engines through
tests/benchmarks/oh_hell_mirror.py (which checks at every step that both engines have the same player to act and the
same legal actions), after the bids and 13 cards, played with the same random legal actions in both.

Each operation runs for `--seconds` per round over the six positions in turn, plump_teach and OpenSpiel alternating,
`--rounds` rounds each; the figure is the median round (operations per second), and the ratio is ours / OpenSpiel's
(above 1: plump_teach is faster). Only the public API on our side: `clone`, `apply`, `undo`, `legal_actions`,
`view(p).info_key()`, `info_key(p)`, `view(p).sample(rng)`, `PlumpState.new`, `playout`. Bismarck has no counterpart in OpenSpiel:
its figures stand beside Plump's, with the ratio to Plump's.

One row is not the library: "floor" is a six-field state written only for this script (`Floor`: hands as bit sets,
no bids, phases, undo or errors in words), clone + apply on the same positions. It shows what CPython itself allows for
clone + apply, the bound on any pure-Python engine with a state object per position.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the repository root
sys.path.insert(0, str(Path(__file__).resolve().parent))

from oh_hell_mirror import MirroredDeal, action_to_os, os_game, random_deal   # noqa: E402
from plump_teach import BismarckState, PlumpState, playout                     # noqa: E402

PLAYERS, CARDS, SEEDS, PLAYED = 4, 10, range(1, 7), 13


def mirrored_positions() -> list[MirroredDeal]:
    out = []
    for seed in SEEDS:
        rng = random.Random(seed)
        m = MirroredDeal(*random_deal(rng, PLAYERS, CARDS))
        while m.state.phase == 'bidding' or sum(len(t.cards) for t in m.state.history) + len(m.state.deal.trick) < PLAYED:
            m.apply(rng.choice(m.state.legal_actions()))
        out.append(m)
    return out


def per_second(f, items: list, seconds: float) -> float:
    "Calls of `f(item)` per second, over the items in turn, for about `seconds`."
    n, i, end = 0, 0, time.perf_counter() + seconds
    t0 = time.perf_counter()
    while True:
        for _ in range(50):
            f(items[i]); i = (i + 1) % len(items); n += 1
        if time.perf_counter() >= end: break
    return n / (time.perf_counter() - t0)


def compare(name: str, ours, theirs, items_ours, items_theirs, rounds: int, seconds: float, rows: list):
    a, b = [], []
    for _ in range(rounds):
        a.append(per_second(ours, items_ours, seconds))
        if theirs is not None: b.append(per_second(theirs, items_theirs, seconds))
    ma = statistics.median(a)
    mb = statistics.median(b) if b else None
    rows.append((name, ma, mb))
    ratio = f"{ma / mb:5.2f}" if mb else "   - "
    print(f"  {name:<48} {ma:>12,.0f} {'' if mb is None else f'{mb:>12,.0f}':>12}  {ratio}", flush=True)
    return ma


def os_random_deal(rng: random.Random):
    s = os_game(PLAYERS, CARDS).new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(outcomes, probs)[0])
        else: s.apply_action(rng.choice(s.legal_actions()))
    return s.returns()


def our_random_deal(rng: random.Random):
    s = PlumpState.new(PLAYERS, CARDS, seed=rng.getrandbits(32))
    while not s.is_terminal(): s.apply(rng.choice(s.legal_actions()))
    return s.returns()


def bismarck_positions() -> list[BismarckState]:
    out = []
    for seed in SEEDS:
        rng = random.Random(seed)
        s = BismarckState.new(seed=seed)
        while s.phase != 'playing' or sum(len(t.cards) for t in s.history) + len(s.deal.trick) < PLAYED:
            s.apply(rng.choice(s.legal_actions()))
        out.append(s)
    return out


# ------------------------------------------------------------------ what bounds clone + apply in CPython
SUIT_BITS = [0xFFFF << (16 * s) for s in range(4)]


class Floor:
    """The least a pure-Python state can do for clone + apply, as a yardstick (not a part of the library): six fields
    (the hands as bit sets in a tuple, the trick as a tuple, leader, taken, trump, n); clone copies the fields; apply
    checks the card against the bit sets (in hand, follow suit), removes it, lays it and settles a full trick. No
    bids, no phases, no moves to undo, no errors in words."""
    __slots__ = ('hands', 'trick', 'leader', 'taken', 'trump', 'n')

    @classmethod
    def of(cls, state) -> Floor:
        tp, f = state.tricks, cls.__new__(cls)
        f.hands = tuple(sum(1 << c for c in h) for h in tp.hands)
        f.trick, f.leader, f.taken, f.trump, f.n = tuple(tp.trick), tp.leader, tuple(tp.taken), tp.trump, state.n
        return f

    def clone(self) -> Floor:
        new = Floor.__new__(Floor)
        new.hands, new.trick, new.leader, new.taken, new.trump, new.n = (self.hands, self.trick, self.leader,
                                                                           self.taken, self.trump, self.n)
        return new

    def apply(self, cid: int) -> None:
        trick = self.trick
        seat = (self.leader + len(trick)) % self.n
        hand, bit = self.hands[seat], 1 << cid
        if not hand & bit: raise ValueError("not in hand")
        if trick:
            led = SUIT_BITS[trick[0] >> 4]
            if not bit & led and hand & led: raise ValueError("must follow suit")
        h = list(self.hands); h[seat] = hand ^ bit; self.hands = tuple(h)
        trick = trick + (cid,)
        if len(trick) == self.n:
            t, win = self.trump, 0
            for i in range(1, len(trick)):
                c, b = trick[i], trick[win]
                if (c >> 4 == b >> 4 and c > b) or (c >> 4 == t and b >> 4 != t): win = i
            w = (self.leader + win) % self.n
            tk = list(self.taken); tk[w] += 1; self.taken = tuple(tk)
            self.leader, trick = w, ()
        self.trick = trick


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.4)
    a = ap.parse_args()
    R, S = a.rounds, a.seconds
    pos = mirrored_positions()
    ours, theirs = [m.state for m in pos], [m.os for m in pos]
    moves = [(m.state, m.state.legal_actions()[0]) for m in pos]
    os_moves = [(m.os, action_to_os(m.state.legal_actions()[0])) for m in pos]
    seat = [m.state.to_act for m in pos]
    rng = random.Random(7)
    print(f"Plump, {PLAYERS} players x {CARDS} cards, {len(pos)} mirrored positions after the bids and {PLAYED} cards; "
          f"median of {R} alternated rounds x {S} s (per second):")
    print(f"  {'operation':<48} {'plump_teach':>12} {'OpenSpiel':>12}  ratio")
    rows: list = []
    compare("clone()", lambda s: s.clone(), lambda s: s.clone(), ours, theirs, R, S, rows)

    def ours_clone_apply(x):
        c = x[0].clone(); c.apply(x[1])

    def os_clone_apply(x):
        c = x[0].clone(); c.apply_action(x[1])

    compare("clone() + apply one action", ours_clone_apply, os_clone_apply, moves, os_moves, R, S, rows)
    compare("legal_actions()", lambda s: s.legal_actions(), lambda s: s.legal_actions(), ours, theirs, R, S, rows)

    def ours_step(x):
        c = x[0].clone(); c.apply(x[1]); c.legal_actions()

    def os_step(x):
        c = x[0].clone(); c.apply_action(x[1]); c.legal_actions()

    # a search's step: the legal actions of a state that is new (ours keeps them per state; here nothing is kept)
    compare("clone() + apply + legal_actions() (a new state)", ours_step, os_step, moves, os_moves, R, S, rows)

    def apply_undo(x):
        x[0].apply(x[1]); x[0].undo()

    compare("apply + undo (no undo in oh_hell)", apply_undo, None, moves, None, R, S, rows)
    compare("view(p).info_key() / information_state_string(p)", lambda s: s.view(s.to_act).info_key(),
            lambda s: s.information_state_string(s.current_player()), ours, theirs, R, S, rows)
    compare("state.info_key(p) / information_state_string(p)", lambda s: s.info_key(s.to_act),
            lambda s: s.information_state_string(s.current_player()), ours, theirs, R, S, rows)
    views = [s.view(p) for s, p in zip(ours, seat)]
    compare("view.sample(rng) / resample_from_infostate", lambda v: v.sample(rng),
            lambda s: s.resample_from_infostate(s.current_player(), rng.random), views, theirs, R, S, rows)
    compare("view(p) + sample(rng)", lambda s: s.view(s.to_act).sample(rng), None, ours, None, R, S, rows)
    deal_rngs = [random.Random(i) for i in range(6)]
    compare("whole random deal through the state API", our_random_deal, os_random_deal, deal_rngs, deal_rngs, R, S, rows)
    compare("PlumpState.new + playout (random cards)", lambda r: playout(PlumpState.new(PLAYERS, CARDS, seed=r.getrandbits(32)), r),
            os_random_deal, deal_rngs, deal_rngs, R, S, rows)
    floors = [(Floor.of(st), a.card.id) for st, a in moves]

    def floor_clone_apply(x):
        c = x[0].clone(); c.apply(x[1])

    compare("floor: a six-field state, clone() + apply", floor_clone_apply, os_clone_apply, floors, os_moves, R, S, rows)
    new = compare("PlumpState.new alone", lambda r: PlumpState.new(PLAYERS, CARDS, seed=r.getrandbits(32)), None,
                  deal_rngs, None, R, S, rows)
    print(f"  PlumpState.new: {1e6 / new:.0f} µs")

    print(f"\nBismarck, {len(SEEDS)} positions after the picks, the mode and {PLAYED} cards (no OpenSpiel game; "
          "ratio to Plump's figure above):")
    b = bismarck_positions()
    bmoves = [(s, s.legal_actions()[0]) for s in b]
    plump = {name: x for name, x, _ in rows}
    brows: list = []
    for name, f, items in (("clone()", lambda s: s.clone(), b),
                           ("clone() + apply one action", ours_clone_apply, bmoves),
                           ("legal_actions()", lambda s: s.legal_actions(), b),
                           ("clone() + apply + legal_actions() (a new state)", ours_step, bmoves),
                           ("apply + undo (no undo in oh_hell)", apply_undo, bmoves),
                           ("view(p).info_key() / information_state_string(p)", lambda s: s.view(s.to_act).info_key(), b),
                           ("state.info_key(p) / information_state_string(p)", lambda s: s.info_key(s.to_act), b),
                           ("view(p) + sample(rng)", lambda s: s.view(s.to_act).sample(rng), b)):
        x = statistics.median(per_second(f, items, S) for _ in range(R))
        print(f"  {name:<48} {x:>12,.0f}   x{x / plump[name]:.2f} of Plump's", flush=True)


if __name__ == "__main__":
    main()
