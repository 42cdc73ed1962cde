"""Typerna i regelmotorn (issue 28): `mypy` är ren på `plump_teach.engine`, och en användares typkontroll och
redigerare ser varje metod med sina typer.

The engine's classes keep their methods in the class body (no `@patch`, which type checkers and editors cannot
follow), and `pyproject.toml` holds the mypy settings (`check_untyped_defs`, layers above followed silently).
"""
import ast
import inspect
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import plump_teach

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "plump_teach" / "engine"


def _mypy(*args, cwd=ROOT, env=None):
    cmd = [sys.executable, "-m", "mypy", "--cache-dir", os.devnull, "--no-error-summary", *args]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_engine_passes_mypy():
    "The whole engine package, with the settings in pyproject.toml (bodies of untyped functions checked too)."
    r = _mypy("-p", "plump_teach.engine")
    assert r.returncode == 0, "mypy hittar fel i regelmotorn:\n" + r.stdout + r.stderr


def test_the_bots_and_puzzles_pass_mypy():
    """Issue 40: the layers a user builds on (bots, puzzles) pass mypy too, with the same settings
    (`check_untyped_defs`; the engine below is checked as well, the course and classroom above are not imported).
    A `SeatView` serves both games: the bots read Plump's bids and rules and a move's card through
    `plump_bids`, `plump_rules`, `legal_cards`, `card_of` (bots.decision), which say so to the type checker."""
    r = _mypy("-p", "plump_teach.engine", "-p", "plump_teach.bots", "-p", "plump_teach.puzzles")
    assert r.returncode == 0, "mypy hittar fel i motorn, datorspelarna eller pusslen:\n" + r.stdout + r.stderr


def test_the_pure_layers_follow_the_mypy_settings():
    "pyproject.toml checks the bodies of untyped functions and follows the layers it does not name silently."
    import tomllib
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert conf["check_untyped_defs"] is True and conf["follow_imports"] == "silent"


def test_a_users_type_checker_sees_the_methods_and_their_types(tmp_path):
    """A bot written against the front door, checked as its author's editor would: the methods exist with their
    types (a misspelt method and a wrong type are caught, the right calls pass)."""
    (tmp_path / "bot.py").write_text(textwrap.dedent('''
        from plump_teach import PlumpGame, PlumpState, BismarckGame, ScoreKeeper, Bid, Cards
        g = PlumpGame(["Anna", "Bo", "Cissi"], seed=1)
        g.bid("Bo", 1)
        bids: list[int] = g.legal_bids()
        cards: Cards = g.legal_cards()
        who: int | None = g.to_act
        s = PlumpState.new(3, 5, seed=1).apply(Bid(1)).clone()
        reveal_type(s)
        reveal_type(s.view(0).hand)
        b = BismarckGame(["Anna", "Bo", "Cissi"], seed=1)
        reveal_type(b.legal_cards())
        k = ScoreKeeper(["Anna", "Bo"], "Anna")
        reveal_type(k.bid("Bo", 1))
        g.bidd("Bo", 2)
        wrong: str = g.legal_cards()
    '''), encoding="utf-8")
    env = {**os.environ, "MYPYPATH": str(ROOT)}   # en redigerbar installation hittas inte av mypy; det här gör det
    r = _mypy("--config-file", os.devnull, "--follow-imports", "silent", "bot.py", cwd=tmp_path, env=env)
    out = [line for line in r.stdout.splitlines() if line.startswith("bot.py")]
    text = "\n".join(out)
    assert 'Revealed type is "plump_teach.engine.state.PlumpState"' in text, text
    assert 'Revealed type is "plump_teach.engine.cards.Cards"' in text, text
    assert 'Revealed type is "plump_teach.engine.scoresheet.ScoreKeeper"' in text, text
    errors = [line for line in out if ": error:" in line]
    assert len(errors) == 2, text
    assert '"PlumpGame" has no attribute "bidd"' in errors[0], text
    assert 'variable has type "str"' in errors[1], text


def test_the_engine_writes_its_methods_in_the_class_body():
    "No `@patch` in the engine: an editor and mypy see only what stands in the class body."
    found = []
    for p in sorted(ENGINE.glob("*.py")):
        if p.name == "methods.py": continue          # där `patch` skrivs, för lagren ovanför
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                for d in node.decorator_list:
                    f = d.func if isinstance(d, ast.Call) else d
                    if isinstance(f, ast.Name) and f.id == "patch": found.append(f"{p.name}: {node.name}")
    assert not found, "Metoder med @patch i regelmotorn (skriv dem i klassen):\n" + "\n".join(found)


ENGINE_CLASSES = ["Card", "Cards", "PlumpRules", "PlumpDeal", "PlumpGame", "BismarckDeal", "BismarckGame",
                  "PlumpState", "BismarckState", "SeatView", "ScoreKeeper"]


def _unannotated(cls):
    "Public methods and properties of `cls` and its bases in plump_teach whose parameters or return value lack a type."
    out, seen = [], set()
    for k in cls.__mro__:
        if not k.__module__.startswith(("plump_teach", __name__)): continue
        for name, v in vars(k).items():
            if name in seen: continue
            seen.add(name)
            out += _unannotated_one(k, name, v)
    return out


def _unannotated_one(cls, name, v):
    out = []
    if True:
        if name.startswith("_") and name not in ("__init__",): return out
        if isinstance(v, property): f = v.fget
        elif isinstance(v, (classmethod, staticmethod)): f = v.__func__
        elif inspect.isfunction(v): f = v
        else: return out
        if f is None or not inspect.isfunction(f): return out
        sig = inspect.signature(f)
        params = list(sig.parameters.values())
        if params and params[0].name in ("self", "cls"): params = params[1:]
        missing = [p.name for p in params if p.annotation is inspect.Parameter.empty
                   and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        if name != "__init__" and sig.return_annotation is inspect.Signature.empty: missing.append("return")
        if missing: out.append(f"{cls.__name__}.{name}: {', '.join(missing)}")
    return out


@pytest.mark.parametrize("name", ENGINE_CLASSES)
def test_the_public_methods_of_the_engine_have_types(name):
    "What a bot writer calls shows its types in the editor: every parameter and return value is annotated."
    missing = _unannotated(getattr(plump_teach, name))
    assert not missing, "Utan typ:\n" + "\n".join(missing)


def test_the_type_check_of_the_methods_can_fail():
    class Untyped:
        def fine(self, x: int) -> int: return x
        def bare(self, x): return x
        @property
        def prop(self): return 1
    assert _unannotated(Untyped) == ["Untyped.bare: x, return", "Untyped.prop: return"]


def test_editors_see_every_name_of_the_front_door():
    """The front door loads its names lazily (PEP 562), which editors cannot run; the `if TYPE_CHECKING:` imports
    must name the same names from the same modules."""
    tree = ast.parse((ROOT / "plump_teach" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", None) == "TYPE_CHECKING")
    seen = {a.name: node.module for node in block.body if isinstance(node, ast.ImportFrom) for a in node.names}
    assert seen == {name: mod for name, mod in plump_teach._FRONT_DOOR.items()}


USER_SCRIPTS = ROOT / "tests" / "typing"


def test_a_users_bot_scripts_pass_mypy_strict_with_the_real_types(tmp_path):
    """Issue 40: a reuser's scripts (a greedy bot, a Monte Carlo bidder, a Plump and a Bismarck loop, a file reader;
    tests/typing/user_bot.py) pass `mypy --strict` with no error from the library. Before, the front door's
    `__all__` was computed (`sorted(...)`), which a type checker cannot read: every name was "not explicitly
    exported"; `Decision.action` was `object` and `legal_actions()` a bare `list`, so every bot loop needed a cast."""
    script = tmp_path / "user_bot.py"
    script.write_text((USER_SCRIPTS / "user_bot.py").read_text(encoding="utf-8")
                      + "\nreveal_type(make_bot('van').decide(PlumpState.new(3, 5, seed=1).view(0)).action)"
                      + "\nreveal_type(PlumpState.new(3, 5, seed=1).legal_actions())"
                      + "\nreveal_type(PlumpGame(['A', 'B', 'C']).view(0).sample())"
                      + "\nreveal_type(PlumpGame(['A', 'B', 'C']).clone())"
                      + "\nreveal_type(PlumpGame(['A', 'B', 'C']).view(0).hand[0])"
                      + "\nreveal_type(BismarckGame(['A', 'B', 'C']).returns())"
                      + "\nreveal_type(PlumpGame(['A', 'B', 'C']).view(0).bids)"
                      + "\nreveal_type(BismarckGame(['A', 'B', 'C']).view(0).mode)"
                      + "\nreveal_type(kind_of(PlumpGame(['A', 'B', 'C'])).title)"
                      + "\nfrom plump_teach import kind_of"
                      + "\nBismarckGame(['A', 'B', 'C']).view(0).bids   # Bismarck has no bids: a type error\n", encoding="utf-8")
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    r = _mypy("--strict", "--config-file", os.devnull, "--follow-imports", "silent", "user_bot.py", cwd=tmp_path, env=env)
    lines = [line for line in r.stdout.splitlines() if line.startswith("user_bot.py")]
    errors = [line for line in lines if ": error:" in line]
    no_bids = [e for e in errors if '"BismarckView" has no attribute "bids"' in e]    # each game's view has its own fields
    assert len(no_bids) == 1 and [e for e in errors if e not in no_bids] == [], "\n".join(errors)
    action = " | ".join(f"plump_teach.engine.actions.{k}" for k in ("Bid", "PlayCard", "Discard", "ChooseMode"))
    text = "\n".join(lines)
    assert f'Revealed type is "{action}"' in text, text
    assert f'Revealed type is "list[{action}]"' in text, text
    assert 'Revealed type is "plump_teach.engine.state.PlumpState"' in text, text      # a sample of a game's view
    assert 'Revealed type is "plump_teach.engine.plump_game.PlumpGame"' in text, text  # clone keeps the game's type
    assert 'Revealed type is "plump_teach.engine.cards.Card"' in text, text            # Cards is a list of Card
    assert 'Revealed type is "list[int]"' in text, text                               # returns, mid-game too
    assert 'Revealed type is "list[int | None]"' in text, text                        # a Plump view's bids
    assert 'Revealed type is "str | None"' in text, text                     # a Bismarck view's mode
    assert 'Revealed type is "str"' in text, text                            # a game kind's title


def test_the_users_bot_scripts_run():
    r = subprocess.run([sys.executable, str(USER_SCRIPTS / "user_bot.py")], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr[-2000:]


def test_the_front_door_lists_its_names_literally():
    "`__all__` is written out (a type checker reads only a literal list) and holds exactly the front door's names."
    tree = ast.parse((ROOT / "plump_teach" / "__init__.py").read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) == "__all__")
    assert isinstance(node.value, ast.List) and all(isinstance(e, ast.Constant) for e in node.value.elts)
    assert sorted(e.value for e in node.value.elts) == sorted(plump_teach._FRONT_DOOR)
