"""plump_teach: kortspelen Plump och Bismarck, en svensk kurs och ett regelbibliotek.

Det mesta som en app eller en bot behöver nås härifrån, som `chess.Board` i python-chess:

    from plump_teach import PlumpGame, PlumpState, make_bot

Namnen laddas först när de används (PEP 562), så `import plump_teach` är snabbt och drar inte in datorspelarna eller
pusslen förrän de behövs. Allt här är ren Python (regelmotorn, datorspelarna och pusslen); widgetarna ligger i
`plump_teach.ui` och klassrummet i `plump_teach.classroom`. Varje namn finns också i sin modul, i lagren
`plump_teach.engine`, `.bots` och `.puzzles`; där står dokumentationen.
"""
from __future__ import annotations
from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# namn -> modulen (under plump_teach) där det skrivs
_FRONT_DOOR = {
    **dict.fromkeys(["Card", "Cards", "parse_card", "parse_cards", "PlumpTeachError", "CardError", "CardLike",
                     "CardsLike", "SUITS", "SUIT_NAMES", "IllegalMove", "NotYourTurn", "WrongPhase", "WrongArgument"],
                    "engine.cards"),
    "trick_winner": "engine.tricks",
    "Player": "engine.names",
    **dict.fromkeys(["PlumpRules", "PlumpError", "RULE_PRESETS", "rule_preset", "legal_bids", "score",
                     "deal_schedule"], "engine.plump_rules"),
    **dict.fromkeys(["Bid", "PlayCard", "Discard", "ChooseMode", "Action"], "engine.actions"),
    "PlumpDeal": "engine.plump",
    "PlumpGame": "engine.plump_game",
    **dict.fromkeys(["BismarckDeal", "BismarckError"], "engine.bismarck"),
    "BismarckGame": "engine.bismarck_game",
    "TrickGame": "engine.game",
    **dict.fromkeys(["GameKind", "KINDS", "kind_of"], "engine.kinds"),
    **dict.fromkeys(["PlumpState", "BismarckState", "BismarckView", "PlumpView", "BismarckView"], "engine.state"),
    "SeatView": "engine.view",
    **dict.fromkeys(["playout", "CardPolicy", "BidPolicy"], "engine.playout"),
    "PlayoutContext": "engine.sim",
    **dict.fromkeys(["ScoreKeeper", "load_protocol"], "engine.scoresheet"),
    **dict.fromkeys(["FileError", "FileChanged"], "engine.storage"),
    "load": "engine.files",
    **dict.fromkeys(["make_bot", "Bot"], "bots.players"),
    "hint": "bots.coach",
    "analyse_deal": "bots.review",
    "Decision": "bots.decision",
    **dict.fromkeys(["make_puzzle", "Puzzle", "PUZZLE_KINDS"], "puzzles.registry"),
}
# Skrivet ut, inte räknat: en typkontroll (mypy --strict, pyright) läser bara en lista med namn, och utan den är
# namnen här inte exporterade för den (tests/test_types.py håller listan lika med _FRONT_DOOR).
__all__ = ["Action", "Bid", "BidPolicy", "BismarckDeal", "BismarckError", "BismarckGame", "BismarckState",
           "BismarckView", "Bot", "Card", "CardError", "CardLike", "CardPolicy", "Cards", "CardsLike", "ChooseMode",
           "Decision", "Discard", "FileChanged", "FileError", "GameKind", "IllegalMove", "KINDS", "NotYourTurn",
           "PUZZLE_KINDS", "PlayCard", "Player", "PlayoutContext", "PlumpDeal", "PlumpError", "PlumpGame",
           "PlumpRules", "PlumpState", "PlumpTeachError", "PlumpView", "Puzzle", "RULE_PRESETS", "SUITS",
           "SUIT_NAMES", "ScoreKeeper", "SeatView", "TrickGame", "WrongArgument", "WrongPhase", "analyse_deal",
           "deal_schedule", "hint", "kind_of", "legal_bids", "load", "load_protocol", "make_bot", "make_puzzle",
           "parse_card", "parse_cards", "playout", "rule_preset", "score", "trick_winner"]


def __getattr__(name: str):
    if name not in _FRONT_DOOR:
        raise AttributeError(f"module 'plump_teach' has no attribute {name!r}")
    value = getattr(import_module(f"plump_teach.{_FRONT_DOOR[name]}"), name)
    globals()[name] = value          # nästa gång utan omväg
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:   # för typkontroller och redigerare, som inte kör __getattr__
    from .engine.cards import (Card, Cards, parse_card, parse_cards, PlumpTeachError, CardError, CardLike, CardsLike,
                               SUITS, SUIT_NAMES, IllegalMove, NotYourTurn, WrongPhase, WrongArgument)
    from .engine.tricks import trick_winner
    from .engine.names import Player
    from .engine.plump_rules import PlumpRules, PlumpError, RULE_PRESETS, rule_preset, legal_bids, score, deal_schedule
    from .engine.actions import Bid, PlayCard, Discard, ChooseMode, Action
    from .engine.plump import PlumpDeal
    from .engine.plump_game import PlumpGame
    from .engine.bismarck import BismarckDeal, BismarckError
    from .engine.bismarck_game import BismarckGame
    from .engine.state import PlumpState, BismarckState, PlumpView, BismarckView
    from .engine.view import SeatView
    from .engine.playout import playout, CardPolicy, BidPolicy
    from .engine.sim import PlayoutContext
    from .engine.game import TrickGame
    from .engine.kinds import GameKind, KINDS, kind_of
    from .engine.scoresheet import ScoreKeeper, load_protocol
    from .engine.storage import FileError, FileChanged
    from .engine.files import load
    from .bots.decision import Decision
    from .bots.players import make_bot, Bot
    from .bots.coach import hint
    from .bots.review import analyse_deal
    from .puzzles.registry import make_puzzle, Puzzle, PUZZLE_KINDS
