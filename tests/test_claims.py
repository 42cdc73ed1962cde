"""Every sentence the computer says about a trick is true (issue 27): a referee independent of the bots.

The bots play whole deals of Plump and Bismarck (the usual player and the expert, on random house rules). Each card
reason is read for what it claims about the trick it is played to, and when that trick is over the claim is checked
against the engine's winner (P11, B6):

- "Jag tar sticket med X", "… tar det här med X", "är sist och tar sticket … med X": the bot's seat takes it.
- "Min medspelare M tar sticket": M takes it (Bismarck, B9).
- "X kan ingen slå": X takes the trick, or, when X was led by the partner, the partner does.
- "X kan ingen slå i <färg>, bara en trumf kan ta det": X takes it, or a trump does.
- "spelar ut X, det högsta <färg>kortet som är kvar": when it is said, every higher card of the suit has been played,
  is in the speaker's own hand or is the turned card set aside (P8) (checked at once, against the engine).

A sentence of a kind the referee does not know is not checked; the count of each kind checked is asserted, so a
reworded sentence that escapes the referee fails here instead of going unchecked.
"""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from plump_teach.bismarck import BismarckGame
from plump_teach.bots import make_bot
from plump_teach.cards import FULL_DECK, parse_card
from plump_teach.play import BismarckState, Discard, PlayCard, PlumpState
from plump_teach.plump import PlumpGame
from plump_teach.plump_rules import PlumpError, PlumpRules

CARD = r"([♠♥♦♣](?:10|[2-9]|Kn|D|K|E))"
CLAIMS = [
    ('own', re.compile(r"Jag tar sticket med " + CARD)),
    ('own', re.compile(r"tar det här med " + CARD)),
    ('own', re.compile(r"är sist och tar sticket så billigt som möjligt, med " + CARD)),
    ('partner', re.compile(r"Min medspelare (\w+) tar sticket")),
    ('ruffable', re.compile(CARD + r" kan ingen slå i \w+, bara en trumf kan ta det")),
    ('sure', re.compile(CARD + r" kan ingen slå(?! i )")),
]
HIGHEST = re.compile(r"spelar ut " + CARD + r", det högsta \w+kortet som är kvar")
FAST = dict(samples=4)


def claims(reason: str):
    "The claims in a reason: (kind, value) with value a card, or a name for 'partner'."
    out = []
    for kind, rx in CLAIMS:
        for m in rx.finditer(reason):
            out.append((kind, m.group(1) if kind == 'partner' else parse_card(m.group(1))))
    return out


def check(kind, value, seat, names, cards, winner, trump) -> bool:
    "Is the claim true of the finished trick? `cards` by seat, `winner` the seat that took it."
    won = cards[winner]
    if kind == 'own': return winner == seat
    if kind == 'partner': return names[winner] == value
    if kind == 'sure': return won == value
    if kind == 'ruffable': return won == value or (trump is not None and won.suit == trump)
    raise AssertionError(kind)


class Referee:
    def __init__(self):
        self.pending, self.counts, self.false, self.decisions = [], Counter(), [], 0

    def said(self, st, seat, reason):
        self.decisions += 1
        for m in HIGHEST.finditer(reason):
            card = parse_card(m.group(1))
            gone = {c for _, t, _ in st.history for c in t} | set(st.trick) | set(st.view(seat).hand)
            turned = getattr(st, 'trump_card', None)      # the turned card is set aside, unless the deck is all dealt
            if turned is not None and st.n * st.cards < 52: gone.add(turned)
            higher = [c for c in FULL_DECK if c.suit == card.suit and c.rank > card.rank]
            self.counts['highest'] += 1
            if not all(c in gone for c in higher):
                self.false.append(f"{reason} | högre kort ute: {[str(c) for c in higher if c not in gone]}")
        for kind, value in claims(reason):
            self.pending.append((len(st.history), kind, value, seat, reason))

    def play(self, st, game, seat, decision):
        "The bot's card: read its reason, play it in the state and the game, and judge the trick when it is over."
        self.said(st, seat, decision.reason)
        before = len(st.history)
        st.apply(decision.action)
        game.play(seat, decision.action.card)
        if len(st.history) > before: self.trick_done(st, game.players, st.trump)

    def trick_done(self, st, names, trump):
        leader, trick, winner = st.history[-1]
        cards = {(leader + i) % len(names): c for i, c in enumerate(trick)}
        keep = []
        for p in self.pending:
            number, kind, value, seat, reason = p
            if number != len(st.history) - 1: keep.append(p); continue
            self.counts[kind] += 1
            if not check(kind, value, seat, names, cards, winner, trump):
                self.false.append(f"{reason} | stick {number + 1}: {' '.join(map(str, trick))}, "
                                  f"{names[winner]} tog det")
        self.pending = keep


def random_rules(rng, n):
    while True:
        try:
            r = PlumpRules(sang=rng.random() < 0.2, must_trump=rng.random() < 0.3, first_deal_sang=rng.random() < 0.3,
                           turned_ace_sang=rng.random() < 0.3, highest_bidder_leads=rng.random() < 0.3)
            return r
        except PlumpError:
            continue


def play_plump(seed: int, ref: Referee):
    rng = random.Random(f"claims:{seed}")
    n = 3 + seed % 3
    g = PlumpGame([f"S{i}" for i in range(n)], random_rules(rng, n), seed=seed, first_deal=rng.randrange(4))
    levels = ['van', 'expert', 'van', 'nybörjare', 'expert']
    bots = [make_bot(levels[(i + seed) % 5], seed * 10 + i, **FAST) for i in range(n)]
    for _ in range(3):                                   # three deals of each game
        if g.deal is None: break
        done = len(g.deals)
        while g.deal is not None and len(g.deals) == done:
            st = PlumpState.from_game(g)
            seat = st.to_act
            d = bots[seat].decide(st.view(seat))
            if isinstance(d.action, PlayCard): ref.play(st, g, seat, d)
            else: g.bid(seat, d.action.tricks)


def play_bismarck(seed: int, ref: Referee):
    g = BismarckGame(['Anna', 'Bo', 'Cissi'], seed=seed, short=True)
    levels = ['van', 'expert', 'van']
    bots = [make_bot(levels[(i + seed) % 3], seed * 10 + i, **FAST) for i in range(3)]
    while g.deal is not None:
        st = BismarckState.from_game(g)
        seat = st.to_act
        if st.phase == 'discard':
            cards = []
            for _ in range(4):
                d = bots[seat].decide(st.view(seat))
                st.apply(d.action)
                cards.append(d.action.card)
            g.discard(seat, cards)
            continue
        d = bots[seat].decide(st.view(seat))
        if isinstance(d.action, PlayCard): ref.play(st, g, seat, d)
        else: g.choose_mode(seat, d.action.mode, d.action.trump)


def test_the_referee_reads_the_sentences():
    assert claims("Jag tar sticket med ♦Kn; normalen för förhand är 8 stick (B7).") == [('own', parse_card('♦Kn'))]
    assert claims("Jag behöver 1 stick till, och ♥E kan ingen slå i hjärter, bara en trumf kan ta det (P20).") == \
        [('ruffable', parse_card('♥E'))]
    assert claims("Jag spelar ut ♠E: ♠E kan ingen slå; normalen …") == [('sure', parse_card('♠E'))]
    assert claims("Min medspelare Bo tar sticket, så jag lägger lågt, ♦2 (B9).") == [('partner', 'Bo')]
    names, trump = ['A', 'B', 'C'], '♠'
    cards = {0: parse_card('♥E'), 1: parse_card('♠2'), 2: parse_card('♥3')}
    assert not check('sure', parse_card('♥E'), 0, names, cards, 1, trump)      # ruffed: "kan ingen slå" was false
    assert check('ruffable', parse_card('♥E'), 0, names, cards, 1, trump)      # ... but this wording is true


@pytest.mark.parametrize("game", ["plump", "bismarck"])
def test_what_the_computer_says_about_a_trick_comes_true(game):
    ref = Referee()
    for seed in range(20 if game == 'plump' else 6):
        (play_plump if game == 'plump' else play_bismarck)(seed, ref)
    assert not ref.false, f"{len(ref.false)} false of {sum(ref.counts.values())}:\n" + "\n".join(ref.false[:10])
    print(f"\n[claims] {game}: {dict(ref.counts)}")
    need = {'plump': ('own', 'ruffable', 'sure', 'highest'), 'bismarck': ('own', 'partner', 'sure')}[game]
    for kind in need:
        assert ref.counts[kind] >= 5, (kind, dict(ref.counts))
