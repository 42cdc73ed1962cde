"""Bad input gets a clear Swedish error and changes nothing.

Every refusal is a `ValueError` subclass (`PlumpError` from the rules and the
game, `CardError` from the card parser) whose message says, in Swedish, what
was wrong.  Where there is state (a `PlumpGame`), the game is compared before
and after: its JSON save and the visible parts of the current deal.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from plump_teach.engine.cards import CardError, parse_card, parse_cards
from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpError, PlumpRules, deal_schedule, legal_bids

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Anna", "Bo", "Cissi"]


# --------------------------------------------------------------------------- helpers

def snapshot(g: PlumpGame):
    "Everything a player could see of the game, to compare before and after a refused action."
    d = g.deal
    deal = None if d is None else (d.cards, d.dealer, d.trump_card, d.hands, list(d.bids), list(d.taken),
                                   d.trick, d.history, d.phase, d.leader)
    return (g.to_json(), g.phase, g.to_act, g.deal_index, len(g.deals), g.totals, list(g.legal_bids()),
            list(g.legal_cards()), deal)


def assert_refused(g: PlumpGame, fn, *args, match: str, exc=PlumpError):
    "`fn(*args)` raises `exc` (a ValueError) with the Swedish fragment `match`, and `g` is unchanged."
    before = snapshot(g)
    with pytest.raises(exc, match=match) as info:
        fn(*args)
    assert isinstance(info.value, ValueError)
    assert snapshot(g) == before
    return info.value


def small_game(rules: PlumpRules = PlumpRules()) -> PlumpGame:
    """Three players, the 2-card deal of the schedule (index 8 of 10..1..10), Anna deals.

    Bo (förhand) holds ♥K ♣3, Cissi ♥2 ♦5 (♠5 ♦5 with trumftvång), Anna ♥E ♠2; spades are trump.
    """
    cissi = "♠5 ♦5" if rules.must_trump else "♥2 ♦5"
    g = PlumpGame(NAMES, rules, seed=1, first_deal=8, dealer="Anna",
                  hands=["♥E ♠2", "♥K ♣3", cissi], trump_card="♠K")
    assert g.deal.cards == 2 and g.players[g.to_act] == "Bo" and g.deal.trump == "♠"
    return g


def bid_all(g: PlumpGame):
    "Bo 1, Cissi 0, Anna 0 (Anna, the dealer, may not bid 1)."
    g.bid("Bo", 1).bid("Cissi", 0).bid("Anna", 0)
    assert g.phase == "playing" and g.players[g.to_act] == "Bo"
    return g


def finished_game() -> PlumpGame:
    "A game that starts at the last deal of the schedule and is over after it."
    g = PlumpGame(NAMES, seed=3, first_deal=len(deal_schedule(3)) - 1)
    while g.phase == "bidding":
        g.bid(g.to_act, g.legal_bids()[0])
    g.record_result([g.deal.cards, 0, 0])
    assert g.phase == "over" and g.to_act is None
    return g


# --------------------------------------------------------------------------- card text

@pytest.mark.parametrize("text, fragment", [
    ("♥", "Kan inte läsa kortet '♥': skriv färgen först"),
    ("h", "skriv färgen först och sedan valören"),
    ("x10", "färgen skrivs först"),
    ("10h", "färgen skrivs först"),
    ("h1", "valören '1' finns inte"),
    ("♠Z", "valören 'Z' finns inte"),
    ("hE ♥E", "står två gånger"),
    ("♥E, ♠Kn, ♥ess", "valören 'ess' finns inte"),
])
def test_malformed_card_text(text, fragment):
    with pytest.raises(CardError, match=fragment) as info:
        parse_cards(text)
    assert isinstance(info.value, ValueError)


def test_malformed_card_in_game_is_refused_and_changes_nothing():
    g = bid_all(small_game())
    assert_refused(g, g.play, "Bo", "♥Z", match="Kan inte läsa kortet '♥Z'")
    assert_refused(g, g.play, "Bo", "x", match="Kan inte läsa kortet")
    # set_hands with bad card text, before anyone has bid
    g2 = small_game()
    assert_refused(g2, g2.set_hands, ["♥E ♠2", "♥K ♣3", "♥2 ♦X"], "♠K", match="valören 'X' finns inte")
    assert_refused(g2, g2.set_hands, ["♥E ♠2", "♥E ♣3", "♥2 ♦5"], "♠K", match="Samma kort finns på två händer")


def test_single_card_parser_accepts_what_it_should():
    "The counterpart: the spellings the messages promise do parse."
    assert parse_cards("♥E h10 kKn sD rA kq") != []
    assert str(parse_card("kKn")) == "♣Kn"


# --------------------------------------------------------------------------- player count

@pytest.mark.parametrize("n", [1, 7])
def test_player_count_outside_2_to_6(n):
    names = [f"Spelare {i}" for i in range(n)]
    fragment = f"Plump spelas av 2.6 spelare \\(P2\\), inte {n}"
    for call in (lambda: PlumpGame(names, seed=1),
                 lambda: deal_schedule(n),
                 lambda: deal_schedule(names),
                 lambda: legal_bids(1, [], n),
                 lambda: legal_bids(1, [], names)):
        with pytest.raises(PlumpError, match=fragment) as info:
            call()
        assert isinstance(info.value, ValueError)


def test_single_name_as_string_is_one_player():
    with pytest.raises(PlumpError, match="Skriv spelarna som en lista med namn"):
        PlumpGame("Anna")


# --------------------------------------------------------------------------- bids

@pytest.mark.parametrize("bid, fragment", [
    (3, "Budet 3 finns inte: ett bud är ett heltal från 0 till 2"),
    (11, "Budet 11 finns inte"),
    (-1, "Budet -1 finns inte"),
    ("1", "Budet '1' finns inte"),
    (1.0, "heltal från 0 till 2 \\(P5\\), inte ett decimaltal"),
    (True, "heltal från 0 till 2 \\(P5\\), inte True"),
])
def test_bid_outside_the_hand(bid, fragment):
    g = small_game()
    assert_refused(g, g.bid, "Bo", bid, match=fragment)
    g.bid("Bo", 1)                                    # and the game goes on as before
    assert g.players[g.to_act] == "Cissi"


def test_dealers_forbidden_bid():
    g = small_game()
    g.bid("Bo", 1).bid("Cissi", 0)
    assert_refused(g, g.bid, "Anna", 1, match="Givaren får inte bjuda 1: då blir budsumman 1 \\+ 0 \\+ 1 = 2")


# --------------------------------------------------------------------------- cards

def test_card_not_in_hand():
    g = bid_all(small_game())
    assert_refused(g, g.play, "Bo", "♠E", match="♠E finns inte på Bos hand")
    assert_refused(g, g.play, "Bo", "♥E", match="♥E finns inte på Bos hand")    # Anna's card
    assert_refused(g, g.play, "Bo", "♠K", match="♠K finns inte på Bos hand")    # the turned trump card


def test_card_that_breaks_follow_suit():
    g = bid_all(small_game())
    g.play("Bo", "♥K")
    assert_refused(g, g.play, "Cissi", "♦5",
                   match="Cissi måste följa färg: hjärter spelades ut och Cissi har ♥2. Att lägga ♦5 vore renons")


def test_card_that_breaks_trumftvang():
    g = bid_all(small_game(PlumpRules(must_trump=True)))
    g.play("Bo", "♥K")
    assert_refused(g, g.play, "Cissi", "♦5", match="Trumftvång: Cissi saknar hjärter men har trumf")


# --------------------------------------------------------------------------- turn order and phase

def test_bid_out_of_turn():
    g = small_game()
    assert_refused(g, g.bid, "Anna", 0, match="Det är inte Annas tur, utan Bos")
    assert_refused(g, g.bid, 2, 0, match="Det är inte Cissis tur, utan Bos")
    assert_refused(g, g.bid, "Zorro", 0, match="Det finns ingen spelare 'Zorro'")
    assert_refused(g, g.play, "Bo", "♥K", match="Det går inte att spela ett kort nu: budgivningen pågår")


def test_play_out_of_turn():
    g = bid_all(small_game())
    assert_refused(g, g.play, "Cissi", "♥2", match="Det är inte Cissis tur, utan Bos")
    assert_refused(g, g.play, 0, "♥E", match="Det är inte Annas tur, utan Bos")
    assert_refused(g, g.bid, "Bo", 1, match="Det går inte att bjuda nu: sticken spelas")
    g.play("Bo", "♥K")
    assert_refused(g, g.play, "Bo", "♣3", match="Det är inte Bos tur, utan Cissis")
    assert_refused(g, g.record_result, [1, 1, 0], match="inget kort är spelat")


def test_wrong_result():
    g = bid_all(small_game())
    assert_refused(g, g.record_result, [1, 0, 0], match="Sticken summerar till 1, men given hade 2 stick")
    assert_refused(g, g.record_result, [2, 0], match="för var och en av de 3 spelarna")
    assert_refused(g, g.record_result, [3, -1, 0], match="som heltal från 0")
    assert_refused(g, g.record_result, [1, 1, 0], ["Zorro"], match="Det finns ingen spelare 'Zorro'")


def test_acting_after_the_game_is_over():
    g = finished_game()
    for fn, args in ((g.bid, ("Anna", 0)), (g.play, ("Anna", "♥E")), (g.record_result, ([1, 0, 0],)),
                     (g.bid, ("Bo", 1))):
        assert_refused(g, fn, *args, match="Partiet är slut; inga fler drag tas emot")
    assert g.legal_bids() == [] and list(g.legal_cards()) == []


# --------------------------------------------------------------------------- corrupted saves

def saved():
    "A game in the middle of a trick, its JSON text and the parsed dict."
    g = bid_all(small_game())
    g.play("Bo", "♥K")
    text = g.to_json()
    return g, text, json.loads(text)


def test_save_is_what_the_tests_below_tamper_with():
    g, text, d = saved()
    assert d["events"] == [["hands", ["♥E ♠2", "♥K ♣3", "♥2 ♦5"], "♠K"],
                           ["bid", 1, 1], ["bid", 2, 0], ["bid", 0, 0], ["play", 1, "♥K"]]
    assert PlumpGame.from_json(text) == g


def tamper(d, how):
    d = copy.deepcopy(d)
    how(d)
    return d


CORRUPT_DICTS = {
    "wrong format tag": (lambda d: d.update(format="schack.Parti"), "inte ett Plump-parti som plump_teach har sparat"),
    "missing format tag": (lambda d: d.pop("format"), "inte ett Plump-parti som plump_teach har sparat"),
    "future version": (lambda d: d.update(version=2), "Sparfilen har version 2; den här versionen av plump_teach läser version 1"),
    "illegal bid (dealer's forbidden bid)": (lambda d: d["events"].__setitem__(3, ["bid", 0, 1]),
                                             "^Sparfilen är skadad: i giv 9 står det att Anna bjuder 1, och det går inte\\. Givaren får inte bjuda 1: .*Filen har inte lästs in\\.$"),
    "bid above the hand": (lambda d: d["events"].__setitem__(1, ["bid", 1, 5]),
                           "^Sparfilen är skadad: i giv 9 står det att Bo bjuder 5, och det går inte\\. Budet 5 finns inte"),
    "bid out of turn": (lambda d: d["events"].__setitem__(1, ["bid", 2, 1]),
                        "^Sparfilen är skadad: i giv 9 står det att Cissi bjuder 1, och det går inte\\. Det är inte Cissis tur, utan Bos\\."),
    "card not in hand": (lambda d: d["events"].__setitem__(4, ["play", 1, "♠E"]),
                         "^Sparfilen är skadad: i giv 9 står det att Bo lägger ♠E, och det går inte\\. ♠E finns inte på Bos hand\\."),
    "renons": (lambda d: d["events"].append(["play", 2, "♦5"]), "^Sparfilen är skadad: i giv 9 står det att Cissi lägger ♦5, och det går inte\\. Cissi måste följa färg"),
    "unreadable card": (lambda d: d["events"].__setitem__(4, ["play", 1, "♥Z"]), "^Sparfilen är skadad: i giv 9 står det att Bo lägger ♥Z, och det går inte\\. Kan inte läsa kortet '♥Z'"),
    "unknown event": (lambda d: d["events"].append(["fuska", 1]), "^Sparfilen är skadad: i giv 9 finns en rad som inte är något drag i spelet\\. Filen har inte lästs in\\.$"),
    "event not a list": (lambda d: d["events"].append("bid"), "i giv 9 finns en rad som inte är något drag i spelet"),
    "empty event": (lambda d: d["events"].append([]), "i giv 9 finns en rad som inte är något drag i spelet"),
    "events not a list": (lambda d: d.update(events={"bid": 1}), "Sparfilen är skadad: dragen i partiet ska stå som en lista"),
    "unknown house rule": (lambda d: d.update(rules={"jokrar": True}), "Sparfilen är skadad: Okänd husregel: jokrar"),
    "house rule not a bool": (lambda d: d.update(rules={"sang": 1}), "Husregeln .*sang.* ska vara True eller False"),
    "rules not a dict": (lambda d: d.update(rules=["sang"]), "Husreglerna ska vara ett lexikon"),
    "seven players": (lambda d: d.update(players=list("ABCDEFG")), "Sparfilen är skadad: Plump spelas av 2.6 spelare"),
    "seed not an integer": (lambda d: d.update(seed="abc"), "Fröet ska vara ett heltal"),
    "trump card in a hand": (lambda d: d["events"][0].__setitem__(2, "♥E"), "Trumfkortet ♥E ligger i talongen"),
    "missing key": (lambda d: d.pop("seed"), "Sparfilen är skadad"),
}


@pytest.mark.parametrize("case", list(CORRUPT_DICTS))
def test_corrupted_save(case):
    how, fragment = CORRUPT_DICTS[case]
    g, text, d = saved()
    before = snapshot(g)
    bad = tamper(d, how)
    pristine = copy.deepcopy(bad)
    for load in (lambda: PlumpGame.from_dict(bad), lambda: PlumpGame.from_json(json.dumps(bad, ensure_ascii=False))):
        with pytest.raises(PlumpError, match=fragment) as info:
            load()
        assert isinstance(info.value, ValueError)
    assert bad == pristine                      # the input is not modified
    assert snapshot(g) == before                # nor is the game it was saved from
    assert PlumpGame.from_json(text) == g       # and the good save still loads


@pytest.mark.parametrize("text", [
    "cut",            # replaced below by the truncated save
    "",
    "{",
    "inte json",
])
def test_unreadable_save(text):
    g, good, _ = saved()
    before = snapshot(g)
    if text == "cut":
        text = good[: len(good) // 2]
    with pytest.raises(PlumpError, match="Sparfilen är ingen giltig JSON") as info:
        PlumpGame.from_json(text)
    assert isinstance(info.value, ValueError)
    assert snapshot(g) == before


@pytest.mark.parametrize("text", ["[]", "42", '"plump"', "null", '{"players": ["Anna", "Bo"]}'])
def test_json_that_is_not_a_save(text):
    with pytest.raises(PlumpError, match="Det här är inte ett Plump-parti som plump_teach har sparat"):
        PlumpGame.from_json(text)


# --------------------------------------------------------------------------- light engine imports

ENGINE_MODULES = ["plump_teach.engine.plump", "plump_teach.engine.cards", "plump_teach.engine.tricks", "plump_teach.engine.plump_rules",
                  "plump_teach.engine.sim"]


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_engine_import_pulls_in_no_notebook_stack(module):
    "The rules engine runs without the course runtime: no ipywidgets, IPython or fastcore in sys.modules."
    code = (
        "import importlib, json, sys\n"
        f"importlib.import_module({module!r})\n"
        "heavy = ('ipywidgets', 'IPython', 'fastcore')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("PYTHONSTARTUP", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=60, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


# --------------------------------------------------------------------------- issue 10: cards as phones type them

@pytest.mark.parametrize("text, expected", [
    ("♥\ufe0fE", "♥E"),                                 # ♥️E: heart + emoji variation selector
    ("♥\ufe0fE ♠\ufe0fK ♦\ufe0f10 ♣\ufe0fKn", "♥E ♠K ♦10 ♣Kn"),
    ("♥\ufe0eD", "♥D"),                                  # text variation selector
    ("❤\ufe0fE", "♥E"),                                  # the red heart emoji
    ("♡K ♢2 ♤3 ♧4", "♥K ♦2 ♠3 ♣4"),                      # outlined suit signs
    ("♥E\u200b♠K", "♥E ♠K"),                            # a zero-width space between two cards
    (" \u200b♥E\u00a0", "♥E"),
])
def test_cards_typed_on_a_phone(text, expected):
    assert parse_cards(text) == parse_cards(expected)


def test_phone_heart_in_a_game():
    g = bid_all(small_game())
    g.play("Bo", "♥\ufe0fK")
    assert g.deal.trick == parse_cards("♥K")


# --------------------------------------------------------------------------- issue 10: wrong types in cards.py

from plump_teach.engine import cards as cards_module   # noqa: E402
from plump_teach.engine.tricks import TrickPlay         # noqa: E402

HUGE = 10 ** 5000
DEEP = []
for _ in range(5000):
    DEEP = [DEEP]
WRONG = [None, 5, HUGE, 1.5, True, [], [[["♥E"]]], DEEP, {"♥E": 1}, {"♥E"}, b"\xff", object(), "♥" * 10_000, "\ud800"]


def _swedish_only(msg: str):
    for bad in ("Traceback", "object has no attribute", "NoneType", "<class", "<object", "unhashable",
                "Exceeds the limit", "codec", "positional argument", "not supported", "\\x"):
        assert bad not in msg, msg
    assert len(msg) < 400, msg


@pytest.mark.parametrize("fn, argsets", [
    (cards_module.parse_card, [(w,) for w in WRONG]),
    (cards_module.parse_cards, [(w,) for w in WRONG]),
    (cards_module.Card, [(w, 5) for w in WRONG] + [("♥", w) for w in WRONG]),
    (cards_module.card_svg, [(w,) for w in WRONG] + [(cards_module.Card("♥", 2), w) for w in WRONG]),
    (cards_module.cards_html, [(w,) for w in WRONG] + [("♥E", w) for w in WRONG]),
    (cards_module.card_id, [(w,) for w in WRONG]),
    (cards_module.card_from_id, [(w,) for w in WRONG] + [(29.0,), (0,), (-1,)]),
    (cards_module.shuffled_deck, [(w,) for w in WRONG if w is not None and type(w) is not int and not isinstance(w, str)]),
    (cards_module.deal_round_robin, [(w, 2, 2) for w in WRONG] + [(cards_module.FULL_DECK, w, 2) for w in WRONG]),
    (cards_module.sort_hand, [(w,) for w in WRONG if w not in ([],)]),
])
def test_card_functions_refuse_wrong_types_in_swedish(fn, argsets):
    for args in argsets:
        try:
            fn(*args)
        except CardError as e:
            _swedish_only(str(e))
        # anything else (TypeError, RecursionError, …) fails the test by escaping


def test_long_card_text_is_not_echoed_whole():
    with pytest.raises(CardError) as info:
        parse_card("♥" * 10_000)
    assert len(str(info.value)) < 200


# --------------------------------------------------------------------------- issue 10: TrickPlay says why

def test_trickplay_says_why_in_swedish_with_the_rule():
    ids = lambda text: [c.id for c in parse_cards(text)]
    tp = TrickPlay([ids("♥3 ♦9"), ids("♣K ♠2"), ids("♣5 ♥E")], leader=1, trump=1)
    tp.play(parse_card("♣K").id)
    with pytest.raises(CardError) as info:
        tp.play(parse_card("♥E").id)
    msg = str(info.value)
    assert msg == "plats 2 måste följa färg: klöver spelades ut och plats 2 har ♣5. Att lägga ♥E vore renons (P10)."
    assert tp.problem(parse_card("♥E").id) == 'follow_suit'          # the internal code stays for the engines
    tv = TrickPlay([ids("♣3 ♦4"), ids("♠2 ♥2")], leader=0, trump=0, must_trump=True, names=["Lars", "Bo"])
    tv.play(parse_card("♣3").id)
    with pytest.raises(CardError, match=r"^Trumftvång: Bo saknar klöver men har trumf \(♠2\) och måste trumfa \(P10\)\.$"):
        tv.play(parse_card("♥2").id)
    with pytest.raises(CardError, match="^♦E finns inte på Bos hand\\.$"):
        tv.play(parse_card("♦E").id)


# --------------------------------------------------------------------------- issue 10: hostile saves of PlumpGame

@pytest.mark.parametrize("change, fragment", [
    ({"version": True}, "inget giltigt versionsnummer"),
    ({"version": 1.0}, "inget giltigt versionsnummer"),
    ({"version": "1"}, "inget giltigt versionsnummer"),
    ({"version": HUGE}, "inget giltigt versionsnummer"),
    ({"players": {"Anna": 0, "Bo": 1, "Cissi": 2}}, "Skriv spelarna som en lista med namn"),
    ({"players": DEEP}, "för många nivåer"),
    ({"events": DEEP}, "för många nivåer"),
])
def test_hostile_save_fields(change, fragment):
    g, text, d = saved()
    before = snapshot(g)
    with pytest.raises(PlumpError, match=fragment) as info:
        PlumpGame.from_dict({**d, **change})
    _swedish_only(str(info.value))
    assert snapshot(g) == before


@pytest.mark.parametrize("make_text, fragment", [
    (lambda good: "[" * 100_000 + "]" * 100_000, "för många nivåer"),
    (lambda good: '{"format": "plump_teach.PlumpGame", "version": 1, "players": ' + "[" * 50_000 + "]" * 50_000 + "}",
     "för många nivåer"),
    (lambda good: good.replace('"seed": 1', '"seed": ' + "7" * 5000), "alldeles för många siffror"),
    (lambda good: b"\xff\xfe" + good.encode(), "ingen text i UTF-8"),
    (lambda good: None, "texten i en sparfil"),
    (lambda good: 42, "texten i en sparfil"),
])
def test_hostile_save_texts(make_text, fragment):
    g, good, _ = saved()
    with pytest.raises(PlumpError, match=fragment) as info:
        PlumpGame.from_json(make_text(good))
    msg = str(info.value)
    _swedish_only(msg)
    assert "line 1 column" not in msg and "Expecting" not in msg
    assert PlumpGame.from_json(good.encode("utf-8")) == g              # bytes in UTF-8 are read as the text


def test_wrong_number_of_values_in_an_event_is_said_in_swedish():
    g, text, d = saved()
    bad = copy.deepcopy(d)
    bad["events"].append(["play"])
    with pytest.raises(PlumpError) as info:
        PlumpGame.from_dict(bad)
    msg = str(info.value)
    assert msg == ("Sparfilen är skadad: i giv 9 finns ett spelat kort som inte går att spela upp. "
                   "Draget har fel antal eller fel sorts värden. Filen har inte lästs in.")


def test_one_rule_for_names_in_one_place():
    """Issue 27: one public clean_name (plump_teach.engine.names); the classroom's pupil names use it, so a pupil name and a
    player name are cleaned by the same rule (invisible characters gone, spaces single)."""
    import importlib
    import pkgutil
    import plump_teach
    from plump_teach.engine.names import clean_name
    from plump_teach.course.results import NAME_MAX, pupil_name
    owners = set()
    for m in pkgutil.walk_packages(plump_teach.__path__, 'plump_teach.'):
        mod = importlib.import_module(m.name)
        f = getattr(mod, 'clean_name', None)
        if f is not None: owners.add(f.__module__)
    assert owners == {'plump_teach.engine.names'}, owners
    for raw in ["  Kim\u200b Ek ", "Anna\u202e", "Bo\x00\tBo", "Ｃissi", "x" * 60]:
        assert pupil_name(raw) == clean_name(raw)[:NAME_MAX].rstrip()


def test_a_bid_cannot_be_changed_and_the_refusal_says_so():
    "Lesson 4 lets Anna try to change her bid: the refusal says that a bid once said stands (P5), not only whose turn it is."
    g = small_game()
    first = g.deal.to_act
    name = g.players[first]
    g.bid(first, 1)
    assert_refused(g, g.bid, name, 2, match=f"{name} har redan bjudit 1, och ett bud som är sagt går inte att ändra\\.$")


# --------------------------------------------------------------------------- files that are not the project's (issue 37)

SPECIAL_FILES = r'''
import os, resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))   # the old code ate /dev/zero until MemoryError
from plump_teach.engine.cards import PlumpTeachError
from plump_teach.engine.files import load
from plump_teach.engine.storage import MAX_FILE_BYTES
from plump_teach.course.progress import ProgressFile, new_progress
tmp = Path('.')                                                             # run in a fresh folder: short names
fifo = tmp / 'ror.json'
os.mkfifo(fifo)                                                             # no writer: reading it would wait forever
big = tmp / 'stor.json'
with open(big, 'wb') as f: f.truncate(MAX_FILE_BYTES + 1)
(tmp / 'mapp.json').mkdir()
(tmp / 'noll.json').symlink_to('/dev/zero')
for what in ['/dev/zero', str(tmp / 'noll.json'), fifo, big, tmp / 'mapp.json']:
    try: load(what); print('READ', what)
    except PlumpTeachError as e: print('REFUSED', type(e).__name__, e)
    except BaseException as e: print('WRONG', type(e).__name__, e)
    sys.stdout.flush()
for what in [tmp / 'mapp.json', tmp / 'noll.json', fifo]:
    try: print('PROGRESS', ProgressFile(what).load() == new_progress(), Path(what).exists())
    except BaseException as e: print('WRONG', type(e).__name__, e)
    try: ProgressFile(what).save(new_progress()); print('SAVED', what)
    except PlumpTeachError as e: print('REFUSED', type(e).__name__, e)
    except BaseException as e: print('WRONG', type(e).__name__, e)
    sys.stdout.flush()
'''


@pytest.mark.skipif(not hasattr(os, 'mkfifo') or not Path('/dev/zero').exists(), reason="needs /dev/zero and named pipes")
def test_special_and_huge_files_are_refused_in_swedish_before_anything_is_read(tmp_path):
    """Issue 37, item 16: load('/dev/zero') raised MemoryError, a named pipe waited forever and ProgressFile().load() on a
    folder raised IsADirectoryError. Now every file the project reads is a regular file of at most a set size, and
    anything else is a FileError (a PlumpTeachError) that says what it is; a folder, device or pipe where the progress
    file should be is never moved or read, and saving there says why. In a subprocess with a memory cap and a timeout,
    so a regression fails the test instead of filling the machine's memory or hanging the suite."""
    out = subprocess.run([sys.executable, '-c', SPECIAL_FILES], capture_output=True, text=True, timeout=20,
                         cwd=tmp_path).stdout.splitlines()
    assert out[:5] == [
        'REFUSED FileError /dev/zero är ingen vanlig fil (utan till exempel en enhet eller en rörledning), så den läses inte.',
        'REFUSED FileError noll.json är ingen vanlig fil (utan till exempel en enhet eller en rörledning), '
        'så den läses inte.',
        'REFUSED FileError ror.json är ingen vanlig fil (utan till exempel en enhet eller en rörledning), '
        'så den läses inte.',
        'REFUSED FileError stor.json är för stor: sparfilen får vara högst 10 MB, och den här filen är större.',
        'REFUSED FileError mapp.json är en mapp, inte en fil.'], out
    assert out[5:] == [
        'PROGRESS True True', 'REFUSED FileError Framstegen kan inte sparas: mapp.json är en mapp. Ta bort '
        'den, eller välj en annan fil med miljövariabeln PLUMP_TEACH_FRAMSTEG.',
        'PROGRESS True True', 'REFUSED FileError Framstegen kan inte sparas: noll.json är ingen vanlig fil. '
        'Ta bort den, eller välj en annan fil med miljövariabeln PLUMP_TEACH_FRAMSTEG.',
        'PROGRESS True True', 'REFUSED FileError Framstegen kan inte sparas: ror.json är ingen vanlig fil. '
        'Ta bort den, eller välj en annan fil med miljövariabeln PLUMP_TEACH_FRAMSTEG.'], out


# The other readers (issue 37, item 16): the score-sheet keeper, the game table and the class results read with the same
# read_bytes. Each case runs under an alarm, so a read that waits forever prints HANG instead of stopping the script.
OTHER_READERS_SETUP = r'''
import os, resource, signal, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))   # the old code ate /dev/zero until MemoryError
from plump_teach.engine.cards import PlumpTeachError
from plump_teach.engine.storage import MAX_FILE_BYTES

class Hang(BaseException): "Not an OSError (as TimeoutError is), so no reader's except OSError can swallow it."
def _hang(*_): raise Hang
signal.signal(signal.SIGALRM, _hang)

def case(label, fn):
    signal.alarm(5)
    try: print(label, 'OK', fn())
    except PlumpTeachError as e: print(label, 'REFUSED', type(e).__name__, e)
    except Hang: print(label, 'HANG')
    except BaseException as e: print(label, 'WRONG', type(e).__name__)
    finally: signal.alarm(0)
    sys.stdout.flush()

def strange_files(folder: Path, prefix: str) -> dict:
    "A named pipe without a writer, a link to /dev/zero, a sparse file of 10 MB + 1 byte and a folder."
    folder.mkdir(parents=True, exist_ok=True)
    files = {'ror': folder / f'{prefix}ror.json', 'noll': folder / f'{prefix}noll.json',
             'stor': folder / f'{prefix}stor.json', 'mapp': folder / f'{prefix}mapp.json'}
    os.mkfifo(files['ror'])
    files['noll'].symlink_to('/dev/zero')
    with open(files['stor'], 'wb') as f: f.truncate(MAX_FILE_BYTES + 1)
    files['mapp'].mkdir()
    return files

def unchanged(files) -> bool:
    "Every strange file is still what it was: nothing was written over it or moved."
    import stat
    return (stat.S_ISFIFO(os.lstat(files['ror']).st_mode) and os.readlink(files['noll']) == '/dev/zero'
            and files['stor'].stat().st_size == MAX_FILE_BYTES + 1 and files['mapp'].is_dir()
            and not any(files['mapp'].iterdir()))
'''

SCORE_SHEET_READER = OTHER_READERS_SETUP + r'''
from plump_teach.engine.scoresheet import ScoreKeeper, load_protocol
files = strange_files(Path('.'), '')
k = ScoreKeeper(['Anna', 'Bo', 'Cissi']).bid('Bo', 1)
for name in ['ror', 'noll', 'stor']:
    case(f'load {name}', lambda: load_protocol(files[name]))
for name in ['ror', 'noll', 'stor', 'mapp']:
    case(f'save {name}', lambda: k.save(files[name]))
    case(f'overwrite {name}', lambda: k.save(files[name], overwrite=True))
print('unchanged', unchanged(files))
case('save new', lambda: load_protocol(k.save('nytt.json')) == k)
'''


@pytest.mark.skipif(not hasattr(os, 'mkfifo') or not Path('/dev/zero').exists(), reason="needs /dev/zero and named pipes")
def test_the_score_sheet_keeper_refuses_a_strange_file_and_never_writes_over_it(tmp_path):
    """Issue 37, item 16: load_protocol read a pipe forever and /dev/zero until MemoryError, and ScoreKeeper.save read
    the file it was about to replace the same way (and with overwrite=True wrote over a 10 MB file). Now both read
    with read_bytes: a strange file is refused in Swedish, and save never replaces it, not even with overwrite=True."""
    out = subprocess.run([sys.executable, '-c', SCORE_SHEET_READER], capture_output=True, text=True, timeout=60,
                         cwd=tmp_path).stdout.splitlines()
    not_a_file = 'är ingen vanlig fil (utan till exempel en enhet eller en rörledning), så den läses inte.'
    too_big = 'stor.json är för stor: protokollfilen får vara högst 10 MB, och den här filen är större.'
    keep = ' Protokollet sparas inte där, så att det som finns där inte skrivs över. Spara under ett annat namn.'
    expected = [f'load ror REFUSED FileError ror.json {not_a_file}', f'load noll REFUSED FileError noll.json {not_a_file}',
                f'load stor REFUSED FileError {too_big}']
    for name, why in [('ror', f'ror.json {not_a_file}'), ('noll', f'noll.json {not_a_file}'), ('stor', too_big),
                      ('mapp', 'mapp.json är en mapp, inte en fil.')]:
        expected += [f'save {name} REFUSED FileError {why}{keep}', f'overwrite {name} REFUSED FileError {why}{keep}']
    assert out == expected + ['unchanged True', 'save new OK True'], out


TABLE_READER = OTHER_READERS_SETUP + r'''
import json, time
os.environ['PLUMP_TEACH_SPARADE'] = str(Path('.').absolute())
from plump_teach.engine.plump_rules import PlumpRules
from plump_teach.ui.table import PlayTable
from plump_teach.table.files import read_table, saved_tables, unfinished_table
saved = PlayTable(3, rules=PlumpRules(down_only=True), seed=17, first_deal=7, pace=0)   # a real game, not finished
real = Path('spelbordet-17.json')
old = time.time() - 3600
os.utime(real, (old, old))                                                 # the strange files are newer
files = strange_files(Path('.'), 'spelbordet-')
Path('spelbordet-djup.json').write_text('[' * 100_000)                    # too deep for json.loads
def open_table():
    t = PlayTable()
    return ([Path(v).name for _, v in t.form.resume_files.options if v], 'Du har ett parti som inte är klart.' in t.form.offer_html.value,
            t.form.resume_skipped.value)
case('table', open_table)
Path('spelbordet-borta.json').symlink_to('finns-inte.json')               # a link to nothing
case('listed', lambda: 'spelbordet-17.json' in [p.name for p in saved_tables('.')])
case('unfinished', lambda: unfinished_table(saved_tables('.'), 'plump')[0].name)
t = PlayTable()
def resume_pipe():                                                         # the chosen file became a pipe
    t.form.resume_files.value = str(real.absolute())
    real.rename('gammal.json'); os.mkfifo(real)
    try: t.form.resume_button.click()
    finally: real.unlink(); Path('gammal.json').rename(real)
    return t.message.value
case('resume', resume_pipe)
def save_over_pipe():                                                      # the game's own file became a pipe
    saved.path.unlink(); os.mkfifo(saved.path)
    saved.save()
    return (saved.path.name, read_table(saved.path.read_text())[0] == saved.game, saved.save_info.value)
case('save', save_over_pipe)
print('unchanged', unchanged(files), Path('spelbordet-17.json').is_fifo())
'''


@pytest.mark.skipif(not hasattr(os, 'mkfifo') or not Path('/dev/zero').exists(), reason="needs /dev/zero and named pipes")
def test_the_table_skips_a_strange_saved_file_and_still_offers_the_real_game(tmp_path):
    """Issue 37, item 16: the game table reads every spelbordet*.json in its folder when it opens. A pipe there made it
    wait forever, a link to /dev/zero ate the memory, a file nested too deep raised RecursionError, and a link to
    nothing emptied the whole list (so the real unfinished game was no longer offered). Now the table opens, offers the
    real game, lists only real games and says which files it skipped; a chosen file or its own file that has become a
    pipe is refused in Swedish or left alone (the game is saved beside it)."""
    out = subprocess.run([sys.executable, '-c', TABLE_READER], capture_output=True, text=True, timeout=60,
                         cwd=tmp_path).stdout.splitlines()
    not_a_file = 'är ingen vanlig fil (utan till exempel en enhet eller en rörledning), så den läses inte.'
    reasons = ['spelbordet-stor.json är för stor: sparfilen får vara högst 10 MB, och den här filen är större.',
               'spelbordet-mapp.json är en mapp, inte en fil.', f'spelbordet-ror.json {not_a_file}',
               f'spelbordet-noll.json {not_a_file}']
    assert out[0].startswith("table OK (['spelbordet-17.json'], True, '<small>4 filer visas inte här, för de går inte "
                             "att läsa: ") and out[0].endswith(" Det finns 1 till.</small>')"), out
    assert sum(r in out[0] for r in reasons) == 3, out            # the three newest with their reason, then how many more
    assert out[1:3] == ['listed OK True', 'unfinished OK spelbordet-17.json'], out
    assert out[3].startswith('resume OK <div role="alert"') and out[3].endswith(
        f'>Det sparade partiet kan inte läsas: Filen {not_a_file}</div>'), out
    assert out[4].startswith("save OK ('spelbordet-17-2.json', True, '<p>Det sparade partiet har ändrats någon "
                             "annanstans (eller fanns redan) och skrivs inte över. Partiet sparas i stället som ett "
                             "nytt sparat parti."), out
    assert out[5:] == ['unchanged True True'], out


RESULTS_READER = OTHER_READERS_SETUP + r'''
from plump_teach.course.results import ResultStore
store = ResultStore(Path('.'))
ali, bo, cissi, dan = 'a1' * 8, 'b0' * 8, 'c1' * 8, 'd0' * 8
store.record(ali, {'type': 'page', 'name': 'Ali', 'page': 'start.ipynb'})
os.mkfifo(store.path(bo))
store.path(cissi).symlink_to('/dev/zero')
store.path(dan).mkdir()
for who in (bo, cissi, dan): case(who[:2], lambda: store.events(who))
case('all', lambda: {p[:2]: len(e) for p, e in store.all_events().items()})
'''


@pytest.mark.skipif(not hasattr(os, 'mkfifo') or not Path('/dev/zero').exists(), reason="needs /dev/zero and named pipes")
def test_a_strange_pupil_file_has_no_results_like_a_broken_one(tmp_path):
    """Issue 37, item 16: ResultStore.events read a pupil's file without a limit, so a pipe in its place stopped the
    teacher's page and a link to /dev/zero ate the memory. Its contract: broken lines are skipped and a pupil without
    a file has none; a file that cannot be read as a file has none either, and the other pupils are still shown."""
    out = subprocess.run([sys.executable, '-c', RESULTS_READER], capture_output=True, text=True, timeout=60,
                         cwd=tmp_path).stdout.splitlines()
    assert out == ['b0 OK []', 'c1 OK []', 'd0 OK []', "all OK {'a1': 1, 'b0': 0, 'c1': 0, 'd0': 0}"], out
