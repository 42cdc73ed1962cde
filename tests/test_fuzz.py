"""Fuzz test over every loader and public entry point (issue 10).

Any input ends in a correct result or in one of the project's own errors (`PlumpError`, `BismarckError`,
`CardError`: `ValueError` subclasses defined in `plump_teach`) with a Swedish message that shows no Python
text, no internal codes and no raw data dumps. A failed call changes nothing: the game's save (`to_dict`),
the input it was given and the bytes of the files it touched are the same before and after.

The values are arbitrary JSON (`st.recursive`), mutations of a valid save (a field or an event value
replaced by arbitrary JSON, deleted, truncated, bools for ints, huge ints, deep nesting) and values
that are not JSON at all (bytes, objects, sets, NaN, lone surrogates, phone emoji).
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import json
import math
import os
import random
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from examples import prop_settings

from plump_teach.engine.bismarck import BismarckError
from plump_teach.engine.bismarck_game import BismarckGame
from plump_teach.engine.cards import CardError, parse_card, parse_cards
from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpError, PlumpRules
from plump_teach.engine.scoresheet import ScoreKeeper, load_protocol
from plump_teach.puzzles.registry import PUZZLE_KINDS, make_puzzle

PLUMP_NAMES = ["Anna", "Bo", "Cissi"]
BISMARCK_NAMES = ["Anna", "Björn", "Cecilia"]

# Each target runs N examples; the whole file stays well under a minute on the 2-core machine.
N = 120


def fuzz_settings(n: int = N):
    return prop_settings(n, HealthCheck.filter_too_much)


# --------------------------------------------------------------------------- what a refusal must look like

PYTHON_TEXT = ("Traceback", "Errno", "line 1 column", "Expecting value", "Expecting", "codec", "positional argument",
               "object has no attribute", "NoneType", "<class", "<object", "Exceeds the limit", "unhashable",
               "not subscriptable", "not iterable", "unsupported operand", "invalid literal", "not supported between",
               "takes from", "got an unexpected keyword", "maximum recursion", "embedded null", "Händelse ")
INTERNAL_CODE = re.compile(r"\((?:[a-z]+_)+[a-z]+\)")           # (follow_suit), (not_in_hand), (must_trump)
SWEDISH = re.compile(r"[åäöÅÄÖ]|\b(inte|ska|finns|och|som|för|ett|en|är|går|har)\b", re.IGNORECASE)


def own_error(e: BaseException) -> bool:
    "One of the project's errors: a ValueError subclass defined in plump_teach."
    return isinstance(e, ValueError) and type(e).__module__.startswith("plump_teach")


def shown(x, limit: int = 300) -> str:
    "A repr of a fuzz input that never fails (huge ints, deep nesting) and stays short."
    try:
        text = repr(x)
    except Exception:
        text = f"<{type(x).__name__} som inte går att skriva ut>"
    return text if len(text) <= limit else text[:limit] + "…"


def check_message(msg: str, where: str):
    assert msg.strip(), f"{where}: empty message"
    for bad in PYTHON_TEXT:
        assert bad not in msg, f"{where}: Python text {bad!r} in {msg!r}"
    assert not INTERNAL_CODE.search(msg), f"{where}: internal code in {msg!r}"
    assert SWEDISH.search(msg), f"{where}: not Swedish: {msg!r}"
    assert len(msg) <= 700, f"{where}: message of {len(msg)} characters (raw data?): {msg[:200]!r}…"


def attempt(fn, *args, name: str | None = None):
    "Call `fn(*args)`: its result, or None after checking that a refusal is one of ours and reads as Swedish."
    where = f"{name or getattr(fn, '__qualname__', fn)}({', '.join(shown(a, 120) for a in args)})"
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 - the point is to see what escapes
        if not own_error(e):
            raise AssertionError(f"{where} raised {type(e).__name__}: {shown(str(e), 200)}") from e
        check_message(str(e), where)
        return None


def fingerprint(x, depth: int = 0):
    "A comparable picture of a value (NaN equal to itself, huge ints without printing them)."
    if depth > 700: return ("deep",)
    if isinstance(x, float): return ("float", "nan" if math.isnan(x) else x)
    if isinstance(x, bool) or x is None or isinstance(x, str): return x
    if isinstance(x, int): return ("int", x % (2 ** 61 - 1), x.bit_length(), x < 0)
    if isinstance(x, (list, tuple)): return (type(x).__name__, tuple(fingerprint(v, depth + 1) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((fingerprint(k, depth + 1), fingerprint(v, depth + 1)) for k, v in x.items()))
    if isinstance(x, (bytes, bytearray)): return bytes(x)
    return ("obj", id(x))


# --------------------------------------------------------------------------- values

def nested(depth: int, leaf=1, kind=list):
    v = leaf
    for _ in range(depth):
        v = [v] if kind is list else {"a": v}
    return v


HUGE = 10 ** 5000
ODD_VALUES = [HUGE, -HUGE, 2 ** 64, -1, 0, 1, True, False, 1.0, -0.0, float("nan"), float("inf"), 1e308,
              "", " ", "\u200b", "\ud800", "\x00", "a\x00b", "♥\ufe0fE", "♡K", "Åsa", "A\u030asa", "<script>",
              "x" * 5000, "♥" * 3000, b"\xff\xfe", b"h10", bytearray(b"[]"), object(), {1, 2}, frozenset(),
              (), [], {}, nested(200), nested(200, kind=dict), nested(30), [[[["♥E"]]]], {"♥E": 1},
              ["Anna", "Bo"], {"Anna": 1}, range(3), iter([1, 2])]

json_leaves = (st.none() | st.booleans() | st.integers() | st.integers(-3, 20)
               | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
               | st.sampled_from(["♥E", "♠10", "hKn", "♥\ufe0fD", "Anna", "Bo", "Cissi", "Björn", "Cecilia",
                                  "sang", "trumf", "spader", "pass", "♥", "hjärter", "bid", "play"]))
json_values = st.recursive(json_leaves,
                           lambda children: st.lists(children, max_size=4)
                           | st.dictionaries(st.text(max_size=6), children, max_size=4),
                           max_leaves=12)
def _odd(i):
    v = ODD_VALUES[i]
    if type(v) is object or hasattr(v, "__next__"): return v
    try:
        return copy.deepcopy(v)
    except Exception:
        return v


# ODD_VALUES are drawn by index, each a fresh copy, so a call that changes one cannot change it for later calls
odd_values = st.integers(0, len(ODD_VALUES) - 1).map(_odd)
any_value = json_values | odd_values


def arg(*typical):
    "An argument: usually a value that makes sense here, often arbitrary JSON, sometimes something odd."
    return st.one_of(st.sampled_from(list(typical)), json_values, odd_values) if typical else any_value


# --------------------------------------------------------------------------- mutating a valid save

def paths(x, here=()):
    "Every place in a JSON value: the path to it (keys and indices)."
    yield here
    if isinstance(x, dict):
        for k, v in x.items(): yield from paths(v, here + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x): yield from paths(v, here + (i,))


def mutate(data, d):
    "A copy of the save `d` with one to three places changed the way a careless editor or a broken disk would."
    d = copy.deepcopy(d)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        places = [p for p in paths(d) if p]
        if not places: break
        path = data.draw(st.sampled_from(places), label="where")
        parent = d
        for k in path[:-1]: parent = parent[k]
        key = path[-1]
        how = data.draw(st.sampled_from(["replace", "replace", "delete", "bool", "huge", "deep", "truncate",
                                         "duplicate"]), label="how")
        old = parent[key]
        if how == "replace": parent[key] = data.draw(any_value, label="new value")
        elif how == "bool": parent[key] = data.draw(st.sampled_from([True, False, 1.0, "1", None]))
        elif how == "huge": parent[key] = data.draw(st.sampled_from([HUGE, -HUGE, 2 ** 64, -(2 ** 63)]))
        elif how == "deep": parent[key] = nested(data.draw(st.integers(10, 300)), old)
        elif how == "truncate" and isinstance(old, (list, str)) and old:
            parent[key] = old[:data.draw(st.integers(0, len(old) - 1))]
        elif how == "duplicate" and isinstance(parent, list): parent.insert(key, copy.deepcopy(old))
        elif isinstance(parent, dict): del parent[key]
        else: del parent[key]
    return d


def text_mutations(data, text: str) -> str:
    "The save as text, cut off, with characters changed, or with a number or a bracket run made absurd."
    how = data.draw(st.sampled_from(["cut", "splice", "digits", "brackets", "true", "bytes"]), label="text how")
    i = data.draw(st.integers(0, len(text)), label="at")
    if how == "cut": return text[:i]
    if how == "splice":
        return text[:i] + data.draw(st.text(alphabet='{}[]",:0123456789truefalsn \\u♥\ufe0f\ud800', max_size=8)) + text[i + 1:]
    if how == "digits": return re.sub(r"\d+", "9" * 5000, text, count=1)
    if how == "brackets": return text[:i] + "[" * 50_000 + text[i:]
    if how == "true": return text.replace('"version": 1', '"version": true')
    return text.encode("utf-8")[:i] + b"\xff" + text.encode("utf-8")[i:]


# --------------------------------------------------------------------------- live games

def plump_game(seed: int, steps: int) -> PlumpGame:
    "A game of Plump some legal actions in (bids and cards chosen from the engine's legal lists)."
    g = PlumpGame(PLUMP_NAMES, seed=seed, first_deal=seed % 10)
    r = random.Random(seed)
    for _ in range(steps):
        if g.phase == "bidding": g.bid(g.to_act, r.choice(g.legal_bids()))
        elif g.phase == "playing": g.play(g.to_act, r.choice(g.legal_cards()))
    return g


def bismarck_game(seed: int, steps: int, short: bool = False) -> BismarckGame:
    g = BismarckGame(BISMARCK_NAMES, seed=seed, short=short)
    r = random.Random(seed)
    for _ in range(steps):
        d = g.deal
        if d is None: break
        if d.phase == "discard": g.discard(d.forehand, r.sample(d.hand(d.forehand), 4))
        elif d.phase == "mode":
            m = r.choice(d.modes)
            g.choose_mode(d.forehand, m, r.choice("♠♥♦♣") if m == "trumf" else None)
        else: g.play(d.to_act, r.choice(d.legal_cards()))
    return g


def keeper(seed: int, steps: int) -> ScoreKeeper:
    k = ScoreKeeper(PLUMP_NAMES, dealer=seed % 3, first_deal=seed % 10)
    r = random.Random(seed)
    for _ in range(steps):
        st_ = k.status()
        if st_["phase"] == "bid":
            k.bid(st_["to_bid"], r.choice([b for b, why in k.bid_options().items() if why is None]))
        elif st_["phase"] == "tricks":
            cut = sorted(r.randint(0, st_["cards"]) for _ in range(2))
            k.tricks([cut[0], cut[1] - cut[0], st_["cards"] - cut[1]])
    return k


@pytest.fixture(scope="module")
def saves():
    "Valid saves to mutate, at several points of their games."
    return {
        "plump": [plump_game(s, n).to_dict() for s, n in ((1, 0), (2, 5), (3, 12), (4, 30))],
        "bismarck": [bismarck_game(s, n, short).to_dict() for s, n, short in ((1, 0, False), (2, 7, False), (3, 60, True))],
        "keeper": [keeper(s, n).to_dict() for s, n in ((1, 0), (2, 4), (3, 9), (4, 25))],
    }


# --------------------------------------------------------------------------- loaders: arbitrary values

LOADERS = {
    "PlumpGame.from_dict": PlumpGame.from_dict, "PlumpGame.from_json": PlumpGame.from_json,
    "BismarckGame.from_dict": BismarckGame.from_dict, "BismarckGame.from_json": BismarckGame.from_json,
    "ScoreKeeper.from_dict": ScoreKeeper.from_dict, "ScoreKeeper.from_json": ScoreKeeper.from_json,
    "ScoreKeeper.from_csv": ScoreKeeper.from_csv, "PlumpRules.from_dict": PlumpRules.from_dict,
}


@pytest.mark.parametrize("name", list(LOADERS))
@fuzz_settings()
@given(value=any_value | st.text(max_size=40) | json_values.map(lambda v: json.dumps(v, ensure_ascii=False)))
def test_loaders_take_any_value(name, value):
    before = fingerprint(value)
    attempt(LOADERS[name], value, name=name)
    assert fingerprint(value) == before, f"{name} changed its input"


# --------------------------------------------------------------------------- loaders: mutated valid saves

GAME_LOADERS = {"plump": PlumpGame, "bismarck": BismarckGame, "keeper": ScoreKeeper}


@pytest.mark.parametrize("kind", list(GAME_LOADERS))
@fuzz_settings(150)
@given(data=st.data())
def test_mutated_saves(kind, saves, data):
    cls = GAME_LOADERS[kind]
    d = mutate(data, data.draw(st.sampled_from(saves[kind]), label="save"))
    before = fingerprint(d)
    loaded = attempt(cls.from_dict, d, name=f"{cls.__name__}.from_dict")
    assert fingerprint(d) == before, f"{cls.__name__}.from_dict changed its input"
    if loaded is not None:                                   # what loads is a game that saves and loads again
        assert cls.from_dict(loaded.to_dict()) == loaded
    try:
        text = json.dumps(d, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):          # a 5,000-digit int or an object cannot be written
        return
    attempt(cls.from_json, text, name=f"{cls.__name__}.from_json")


@pytest.mark.parametrize("kind", list(GAME_LOADERS))
@fuzz_settings(80)
@given(data=st.data())
def test_mutated_save_texts(kind, saves, data):
    cls = GAME_LOADERS[kind]
    d = data.draw(st.sampled_from(saves[kind]), label="save")
    text = text_mutations(data, json.dumps(d, ensure_ascii=False, indent=data.draw(st.sampled_from([None, 1]))))
    attempt(cls.from_json, text, name=f"{cls.__name__}.from_json")


# --------------------------------------------------------------------------- files: load and save

@contextlib.contextmanager
def working_directory(path):
    "Run in `path`, so that a fuzzed relative file name never touches the repository."
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


@fuzz_settings(80)
@given(content=st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode())
       | st.sampled_from([b"", b"\xef\xbb\xbf{}", b"[" * 50_000, b'{"version": 1e999}']),
       how=st.sampled_from(["file", "file", "dir", "missing", "odd path"]))
def test_load_protocol_files(content, how):
    with tempfile.TemporaryDirectory() as tmp, working_directory(tmp):
        path = Path(tmp) / "protokoll.json"
        if how == "file": path.write_bytes(content)
        elif how == "dir": path.mkdir()
        target = {"odd path": "a\x00b"}.get(how, path)
        before = sorted((p.name, p.read_bytes() if p.is_file() else None) for p in Path(tmp).iterdir())
        attempt(load_protocol, target, name="load_protocol")
        after = sorted((p.name, p.read_bytes() if p.is_file() else None) for p in Path(tmp).iterdir())
        assert after == before, "load_protocol changed the folder"


@pytest.mark.parametrize("arg_kind", ["path", "value"])
@fuzz_settings(60)
@given(value=any_value, seed=st.integers(0, 50), steps=st.integers(0, 12), existing=st.binary(max_size=40))
def test_save_refuses_without_touching_files(arg_kind, value, seed, steps, existing):
    k = keeper(seed, steps)
    with tempfile.TemporaryDirectory() as tmp, working_directory(tmp):   # a relative name lands in tmp
        other = Path(tmp) / "annans.json"
        other.write_bytes(existing)                          # a file this keeper never read: not to be overwritten
        folder = Path(tmp) / "mapp"
        folder.mkdir()
        target = value if arg_kind == "value" else [other, folder, Path(tmp) / "ny.json", str(other), "a\x00b"][seed % 5]
        state = k.to_dict()
        before = sorted((p.name, p.read_bytes() if p.is_file() else None) for p in Path(tmp).iterdir())
        saved = attempt(k.save, target, name="ScoreKeeper.save")
        assert k.to_dict() == state
        after = sorted((p.name, p.read_bytes() if p.is_file() else None) for p in Path(tmp).iterdir())
        if saved is None:
            assert after == before, f"a refused save changed the files: {shown(target)}"
        else:
            assert other.read_bytes() == existing or Path(saved) != other or existing == b"", \
                "save overwrote a file it had never read"


# --------------------------------------------------------------------------- constructors and functions

@fuzz_settings(150)
@given(players=arg(PLUMP_NAMES, ["Anna", "Bo"], ["A", "B", "C", "D", "E", "F", "G"], ["Anna", "anna"]),
       rules=arg(PlumpRules(), PlumpRules(sang=True)), seed=arg(1, 2 ** 40), first_deal=arg(0, 3, 9),
       dealer=arg(0, 2, "Bo"), hands=arg(None, ["♥E", "♠K", "♦2"]), trump=arg(None, "♣3"))
def test_plump_game_constructor(players, rules, seed, first_deal, dealer, hands, trump):
    g = attempt(PlumpGame, players, rules, seed, first_deal, dealer, hands, trump, name="PlumpGame")
    if g is not None: assert PlumpGame.from_json(g.to_json()) == g


@fuzz_settings(150)
@given(players=arg(BISMARCK_NAMES, ["Anna", "Björn"], ["Anna", "anna", "Bo"]), seed=arg(1, 2 ** 40),
       short=arg(False, True), variant=arg(False, True), dealer=arg(0, 2, "Björn"),
       hands=arg(None), upcards=arg(None, "♥E ♠K ♦2 ♣3"))
def test_bismarck_game_constructor(players, seed, short, variant, dealer, hands, upcards):
    g = attempt(BismarckGame, players, seed, short, variant, dealer, hands, upcards, name="BismarckGame")
    if g is not None: assert BismarckGame.from_json(g.to_json()) == g


@fuzz_settings(150)
@given(players=arg(PLUMP_NAMES, ["Anna", "Bo"], "Abc"), dealer=arg(0, 1, "Bo"),
       rules=arg(PlumpRules(), PlumpRules(must_trump=True)), first_deal=arg(0, 5))
def test_score_keeper_constructor(players, dealer, rules, first_deal):
    k = attempt(ScoreKeeper, players, dealer, rules, first_deal, name="ScoreKeeper")
    if k is not None: assert ScoreKeeper.from_json(k.to_json()) == k


@fuzz_settings(200)
@given(value=any_value | st.text(max_size=12) | st.text(alphabet="♠♥♦♣♡❤shrkEKDnAQJT1234567890 ,\ufe0f\ufe0e\u200b",
                                                          max_size=14))
def test_card_parsers(value):
    attempt(parse_card, value, name="parse_card")
    attempt(parse_cards, value, name="parse_cards")


@fuzz_settings(150)
@given(kind=arg(*PUZZLE_KINDS, "bismarck_score"), number=arg(None, 1, 17, 10 ** 9), level=arg(None, 1, 2, 3),
       answer=any_value)
def test_make_puzzle(kind, number, level, answer):
    p = attempt(make_puzzle, kind, number, level, name="make_puzzle")
    if p is not None: attempt(p.check, answer, name="Puzzle.check")


# --------------------------------------------------------------------------- methods on a live game

def actions(game_kind: str):
    "(method, arguments) pairs with arguments that are sometimes right and often not."
    if game_kind == "plump":
        player = arg(*PLUMP_NAMES, 0, 1, 2, 3, -1, "anna", "Zorro")
        card = arg("♥E", "♠2", "♦10", "♣Kn", "hK", "♥\ufe0fD")
        return st.one_of(
            st.tuples(st.just("bid"), st.tuples(player, arg(0, 1, 2, 3, 10, -1))),
            st.tuples(st.just("play"), st.tuples(player, card)),
            st.tuples(st.just("record_result"), st.tuples(arg([1, 1, 1], [3, 0, 0], {"Anna": 1}), arg((), ["Bo"]))),
            st.tuples(st.just("set_hands"), st.tuples(arg(["♥E", "♠K", "♦2"], None), arg(None, "♣3"))),
            st.tuples(st.just("seat"), st.tuples(player)),
            st.tuples(st.just("sheet"), st.tuples(arg(False, True))))
    if game_kind == "bismarck":
        player = arg(*BISMARCK_NAMES, 0, 1, 2, 3, "björn", "Erik")
        cards = arg("♥E ♠K ♦2 ♣3", "♠E", "hK")
        return st.one_of(
            st.tuples(st.just("discard"), st.tuples(player, cards)),
            st.tuples(st.just("choose_mode"), st.tuples(player, arg("sang", "pass", "spader", "trumf", "noll"),
                                                        arg(None, "♥", "hjärter"))),
            st.tuples(st.just("play"), st.tuples(player, cards)),
            st.tuples(st.just("play_cards"), st.tuples(cards)),
            st.tuples(st.just("set_hands"), st.tuples(arg(None, {"Anna": "♥E"}), arg(None, "♥E ♠K ♦2 ♣3"))),
            st.tuples(st.just("seat"), st.tuples(player)),
            st.tuples(st.just("used_modes"), st.tuples(player)))
    player = arg(*PLUMP_NAMES, 0, 1, 2, "bo")
    return st.one_of(
        st.tuples(st.just("bid"), st.tuples(player, arg(0, 1, 2, 3, 10))),
        st.tuples(st.just("tricks"), st.tuples(arg([1, 1, 1], [10, 0, 0], {"Anna": 1, "Bo": 0, "Cissi": 0}, None),
                                               arg((), ["Bo"], None))),
        st.tuples(st.just("undo"), st.tuples(arg(1, 2, 0, True, 1.5, "1"))),
        st.tuples(st.just("edit_deal"), st.tuples(arg(1, 2, "1", True), arg({"Anna": 0, "Bo": 1, "Cissi": 0}),
                                                  arg([1, 1, 1], [10, 0, 0]), arg((), ["Bo"]))),
        st.tuples(st.just("bid_options"), st.tuples()),
        st.tuples(st.just("status_text"), st.tuples()))


MAKERS = {"plump": lambda s, n: plump_game(s, n), "bismarck": lambda s, n: bismarck_game(s, n, s % 2 == 0),
          "keeper": lambda s, n: keeper(s, n)}


@pytest.mark.parametrize("game_kind", list(MAKERS))
@fuzz_settings(150)
@given(data=st.data(), seed=st.integers(0, 40), steps=st.integers(0, 40))
def test_methods_on_a_live_game(game_kind, data, seed, steps):
    g = MAKERS[game_kind](seed, steps)
    for _ in range(data.draw(st.integers(1, 5), label="calls")):
        method, args = data.draw(actions(game_kind), label="call")
        state = g.to_dict()
        args_before = fingerprint(args)
        result = attempt(getattr(g, method), *args, name=f"{type(g).__name__}.{method}")
        if result is None and method not in ("sheet", "status_text", "bid_options"):
            assert g.to_dict() == state, f"a refused {method}{shown(args)} changed the game"
        assert fingerprint(args) == args_before, f"{method} changed its arguments"
        # whatever happened, the game still saves and loads as itself
        assert type(g).from_json(g.to_json()) == g


# --------------------------------------------------------------------------- the smaller public functions

from plump_teach.engine import bismarck as bm, cards as cm, tricks as tm   # noqa: E402

FUNCTIONS = {
    # cards.py
    "Card": (cm.Card, 2), "card_svg": (cm.card_svg, 2), "cards_html": (cm.cards_html, 2), "card_id": (cm.card_id, 1),
    "card_from_id": (cm.card_from_id, 1), "shuffled_deck": (cm.shuffled_deck, 1),
    "deal_round_robin": (cm.deal_round_robin, 4), "sort_hand": (cm.sort_hand, 1),
    # tricks.py (the card-level API; the int-level helpers are the engine's inner loop)
    "suit_index": (tm.suit_index, 1), "legal_cards": (tm.legal_cards, 4), "trick_winner": (tm.trick_winner, 2),
    "is_revoke": (tm.is_revoke, 3),
    # bismarck.py
    "player_names": (bm.player_names, 1), "left_of": (bm.left_of, 1), "forehand_of": (bm.forehand_of, 1),
    "deal_ids": (bm.deal_ids, 2), "deal_cards": (bm.deal_cards, 2), "discard_error": (bm.discard_error, 3),
    "hand_after_discard": (bm.hand_after_discard, 2), "dealer_of_deal": (bm.dealer_of_deal, 2),
    "parse_suit": (bm.parse_suit, 1), "check_mode": (bm.check_mode, 1), "mode_trump": (bm.mode_trump, 2),
    "mode_label": (bm.mode_label, 2), "deal_count": (bm.deal_count, 1), "allowed_modes": (bm.allowed_modes, 3),
    "mode_budget_error": (bm.mode_budget_error, 5), "legal_plays": (bm.legal_plays, 2),
    "bismarck_trick_winner": (bm.bismarck_trick_winner, 3), "normal_tricks": (bm.normal_tricks, 2),
    "bismarck_score": (bm.bismarck_score, 4), "BismarckDeal": (bm.BismarckDeal, 6),
    "suit_lengths": (bm.suit_lengths, 1), "honour_points": (bm.honour_points, 1), "long_suit": (bm.long_suit, 1),
    "mode_hint": (bm.mode_hint, 1), "smart_discard": (bm.smart_discard, 3),
}
TYPICAL = arg("♥E ♠K ♦2 ♣3", "♥K ♥3 ♠E ♦2", "♥9", "sang", "trumf", "♥", "hjärter", 0, 1, 2, 16, [8, 4, 4],
              [9, 5, 2], ["Anna", "Björn", "Cecilia"], None, True, False, 54)


@pytest.mark.parametrize("name", list(FUNCTIONS))
@fuzz_settings(40)
@given(data=st.data())
def test_public_functions_take_any_arguments(name, data):
    call_with_drawn_arguments(FUNCTIONS, TYPICAL, name, data)


def call_with_drawn_arguments(functions: dict, typical, name: str, data):
    "Call functions[name] with drawn arguments (at least the required ones): ours or a result, arguments unchanged."
    fn, arity = functions[name]
    required = sum(p.default is inspect.Parameter.empty for p in inspect.signature(fn).parameters.values())
    args = [data.draw(typical, label=f"arg {i}") for i in range(data.draw(st.integers(required, arity), label="arity"))]
    before = fingerprint(args)
    attempt(fn, *args, name=name)
    assert fingerprint(args) == before, f"{name} changed its arguments"


# --------------------------------------------------------------------------- Plump's lower entry points (issue 27)

from plump_teach.bots import players as botm, coach as coachm
from plump_teach.engine import state as pm, plump as pl, plump_rules as pr   # noqa: E402
from plump_teach.engine.playout import playout   # noqa: E402

_SAMPLE_STATE = pm.PlumpState(pl.PlumpDeal(3, ["♠2 ♥K", "♦7 ♣3", "♥4 ♠9"], trump_card="♣5", dealer=2))
PLUMP_FUNCTIONS = {
    "legal_bids": (pr.legal_bids, 5), "bid_error": (pr.bid_error, 6), "bidding_order": (pr.bidding_order, 3),
    "first_leader": (pr.first_leader, 3), "describe_bids": (pr.describe_bids, 2), "bid_balance": (pr.bid_balance, 2),
    "trump_suit": (pr.trump_suit, 3), "PlumpDeal": (pl.PlumpDeal, 8), "make_bot": (botm.make_bot, 4),
    "hint": (coachm.hint, 3), "playout": (playout, 2),
}
PLUMP_TYPICAL = arg(0, 1, 2, 3, 4, 5, [], [1], [2, 1], [1, 2, 0], ["♠2 ♥K", "♦7 ♣3", "♥4 ♠9"], "♣5", "♥E",
                    PlumpRules(), PlumpRules(highest_bidder_leads=True), "van", "expert", None, True, False,
                    _SAMPLE_STATE, _SAMPLE_STATE.view(0), random.Random(1))


@pytest.mark.parametrize("name", list(PLUMP_FUNCTIONS))
@fuzz_settings(40)
@given(data=st.data())
def test_plump_lower_entry_points_take_any_arguments(name, data):
    call_with_drawn_arguments(PLUMP_FUNCTIONS, PLUMP_TYPICAL, name, data)


@pytest.mark.parametrize("call", [
    lambda: pr.legal_bids(1, 3, 4), lambda: pr.bid_error(1, 5, None, 4), lambda: pr.bidding_order('0', 4),
    lambda: pr.first_leader(0, None), lambda: pr.describe_bids('5', [1]), lambda: pr.trump_suit('xx'),
    lambda: pl.PlumpDeal(3, ["♠2", "♥K", "♦7"], trump_card="♣5", zero_last=None), lambda: coachm.hint(None),
    lambda: botm.make_bot([]), lambda: botm.make_bot(object()), lambda: playout(_SAMPLE_STATE.view(0)),
], ids=["legal_bids", "bid_error", "bidding_order", "first_leader", "describe_bids", "trump_suit", "zero_last",
        "hint", "make_bot_list", "make_bot_object", "playout_view"])
def test_the_careless_calls_of_issue_27_get_a_swedish_error(call):
    "Each call from issue 27 that let Python's own error out: now one of ours, in Swedish, without object addresses."
    with pytest.raises(ValueError) as e:
        call()
    assert own_error(e.value), type(e.value)
    check_message(str(e.value), "issue 27")
    assert "object at 0x" not in str(e.value)


def test_a_turned_card_may_be_given_as_text():
    assert pr.trump_suit('♥E') == '♥' and pr.trump_suit('♥E', PlumpRules(turned_ace_sang=True)) is None


def test_a_playout_policy_must_follow_the_rules():
    "A policy that plays a card not among the legal ones (not following suit) is refused, not silently played."
    state = pm.PlumpState(pl.PlumpDeal(3, ["♠2 ♥K", "♠7 ♣3", "♥4 ♠9"], trump_card="♣5", dealer=2))
    for b in (0, 0, 0): state.apply(pm.Bid(b))
    hand_ids = {s: [c.id for c in state.hand(s)] for s in range(3)}
    def cheat(seat, legal, ctx):   # a card of the hand that does not follow suit, whenever there is one
        bad = [x for x in hand_ids[seat] if x not in ctx.gone and x not in legal]
        return bad[0] if bad else legal[0]
    with pytest.raises(PlumpError, match="får bara lägga"):
        playout(state, random.Random(1), policy=cheat)
    def bad_bid(seat, options, ctx): return 99
    fresh = pm.PlumpState(pl.PlumpDeal(3, ["♠2 ♥K", "♠7 ♣3", "♥4 ♠9"], trump_card="♣5", dealer=2))
    with pytest.raises(PlumpError, match="får bara bjuda"):
        playout(fresh, random.Random(1), bid_policy=bad_bid)
