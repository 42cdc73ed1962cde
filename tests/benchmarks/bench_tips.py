"""Benchmark: how long a pupil waits for Tips at the play table in JupyterLab (issue 41), measured in a real browser.

Run (a script, not a test; nothing here is asserted on time):

    python tests/benchmarks/bench_tips.py [--players 4] [--level expert] [--games 2] [--repo PATH]

What it does, as a pupil does it: JupyterLab (loopback, a free port, stopped at the end) opens lesson 7
(nbs/elev/07_spelbordet.ipynb) in Debian's Chromium at 1280x900; the table is set to `--players` players, the
computer at `--level`, its pace at 0 s, the short game from the most cards (10 with 3-5 players) and game number
`--seed`, `--seed`+1 ... At every one of the pupil's turns it presses Tips (the question), then "Visa rådet" (the
advice: this is where the computer plays its trial deals) and, when there is one, "Visa datorns siffror", and then
bids or plays the first allowed choice. Each figure is the time from the press until the text is on the screen,
for bids and cards apart; the report gives the median, the 90th percentile and the maximum.

--repo PATH measures another checkout of the project (for before/after): its lesson page, and its plump_teach first
on the kernel's path (PYTHONPATH), so the same script measures both.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "browser"))

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, run_all_hidden, wait_for_kernel_idle, wait_for_outputs_rendered  # noqa: E402
from conftest import jupyterlab_starter                                                                             # noqa: E402
from table_helpers import HAND_FOR_THIS_TURN, drag_pace, state, table_output                                        # noqa: E402

PAGE = "07_spelbordet.ipynb"


def p90(xs: list[float]) -> float:
    "The 90th percentile (nearest rank)."
    s = sorted(xs)
    return s[max(0, -(-9 * len(s) // 10) - 1)]


def summary(xs: list[float]) -> str:
    if not xs: return "no measurements"
    ms = [1000 * x for x in xs]
    return f"median {statistics.median(ms):6.0f} ms, p90 {p90(ms):6.0f} ms, max {max(ms):6.0f} ms ({len(ms)} presses)"


# The text of the table's Tips box (the question, the advice and the numbers), or '' when there is none.
JS_TIPS = """(root) => [...root.querySelectorAll('.pt-ruta[role="status"]')].map(e => e.innerText).join('\\n')"""


def timed_press(page, table, button: str, needle: str) -> float:
    """Press the button and return the seconds until the Tips box has changed and holds `needle` (the box of the
    turn before can still hold the same words until the table is redrawn)."""
    root = table.element_handle()
    before = root.evaluate(JS_TIPS)
    t0 = time.perf_counter()
    table.get_by_role("button", name=re.compile(button)).first.click()
    page.wait_for_function(f"([root, before, needle]) => {{ const t = ({JS_TIPS})(root); "
                           "return t !== before && t.includes(needle); }", arg=[root, before, needle],
                           timeout=120_000, polling=10)
    return time.perf_counter() - t0


def set_up(page, table, players: int, level: str, seed: int):
    table.locator(".widget-dropdown", has_text="Antal spelare").locator("select").select_option(label=str(players))
    table.locator(".widget-dropdown", has_text="Datorns nivå").locator("select").select_option(label=level)
    table.locator(".widget-dropdown", has_text="Första given").locator("select").select_option(index=0)
    table.get_by_placeholder("slumpas").fill(str(seed))
    drag_pace(page, table, 0)
    table.get_by_role("button", name="Börja spela").click()
    table.get_by_text(re.compile(r"Giv 1 av \d+")).first.wait_for(timeout=60_000)


def play_with_tips(page, table, times: dict, max_deals: int):
    "Tips at every turn of the pupil's, until the game is over or `max_deals` deals are played."
    deals = 1
    for _ in range(2000):
        s = state(table)
        if s["over"]: return
        if s["next"]:
            if deals >= max_deals: return
            table.get_by_role("button", name="Nästa giv").click()
            deals += 1
            page.wait_for_timeout(200)
            continue
        bidding = s["turn"].startswith("Din tur att bjuda")
        if not (bidding or s["turn"].startswith("Din tur att")):
            page.wait_for_timeout(50)
            continue
        if not bidding: table.locator(HAND_FOR_THIS_TURN).first.wait_for(timeout=60_000)
        kind = "bid" if bidding else "card"
        times[kind]["question"].append(timed_press(page, table, r"^\W*Tips\W*$", "Tips:"))
        times[kind]["advice"].append(timed_press(page, table, r"^\W*Visa rådet\W*$", "Rådet:"))
        numbers = table.get_by_role("button", name="Visa datorns siffror")
        if numbers.count() and numbers.first.is_visible():
            times[kind]["numbers"].append(timed_press(page, table, r"^\W*Visa datorns siffror\W*$", "Datorns siffror"))
        choice = table.locator("button.pt-bud:not([disabled])" if bidding else "button.pt-kort:not(.pt-nej)").first
        handle = choice.element_handle()
        handle.click()
        page.wait_for_function("(e) => !e.isConnected", arg=handle, timeout=60_000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--level", default="expert")
    ap.add_argument("--games", type=int, default=2, help="games played, one after another on the same page")
    ap.add_argument("--deals", type=int, default=3, help="deals per game (the first ones: the most cards)")
    ap.add_argument("--seed", type=int, default=17, help="the first game's number; the next games count up")
    ap.add_argument("--repo", type=Path, default=HERE.parents[1], help="the checkout to measure")
    a = ap.parse_args()
    repo = a.repo.resolve()
    os.environ["PYTHONPATH"] = os.pathsep.join([str(repo), *filter(None, [os.environ.get("PYTHONPATH")])])
    from playwright.sync_api import sync_playwright
    times = {k: {"question": [], "advice": [], "numbers": []} for k in ("bid", "card")}
    servers: list = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        # the games the table saves go to this run's own folder (the kernels inherit it), never the user's data folder
        os.environ["PLUMP_TEACH_SPARADE"] = str(Path(tmp) / "sparade")
        try:
            base = jupyterlab_starter(Path(tmp), servers)(repo / "nbs" / "elev")
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(60_000)
            for g in range(a.games):
                page.goto(f"{base}/lab/workspaces/tips{g}/tree/elev/{PAGE}")
                page.locator("#jp-main-dock-panel .jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
                wait_for_kernel_idle(page)
                run_all_hidden(page)
                wait_for_outputs_rendered(page, 2)
                table = table_output(page, 0)
                set_up(page, table, a.players, a.level, a.seed + g)
                t0 = time.perf_counter()
                play_with_tips(page, table, times, a.deals)
                print(f"  game {a.seed + g}: {time.perf_counter() - t0:.0f} s", flush=True)
            browser.close()
        finally:
            for s in servers: s.stop()
    print(f"\nTips at the play table in JupyterLab, {repo}: {a.players} players, the computer at '{a.level}', "
          f"{a.games} games x {a.deals} deals from the most cards, games {a.seed}-{a.seed + a.games - 1}; "
          "press -> text on the screen:")
    for kind in ("bid", "card"):
        for step in ("question", "advice", "numbers"):
            print(f"  {kind:<4} {step:<9} {summary(times[kind][step])}")


if __name__ == "__main__":
    main()
