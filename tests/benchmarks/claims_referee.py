"""The claim referees of tests/test_claims.py over many more decisions (issue 27 asks for 20,000).

    .venv/bin/python tests/benchmarks/claims_referee.py [--decisions 20000] [--words 4000]

Plays Plump (3-5 players, random house rules, the usual player, the expert and the beginner) and short Bismarck
games until that many card decisions have been read, checks every claim about the trick against the engine, and
prints the count of each kind of claim, the number of false ones (with the first ten) and the time taken. Then the
second referee (`Words`) over `--words` Plump bids (2-6 players under random house rules) and `--plans` Bismarck
plans and mode choices, with every card reason of those games that states the normal (short and full Bismarck). Exit code 1 if any claim was false.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_claims import Referee, Words, play_bismarck, play_plump, words_bismarck, words_plump  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=20_000)
    ap.add_argument("--words", type=int, default=2_000)
    ap.add_argument("--plans", type=int, default=200)
    args = ap.parse_args()
    t0 = time.monotonic()
    out = {}
    for game, play in (("plump", play_plump), ("bismarck", play_bismarck)):
        ref, seed = Referee(), 1000
        while ref.decisions < args.decisions // 2:
            play(seed, ref)
            seed += 1
        out[game] = ref
        print(f"{game}: {ref.decisions} kortbeslut i {seed - 1000} partier, påståenden {dict(ref.counts)}, "
              f"falska {len(ref.false)}")
        for line in ref.false[:10]: print("  FALSKT:", line)
    for game, play in (("plump", words_plump), ("bismarck", words_bismarck)):
        ref, seed = Words(), 1000
        while (ref.decisions < args.words) if game == "plump" else (ref.plans < args.plans):
            play(seed, ref)
            seed += 1
        out[f"{game}-ord"] = ref
        print(f"{game}, bud och planer: {ref.decisions} beslut ({ref.plans} planer) i {seed - 1000} partier, påståenden {dict(ref.counts)}, "
              f"falska {len(ref.false)}")
        for line in ref.false[:10]: print("  FALSKT:", line)
    total = sum(r.decisions for r in out.values())
    false = sum(len(r.false) for r in out.values())
    print(f"totalt {total} beslut, {sum(sum(r.counts.values()) for r in out.values())} prövade påståenden, "
          f"{false} falska, {time.monotonic() - t0:.0f} s")
    return 1 if false else 0


if __name__ == "__main__":
    sys.exit(main())
