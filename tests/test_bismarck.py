"""Tests for the Bismarck engine (`plump_teach.engine.bismarck`).

Rule IDs refer to /work/shared/RULES.md: B1 players and deck, B2 the deal (and
the house rule that the discards count as one trick for förhand), B3 rotation,
B4 modes, B5 mode budget, B6 play, B7 scoring.

Three parts:
- one test (at least) per rule that would fail if the rule were implemented wrongly;
- property tests over thousands of random, seeded whole games of both lengths,
  checked against small independent re-implementations of the rules;
- bad input: each refusal is a `BismarckError` (a ValueError) with a Swedish
  message, and the game is exactly as before (JSON save and visible state).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from examples import prop_settings

from plump_teach.engine.bismarck import MODES, SHORT_ORDER, BismarckDeal, BismarckError, allowed_modes, bismarck_score, bismarck_trick_winner, deal_cards, legal_plays, mode_trump, normal_tricks, smart_discard
from plump_teach.engine.bismarck_game import BismarckGame, modes_left
from plump_teach.engine.cards import FULL_DECK, SUITS, Card, parse_card, parse_cards

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Anna", "Björn", "Cecilia"]

# One place to size the property tests (measured on the 2-core dev machine; the whole file runs in
# well under 45 s). A full game is 12 deals = 588 actions, a short game 3 deals = 147 actions.
N_FULL = 1000          # random full games (12 deals)
N_SHORT = 1500         # random short games (3 deals)
N_VARIANT = 200        # full games with the house rule discards_count_as_trick
N_ROUNDTRIP = 300      # games saved and loaded at a random point, then continued in both copies




# --------------------------------------------------------------------------- independent oracles

def oracle_score(mode, tricks, fh, variant=False):
    "B7 written out once more, independently: normal 8/4 (pass 4/6), +-1 per trick, reversed in pass."
    tricks = list(tricks)
    if variant: tricks[fh] += 1
    out = []
    for s in range(3):
        normal = (4 if s == fh else 6) if mode == 'pass' else (8 if s == fh else 4)
        diff = tricks[s] - normal
        out.append(-diff if mode == 'pass' else diff)
    return out


def oracle_winner(cards, trump):
    "B6: highest trump, else highest card of the led suit."
    trumps = [c for c in cards if c.suit == trump]
    pool = trumps or [c for c in cards if c.suit == cards[0].suit]
    return cards.index(max(pool, key=lambda c: c.rank))


def random_action(g: BismarckGame, r: random.Random):
    "One random legal action for whoever is to act."
    d = g.deal
    if d.phase == 'discard':
        g.discard(d.forehand, r.sample(d.hand(d.forehand), 4))
    elif d.phase == 'mode':
        m = r.choice(d.modes)
        g.choose_mode(d.forehand, m, r.choice(SUITS) if m == 'trumf' else None)
    else:
        g.play(d.to_act, r.choice(d.legal_cards()))


def play_out(g: BismarckGame, r: random.Random, stop_after: int | None = None):
    n = 0
    while g.deal is not None and (stop_after is None or n < stop_after):
        random_action(g, r)
        n += 1
    return g


def check_finished_game(g: BismarckGame):
    "Every invariant of a finished game, against the oracles above."
    assert g.phase == 'over' and g.deal is None and g.to_act is None
    assert len(g.deals) == (3 if g.short else 12)
    totals = [0, 0, 0]
    for i, d in enumerate(g.deals):
        assert d.dealer == (g.first_dealer + i) % 3                     # B3
        assert d.forehand == (d.dealer + 1) % 3                         # B2
        assert len(d.history) == 16 and sum(d.taken) == 16             # B6
        played = [c for _, t, _ in d.history for c in t]
        assert len(played) == 48 and len(set(played)) == 48            # each card at most once
        assert not set(played) & set(d.discards)                        # the discards never
        assert len(d.discards) == 4
        start = [set(h) for h in d.dealt]
        start[d.forehand] |= set(d.upcards)
        assert set(d.discards) <= start[d.forehand]                     # B2: from förhand's 20
        assert set(played) | set(d.discards) == set(FULL_DECK)
        # B6: follow suit, the right winner, the winner leads
        hands = [set(h) for h in start]
        hands[d.forehand] -= set(d.discards)
        leader = d.forehand
        taken = [0, 0, 0]
        trump = {'spader': '♠', 'trumf': d.trump}.get(d.mode)
        assert d.trump == trump
        for lead, cards, win in d.history:
            assert lead == leader
            for j, c in enumerate(cards):
                seat = (lead + j) % 3
                assert c in hands[seat]
                if j and c.suit != cards[0].suit:
                    assert not any(h.suit == cards[0].suit for h in hands[seat])
                hands[seat].discard(c)
            assert win == (lead + oracle_winner(list(cards), trump)) % 3
            taken[win] += 1
            leader = win
        assert taken == d.taken
        pts = d.points()
        assert pts == oracle_score(d.mode, d.taken, d.forehand, g.discards_count_as_trick)
        assert sum(pts) == ((1 if d.mode != 'pass' else -1) if g.discards_count_as_trick else 0)
        totals = [t + p for t, p in zip(totals, pts)]
    assert g.totals == totals
    # B5: the mode budget
    if g.short:
        assert [d.mode for d in g.deals] == list(SHORT_ORDER)
        assert sorted(d.forehand for d in g.deals) == [0, 1, 2]
    else:
        for seat in range(3):
            mine = [d.mode for d in g.deals if d.forehand == seat]
            assert sorted(mine) == sorted(MODES)
    for seat in range(3): assert modes_left(g, seat) == []


games = st.fixed_dictionaries({'seed': st.integers(0, 2**32 - 1), 'actions': st.integers(0, 2**32 - 1),
                               'dealer': st.integers(0, 2)})


# --------------------------------------------------------------------------- B1

def test_b1_exactly_three_players():
    for n in (0, 1, 2, 4, 5):
        with pytest.raises(BismarckError, match=f"exakt 3 spelare \\(B1\\), inte {n}"):
            BismarckGame([f"P{i}" for i in range(n)])
    with pytest.raises(BismarckError, match="Två spelare heter Anna"):
        BismarckGame(["Anna", "Anna", "Björn"])
    assert BismarckGame(NAMES, seed=1).players == NAMES


def test_b1_deck_is_52_cards_ace_high():
    up, hands = deal_cards(seed=9)
    assert len(set(up) | {c for h in hands for c in h}) == 52
    assert bismarck_trick_winner("♥K ♥E ♥2", "sang") == 1
    assert bismarck_trick_winner("♥2 ♥3 ♥K", "pass") == 2


# --------------------------------------------------------------------------- B2

def test_b2_the_deal():
    g = BismarckGame(NAMES, seed=4, dealer="Cecilia")
    d = g.deal
    assert d.dealer == 2 and d.forehand == 0 and g.players[g.forehand] == "Anna"
    assert [len(h) for h in d.dealt] == [16, 16, 16] and len(d.upcards) == 4
    assert [len(h) for h in d.hands] == [20, 16, 16]        # förhand has taken the four
    assert set(d.upcards) <= set(d.hand(0))
    assert g.phase == 'discard' and g.players[g.to_act] == "Anna"
    g.discard("Anna", d.hand(0)[:4])
    assert [len(h) for h in d.hands] == [16, 16, 16]
    # the discards are out of play: none of them can be played
    g.choose_mode("Anna", "sang")
    with pytest.raises(BismarckError, match="finns inte på Annas hand"):
        g.play("Anna", d.discards[0])


def test_b2_same_seed_same_deal():
    a, b = BismarckGame(NAMES, seed=11), BismarckGame(NAMES, seed=11)
    assert a.deal.dealt == b.deal.dealt and a.deal.upcards == b.deal.upcards
    assert BismarckGame(NAMES, seed=12).deal.dealt != a.deal.dealt


# --------------------------------------------------------------------------- B3

def test_b3_rotation():
    g = play_out(BismarckGame(NAMES, seed=3, dealer=1), random.Random(3))
    assert [d.dealer for d in g.deals] == [1, 2, 0] * 4
    assert [d.forehand for d in g.deals] == [2, 0, 1] * 4
    sheet = BismarckGame(NAMES, seed=3, dealer="Björn").sheet()
    assert [r['forehand'] for r in sheet.rows] == [2, 0, 1] * 4


# --------------------------------------------------------------------------- B4

def test_b4_modes_and_trump():
    assert [mode_trump(m, '♥' if m == 'trumf' else None) for m in MODES] == ['♠', '♥', None, None]
    assert mode_trump('noll') is None
    with pytest.raises(BismarckError, match="vilken färg som är trumf \\(B4\\)"):
        mode_trump('trumf')
    trick = "♥9 ♠2 ♥K"
    assert [bismarck_trick_winner(trick, m, '♦' if m == 'trumf' else None) for m in MODES] == [1, 2, 2, 2]
    assert bismarck_trick_winner("♥9 ♦2 ♥K", 'trumf', 'ruter') == 1


def test_b4_choose_mode_sets_trump_in_the_deal():
    g = BismarckGame(NAMES, seed=2)
    g.discard("Björn", g.deal.hand(1)[:4])
    with pytest.raises(BismarckError, match="vilken färg"):
        g.choose_mode("Björn", "trumf")
    g.choose_mode("Björn", "trumf", "k")
    assert (g.deal.mode, g.deal.trump, g.phase, g.players[g.to_act]) == ('trumf', '♣', 'playing', "Björn")


# --------------------------------------------------------------------------- B5

def test_b5_full_game_budget():
    g = BismarckGame(NAMES, seed=8)
    r = random.Random(8)
    assert g.n_deals == 12
    used = {0: [], 1: [], 2: []}
    while g.deal is not None:
        d = g.deal
        fh = d.forehand
        assert modes_left(g, fh) == [m for m in MODES if m not in used[fh]]
        assert list(d.modes) == modes_left(g, fh)
        g.discard(fh, d.hand(fh)[:4])
        for m in used[fh]:
            with pytest.raises(BismarckError, match=f"redan spelat {m} som förhand"):
                g.choose_mode(fh, m, '♥' if m == 'trumf' else None)
        m = r.choice(modes_left(g, fh))
        g.choose_mode(fh, m, '♥' if m == 'trumf' else None)
        used[fh].append(m)
        play_out(g, r, stop_after=48)
    assert all(sorted(u) == sorted(MODES) for u in used.values())


def test_b5_short_game_fixed_order():
    g = BismarckGame(NAMES, seed=8, short=True)
    assert g.n_deals == 3
    for i, mode in enumerate(SHORT_ORDER):
        fh = g.deal.forehand
        assert allowed_modes(short=True, deal_index=i) == [mode]
        g.discard(fh, g.deal.hand(fh)[:4])
        for other in MODES:
            if other != mode:
                with pytest.raises(BismarckError, match=f"giv {i + 1} som {mode}, inte {other} \\(B5\\)"):
                    g.choose_mode(fh, other, '♥' if other == 'trumf' else None)
        g.choose_mode(fh, mode, '♥' if mode == 'trumf' else None)
        play_out(g, random.Random(i), stop_after=48)
    assert g.phase == 'over'
    assert [d.forehand for d in g.deals] == [1, 2, 0]


# --------------------------------------------------------------------------- B6

def small_playing_game(mode='spader', trump=None):
    "Anna förhand (Cecilia deals); Anna holds all spades and ♥E ♥K ♥D, Björn all diamonds and ♣E ♣K ♣D."
    sp, he, ru, kl = ([c for c in FULL_DECK if c.suit == s] for s in SUITS)
    g = BismarckGame(NAMES, seed=0, dealer="Cecilia", hands=[sp + he[:3], ru + kl[:3], kl[3:9] + he[3:]],
                     upcards=kl[9:])
    g.discard("Anna", "♣5 ♣4 ♣3 ♣2").choose_mode("Anna", mode, trump)
    return g


def test_b6_forehand_leads_and_follow_suit():
    g = small_playing_game()
    assert g.players[g.to_act] == "Anna"
    g.play("Anna", "♥E")
    assert g.legal_cards() == g.deal.hand(1)                 # void in hearts: anything
    g.play("Björn", "♦2")
    assert g.legal_cards() == parse_cards("♥Kn ♥10 ♥9 ♥8 ♥7 ♥6 ♥5 ♥4 ♥3 ♥2")
    with pytest.raises(BismarckError, match="Cecilia måste följa färg: hjärter spelades ut .*\\(B6\\)"):
        g.play("Cecilia", "♣Kn")
    g.play("Cecilia", "♥2")
    assert g.deal.taken == [1, 0, 0] and g.players[g.to_act] == "Anna"
    assert legal_plays("♥K ♥3 ♠E", "♥9") == parse_cards("♥K ♥3")
    assert legal_plays("♠E ♦2", "♥9") == parse_cards("♠E ♦2")


def test_b6_winner_leads_and_trump_wins():
    g = small_playing_game('trumf', '♦')                      # Björn's diamonds are trump now
    g.play("Anna", "♥E").play("Björn", "♦2").play("Cecilia", "♥2")
    assert g.deal.taken == [0, 1, 0] and g.players[g.to_act] == "Björn"  # the lowest trump beats the ace
    g.play("Björn", "♣E")
    assert g.deal.leader == 1 and g.deal.trick == parse_cards("♣E")


def test_b6_sixteen_tricks():
    g = small_playing_game('sang')
    while g.deal_index == 0: g.play(g.to_act, g.legal_cards()[0])
    assert len(g.deals[0].history) == 16 and sum(g.deals[0].taken) == 16


# --------------------------------------------------------------------------- B7 and the variant

def test_b7_examples_and_zero_sum():
    assert bismarck_score("sang", [9, 5, 2], 0) == [1, 1, -2]
    assert bismarck_score("pass", [7, 3, 6], 1) == [-1, 1, 0]
    assert bismarck_score("spader", [10, 4, 2], 0) == [2, 0, -2]
    assert bismarck_score("pass", [2, 7, 7], 0) == [2, -1, -1]
    assert [normal_tricks(m, f) for m in ('trumf', 'pass') for f in (True, False)] == [8, 4, 4, 6]
    for mode in MODES:
        for a in range(17):
            for b in range(17 - a):
                for fh in range(3):
                    t = [a, b, 16 - a - b]
                    assert bismarck_score(mode, t, fh) == oracle_score(mode, t, fh)
                    assert sum(bismarck_score(mode, t, fh)) == 0
    with pytest.raises(BismarckError, match="summerar till 17"):
        bismarck_score("sang", [9, 5, 3], 0)


def test_variant_discards_count_as_trick():
    assert bismarck_score("sang", [7, 5, 4], 0, discards_count_as_trick=True) == [0, 1, 0]
    assert bismarck_score("pass", [4, 6, 6], 0, discards_count_as_trick=True) == [-1, 0, 0]
    for mode in MODES:
        for a in range(17):
            for fh in range(3):
                t = [a, 16 - a, 0]
                s = bismarck_score(mode, t, fh, discards_count_as_trick=True)
                assert s == oracle_score(mode, t, fh, variant=True)
                assert sum(s) == (-1 if mode == 'pass' else 1)
    # through the game: the same play with and without the house rule differs by one point for förhand
    plain, house = (play_out(BismarckGame(NAMES, seed=5, discards_count_as_trick=v), random.Random(5)) for v in (False, True))
    for a, b in zip(plain.deals, house.deals):
        assert a.taken == b.taken
        diff = [y - x for x, y in zip(a.points(), b.points())]
        assert diff == [(-1 if a.mode == 'pass' else 1) if s == a.forehand else 0 for s in range(3)]
        assert b.counted == [t + (s == b.forehand) for s, t in enumerate(b.taken)]
    assert json.loads(house.to_json())['discards_count_as_trick'] is True
    assert BismarckGame.from_json(house.to_json()) == house


def test_b8_worked_example_totals():
    "The replay card by card is in nbs/09_bismarck.ipynb; here only the arithmetic of B8."
    assert bismarck_score("sang", [9, 5, 2], 0) == [1, 1, -2]
    assert [a + b for a, b in zip(bismarck_score("sang", [9, 5, 2], 0), bismarck_score("pass", [7, 3, 6], 1))] == [0, 2, -2]


# --------------------------------------------------------------------------- properties

@prop_settings(N_FULL)
@given(games)
def test_property_random_full_games(p):
    g = BismarckGame(NAMES, seed=p['seed'], dealer=p['dealer'])
    check_finished_game(play_out(g, random.Random(p['actions'])))


@prop_settings(N_SHORT)
@given(games)
def test_property_random_short_games(p):
    g = BismarckGame(NAMES, seed=p['seed'], dealer=p['dealer'], short=True)
    check_finished_game(play_out(g, random.Random(p['actions'])))


@prop_settings(N_VARIANT)
@given(games, st.booleans())
def test_property_variant_games(p, short):
    g = BismarckGame(NAMES, seed=p['seed'], dealer=p['dealer'], short=short, discards_count_as_trick=True)
    check_finished_game(play_out(g, random.Random(p['actions'])))


@prop_settings(N_ROUNDTRIP)
@given(games, st.booleans(), st.booleans(), st.floats(0, 1))
def test_property_json_round_trip_at_random_point(p, short, variant, where):
    g = BismarckGame(NAMES, seed=p['seed'], dealer=p['dealer'], short=short, discards_count_as_trick=variant)
    total = 147 if short else 588
    r = random.Random(p['actions'])
    play_out(g, r, stop_after=int(where * total))
    text = g.to_json()
    copy = BismarckGame.from_json(text)
    assert copy == g and copy.to_json() == text
    assert copy.phase == g.phase and copy.to_act == g.to_act and copy.totals == g.totals
    if g.deal is not None:
        assert copy.deal.hands == g.deal.hands and copy.deal.trick == g.deal.trick
        assert copy.legal_cards() == g.legal_cards()
    r2 = random.Random()
    r2.setstate(r.getstate())
    play_out(g, r)
    play_out(copy, r2)
    assert copy == g and copy.totals == g.totals


# --------------------------------------------------------------------------- bad input

def snapshot(g: BismarckGame):
    d = g.deal
    deal = None if d is None else (d.dealer, d.hands, d.upcards, d.discards, d.mode, d.trump, list(d.taken),
                                   d.trick, d.history, d.phase, d.leader)
    return (g.to_json(), g.phase, g.to_act, g.deal_index, len(g.deals), g.totals, list(g.legal_cards()), deal)


def assert_refused(g, fn, *args, match):
    before = snapshot(g)
    with pytest.raises(BismarckError, match=match) as info:
        fn(*args)
    assert isinstance(info.value, ValueError)
    assert snapshot(g) == before
    return info.value


def test_bad_discards():
    g = BismarckGame(NAMES, seed=1)
    h = g.deal.hand(1)
    outsider = next(c for c in FULL_DECK if c not in h)
    assert_refused(g, g.discard, "Björn", h[:3], match="exakt fyra kort \\(B2\\), inte 3")
    assert_refused(g, g.discard, "Björn", h[:5], match="exakt fyra kort \\(B2\\), inte 5")
    assert_refused(g, g.discard, "Björn", [outsider, *h[:3]], match=f"{outsider} finns inte på Björns hand")
    assert_refused(g, g.discard, "Björn", "♠E ♠E ♥2 ♥3", match="står två gånger")
    assert_refused(g, g.discard, "Anna", g.deal.hand(0)[:4], match="inte Annas tur, utan Björns")
    assert_refused(g, g.choose_mode, "Björn", "sang", match="lägga bort fyra kort \\(B2\\)")
    assert_refused(g, g.play, "Björn", h[0], match="lägga bort fyra kort \\(B2\\)")
    g.discard("Björn", h[:4])
    assert_refused(g, g.discard, "Björn", g.deal.hand(1)[:4], match="välja spelsätt \\(B4\\)")


def test_bad_modes():
    g = BismarckGame(NAMES, seed=1)
    g.discard("Björn", g.deal.hand(1)[:4])
    assert_refused(g, g.choose_mode, "Björn", "grand", match="finns inte; välj spader, trumf, sang eller pass")
    assert_refused(g, g.choose_mode, "Björn", "trumf", match="vilken färg som är trumf \\(B4\\)")
    assert_refused(g, g.choose_mode, "Björn", "trumf", "lila", match="Färgen 'lila' finns inte")
    assert_refused(g, g.choose_mode, "Björn", "sang", "♥", match="ingen trumf \\(B4\\)")
    assert_refused(g, g.choose_mode, "Cecilia", "sang", match="inte Cecilias tur, utan Björns")
    # mode already used (B5): play Björn's first deal as sang, then reach his second turn as förhand
    g.choose_mode("Björn", "sang")
    r = random.Random(1)
    while not (g.deal_index == 3 and g.phase == 'mode'):
        random_action(g, r)
    assert g.players[g.forehand] == "Björn"
    assert_refused(g, g.choose_mode, "Björn", "sang", match="Björn har redan spelat sang som förhand.*\\(B5\\)")
    s = BismarckGame(NAMES, seed=1, short=True)
    s.discard("Björn", s.deal.hand(1)[:4])
    assert_refused(s, s.choose_mode, "Björn", "pass", match="giv 1 som trumf, inte pass \\(B5\\)")


def test_bad_plays():
    g = small_playing_game()
    assert_refused(g, g.play, "Björn", "♦2", match="inte Björns tur, utan Annas")
    assert_refused(g, g.play, "Anna", "♦2", match="♦2 finns inte på Annas hand")
    assert_refused(g, g.play, "Anna", "♣5", match="♣5 finns inte på Annas hand")     # discarded
    assert_refused(g, g.play, "Anna", "♥X", match="valören 'X' finns inte")
    assert_refused(g, g.play, "Erik", "♠E", match="ingen spelare 'Erik'")
    g.play("Anna", "♥E").play("Björn", "♦2")
    assert_refused(g, g.play, "Cecilia", "♣Kn", match="Cecilia måste följa färg")
    assert_refused(g, g.play_cards, "♥2 ♠K ♠D", match="♠D finns inte på Björns hand")  # atomic: none played
    assert len(g.deal.trick) == 2


def test_after_game_over():
    g = play_out(BismarckGame(NAMES, seed=2, short=True), random.Random(2))
    for fn, args in ((g.play, ("Anna", "♠E")), (g.discard, ("Anna", "♠E ♠K ♠D ♠Kn")),
                     (g.choose_mode, ("Anna", "sang")), (g.set_hands, (["♠E"], "♥2"))):
        assert_refused(g, fn, *args, match="Partiet är slut")
    assert g.legal_cards() == [] and modes_left(g, "Anna") == []


def test_bad_hands():
    g = BismarckGame(NAMES, seed=1)
    up, hands = deal_cards(seed=2)
    assert_refused(g, g.set_hands, [h[:15] for h in hands], up, match="16 kort")
    assert_refused(g, g.set_hands, [hands[0], hands[0], hands[2]], up, match="två gånger")
    assert_refused(g, g.set_hands, hands, None, match="uppvända")
    g.set_hands(hands, up)
    assert g.deal.upcards == up
    g.discard("Björn", g.deal.hand(1)[:4])
    assert_refused(g, g.set_hands, hands, up, match="innan förhand har lagt bort")


def test_corrupted_json():
    g = BismarckGame(NAMES, seed=6)
    play_out(g, random.Random(6), stop_after=30)
    text = g.to_json()
    d = json.loads(text)
    with pytest.raises(BismarckError, match="ingen giltig JSON"): BismarckGame.from_json(text[:-5])
    with pytest.raises(BismarckError, match="inte ett Bismarck-parti som plump_teach har sparat"): BismarckGame.from_json('[1, 2]')
    with pytest.raises(BismarckError, match="version 99"): BismarckGame.from_dict({**d, 'version': 99})
    with pytest.raises(BismarckError, match="fältet events \\(dragen i partiet\\) saknas"):
        BismarckGame.from_dict({k: v for k, v in d.items() if k != 'events'})
    with pytest.raises(BismarckError, match="Sparfilen är skadad: .*exakt 3 spelare"):
        BismarckGame.from_dict({**d, 'players': ["Anna", "Björn"]})
    bad = json.loads(text)
    bad['events'][10] = ['play', bad['events'][10][1], bad['events'][9][2]]   # a card already played
    with pytest.raises(BismarckError, match="^Sparfilen är skadad: i giv 1 står det att (Anna|Björn|Cecilia) lägger "
                                            "..?.?, och det går inte\\. .* finns inte på .* hand\\. Filen har inte lästs in\\.$"):
        BismarckGame.from_dict(bad)
    for e in (['kasta', 1], ['play', 1], [], 'play', ['mode', 1, 'sang', None, 'extra']):
        bad = json.loads(text)
        bad['events'][5] = e
        with pytest.raises(BismarckError, match="^Sparfilen är skadad: i giv 1 (finns|står) .*Filen har inte lästs in\\.$"):
            BismarckGame.from_dict(bad)
    assert BismarckGame.from_json(text) == g


def test_import_pulls_in_no_notebook_machinery():
    code = ("import sys, plump_teach.engine.bismarck\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'IPython', 'fastcore')]\n"
            "print(bad); sys.exit(1 if bad else 0)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, 'PYTHONPATH': str(ROOT)})
    assert res.returncode == 0, res.stdout + res.stderr


def test_smart_discard_helpers():
    hand = parse_cards("♥E ♥K ♥D ♥Kn ♥9 ♥7 ♥4 ♠E ♠8 ♠5 ♠3 ♣6 ♣3 ♣2 ♦K ♦D ♦9 ♦6 ♦5 ♦2")
    assert smart_discard(hand, 'trumf', '♥') == parse_cards("♣6 ♣3 ♣2 ♦2")
    assert smart_discard(hand, 'pass') == parse_cards("♠E ♥E ♥K ♦K")
    with pytest.raises(BismarckError, match="20 kort"):
        smart_discard(hand[:16], 'pass')


def test_score_sheet():
    g = BismarckGame(NAMES, seed=7, short=True)
    assert [r['mode'] for r in g.sheet().rows] == list(SHORT_ORDER)
    assert [r['points'] for r in g.sheet(only_played=True).rows] == [None]     # bara given som pågår
    play_out(g, random.Random(7))
    sheet = g.sheet()
    running = [0, 0, 0]
    for r, d in zip(sheet.rows, g.deals):
        assert (r['forehand'], r['mode'], r['points']) == (d.forehand, d.mode, d.points())
        running = [a + b for a, b in zip(running, d.points())]
        assert r['running'] == running
    assert sheet.totals == running == g.totals
    text = str(sheet)
    assert text.splitlines()[0].split() == ['Giv', 'Förhand', 'Spelsätt', *NAMES]
    assert 'Summa' in text and 'trumf ' in text
    html = sheet._repr_html_()
    assert '<caption>Protokoll, Bismarck</caption>' in html and all(n in html for n in NAMES)
    assert g._repr_html_() == html


# --------------------------------------------------------------------------- names, genitive, HTML (issue 10)

@pytest.mark.parametrize("players, fragment", [
    (["A\u030asa", "Björn", "Åsa"], "Två spelare heter Åsa"),          # NFD and NFC: the same name on screen
    (["Anna", "Björn", "Anna\u200b"], "Två spelare heter Anna"),       # a zero-width space does not make a new name
    (["Anna", "Björn", " anna "], "Två spelare heter anna"),           # case and spaces
    ("Abc", "Skriv spelarna som en lista med namn"),                   # not three players A, b, c
    ({"Anna": 1, "Björn": 2, "Cecilia": 3}, "Skriv spelarna som en lista med namn"),
    (["Anna", "Björn", 7], "Spelare 3 behöver ett namn skrivet med bokstäver"),
    (["Anna", "Björn", "\u200b"], "Spelare 3 behöver ett namn; det får inte vara tomt"),
])
def test_names_that_look_the_same_or_are_no_names(players, fragment):
    with pytest.raises(BismarckError, match=fragment):
        BismarckGame(players, seed=1)


def test_names_are_cleaned_and_found_as_they_look():
    g = BismarckGame(["A\u030asa ", "Björn\u200b", "Cecilia"], seed=1)
    assert g.players == ["Åsa", "Björn", "Cecilia"]
    assert g.seat("A\u030asa") == 0 and g.seat(" björn ") == 1 and g.seat(2) == 2
    g.discard("BJÖRN", g.deal.hand(1)[:4])                       # found by the name as it looks
    assert g.phase == 'mode'
    for bad in (True, 1.0, [1], None, "Erik"):
        with pytest.raises(BismarckError) as info:
            g.seat(bad)
        assert "spelare" in str(info.value) and "[" not in str(info.value)


def test_genitive_and_default_seat_names():
    "Lars tur (not Larss), and a deal without names calls the seats plats 1-3, counted from 1."
    g = BismarckGame(["Lars", "Max", "Cecilia"], seed=1, dealer="Cecilia")   # Lars is förhand
    h = g.deal.hand(0)
    outsider = next(c for c in FULL_DECK if c not in h)
    with pytest.raises(BismarckError, match=f"^{outsider} finns inte på Lars hand;"):
        g.discard("Lars", [outsider, *h[:3]])
    with pytest.raises(BismarckError, match="^Det är inte Max tur, utan Lars\\.$"):
        g.discard("Max", g.deal.hand(1)[:4])
    up, hands = deal_cards(seed=3)
    d = BismarckDeal(hands, up, dealer=0)
    assert d.names == ["plats 0", "plats 1", "plats 2"]
    with pytest.raises(BismarckError, match="^Det är inte plats 0:s tur, utan plats 1:s\\.$"):
        d.discard(0, hands[0][:4])


EVIL = '<img src=x onerror="alert(1)">'


def test_every_name_is_escaped_in_html():
    g = BismarckGame([EVIL, "Bo & Co", "Cissi"], seed=4, short=True)
    play_out(g, random.Random(4), stop_after=40)
    pages = [g._repr_html_(), g.sheet()._repr_html_(), g.deal._repr_html_(), g.deal.tricks_html()._repr_html_()]
    for page in pages:
        assert "<img" not in page and 'onerror="' not in page
        assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page
    assert "Bo &amp; Co" in pages[0]


def test_no_internal_codes_or_python_text_in_messages():
    g = small_playing_game()
    g.play("Anna", "♥E").play("Björn", "♦2")
    with pytest.raises(BismarckError) as info:
        g.play("Cecilia", "♣Kn")
    msg = str(info.value)
    assert "(follow_suit)" not in msg and msg.endswith("(B6).") and "Cecilia måste följa färg" in msg
    for call in (lambda: BismarckGame(NAMES, seed=1, short="ja"), lambda: BismarckGame(NAMES, seed=10**30),
                 lambda: BismarckGame(NAMES, discards_count_as_trick=1), lambda: BismarckDeal([], [], dealer=3),
                 lambda: bismarck_score("sang", "abc", 0), lambda: bismarck_score("sang", [8, 4, 4], [0]),
                 lambda: allowed_modes(7), lambda: mode_trump("trumf", ["♥"]), lambda: modes_left(None, 0)):
        with pytest.raises(BismarckError) as info:
            call()
        msg = str(info.value)
        assert not any(bad in msg for bad in ("`", "_", "<class", "Traceback", "inte [", "{")), msg


# --------------------------------------------------------------------------- hostile saves (issue 10)

def saved_game():
    g = BismarckGame(NAMES, seed=6)
    play_out(g, random.Random(6), stop_after=25)
    return g, g.to_dict()


@pytest.mark.parametrize("change, fragment", [
    ({'version': True}, "inget giltigt versionsnummer"),
    ({'version': 1.0}, "inget giltigt versionsnummer"),
    ({'players': {"Anna": 0, "Björn": 1, "Cecilia": 2}}, "Skriv spelarna som en lista med namn"),
    ({'players': ["Anna", "A\u030anna", "Cecilia"]} , None),      # three different names: loads
    ({'seed': 10**5000}, "Fröet ska vara ett heltal med högst 18 siffror"),
    ({'short': 1}, "Kort parti .* ska vara True eller False"),
])
def test_hostile_save_fields(change, fragment):
    g, d = saved_game()
    bad = {**d, **change}
    if fragment is None:
        BismarckGame.from_dict(bad)
        return
    with pytest.raises(BismarckError, match=fragment) as info:
        BismarckGame.from_dict(bad)
    assert "Traceback" not in str(info.value) and "Errno" not in str(info.value)
    assert g.to_dict() == d


def test_hostile_save_texts():
    g, d = saved_game()
    text = json.dumps(d)
    deep = '{"format": "plump_teach.BismarckGame", "version": 1, "players": ' + '[' * 50_000 + ']' * 50_000 + '}'
    cases = {
        deep: "för många nivåer",
        '[' * 100_000: "för många nivåer",
        text.replace('"seed": 6', '"seed": ' + '9' * 5000): "alldeles för många siffror",
        b'\xff\xfe' + text.encode(): "ingen text i UTF-8",
        text.encode('utf-8'): None,                                 # bytes in UTF-8 are read as text
        "": "ingen giltig JSON",
        42: "texten i en sparfil",
    }
    for value, fragment in cases.items():
        if fragment is None:
            assert BismarckGame.from_json(value) == g
            continue
        with pytest.raises(BismarckError, match=fragment) as info:
            BismarckGame.from_json(value)
        msg = str(info.value)
        assert "line 1 column" not in msg and "codec" not in msg and "Exceeds" not in msg


def test_bad_event_is_described_in_the_players_words():
    g, d = saved_game()
    i = next(i for i, e in enumerate(d['events']) if e[0] == 'mode')
    bad = json.loads(json.dumps(d))
    bad['events'][i] = ['mode', bad['events'][i][1], 'grand', None]
    name = NAMES[bad['events'][i][1]]
    with pytest.raises(BismarckError) as info:
        BismarckGame.from_dict(bad)
    assert str(info.value) == (f"Sparfilen är skadad: i giv 1 står det att {name} väljer grand, och det går inte. "
                               "Spelsättet 'grand' finns inte; välj spader, trumf, sang eller pass (B4). "
                               "Filen har inte lästs in.")
