"""Issue 40: save files written by earlier versions of plump_teach still load, and say the same game.

`tests/saved_files/` holds files written by the code before the game shell (commit 01d3462: games with one
'discard' event, states with their moves as text, version 1) and before the score sheet's version 2 (keeper_v1.json,
players as names). `expected.json` is what that old code said of each file: the totals, whose turn it is, the phase
and the hands of the deal in progress. Today's `load` reads every file, and the game it gives says the same; saving
it again and loading that gives the same game once more."""
import json
from pathlib import Path

import pytest

from plump_teach import load

DIR = Path(__file__).parent / "saved_files"
EXPECTED = json.loads((DIR / "expected.json").read_text(encoding="utf-8"))


def test_the_corpus_has_every_kind_of_file():
    kinds = {v["type"] for v in EXPECTED.values()}
    assert kinds == {"PlumpGame", "BismarckGame", "PlumpState", "BismarckState", "ScoreKeeper"}
    assert {"keeper_v1.json", "keeper_v2.json", "keeper.csv", "table_v1.json"} <= set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_an_old_file_loads_and_says_the_same(name, tmp_path):
    want = EXPECTED[name]
    got = load(DIR / name)
    assert type(got).__name__ == want["type"]
    if "deals_done" in want: assert len(got.deals) == want["deals_done"]
    for field in ("totals", "phase", "to_act"):
        if field in want:
            value = getattr(got, field)
            assert (value() if callable(value) else value) == want[field], field
    if "hands" in want: assert [str(h) for h in got.deal.hands] == want["hands"]
    again = load(got.save(tmp_path / "igen.json"))                 # sparad i dagens format och inläst igen
    assert again.to_dict() == got.to_dict()
