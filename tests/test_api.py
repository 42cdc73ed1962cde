"""Biblioteket som en Python-utvecklare möter det (issue 28): ytterdörren `plump_teach`, drag som värden i partierna
(`apply`), en ny giv i ett anrop och en import per namn."""
import importlib
import json
import subprocess
import sys

import pytest

import plump_teach
from plump_teach import (BismarckGame, BismarckState, Bid, ChooseMode, Discard, PlayCard, PlumpError, PlumpGame,
                         PlumpState, PlumpTeachError, make_bot)


def test_the_front_door_gives_each_name_from_its_own_module():
    for name in plump_teach.__all__:
        module = importlib.import_module(f"plump_teach.{plump_teach._FRONT_DOOR[name]}")
        assert getattr(plump_teach, name) is getattr(module, name), name
    assert set(plump_teach.__all__) <= set(dir(plump_teach))
    with pytest.raises(AttributeError):
        plump_teach.no_such_name


def test_importing_the_package_loads_nothing_until_a_name_is_used():
    code = ("import sys, plump_teach; before = sorted(m for m in sys.modules if m.startswith('plump_teach.'))\n"
            "from plump_teach import PlumpGame\n"
            "after = sorted(m for m in sys.modules if m.startswith('plump_teach.'))\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'IPython', 'traitlets'))\n"
            "import json; print(json.dumps([before, after, heavy]))")
    before, after, heavy = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                     check=True).stdout)
    assert before == [] and "plump_teach.engine.plump" in after and heavy == []
    assert not any(m.startswith(("plump_teach.bots", "plump_teach.puzzles", "plump_teach.ui")) for m in after)


def test_rule_names_have_one_import_path():
    "plump_rules is not re-exported by plump (`import *` is gone): a rule function is imported where it is written."
    import plump_teach.engine.plump as plump
    for name in ("legal_bids", "score", "PlumpRules", "deal_schedule", "RULE_PRESETS"):
        assert name not in getattr(plump, "__all__", ())
    assert not hasattr(plump, "RULE_PRESETS")


@pytest.mark.parametrize("seed", [1, 2])
def test_bots_play_a_whole_plump_game_through_apply(seed):
    game, bot = PlumpGame(["Anna", "Bo", "Cissi"], seed=seed, first_deal=7), make_bot("nybörjare", seed=seed)
    while game.phase != "over":
        state = PlumpState.from_game(game)
        game.apply(bot.decide(state.view(state.to_act)).action)
    assert len(game.deals) == len(game.schedule) - 7
    assert PlumpGame.from_dict(game.to_dict()) == game


def test_bots_play_a_short_bismarck_game_through_apply_one_discard_at_a_time():
    game, bot = BismarckGame(["Anna", "Björn", "Cecilia"], seed=3, short=True), make_bot("nybörjare", seed=3)
    steps = 0
    while game.phase != "over":
        state = BismarckState.from_game(game)          # with the cards forehand has picked so far (issue 40)
        game.apply(bot.decide(state.view(state.to_act)).action)
        steps += 1
    assert len(game.deals) == 3 and steps == 3 * (4 + 1 + 48)
    assert BismarckGame.from_dict(game.to_dict()) == game


def test_apply_refuses_what_is_not_a_move_of_the_game_and_changes_nothing():
    g = PlumpGame(["Anna", "Bo", "Cissi"], seed=5)
    before = g.to_dict()
    for wrong in (Discard(g.deal.hand(0)[0]), ChooseMode("sang"), "♥E", None, Bid(99), Bid(0.5)):
        with pytest.raises(PlumpTeachError):
            g.apply(wrong)
    assert g.to_dict() == before
    b = BismarckGame(["Anna", "Björn", "Cecilia"], seed=5)
    for wrong in (Bid(1), PlayCard(b.deal.hand(1)[0]), ChooseMode("sang"), Discard(b.deal.hand(2)[0])):
        with pytest.raises(PlumpTeachError):
            b.apply(wrong)
    assert b.pending_discards == [] and b.events == []


def test_a_fresh_deal_in_one_call():
    s = PlumpState.new(players=5, cards=10, seed="klass 6b")
    assert (s.n, s.cards, s.phase) == (5, 10, "bidding")
    assert PlumpState.new(players=5, cards=10, seed="klass 6b").hand(3) == s.hand(3)
    assert {len(s.hand(i)) for i in range(5)} == {10}
    with pytest.raises(PlumpError, match="1–10 kort"):
        PlumpState.new(players=5, cards=11)
    b = BismarckState.new(seed=9)
    assert b.phase == "discard" and len(b.legal_actions()) == 20


def test_the_readme_library_examples_run_as_written(tmp_path, monkeypatch):
    "The Python blocks under 'Som bibliotek' in README.md, run as a developer would paste them."
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    part = text[text.index("### Som bibliotek"):text.index("## För utvecklare")]
    blocks = re.findall(r"```python\n(.*?)```", part, re.S)
    assert len(blocks) >= 1 and any("apply" in b for b in blocks)
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_load_reads_every_kind_of_saved_file_the_course_writes(tmp_path):
    "`load` knows a Plump game, a Bismarck game, a score sheet and the table's file (which holds a game)."
    from plump_teach import ScoreKeeper, load
    from plump_teach.table.files import table_dict
    plump, bismarck = PlumpGame(["Anna", "Bo"], seed=1), BismarckGame(["Anna", "Björn", "Cecilia"], seed=2)
    plump.apply(Bid(1))
    keeper = ScoreKeeper(["Anna", "Bo", "Cissi"]).bid("Bo", 2)
    for saved, expected in ((plump.to_json(), plump), (bismarck.to_dict(), bismarck),
                            (json.dumps(table_dict(bismarck, humans=(1,))), bismarck)):
        assert load(saved) == expected
    (tmp_path / "protokoll.json").write_text(keeper.to_json(), encoding="utf-8")
    assert load(tmp_path / "protokoll.json").to_dict() == keeper.to_dict()
    with pytest.raises(PlumpTeachError, match="ingen sparfil från plump_teach"):
        load('{"format": "plump_teach.Okänd", "version": 1}')


def test_file_errors_are_told_apart_from_rule_errors(tmp_path):
    "One base for the project's errors; under it the rules' errors and a separate file error."
    from plump_teach import BismarckError, FileChanged, FileError, ScoreKeeper, load, load_protocol
    assert issubclass(FileError, PlumpTeachError) and not issubclass(FileError, PlumpError)
    assert issubclass(FileChanged, FileError) and issubclass(BismarckError, PlumpTeachError)
    for attempt in (lambda: load_protocol(tmp_path / "saknas.json"), lambda: load(tmp_path / "saknas.json"),
                    lambda: load_protocol(tmp_path), lambda: ScoreKeeper(["Anna", "Bo"]).save("a\x00b")):
        with pytest.raises(FileError) as e:
            attempt()
        assert not isinstance(e.value, PlumpError)
    (tmp_path / "fel.json").write_text('{"format": "plump_teach.ScoreKeeper", "version": 1}', encoding="utf-8")
    with pytest.raises(PlumpError):                    # a damaged file read from disk: the contents, not the file
        load_protocol(tmp_path / "fel.json")


def test_the_state_api_is_documented():
    "Every public property and method of the states has a docstring (help() and an editor show them)."
    import inspect
    missing = []
    for cls in (PlumpState, BismarckState):
        for name in dir(cls):
            if name.startswith("_"): continue
            v = inspect.getattr_static(cls, name)
            f = v.fget if isinstance(v, property) else getattr(v, "__func__", v)
            doc = v.__doc__ if isinstance(v, property) else getattr(f, "__doc__", None)
            if callable(f) and not (doc or "").strip(): missing.append(f"{cls.__name__}.{name}")
    assert not missing, missing


def test_both_games_number_their_deals_the_same_way():
    "first_deal, n_deals and shown_number mean the same in both games, so a table or an app needs no branch for them."
    p = PlumpGame(["Anna", "Bo", "Cissi"], seed=1, first_deal=4)
    b = BismarckGame(["Anna", "Björn", "Cecilia"], seed=1, short=True)
    assert (p.first_deal, p.n_deals, p.shown_number(p.deal_index)) == (4, len(p.schedule), 1)
    assert (b.first_deal, b.n_deals, b.shown_number(b.deal_index)) == (0, 3, 1)
    from plump_teach.table.files import game_where
    assert game_where(p) == f"giv 1 av {len(p.schedule) - 4}" and game_where(b) == "giv 1 av 3"
