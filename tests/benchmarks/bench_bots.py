"""Benchmark: how well the computer players bid and play Plump, against OpenSpiel's ISMCTS and random players.

Run (a script, not a test; nothing here is asserted on time):

    python tests/benchmarks/bench_bots.py --players 3 --cards 5 --deals 200 --agents ismcts,random,random
    python tests/benchmarks/bench_bots.py --players 3 4 --cards 5 10 --deals 1000 --agents expert,ismcts,ismcts \\
        --parallel 2 --json results.json

Every deal is played in our engine (plump_teach.engine.state.PlumpState, default PlumpRules = OpenSpiel's oh_hell
rules: trump always, 10 + bid for an exact bid, the dealer's restriction) and mirrored action by action into
OpenSpiel's oh_hell (oh_hell_mirror.py), so that OpenSpiel's bots can act on it; both engines must agree on
whose turn it is, the legal actions, the tricks and the scores at every step, or the run stops.

Agents (--agents, one per seat, comma-separated; a shorter list is repeated around the table):
  random              a random legal action
  ismcts[:SIMS]       OpenSpiel's C++ ISMCTS bot (pyspiel.ISMCTSBot), SIMS simulations (default --sims, 300),
                      random-rollout evaluator, uct_c 2, --ismcts-policy for the final policy
  ismcts-honest[:SIMS] the same search in pure Python (plump_teach.bots.search.ismcts_action, SIMS iterations, default
                      --sims, uct_c --uct-c, the most visited action), but each simulation deals the cards the seat
                      has not seen at random over the other hands AND the stock (SeatView.sample): only what the
                      seat may know. OpenSpiel's ISMCTS does not do that: oh_hell's resample_from_infostate
                      reshuffles only the cards the other players really hold, so its samples never put a card
                      from the stock in a hand (it knows which cards are in play; with 3 players and 5 cards
                      that is 15 of the 36 unseen cards).
  nybörjare|van|expert (also nyborjare) plump_teach.bots.players.make_bot(level, seed).decide(state.view(seat));
                      --budget/--samples are passed to make_bot when given (--budget none --samples N: a fixed
                      amount of work per decision, the same on a busy machine)
  expert-leak         the expert given the SAME information as OpenSpiel's ISMCTS, for a comparison on equal
                      terms: its view's unseen cards are only the cards the other players really hold and the
                      stock pile is empty, so every sample deals the others' real cards among them (voids shown
                      by play respected). Only this benchmark builds such a view (leaky_view); the library's
                      bots never see it.
  expert-oracle       the expert seeing every hand: each sample is the real deal, only the other players' future
                      choices are unknown. Not a fair player; it measures how far any bidder can get at this
                      table (a ceiling for the hit rate against random players).

Fair comparisons: "expert vs ismcts" favours ISMCTS (it knows which cards are in play); "expert vs
ismcts-honest" (both only the seat's view) and "expert-leak vs ismcts" (both know the cards in play) are the
two comparisons with equal information.

Long runs in parts: --first-deal N plays deals N .. N+deals-1 of the seed's sequence, and every --json file keeps
its deals; `--merge part1.json part2.json --json all.json` reports them as one run (same seed, agents and settings,
no deal twice). 1000 deals at 10 cards take hours on this machine, so they can be run over several sittings:

    python tests/benchmarks/bench_bots.py --players 4 --cards 10 --deals 250 --first-deal 250 \
        --agents expert,random,random,random --budget none --samples 200 --seed 2026 --json part2.json

Duplicate format: each deal (hands, trump card, dealer) is played once per rotation of the agents around the
table (n rotations for n seats), so every agent plays every hand and luck cancels in comparisons. Statistics
treat the deal as the unit: per deal an agent's hit rate and mean score over all its seats in all rotations,
then the mean over deals with a 95 % confidence interval (normal approximation, 1.96 standard errors); the
differences between two agents are taken deal by deal (paired), which is where duplicate pays off.

Decision times are wall-clock per decision the agent had to make (forced moves, a single legal action, are
applied without asking the agent), reported as median and 95th percentile for bids and cards separately.
With --parallel the workers share the machine's cores, so times are only comparable between runs with the
same setting.

--pyodide N measures the learner's hint (plump_teach.bots.coach.hint, the expert's suggestion with its reasons) at N
bid and N card positions of random 3- and 4-player deals (5 and 10 cards), once in this Python and once in the
zero-install site's Pyodide run by Node (tools/pyodide_run.mjs, with the working tree's plump_teach; needs
`python3 tools/lite.py build` once for _lite/site/static/pyodide). The issue's targets: 300 ms in JupyterLab,
1 s in the site. Node runs the same WebAssembly as a browser, on this machine's CPU.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))   # the repository root
sys.path.insert(0, str(HERE))              # oh_hell_mirror

import pyspiel  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

from oh_hell_mirror import MirroredDeal, os_to_action, random_deal  # noqa: E402
from plump_teach.engine.actions import Bid  # noqa: E402

try:
    from plump_teach.bots import players as our_bots, search as our_search   # nbs/25_players, 24_search
except ImportError:
    our_bots = our_search = None

LEVEL_ALIASES = {"nybörjare": "nybörjare", "nyborjare": "nybörjare", "van": "van", "expert": "expert"}
ISMCTS_POLICIES = {"visits": "NORMALIZED_VISIT_COUNT", "max_visits": "MAX_VISIT_COUNT", "max_value": "MAX_VALUE"}


# ---------------------------------------------------------------------------------------------- agents

class RandomAgent:
    def __init__(self, seed, opts): self.rng = random.Random(seed)
    def act(self, md: MirroredDeal, seat: int): return self.rng.choice(md.state.legal_actions())


class ISMCTSAgent:
    def __init__(self, seed, opts, sims: int):
        seed = seed % (2**31 - 1)
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        policy = getattr(pyspiel.ISMCTSFinalPolicyType, ISMCTS_POLICIES[opts["ismcts_policy"]])
        self.bot = pyspiel.ISMCTSBot(seed, evaluator, opts["uct_c"], sims, -1, policy, False, False)

    def act(self, md: MirroredDeal, seat: int):
        return os_to_action(self.bot.step(md.os))


class OurBot:
    def __init__(self, seed, opts, level: str):
        kw = {"samples": opts["samples"]} if opts.get("samples") is not None else {}
        if opts.get("budget") is not None: kw["budget"] = None if opts["budget"] == "none" else float(opts["budget"])
        self.bot = our_bots.make_bot(level, seed=seed, **kw)

    def act(self, md: MirroredDeal, seat: int):
        return self.bot.decide(md.state.view(seat)).action


class HonestISMCTSAgent:
    def __init__(self, seed, opts, sims: int):
        self.rng, self.sims, self.c = random.Random(seed), sims, opts["uct_c"]

    def act(self, md: MirroredDeal, seat: int):
        return our_search.ismcts_action(md.state.view(seat), self.rng, iterations=self.sims, c=self.c)[0]


def with_slots(v, ids: list[int], slots: tuple):
    """A copy of the view `v` whose unseen cards are `ids` and whose samples deal by `slots` (the benchmark's own
    views below; the library's views never change what they know)."""
    import copy
    w = copy.copy(v)             # the same state copy and seat; the fields read so far stay
    _, masks, _, *skeleton = v._basis                  # the skeleton, and its tricks as a PlayCore while cards are played
    w.__dict__.pop("unseen", None)
    w.__dict__["_basis"] = (ids, masks, slots, *skeleton)
    return w


def leaky_view(state, seat: int):
    """The seat's view with OpenSpiel's information: the unseen cards are the other hands' real cards (as a
    set, not who holds which) and the stock is empty, so view.sample deals exactly those cards among the
    others. For the benchmark's expert-leak only."""
    v = state.view(seat)
    seats, caps, masks, only, unseen = v._slots
    in_play = {c.id for s in range(state.n) if s != seat for c in state.hand(s)}
    if set(v.others) or not in_play <= set(unseen): return v      # kortet i pannan (P15): as it is
    ids = [c for c in unseen if c in in_play]
    caps = [0 if s == -1 else cap for s, cap in zip(seats, caps)]
    return with_slots(v, ids, (seats, caps, masks, only, ids))


def oracle_view(state, seat: int):
    """The seat's view with every hand shown: the samples are always the real deal (only the other players'
    future choices stay unknown). For the benchmark's expert-oracle only, to measure a ceiling."""
    v = state.view(seat)
    seats, caps, masks, only, unseen = v._slots
    if set(v.others) or v.game != 'plump': return v
    holder = {c.id: s for s in range(state.n) if s != seat for c in state.hand(s)}
    ids = [c for c in unseen if c in holder]
    only = {c: [seats.index(holder[c])] for c in ids}
    caps = [0 if s == -1 else cap for s, cap in zip(seats, caps)]
    return with_slots(v, ids, (seats, caps, masks, only, ids))


class OracleExpert(OurBot):
    def act(self, md: MirroredDeal, seat: int):
        return self.bot.decide(oracle_view(md.state, seat)).action


class LeakyExpert(OurBot):
    def act(self, md: MirroredDeal, seat: int):
        return self.bot.decide(leaky_view(md.state, seat)).action


def agent_factory(name: str, default_sims: int):
    "A function (seed, opts) -> agent for the agent name, checked before any deal is played."
    base, _, arg = name.partition(":")
    if base == "random" and not arg: return RandomAgent
    if base == "ismcts":
        sims = int(arg) if arg else default_sims
        return lambda seed, opts: ISMCTSAgent(seed, opts, sims)
    if base == "ismcts-honest":
        if our_bots is None: sys.exit(f"{name}: plump_teach.bots.players is not there yet (nbs/25_players.ipynb)")
        sims = int(arg) if arg else default_sims
        return lambda seed, opts: HonestISMCTSAgent(seed, opts, sims)
    if base == "expert-leak" and not arg:
        if our_bots is None: sys.exit(f"{name}: plump_teach.bots.players is not there yet (nbs/25_players.ipynb)")
        return lambda seed, opts: LeakyExpert(seed, opts, "expert")
    if base == "expert-oracle" and not arg:
        if our_bots is None: sys.exit(f"{name}: plump_teach.bots.players is not there yet (nbs/25_players.ipynb)")
        return lambda seed, opts: OracleExpert(seed, opts, "expert")
    if base in LEVEL_ALIASES and not arg:
        if our_bots is None: sys.exit(f"{name}: plump_teach.bots.players is not there yet (nbs/25_players.ipynb)")
        level = LEVEL_ALIASES[base]
        return lambda seed, opts: OurBot(seed, opts, level)
    sys.exit(f"unknown agent {name!r}: random, ismcts[:SIMS], ismcts-honest[:SIMS], nybörjare, van, expert or "
             "expert-leak or expert-oracle")


def label(name: str, default_sims: int) -> str:
    "The agent's name in the report: ismcts with its simulations, levels spelt as in plump_teach.bots.players."
    base, _, arg = name.partition(":")
    if base == "ismcts": return f"ismcts-{arg or default_sims}"
    if base == "ismcts-honest": return f"ismcts-honest-{arg or default_sims}"
    return LEVEL_ALIASES.get(base, base)


# ---------------------------------------------------------------------------------------------- one deal

def seed_of(*parts) -> int:
    return zlib.crc32(":".join(map(str, parts)).encode())


def play_deal(task: dict) -> dict:
    """One deal, played once per rotation of the agents around the table. Returns, per rotation and seat, the
    agent, bid, tricks and score, and the time of every decision an agent made."""
    n, k, index, opts = task["players"], task["cards"], task["deal"], task["opts"]
    names = task["agents"]
    factories = [agent_factory(a, opts["sims"]) for a in names]
    labels = [label(a, opts["sims"]) for a in names]
    hands, trump, dealer = random_deal(random.Random(f"bench_bots:{opts['seed']}:{n}:{k}:{index}"), n, k)
    slots, times = [], []
    start = time.perf_counter()
    for rot in range(n):
        who = [(s + rot) % n for s in range(n)]           # seat s is played by agent who[s]
        agents = [factories[who[s]](seed_of(opts["seed"], n, k, index, rot, s), opts) for s in range(n)]
        md = MirroredDeal(hands, trump, dealer)
        while not md.state.is_terminal():
            seat = md.state.to_act
            legal = md.state.legal_actions()
            if len(legal) == 1: action = legal[0]
            else:
                t = time.perf_counter()
                action = agents[seat].act(md, seat)
                times.append((labels[who[seat]], "bid" if isinstance(action, Bid) else "card",
                              time.perf_counter() - t))
            md.apply(action)
        scores = md.finish_check()
        bids, taken = md.state.bids, md.state.taken
        slots += [(labels[who[s]], bids[s], taken[s], scores[s]) for s in range(n)]
    return {"deal": index, "slots": slots, "times": times, "seconds": time.perf_counter() - start}


# ---------------------------------------------------------------------------------------------- statistics

def mean_ci(values: list[float]) -> tuple[float, float]:
    "Mean and the half-width of its 95 % confidence interval (normal approximation)."
    m = statistics.fmean(values)
    if len(values) < 2: return m, float("nan")
    return m, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs: return float("nan")
    i = q * (len(xs) - 1)
    lo, hi = math.floor(i), math.ceil(i)
    return xs[lo] + (xs[hi] - xs[lo]) * (i - lo)


def summarise(results: list[dict], agents: list[str]) -> dict:
    """Per agent (`agents`, in the order given): hit rate and mean score over deals (with 95 % CI), paired
    differences, decision times."""
    per_deal = {a: {"hit": [], "score": []} for a in agents}
    for r in results:
        for a in agents:
            mine = [(bid, taken, score) for who, bid, taken, score in r["slots"] if who == a]
            per_deal[a]["hit"].append(statistics.fmean(bid == taken for bid, taken, _ in mine))
            per_deal[a]["score"].append(statistics.fmean(score for *_, score in mine))
    out = {"agents": {}, "pairs": {}, "deals": len(results)}
    for a in agents:
        hit, hit_ci = mean_ci(per_deal[a]["hit"])
        score, score_ci = mean_ci(per_deal[a]["score"])
        seats = sum(1 for r in results for who, *_ in r["slots"] if who == a)
        t = {kind: [s for r in results for who, k, s in r.get("times", ()) if who == a and k == kind] for kind in ("bid", "card")}
        out["agents"][a] = {
            "seats_played": seats, "hit_rate": hit, "hit_rate_ci": hit_ci, "mean_score": score, "mean_score_ci": score_ci,
            "times_ms": {kind: {"n": len(xs), "median": 1000 * percentile(xs, 0.5), "p95": 1000 * percentile(xs, 0.95)}
                         for kind, xs in t.items()}}
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            d_hit = mean_ci([x - y for x, y in zip(per_deal[a]["hit"], per_deal[b]["hit"])])
            d_score = mean_ci([x - y for x, y in zip(per_deal[a]["score"], per_deal[b]["score"])])
            out["pairs"][f"{a} - {b}"] = {"hit_rate": d_hit, "mean_score": d_score}
    secs = [r["seconds"] for r in results]
    out["seconds_per_deal"] = {"mean": statistics.fmean(secs), "median": statistics.median(secs), "max": max(secs),
                               "total": sum(secs)}
    return out


INFORMATION = {   # what each agent's samples know, printed under the table
    "ismcts": "OpenSpiel's ISMCTS; its samples deal only the cards the others really hold (knows which cards are in play)",
    "ismcts-honest": "ISMCTS in Python with only the seat's view (unseen cards dealt over the other hands and the stock)",
    "expert": "only the seat's view",
    "expert-leak": "the expert with OpenSpiel's information: samples deal only the others' real cards, no stock",
    "expert-oracle": "the expert seeing every hand (a ceiling): each sample is the real deal",
}


def report(players: int, cards: int, agents: list[str], s: dict, wall: float, parallel: int):
    n = players
    print(f"\n== {players} players, {cards} cards: {' / '.join(agents)}; {s['deals']} deals x {n} rotations "
          f"= {s['deals'] * n} games")
    print(f"{'agent':<18} {'seats':>6} {'hit rate (95 % CI)':>22} {'mean score (95 % CI)':>22}   "
          f"{'bid ms: median  p95 (n)':>26}   {'card ms: median  p95 (n)':>26}")
    for a, x in s["agents"].items():
        tb, tc = x["times_ms"]["bid"], x["times_ms"]["card"]
        fmt = lambda t: f"{t['median']:8.2f} {t['p95']:8.2f} ({t['n']})" if t["n"] else f"{'-':>8} {'-':>8} (0)"
        print(f"{a:<18} {x['seats_played']:>6} {100 * x['hit_rate']:>11.1f} % ± {100 * x['hit_rate_ci']:4.1f}"
              f" {x['mean_score']:>13.2f} ± {x['mean_score_ci']:5.2f}   {fmt(tb):>26}   {fmt(tc):>26}")
    for a in s["agents"]:
        kind = "ismcts-honest" if a.startswith("ismcts-honest") else "ismcts" if a.startswith("ismcts-") else a
        what = INFORMATION.get(kind)
        if what: print(f"  {a}: {what}")
    for pair, d in s["pairs"].items():
        print(f"  paired, {pair}: hit rate {100 * d['hit_rate'][0]:+.1f} % ± {100 * d['hit_rate'][1]:.1f}, "
              f"mean score {d['mean_score'][0]:+.2f} ± {d['mean_score'][1]:.2f}")
    t = s["seconds_per_deal"]
    print(f"  time per deal (all {n} rotations, one worker): mean {t['mean']:.2f} s, median {t['median']:.2f} s, "
          f"max {t['max']:.2f} s; per game {t['mean'] / n:.2f} s; wall {wall:.1f} s with {parallel} worker(s)")


# ---------------------------------------------------------------------------------------------- hints, in Pyodide too

ROOT = HERE.parents[1]
PYODIDE = ROOT / "_lite" / "site" / "static" / "pyodide"

# Runs unchanged in CPython and in Pyodide: the same positions (seeded), a hint at each, the times as JSON.
HINT_SCRIPT = """
import json, random, sys, time
sys.path.insert(0, LIB)
from plump_teach.engine.plump import PlumpDeal
from plump_teach.engine.state import PlumpState
from plump_teach.engine.actions import Bid
from plump_teach.engine.cards import FULL_DECK
from plump_teach.bots.coach import hint

def positions(n_each):
    rng = random.Random(2024)
    out = {'bid': [], 'card': []}
    while min(len(v) for v in out.values()) < n_each:
        n, k = rng.choice([(3, 5), (3, 10), (4, 5), (4, 10)])
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        st = PlumpState.from_deal(PlumpDeal(n, [deck[i * k:(i + 1) * k] for i in range(n)], trump_card=deck[n * k],
                                            dealer=rng.randrange(n)))
        stop = rng.randrange(n + n * k)          # a random decision point of the deal
        for _ in range(stop):
            if st.is_terminal(): break
            st.apply(rng.choice(st.legal_actions()))
        if st.is_terminal() or len(st.legal_actions()) < 2: continue
        kind = 'bid' if st.phase == 'bidding' else 'card'
        if len(out[kind]) < n_each: out[kind].append(st.view(st.to_act))
    return out

times = {}
for kind, views in positions(N).items():
    hint(views[0])                              # the first call pays for imports and warm-up
    ts = []
    for v in views:
        t = time.perf_counter()
        hint(v)
        ts.append(time.perf_counter() - t)
    times[kind] = ts
print('HINT_TIMES ' + json.dumps(times))
"""


def hint_times(n: int) -> dict:
    "Hint times (seconds) per kind, in CPython here and in Pyodide under Node."
    out = {}
    with tempfile.TemporaryDirectory(prefix="bench-hints-") as d:
        d = Path(d)
        shutil.copytree(ROOT / "plump_teach", d / "plump_teach", ignore=shutil.ignore_patterns("__pycache__"))
        for where, lib in (("cpython", str(d)), ("pyodide", "/job")):
            script = d / f"hints_{where}.py"
            script.write_text(f"LIB = {lib!r}\nN = {n}\n" + HINT_SCRIPT, encoding="utf-8")
            if where == "cpython": cmd = [sys.executable, str(script)]
            else:
                node = shutil.which("node")
                if not node or not (PYODIDE / "pyodide.mjs").exists():
                    print("  pyodide: skipped (needs node and python3 tools/lite.py build)", flush=True)
                    continue
                cmd = [node, str(ROOT / "tools" / "pyodide_run.mjs"), str(PYODIDE), str(d), str(script)]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
            line = next((x for x in r.stdout.splitlines() if x.startswith("HINT_TIMES ")), None)
            if line is None: sys.exit(f"{where}: no result\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
            out[where] = json.loads(line.removeprefix("HINT_TIMES "))
    return out


def report_hints(times: dict):
    print("\n== hint (plump_teach.bots.coach.hint) decision time, ms: median, 95th percentile, max (n)")
    for where, kinds in times.items():
        for kind, ts in kinds.items():
            print(f"  {where:<8} {kind:<5} {1000 * percentile(ts, 0.5):8.1f} {1000 * percentile(ts, 0.95):8.1f} "
                  f"{1000 * max(ts):8.1f} ({len(ts)})")

# ---------------------------------------------------------------------------------------------- main

SAME_SETTINGS = ("sims", "uct_c", "ismcts_policy", "budget", "samples", "seed")


def merge(paths: list[Path], out: Path | None):
    """Merge runs written with --json (each holds its deals under "deal_results") into one run per table
    (players, cards, agents): the settings must agree and no deal may be there twice. Prints the report of the
    merged runs and writes them to `out`."""
    groups, settings = {}, None
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        mine = {k: data["options"].get(k) for k in SAME_SETTINGS}
        if settings is None: settings = mine
        elif mine != settings: sys.exit(f"{path}: other settings than the first file: {mine} != {settings}")
        for run in data["runs"]:
            if "deal_results" not in run:
                sys.exit(f"{path}: a run without its deals (written before --json kept them); it cannot be merged")
            key = (run["players"], run["cards"], tuple(run["seats"]))
            have = groups.setdefault(key, {})
            for r in run["deal_results"]:
                if r["deal"] in have: sys.exit(f"{path}: deal {r['deal']} of {key} is already in an earlier file")
                have[r["deal"]] = r
    runs = []
    for (players, cards, seats), by_deal in groups.items():
        results = [by_deal[d] for d in sorted(by_deal)]
        labels = [label(x, settings["sims"]) for x in seats]
        s = summarise(results, list(dict.fromkeys(labels)))
        report(players, cards, labels, s, s["seconds_per_deal"]["total"], 1)
        runs.append({"players": players, "cards": cards, "seats": list(seats), **s, "deal_results": results})
    if out:
        out.write_text(json.dumps({"options": settings | {"merged_from": [str(p) for p in paths]}, "runs": runs,
                                   "hint_seconds": None}, indent=1, ensure_ascii=False, default=str))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, nargs="+", default=[3])
    p.add_argument("--cards", type=int, nargs="+", default=[5])
    p.add_argument("--deals", type=int, default=100, help="deals per player count and card count")
    p.add_argument("--agents", default="ismcts,random,random", help="comma-separated, one per seat (repeated)")
    p.add_argument("--sims", type=int, default=300, help="ISMCTS simulations per decision (default 300)")
    p.add_argument("--uct-c", type=float, default=2.0)
    p.add_argument("--ismcts-policy", choices=sorted(ISMCTS_POLICIES), default="visits",
                   help="ISMCTS final policy: visits = sample by visit counts (OpenSpiel's default), "
                        "max_visits = the most visited action, max_value")
    p.add_argument("--budget", default=None, help="time budget per decision for our bots, in seconds, or 'none' "
                   "(then --samples alone bounds the work, and the results do not depend on the machine's load)")
    p.add_argument("--samples", type=int, default=None, help="samples per decision for our bots")
    p.add_argument("--seed", type=int, default=1, help="the same seed gives the same deals")
    p.add_argument("--parallel", type=int, default=1, help="worker processes")
    p.add_argument("--json", type=Path, default=None, help="write the summaries here")
    p.add_argument("--first-deal", type=int, default=0, metavar="N",
                   help="play deals N .. N+deals-1 of the seed's sequence (to run a long benchmark in parts)")
    p.add_argument("--merge", type=Path, nargs="+", default=None, metavar="JSON",
                   help="play nothing: merge the deals of earlier --json files (same seed, agents and settings, "
                        "no deal twice), report them as one run and write --json")
    p.add_argument("--pyodide", type=int, default=0, metavar="N",
                   help="also time the hint at N bid and N card positions, here and in Pyodide (then --deals 0 "
                        "measures only that)")
    a = p.parse_args(argv)
    if a.merge:
        merge(a.merge, a.json)
        return

    if a.budget not in (None, "none"):
        try: float(a.budget)
        except ValueError: p.error(f"--budget: a number of seconds or 'none', not {a.budget!r}")
    names = [x.strip() for x in a.agents.split(",") if x.strip()]
    for name in names: agent_factory(name, a.sims)        # unknown names stop here, before any work
    opts = {"sims": a.sims, "uct_c": a.uct_c, "ismcts_policy": a.ismcts_policy, "budget": a.budget,
            "samples": a.samples, "seed": a.seed}
    print(f"bench_bots: ISMCTS uct_c {a.uct_c}, final policy {a.ismcts_policy}; our bots budget {a.budget}, "
          f"samples {a.samples}; seed {a.seed}; {os.cpu_count()} CPUs, {a.parallel} worker(s)", flush=True)
    everything = []
    for players in (a.players if a.deals else []):
        for cards in a.cards:
            seats = [names[i % len(names)] for i in range(players)]
            tasks = [{"players": players, "cards": cards, "deal": i, "agents": seats, "opts": opts}
                     for i in range(a.first_deal, a.first_deal + a.deals)]
            t0, results = time.perf_counter(), []
            pool = multiprocessing.Pool(a.parallel) if a.parallel > 1 else None
            try:
                it = pool.imap_unordered(play_deal, tasks) if pool else map(play_deal, tasks)
                for r in it:
                    results.append(r)
                    if len(results) % max(1, a.deals // 10) == 0:
                        print(f"  {players} players, {cards} cards: {len(results)}/{a.deals} deals, "
                              f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
            finally:
                if pool: pool.close(); pool.join()
            results.sort(key=lambda r: r["deal"])
            labels = [label(x, a.sims) for x in seats]
            s = summarise(results, list(dict.fromkeys(labels)))
            report(players, cards, labels, s, time.perf_counter() - t0, a.parallel)
            everything.append({"players": players, "cards": cards, "seats": seats, **s, "deal_results": results})
    hints = None
    if a.pyodide:
        if our_bots is None: sys.exit("--pyodide: plump_teach.bots.players is not there yet")
        hints = hint_times(a.pyodide)
        report_hints(hints)
    if a.json:
        a.json.write_text(json.dumps({"options": vars(a) | {"json": str(a.json)}, "runs": everything,
                                      "hint_seconds": hints}, indent=1, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main()
