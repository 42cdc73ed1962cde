"""The strength benchmark can be run in parts: two parts merged report the same figures as one run of all the deals.

tests/benchmarks/bench_bots.py is a script, not a test (nothing is asserted on time). Its statistics must not
depend on how a long run was split: `--first-deal` plays a later slice of the same deals, every `--json` keeps its
deals, and `--merge` joins the files, refusing a deal twice or files with other settings.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

BENCH = Path(__file__).resolve().parent / "benchmarks" / "bench_bots.py"


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=300)


def run(tmp_path: Path, name: str, *args: str) -> dict:
    out = tmp_path / name
    r = bench("--agents", "van,random,random", "--seed", "7", *args, "--json", str(out))
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text(encoding="utf-8"))["runs"][0]


def test_two_parts_merged_are_the_whole_run(tmp_path):
    whole = run(tmp_path, "whole.json", "--deals", "4")
    run(tmp_path, "a.json", "--deals", "2")
    run(tmp_path, "b.json", "--deals", "2", "--first-deal", "2")
    r = bench("--merge", str(tmp_path / "b.json"), str(tmp_path / "a.json"), "--json", str(tmp_path / "ab.json"))
    assert r.returncode == 0, r.stderr
    merged = json.loads((tmp_path / "ab.json").read_text(encoding="utf-8"))["runs"][0]
    assert merged["seats"] == whole["seats"] == ["van", "random", "random"]
    assert [d["deal"] for d in merged["deal_results"]] == [0, 1, 2, 3]
    assert [d["slots"] for d in merged["deal_results"]] == [d["slots"] for d in whole["deal_results"]]
    assert merged["pairs"] == whole["pairs"]
    for agent in ("van", "random"):
        for key in ("hit_rate", "hit_rate_ci", "mean_score", "mean_score_ci", "seats_played"):
            assert merged["agents"][agent][key] == whole["agents"][agent][key]
    assert "paired, van - random" in r.stdout


def test_merge_refuses_a_deal_twice_and_other_settings(tmp_path):
    run(tmp_path, "a.json", "--deals", "2")
    r = bench("--merge", str(tmp_path / "a.json"), str(tmp_path / "a.json"))
    assert r.returncode != 0 and "deal 0" in r.stderr and "already" in r.stderr
    run(tmp_path, "c.json", "--deals", "1", "--first-deal", "5", "--samples", "20")
    r = bench("--merge", str(tmp_path / "a.json"), str(tmp_path / "c.json"))
    assert r.returncode != 0 and "other settings" in r.stderr
