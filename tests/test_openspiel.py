"""Differential test: `plump_teach.engine.plump` against OpenSpiel's `oh_hell`, used only as an oracle.

Facts about OpenSpiel's encoding (open-spiel 2.0.2), verified empirically and
re-checked by `test_openspiel_encoding` below:

- Chance actions, in order: the number of tricks K (the only outcome when
  `num_tricks_fixed=K`), the dealer seat (0..N-1), the N*K cards dealt
  round-robin starting at player 0 whoever deals (the i-th card goes to
  player i % N), and finally the trump card, drawn from the remaining cards.
- Card action = rank_index*4 + suit_index, rank_index 0..12 for 2..A and
  suit_index 0..3 for clubs, diamonds, spades, hearts.  Bid action = 52 + bid.
- (dealer+1) % N bids first and leads the first trick; the dealer bids last
  and may not bid so that the bids sum to K; a trick's winner leads the next.
- With `off_bid_penalty=true,points_per_trick=1` a player's return is
  tricks + 10 on an exact bid and -|bid - tricks| otherwise, so the Plump
  score (exact: 10 + bid, otherwise 0) is max(0, return).
- Deals that use all 52 cards (4 players x 13) are excluded: OpenSpiel then
  waits for a trump card at a chance node without outcomes and stalls.
  So K <= 51 // N here, which always leaves a card to turn for trump.
"""

import functools
import random
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")

from plump_teach.engine.cards import Card  # noqa: E402
from plump_teach.engine.plump import PlumpDeal
from plump_teach.engine.plump_rules import PlumpRules   # noqa: E402

OS_SUITS = ("♣", "♦", "♠", "♥")  # OpenSpiel's suit order: C, D, S, H
OS_RANKS = "23456789TJQKA"
BID_OFFSET = 52
DEALS_PER_PLAYER_COUNT = 1000  # 3 player counts -> 3,000 deals


def os_to_card(action: int) -> Card:
    return Card(OS_SUITS[action % 4], action // 4 + 2)


def card_to_os(card: Card) -> int:
    return (card.rank - 2) * 4 + OS_SUITS.index(card.suit)


@functools.cache
def os_game(players: int, tricks: int):
    return pyspiel.load_game(
        f"oh_hell(players={players},num_tricks_fixed={tricks},"
        "off_bid_penalty=true,points_per_trick=1)")


def os_deal(players, dealer, hands, trump):
    """An OpenSpiel state after all chance actions, for the given deal (OpenSpiel card ids)."""
    tricks = len(hands[0])
    state = os_game(players, tricks).new_initial_state()
    state.apply_action(tricks)
    state.apply_action(dealer)
    for i in range(tricks):  # round-robin from player 0
        for hand in hands:
            state.apply_action(hand[i])
    state.apply_action(trump)
    assert not state.is_chance_node()
    return state


def os_tricks_won(state) -> list[int]:
    """Tricks taken per player, read from OpenSpiel's state text (no API for it)."""
    match = re.search(r"^Tricks Won:(.*)$", str(state), re.M)
    return [int(x) for x in match.group(1).split()]


def test_openspiel_encoding():
    """The oracle's encoding is what this module assumes."""
    state = os_game(4, 3).new_initial_state()
    assert state.chance_outcomes() == [(3, 1.0)]  # the number of tricks
    state.apply_action(3)
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3]  # the dealer
    state.apply_action(2)
    # Cards: rank-major, suits C, D, S, H.
    names = [state.action_to_string(a) for a in range(52)]
    assert names == [s + r for r in OS_RANKS for s in "CDSH"]
    for a in range(12):
        state.apply_action(a)
    # Dealt round-robin from player 0: player 1 gets cards 1, 5, 9 = D2, D3, D4.
    assert "Player: 1\n    C: \n    D: 432\n" in str(state)
    assert len(state.chance_outcomes()) == 40  # the trump card comes from the rest
    state.apply_action(51)
    assert "Trump: HA" in str(state)
    assert state.current_player() == 3  # left of the dealer bids first
    assert state.legal_actions() == [BID_OFFSET + b for b in range(4)]
    assert state.action_to_string(3, BID_OFFSET + 2) == "2"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_same_as_openspiel(players):
    rng = random.Random(20240 + players)
    seen = dict(dealer_restricted=0, renounce=0, trumped=0)
    for _ in range(DEALS_PER_PLAYER_COUNT):
        tricks = rng.randint(1, 51 // players)  # at least one card left for trump
        dealer = rng.randrange(players)
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [deck[p * tricks:(p + 1) * tricks] for p in range(players)]
        compare_deal(players, dealer, hands, deck[players * tricks], rng, seen)
    # The interesting rules must actually have been exercised.
    assert all(seen.values()), seen


def compare_deal(players, dealer, hands, trump, rng, seen):
    """Play one deal in both engines with random legal moves, comparing at every step."""
    tricks = len(hands[0])
    state = os_deal(players, dealer, hands, trump)
    deal = PlumpDeal(players=players, hands=[[os_to_card(a) for a in h] for h in hands],
                     trump_card=os_to_card(trump), dealer=dealer, rules=PlumpRules())
    moves = []  # (seat, bid or Card), for failure messages

    def where():
        lines = [f"N={players} K={tricks} dealer={dealer} trump={os_to_card(trump)}"]
        lines += [f"  seat {p}: {' '.join(str(os_to_card(a)) for a in h)}"
                  for p, h in enumerate(hands)]
        lines.append("  moves: " + ", ".join(f"{s}:{m}" for s, m in moves))
        return "\n".join(lines)

    assert deal.trump == OS_SUITS[trump % 4], f"trump suit\n{where()}"

    # Bidding.
    while not state.is_terminal() and deal.phase == "bidding":
        seat = state.current_player()
        assert deal.to_act == seat, f"bidder: ours {deal.to_act}, OpenSpiel {seat}\n{where()}"
        ours = list(deal.legal_bids())
        theirs = [a - BID_OFFSET for a in state.legal_actions()]
        assert sorted(ours) == theirs, \
            f"legal bids of seat {seat}: ours {ours}, OpenSpiel {theirs}\n{where()}"
        if len(theirs) == tricks:
            seen["dealer_restricted"] += 1
        bid = rng.choice(ours)
        moves.append((seat, bid))
        deal.bid(seat, bid)
        state.apply_action(BID_OFFSET + bid)
    assert deal.phase == "playing" and not state.is_terminal(), \
        f"after bidding: our phase {deal.phase!r}\n{where()}"

    # Card play.
    won = [0] * players
    while not state.is_terminal():
        seat = state.current_player()
        assert deal.phase == "playing" and deal.to_act == seat, \
            f"to play: ours {deal.to_act} ({deal.phase}), OpenSpiel {seat}\n{where()}"
        legal = list(deal.legal_cards())
        ours = sorted(card_to_os(c) for c in legal)
        theirs = sorted(state.legal_actions())
        assert ours == theirs, (
            f"legal cards of seat {seat}: ours {[str(os_to_card(a)) for a in ours]}, "
            f"OpenSpiel {[str(os_to_card(a)) for a in theirs]}\n{where()}")
        if deal.trick and all(c.suit != deal.trick[0].suit for c in legal):
            seen["renounce"] += 1
        card = rng.choice(legal)
        moves.append((seat, card))
        finished = len(deal.history)
        deal.play(seat, card)
        state.apply_action(card_to_os(card))

        if len(deal.history) > finished:  # a trick was completed
            leader, cards, our_winner = deal.history[-1]
            played = moves[-players:]
            assert (leader, list(cards)) == (played[0][0], [c for _, c in played]), \
                f"history entry {deal.history[-1]}\n{where()}"
            theirs_won = os_tricks_won(state)
            winners = [p for p in range(players) if theirs_won[p] != won[p]]
            assert len(winners) == 1, f"OpenSpiel tricks won {won} -> {theirs_won}\n{where()}"
            won = theirs_won
            assert our_winner == winners[0], (
                f"trick {' '.join(map(str, cards))} led by {leader}: "
                f"ours won by {our_winner}, OpenSpiel by {winners[0]}\n{where()}")
            assert list(deal.taken) == won, f"tricks taken: ours {deal.taken}, OpenSpiel {won}\n{where()}"
            if cards[0].suit != deal.trump and cards[(our_winner - leader) % players].suit == deal.trump:
                seen["trumped"] += 1
        else:
            assert deal.trick and deal.trick[-1] == card, f"trick in progress\n{where()}"

    assert deal.phase == "done" and deal.to_act is None, f"our deal not done\n{where()}"
    assert len(deal.history) == tricks
    # The oracle's own formula, then the Plump score derived from it.
    returns = [int(r) for r in state.returns()]
    bids = list(deal.bids)
    assert returns == [w + 10 if b == w else -abs(b - w) for b, w in zip(bids, won)], \
        f"OpenSpiel returns {returns} for bids {bids}, tricks {won}\n{where()}"
    ours = list(deal.points())
    theirs = [max(0, r) for r in returns]
    assert ours == theirs, \
        f"scores: ours {ours}, OpenSpiel {theirs} (returns {state.returns()})\n{where()}"
