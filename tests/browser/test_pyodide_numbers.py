"""Samma parti ger samma siffror i webbläsarens Python (Pyodide) som i JupyterLab.

A pupil who plays "parti nummer 17" in the zero-install site and a friend who plays it in JupyterLab or Voilà must
see the same cards, the same Tips for the bid and the same analysis after the game. The site runs Pyodide, a
32-bit WebAssembly Python: anything that depends on the platform (a float seed goes through hash(), which differs
between 64-bit and 32-bit Python) would give other numbers there. This runs one short game of computer players
(bara nedåt from three cards, game 17), the learner's Tips for the bid and the analysis of every deal, and the
analysis of a Bismarck deal where the learner was förhand (the computer's points for each mode), once in
this Python and once in the site's own Pyodide under Node (tools/pyodide_run.mjs, as the build uses it), and
compares the outputs as text.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from browser_helpers import unavailable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
sys.path.insert(0, LIB)
from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpRules
from plump_teach.engine.state import BismarckState, PlumpState
from plump_teach.engine.actions import Bid
from plump_teach.bots.players import make_bot
from plump_teach.bots.coach import hint
from plump_teach.bots.review import analyse_deal
from plump_teach.engine.bismarck_game import BismarckGame

rules = PlumpRules(down_only=True)
first = len(PlumpGame(["a", "b", "c"], rules).schedule) - 3
g = PlumpGame(["Du", "Anna", "Bo"], rules, seed=17, first_deal=first)
bots = {s: make_bot("van", seed=170 + s) for s in range(3)}
tips = []
while g.deal is not None:
    st = PlumpState.from_game(g)
    v = st.view(st.to_act)
    if st.to_act == 0 and st.phase == "bidding": tips.append(hint(v).reason)   # Tips för budet: fast antal provgivar
    d = bots[st.to_act].decide(v)
    if isinstance(d.action, Bid): g.bid(st.to_act, d.action.tricks)
    else: g.play(st.to_act, d.action.card)
analyses = [str(analyse_deal(g, 0, k, seed=17)) for k in range(len(g.deals))]
b = BismarckGame(["Du", "Anna", "Bo"], seed=5, short=True, dealer=2)     # Du är förhand i första given
bots = {s: make_bot("van", seed=50 + s) for s in range(3)}
while b.deal is not None:
    st = BismarckState.from_game(b)
    seat = st.to_act
    if st.phase == "discard":
        for _ in range(4): st.apply(bots[seat].decide(st.view(seat)).action)
        b.discard(seat, st.deal.discards)
        continue
    a = bots[seat].decide(st.view(seat)).action
    if st.phase == "mode": b.choose_mode(seat, a.mode, a.trump)
    else: b.play(seat, a.card)
analyses.append(str(analyse_deal(b, 0, 0, seed=5)))
print("SAME " + json.dumps({"cards": [str(d.dealt) for d in g.deals], "tips": tips, "analyses": analyses},
                           ensure_ascii=False))
"""


def run_here_and_in_pyodide(tmp_path: Path) -> tuple[dict, dict]:
    node = shutil.which("node")
    pyodide = ROOT / "_lite" / "site" / "static" / "pyodide"
    if not node: unavailable("node (för att köra webbplatsens Pyodide)", "node (to run the site's Pyodide)")
    shutil.copytree(ROOT / "plump_teach", tmp_path / "plump_teach", ignore=shutil.ignore_patterns("__pycache__"))
    out = {}
    for where, lib in (("python", str(tmp_path)), ("pyodide", "/job")):
        script = tmp_path / f"same_{where}.py"
        script.write_text(f"LIB = {lib!r}\n" + SCRIPT, encoding="utf-8")
        cmd = ([sys.executable, str(script)] if where == "python" else
               [node, str(ROOT / "tools" / "pyodide_run.mjs"), str(pyodide), str(tmp_path), str(script)])
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        line = next((x for x in r.stdout.splitlines() if x.startswith("SAME ")), None)
        assert r.returncode == 0 and line, f"{where}: inget resultat\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
        out[where] = json.loads(line.removeprefix("SAME "))
    return out["python"], out["pyodide"]


def test_the_same_game_gives_the_same_tips_and_analysis_in_pyodide(lite_site, tmp_path):
    here, site = run_here_and_in_pyodide(tmp_path)
    assert len(here["analyses"]) == 4 and len(here["tips"]) == 3
    assert all(t.startswith("Bjud ") for t in here["tips"]), here["tips"]
    assert sum("Datorn spelade din hand" in t for t in here["tips"]) == 2, here["tips"]   # 3 och 2 kort; 1 kort: P15
    assert site["cards"] == here["cards"], "korten skiljer: parti 17 delas inte ut lika"
    assert site["tips"] == here["tips"], (here["tips"], site["tips"])
    assert site["analyses"] == here["analyses"], (here["analyses"], site["analyses"])
