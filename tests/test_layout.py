"""Kodens form (issue 28): metoderna hör till sina klasser.

A method is written in the notebook cell that explains it and put into its class with `@patch`
(plump_teach.methods), never attached afterwards with a line like `PlumpGame.bid = _game_bid`. These checks
keep it so: no such line in the generated modules, every function stored in a class carries the class in its
name (`PlumpGame.bid`, which `help` and tracebacks show), and no method leaks into a module's `__all__` (where
`from plump_teach.plump import *` would pick it up).
"""
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import plump_teach

ROOT = Path(__file__).resolve().parents[1]
ATTACHED = re.compile(r"^[A-Z][A-Za-z]*\.[A-Za-z_]* = ", re.M)
MODULES = sorted(m.name for m in pkgutil.walk_packages(plump_teach.__path__, "plump_teach.")
                 if not m.name.endswith("._modidx"))


def test_no_method_is_attached_after_its_class():
    found = [f"{p.relative_to(ROOT)}:{i}: {line}" for p in sorted((ROOT / "plump_teach").rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if ATTACHED.match(line)]
    assert not found, ("Metoder som sätts på klassen i efterhand; skriv dem med @patch i stället:\n"
                       + "\n".join(found))


def _class_functions(mod):
    "(klass, namn, funktion) för varje funktion i modulens klasser: metoder, egenskaper och klassmetoder."
    for cls in vars(mod).values():
        if not (inspect.isclass(cls) and cls.__module__ == mod.__name__): continue
        for name, v in vars(cls).items():
            if isinstance(v, property): fs = (v.fget, v.fset, v.fdel)
            elif isinstance(v, (classmethod, staticmethod)): fs = (v.__func__,)
            else: fs = (v,)
            for f in fs:
                if inspect.isfunction(f): yield cls, name, f


@pytest.mark.parametrize("module", MODULES)
def test_methods_are_named_after_their_class(module):
    mod = importlib.import_module(module)
    wrong = [f"{cls.__name__}.{name}: {f.__qualname__}" for cls, name, f in _class_functions(mod)
             if f.__qualname__ != f"{cls.__qualname__}.{name}"
             and "<lambda>" not in f.__qualname__ and not f.__name__.startswith("_dataclass_")]
    assert not wrong, "Metoder med fel namn (__qualname__):\n" + "\n".join(wrong)


@pytest.mark.parametrize("module", MODULES)
def test_no_method_in_all(module):
    mod = importlib.import_module(module)
    leaked = [n for n in getattr(mod, "__all__", ()) if inspect.isfunction(getattr(mod, n, None))
              and "." in getattr(mod, n).__qualname__ and "<locals>" not in getattr(mod, n).__qualname__]
    assert not leaked, f"Metoder i {module}.__all__: {leaked}"


def test_patched_methods_keep_their_class_names():
    from plump_teach.bismarck import BismarckGame
    from plump_teach.cards import Card
    from plump_teach.plump import PlumpDeal, PlumpGame
    from plump_teach.protocol import ScoreKeeper
    assert PlumpGame.bid.__qualname__ == "PlumpGame.bid"
    assert PlumpDeal.play.__qualname__ == "PlumpDeal.play"
    assert BismarckGame.from_json.__qualname__ == "BismarckGame.from_json"
    assert PlumpDeal.taken.fget.__qualname__ == "PlumpDeal.taken"
    assert ScoreKeeper._repr_html_.__qualname__ == "ScoreKeeper._repr_html_"
    assert Card.from_id(Card("♥", 14).id) == Card("♥", 14)


def test_every_error_of_the_project_has_one_base():
    "One `except PlumpTeachError` catches every error the project raises for bad input (issue 28)."
    from plump_teach.cards import PlumpTeachError
    errors = {(name, cls) for m in MODULES for name, cls in vars(importlib.import_module(m)).items()
              if inspect.isclass(cls) and issubclass(cls, Exception) and cls.__module__.startswith("plump_teach")}
    assert len(errors) >= 4, errors
    assert all(issubclass(cls, PlumpTeachError) for _, cls in errors), \
        [name for name, cls in errors if not issubclass(cls, PlumpTeachError)]


def test_the_package_says_it_is_typed():
    "PEP 561: py.typed ships with the package, so type checkers read plump_teach's own types (issue 28)."
    import tomllib
    assert (ROOT / "plump_teach" / "py.typed").exists()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in data["tool"]["setuptools"]["package-data"]["plump_teach"]
