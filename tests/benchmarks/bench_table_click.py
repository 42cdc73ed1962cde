"""Benchmark for issue 42: what one card click at the play table costs, counted rather than timed.

Run:  python tests/benchmarks/bench_table_click.py [--clicks 20]

A PlayTable (pace 0, so the computer answers at once, with no file) plays a short game of Plump for four (seed 17,
from 4 cards), the pupil on seat 0 always clicking the first card that is not grey. For each of the pupil's card
clicks, cProfile counts the calls made in plump_teach's own files (the computer's answering moves excluded: the
profile stops when the pupil's move is made, before the computer plays), how many times a deal was copied
(`TrickDeal.copy`), and how many times legality was asked (`why_illegal`, `legal_actions`, the game's `apply`).
Only the widget's public surface is used (`card_buttons[card].click()`), so the same script runs on an older
checkout: `git worktree add /tmp/old <commit>` and run it there for the "before" figures.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))   # the checkout the script is run from (the old one for "before")

from plump_teach.engine.plump_rules import PlumpRules   # noqa: E402
from plump_teach.ui.table import PlayTable               # noqa: E402

WATCH = {"copy": "copy", "why_illegal": "why_illegal", "legal_actions": "legal_actions", "apply": "apply"}


def one_click(t, card):
    "Profile the pupil's click alone: the computer's moves that follow are not part of it (pace 0 plays them at once)."
    prof = cProfile.Profile()
    bots = t.session.run_bots if hasattr(t, "session") else None
    # stop the computer from answering inside the profile: count only the click's own work
    if bots is not None: t.session.run_bots = lambda most=2000: 0
    else: t._waiting, old_waiting = (lambda: True), t._waiting
    prof.enable()
    t.card_buttons[card].click()
    prof.disable()
    if bots is not None: t.session.run_bots = bots
    else: t._waiting = old_waiting
    st = pstats.Stats(prof)
    calls, counts = 0, dict.fromkeys(WATCH, 0)
    for (file, _, name), (cc, nc, *_rest) in st.stats.items():
        if "plump_teach" not in file: continue
        calls += nc
        if name == "copy" and file.endswith("tricks.py"): counts["copy"] += nc
        elif name in WATCH and name != "copy": counts[name] += nc
    return calls, counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clicks", type=int, default=20)
    a = ap.parse_args()
    t = PlayTable(4, rules=PlumpRules(down_only=True), seed=17, first_deal=6, pace=0, path=False)
    rows = []
    for _ in range(400):
        if t.game.deal is None or len(rows) >= a.clicks: break
        if t.paused == "result": t.next_button.click(); continue
        st = t.state
        if st.phase == "bidding": next(b for b in t.bid_buttons.values() if not b.disabled).click(); continue
        card = next(c for c, b in t.card_buttons.items() if "pt-nej" not in b._dom_classes)
        rows.append(one_click(t, card))
        if hasattr(t, "session"): t.session.run_bots(); t._refresh()
        else: t._advance()
    calls = [r[0] for r in rows]
    print(f"{len(rows)} card clicks at a PlayTable (4 players, short game, seed 17):")
    print(f"  plump_teach calls per click: median {statistics.median(calls):.0f}, min {min(calls)}, max {max(calls)}")
    for k in WATCH:
        v = [r[1][k] for r in rows]
        print(f"  {k:<14} per click: median {statistics.median(v):.0f}, min {min(v)}, max {max(v)}")


if __name__ == "__main__":
    main()
