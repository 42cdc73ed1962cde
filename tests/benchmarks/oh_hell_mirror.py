"""One Plump deal in two engines at once: plump_teach's PlumpState and OpenSpiel's oh_hell, kept in step.

Used by bench_bots.py so that OpenSpiel's bots (ISMCTS) can act in deals played by our engine. The encoding
is the one tests/test_openspiel.py documents and checks (open-spiel 2.x):

- chance actions in order: the number of tricks K, the dealer seat, the N*K cards dealt round-robin from
  player 0 (the i-th card to player i % N, whoever deals), then the trump card from the rest;
- card action = rank_index*4 + suit_index (ranks 2..A, suits clubs, diamonds, spades, hearts), bid = 52 + bid;
- with `off_bid_penalty=true,points_per_trick=1` a return is tricks + 10 on an exact bid, else -|bid - tricks|,
  so the Plump score under the default PlumpRules (10 + bid, else 0) is max(0, return).

Every step checks that both engines agree on whose turn it is and on the legal actions; the end checks the
tricks taken and the scores.
"""
from __future__ import annotations

import functools
import random
import re

import pyspiel

from plump_teach.engine.cards import Card
from plump_teach.engine.state import PlumpState
from plump_teach.engine.actions import Bid, PlayCard
from plump_teach.engine.plump import PlumpDeal
from plump_teach.engine.plump_rules import PlumpRules

OS_SUITS = ("♣", "♦", "♠", "♥")   # OpenSpiel's suit order
BID_OFFSET = 52


class Disagreement(AssertionError):
    "The two engines disagree: a bug in one of them (or in the mapping)."


def os_to_card(a: int) -> Card: return Card(OS_SUITS[a % 4], a // 4 + 2)
def card_to_os(card: Card) -> int: return (card.rank - 2) * 4 + OS_SUITS.index(card.suit)


def action_to_os(action) -> int:
    if isinstance(action, Bid): return BID_OFFSET + action.tricks
    if isinstance(action, PlayCard): return card_to_os(action.card)
    raise TypeError(f"not a Plump action: {action!r}")


def os_to_action(a: int):
    return Bid(a - BID_OFFSET) if a >= BID_OFFSET else PlayCard(os_to_card(a))


@functools.cache
def os_game(players: int, cards: int):
    return pyspiel.load_game(f"oh_hell(players={players},num_tricks_fixed={cards},"
                             "off_bid_penalty=true,points_per_trick=1)")


def random_deal(rng: random.Random, players: int, cards: int) -> tuple[list[list[int]], int, int]:
    "(hands, trump, dealer) in OpenSpiel card ids; 4 x 13 is excluded (OpenSpiel then stalls, no trump card)."
    if players * cards >= 52: raise ValueError("OpenSpiel needs a card left over to turn for trump")
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[p * cards:(p + 1) * cards] for p in range(players)]
    return hands, deck[players * cards], rng.randrange(players)


class MirroredDeal:
    "A deal played in both engines; `apply` takes our action and plays it in both."

    def __init__(self, hands: list[list[int]], trump: int, dealer: int):
        n, k = len(hands), len(hands[0])
        self.n, self.cards = n, k
        os_state = os_game(n, k).new_initial_state()
        for a in [k, dealer, *(h[i] for i in range(k) for h in hands), trump]:
            os_state.apply_action(a)
        if os_state.is_chance_node(): raise Disagreement("OpenSpiel still deals after the trump card")
        self.os = os_state
        deal = PlumpDeal(n, [[os_to_card(a) for a in h] for h in hands], trump_card=os_to_card(trump),
                         dealer=dealer, rules=PlumpRules())
        self.state = PlumpState.from_deal(deal)
        self.check_step()

    def check_step(self):
        "Same seat to act and the same legal actions in both engines (or both finished)."
        st, os_state = self.state, self.os
        if st.is_terminal() or os_state.is_terminal():
            if st.is_terminal() != os_state.is_terminal():
                raise Disagreement(f"terminal: ours {st.is_terminal()}, OpenSpiel {os_state.is_terminal()}")
            return
        if st.to_act != os_state.current_player():
            raise Disagreement(f"to act: ours {st.to_act}, OpenSpiel {os_state.current_player()}")
        ours = sorted(action_to_os(a) for a in st.legal_actions())
        theirs = sorted(os_state.legal_actions())
        if ours != theirs:
            raise Disagreement(f"legal actions of seat {st.to_act}: ours {[str(os_to_action(a)) for a in ours]}, "
                               f"OpenSpiel {[str(os_to_action(a)) for a in theirs]}")

    def apply(self, action):
        self.state.apply(action)          # our engine refuses an illegal action (PlumpError)
        self.os.apply_action(action_to_os(action))
        self.check_step()

    def finish_check(self) -> list[int]:
        "At the end: the same tricks taken and scores in both engines. Returns our scores."
        won = [int(x) for x in re.search(r"^Tricks Won:(.*)$", str(self.os), re.M).group(1).split()]
        if won != list(self.state.taken):
            raise Disagreement(f"tricks taken: ours {self.state.taken}, OpenSpiel {won}")
        ours = list(self.state.returns())
        theirs = [max(0, int(r)) for r in self.os.returns()]
        if ours != theirs: raise Disagreement(f"scores: ours {ours}, OpenSpiel {theirs}")
        return ours
