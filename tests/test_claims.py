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
- "sakar X" (issue 37): X is not a trump (to saka is to lay a card that is not trump, P10); a trump laid is said so.
- "släpper X, det högsta kort som inte tar sticket" (issue 37): of the legal cards that do not beat the trick so far,
  none is as high as X; "ett av de högsta korten …": none higher and another as high; "min högsta trumf …": X is a
  trump and no losing trump is higher.
- what the table hears (`public_reason`, issue 37) for every decision, bids, cards, modes and Bismarck's discards:
  it names no card that only the player has seen (its hand, apart from Bismarck's face-up cards and the card it
  plays, its discards and the card it lays away).

The second referee (`Words`) reads what the computer says when it bids, plans and lays away (P20, B5, B7, B9) and
checks each claim at once against its cards and the engine's rules:

- the three piles ("säkra …, möjliga …, fyllnad …"): every card of the hand in exactly one pile, and the piles are
  exactly the one meaning of säkert and möjligt stick (issue 37, `sure_piles`); the bot's own count said apart
  ("X räknar jag som ett helt stick: …", "… lika högt som ett möjligt stick: …") is checked against the cards;
- "X är ett högt kort"/"höga kort" (knekt or higher), "X är en hög trumf" (a ten of trumps);
- the bids before it ("jag bjuder sist och ser att de andra har bjudit N", "spelaren före mig har redan bjudit N, så
  det blir kamp om sticken", "… bara bjudit N, så det blir stick över"): who bid, the sum, and more or less than
  their share of the tricks;
- the sample deals of a bid: the percentages of the spread add up to 100, the hit rate is the spread's row for the
  bid, the average is the hit rate times the bid's points (P13), and no other bid "played for itself" gave more;
- Bismarck: "jag har N hjärter med …" (the 20 cards), "N honnörspoäng" (ess 4, kung 3, dam 2, knekt 1), "ingen
  lång färg" (no suit of six), "i det korta partiet spelas giv k som …" (B5), "normalen för … är N stick" (B7), the
  modes' averages (the chosen one the highest, or the stated small difference the difference shown), and each
  group of cards laid away: "mina högsta kort" (no kept card higher), "låga kort" (ten or lower), "utanför
  trumfen", "då har jag inga <färg> kvar" (none kept), "i en kort färg" (at most three of the 20), "mina lägsta
  trumfkort", "en dam i en kort färg".

A sentence of a kind the referee does not know is not checked; the count of each kind checked is asserted, so a
reworded sentence that escapes the referee fails here instead of going unchecked.
"""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from plump_teach.engine.bismarck_game import BismarckGame
from plump_teach.bots.players import make_bot, public_reason
from plump_teach.bots.decision import frequency_words
from plump_teach.engine.cards import FULL_DECK, SUITS, SUIT_NAMES, parse_card, parse_cards
from plump_teach.engine.state import BismarckState, PlumpState
from plump_teach.engine.actions import Discard, PlayCard
from plump_teach.engine.tricks import beats
from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpError, PlumpRules, score
from plump_teach.engine.actions import Bid, ChooseMode

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
SHED = re.compile(r"sakar " + CARD)
LOSER = re.compile(r"släpper (?:jag )?" + CARD + r", (det högsta kort|ett av de högsta korten|min högsta trumf) som inte tar sticket")
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
        for m in SHED.finditer(reason):
            self.counts['shed'] += 1
            if st.trump is not None and parse_card(m.group(1)).suit == st.trump:
                self.false.append(f"{reason} | {m.group(1)} är trumf, och att saka är att lägga ett kort som inte är trumf")
        for m in LOSER.finditer(reason):
            self.counts['loser'] += 1
            card, what = parse_card(m.group(1)), m.group(2)
            if (bad := self.loser_wrong(st, card, what)): self.false.append(f"{reason} | {bad}")
        for kind, value in claims(reason):
            self.pending.append((len(st.history), kind, value, seat, reason))

    @staticmethod
    def loser_wrong(st, card, what) -> str:
        "Why 'släpper X, <what> som inte tar sticket' is false before X is played, or '' when it is true."
        trump = None if st.trump is None else SUITS.index(st.trump)
        best = st.trick[0].id
        for c in st.trick[1:]:
            if beats(c.id, best, trump): best = c.id
        losers = [a.card for a in st.legal_actions() if not beats(a.card.id, best, trump)]
        if card not in losers: return f"{card} tar sticket hittills"
        others = [c for c in losers if c != card]
        if what == 'min högsta trumf':
            ok = card.suit == st.trump and not any(c.suit == st.trump and c.rank > card.rank for c in others)
        elif what == 'ett av de högsta korten':
            ok = not any(c.rank > card.rank for c in others) and any(c.rank == card.rank for c in others)
        else: ok = not any(c.rank >= card.rank for c in others)
        return '' if ok else f"andra kort som inte tar sticket: {' '.join(map(str, others))}"

    def aloud(self, st, seat, decision):
        "What the table hears of the decision names no card that only this seat has seen."
        view = st.view(seat)
        hidden = (set(view.hand) - set(getattr(view, 'upcards', ()))) | set(getattr(view, 'discards', None) or ())
        if isinstance(decision.action, PlayCard): hidden.discard(decision.action.card)   # on the table for all
        if isinstance(decision.action, Discard): hidden.add(decision.action.card)        # face down
        said = public_reason(decision, view)
        self.counts['aloud'] += 1
        named = [c for c in hidden if re.search(re.escape(str(c)) + r"(?![0-9n])", said)]
        if named: self.false.append(f"vid bordet: {said} | bara spelaren har sett {' '.join(map(str, named))}")

    def play(self, st, game, seat, decision):
        "The bot's card: read its reason, play it in the state and the game, and judge the trick when it is over."
        self.said(st, seat, decision.reason)
        self.aloud(st, seat, decision)
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
            else:
                ref.aloud(st, seat, d)
                g.bid(seat, d.action.tricks)


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
                ref.aloud(st, seat, d)
                st.apply(d.action)
                cards.append(d.action.card)
            g.discard(seat, cards)
            continue
        d = bots[seat].decide(st.view(seat))
        if isinstance(d.action, PlayCard): ref.play(st, g, seat, d)
        else:
            ref.aloud(st, seat, d)
            g.choose_mode(seat, d.action.mode, d.action.trump)


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
    need = {'plump': ('own', 'ruffable', 'sure', 'highest', 'shed', 'loser', 'aloud'),
            'bismarck': ('own', 'partner', 'sure', 'loser', 'aloud')}[game]
    for kind in need:
        assert ref.counts[kind] >= 5, (kind, dict(ref.counts))


# ---- the second referee: what the computer says when it bids, plans and lays away --------------------------------
ONE = r"[♠♥♦♣](?:10|[2-9]|Kn|D|K|E)"
CARDS = r"(" + ONE + r"(?: " + ONE + r")*)"
SUIT_OF = {name: suit for suit, name in SUIT_NAMES.items()}
SUIT_WORD = "(" + "|".join(SUIT_NAMES.values()) + ")"
NUM = r"([−-]?\d+(?:,\d)?)"
HONOUR = {14: 4, 13: 3, 12: 2, 11: 1}
RANK_WORD = {'knekt': 11, 'dam': 12, 'kung': 13, 'ess': 14}


def num(text: str) -> float: return float(text.replace(',', '.').replace('+', '').replace('−', '-'))


def cards_of(text: str) -> list: return list(parse_cards(text)) if text else []


def same(a, b) -> bool: return sorted(map(str, a)) == sorted(map(str, b))


def sure_piles(hand) -> dict:
    """The one meaning of the piles (notes/sure.md), written here apart from the library: sure is an ace, a king with
    at least three cards in its suit, or a card whose every higher card of the suit is in the hand (trumps alike);
    possible is another queen, knave or king; filler is the rest."""
    hand = list(hand)
    n = lambda s: sum(c.suit == s for c in hand)
    def is_sure(c):
        return c.rank == 14 or (c.rank == 13 and n(c.suit) >= 3) or \
            all(x in hand for x in FULL_DECK if x.suit == c.suit and x.rank > c.rank)
    return {'sure': [c for c in hand if is_sure(c)],
            'possible': [c for c in hand if not is_sure(c) and 11 <= c.rank <= 13],
            'filler': [c for c in hand if not is_sure(c) and c.rank <= 10]}


class Words:
    "Checks the claims in the computer's bid, plan and discard sentences against its cards (see the module's doc)."
    def __init__(self):
        self.counts, self.false, self.decisions, self.plans = Counter(), [], 0, 0

    def claim(self, kind: str, ok: bool, reason: str, why: str = ''):
        self.counts[kind] += 1
        if not ok: self.false.append(f"[{kind}] {reason} | {why}")

    # -- Plump: a bid ------------------------------------------------------------------------------------------
    def bid(self, view, decision):
        self.decisions += 1
        r, hand, trump = decision.reason, list(view.hand), view.trump
        m = re.search(r"(säkra " + CARDS + r"|inga säkra), (möjliga (.*?)|inga möjliga)(?:, fyllnad " + CARDS + r")? \(P20\)", r)
        if m: self.piles(view, m, r)
        for m in re.finditer(CARDS + r" (är ett högt kort|är höga kort)", r):
            self.claim('high', all(c.rank >= 11 for c in cards_of(m.group(1))), r, m.group(0))
        for m in re.finditer(CARDS + r" är en hög trumf", r):
            self.claim('high', all(c.suit == trump and c.rank >= 10 for c in cards_of(m.group(1))), r, m.group(0))
        earlier = [(s, b) for s, b in enumerate(view.bids) if b is not None and s != view.seat]
        total = sum(b for _, b in earlier)
        if m := re.search(r"jag bjuder sist och ser att de andra har bjudit (\d+)", r):
            last = sum(b is None for b in view.bids) == 1 and view.bids[view.seat] is None
            self.claim('bids', last and int(m.group(1)) == total, r, f"bud {view.bids}")
        if m := re.search(r"(spelaren före mig|de andra) har (redan|bara) bjudit (\d+), så det blir (kamp om sticken|stick över)", r):
            share = len(earlier) * view.cards / view.n
            ok = (m.group(1) == 'spelaren före mig') == (len(earlier) == 1) and int(m.group(3)) == total
            ok = ok and (total > share if m.group(2) == 'redan' else total < share)
            self.claim('bids', ok, r, f"bud {view.bids}, andel {share:.1f}")
        # the words for the pupil ('träffade bud 2 oftast'), true for the counts behind "Datorns siffror"
        if w := re.search(r"träffade bud (\d+) (aldrig|nästan aldrig|sällan|ungefär varannan gång|oftast|nästan alltid|"
                          r"alltid)(, och inget annat bud gav fler poäng)?", r):
            k, b = decision.details['samples'], int(w.group(1))
            h = round(decision.details['chance'][b] * k)
            exp = decision.details['expected']
            self.claim('often', frequency_words(h, k) == w.group(2) and decision.action == Bid(b)
                       and (not w.group(3) or exp[b] >= max(exp.values()) - 1e-6), r, f"{h} av {k}")
            self.claim('often', not re.search(r"%|snitt|provgivar", r), r, "numbers words")
        if m := re.search(r"I (\d+) provgivar med bud (\d+) tog jag (.*?), så budet träffade i (\d+) av \d+ och gav " + NUM
                          + r" poäng i snitt", decision.numbers or ''):
            self.spread(view, m, decision.numbers, decision)

    def piles(self, view, m, r):
        hand, trump = list(view.hand), view.trump
        sure = cards_of(m.group(2)) if m.group(2) else []
        ptext = m.group(4) or ''
        small = re.search(r"(?:den lilla trumfen|de små trumfen) " + CARDS, ptext)
        possible = cards_of(re.sub(r"(?: och )?(?:den lilla trumfen|de små trumfen) .*", "", ptext).strip()) \
            + (cards_of(small.group(1)) if small else [])
        filler = cards_of(m.group(5)) if m.group(5) else []
        if small: self.claim('piles', all(c.suit == trump for c in cards_of(small.group(1))), r, small.group(0))
        if m.group(5) is not None or not [c for c in hand if c not in sure + possible]:
            self.claim('piles', same(sure + possible + filler, hand), r, f"handen {' '.join(map(str, hand))}")
        seen = set(hand) | ({view.trump_card} if view.trump_card is not None and view.n * view.cards < 52 else set())
        rule = sure_piles(hand)               # the one meaning of säkert and möjligt stick (issue 37, notes/sure.md)
        self.claim('sure', same(sure, rule['sure']), r, f"säkra enligt tumregeln: {' '.join(map(str, rule['sure']))}")
        self.claim('possible', same(possible, rule['possible']), r,
                   f"möjliga enligt tumregeln: {' '.join(map(str, rule['possible']))}")
        for c in filler: self.claim('filler', c in rule['filler'], r, str(c))
        self.counted(view, r, seen)

    def counted(self, view, r, seen):
        "The bot's own count, said apart from the piles: 'X räknar jag som ett helt stick: <why>' and the like."
        hand, trump = list(view.hand), view.trump
        length = lambda s: sum(x.suit == s for x in hand)
        out = lambda c: [x for x in FULL_DECK if x.suit == c.suit and x.rank > c.rank and x not in seen]
        for m in re.finditer(CARDS + r" räknar jag (?:bara )?(?:som (?:ett helt|hela) stick|lika högt som (?:ett möjligt|möjliga) stick): ([^;.]*)", r):
            cs, why = cards_of(m.group(1)), m.group(2)
            if why.startswith("jag har fler trumf än det finns högre trumf som kan sitta hos de andra"):
                ok = all(c.suit == trump and length(trump) > len(out(c)) for c in cs)
            elif why.startswith("en trumf kan ta sticket när jag saknar färgen som spelas ut"):
                ok = all(c.suit == trump for c in cs)
            elif why.startswith("inget högre kort i färgen kan sitta hos de andra"):
                ok = all(not out(c) for c in cs)
            elif why.startswith("bara ett högre kort i färgen kan sitta hos de andra, och jag har minst tre kort i färgen"):
                ok = all(len(out(c)) == 1 and length(c.suit) >= 3 for c in cs)
            elif mm := re.match(r"när (\w+) har gått (två|tre) varv kan någon sakna \1 och trumfa", why):
                ok = trump is not None and all(c.suit == SUIT_OF[mm.group(1)] != trump for c in cs)
            else:
                self.false.append(f"[okänt skäl] {why} | {r}")
                continue
            # a card is called neither sure nor possible here: 'lika högt som' compares, it does not name the pile
            self.claim('counted', ok, r, m.group(0))

    def spread(self, view, m, r, decision):
        n, bid, rows, hit, avg = int(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4)), num(m.group(5))
        spread = {int(t): int(p) for t, p in re.findall(r"(\d+) stick (\d+) gång", rows)}     # counts of `n`
        points = score(bid, bid, view.cards, view.rules)
        ok = sum(spread.values()) == n and spread.get(bid, 0) == hit
        ok = ok and abs(avg - hit / n * points) <= 0.05 + 1e-9   # the average is the hits times the points
        ok = ok and decision.action == Bid(bid)
        self.claim('spread', ok, r, f"{spread}, {points} poäng för bud {bid}")
        if o := re.search(r"i stället bjöd och spelade för det fick jag (.*?)\.$", r):
            others = [num(v) for v, _ in re.findall(NUM + r" med bud (\d+)", o.group(1))]
            self.claim('others', all(v <= avg + 0.05 for v in others), r, f"{others} mot {avg}")

    # -- Bismarck: förhand's plan, mode and discards, and the normal in a card reason -------------------------------
    def plan(self, view, reason, chosen=None, discards=None):
        "`chosen` (mode, trump) when known; `discards`: the cards laid away with this reason."
        self.decisions += 1
        self.plans += 1
        hand20 = list(view.hand) + list(view.discards or ())
        length = {s: sum(c.suit == s for c in hand20) for s in SUIT_NAMES}
        if m := re.search(r"jag har (\d+) " + SUIT_WORD + r"(?: med " + CARDS + ")?", reason):
            suit = SUIT_OF[m.group(2)]
            honours = cards_of(m.group(3)) if m.group(3) else []
            ok = length[suit] == int(m.group(1)) and all(c in hand20 and c.suit == suit for c in honours)
            ok = ok and same(honours, [c for c in hand20 if c.suit == suit and c.rank >= 11])
            self.claim('length', ok, reason, f"{length}")
        if m := re.search(r"jag har (?:bara )?(\d+) honnörspoäng", reason):
            self.claim('honours', int(m.group(1)) == sum(HONOUR.get(c.rank, 0) for c in hand20), reason)
        if re.search(r"ingen lång färg(?! med)", reason):
            self.claim('length', max(length.values()) <= 5, reason, f"{length}")
        if re.search(r"ingen lång färg med höga kort", reason):
            self.claim('length', not any(n >= 6 and sum(c.suit == s and c.rank >= 12 for c in hand20) >= 2
                                         for s, n in length.items()), reason, f"{length}")
        for m in re.finditer(r"i det korta partiet spelas giv (\d+) som (\w+)", reason):
            k = int(m.group(1))
            ok = view.game_deal == ('short', k - 1) and ('trumf', 'sang', 'pass')[k - 1] == m.group(2)
            self.claim('schedule', ok, reason, f"{view.game_deal}")
        if chosen is not None and (m := re.search(r"i (\d+) provgivar gav (.*?)(?:;|\.|$)", reason)):
            values = [num(v) for v in re.findall(r"([+−-]?\d+,\d)", m.group(2))]
            first = values[0]
            more = re.search(r"gav " + NUM + r" poäng mer, men så liten skillnad kan vara slump", reason)
            ok = (all(v <= first for v in values) if not more else
                  abs(num(more.group(1)) - (max(values) - first)) < 0.05 and max(values) - first <= 0.5 + 0.05)
            self.claim('modes', ok, reason, f"{values}")
        if discards is not None and (m := re.search(r"Jag lägger bort (.*) \(B9\)", reason)):
            self.laid_away(view, hand20, length, m.group(1), reason, chosen)

    def laid_away(self, view, hand20, length, text, reason, chosen):
        mode, trump = chosen
        trump = '♠' if mode == 'spader' else trump
        groups = [g.split(": ", 1) for g in text.split("; ")]
        gone = [c for cards, _ in groups for c in cards_of(cards)]
        kept = [c for c in hand20 if c not in gone]
        for cards, why in groups:
            cs = cards_of(cards)
            if "mina högsta kort" in why or "ett av mina högsta kort" in why:
                ok = all(c.rank >= max(k.rank for k in kept) for c in cs)
            elif m := re.match(r"då har jag inga " + SUIT_WORD + " kvar och kan trumfa", why):
                suit = SUIT_OF[m.group(1)]
                ok = mode in ('trumf', 'spader') and suit != trump and all(c.suit == suit for c in cs) \
                    and not any(k.suit == suit for k in kept)
            elif why.startswith(("det är mina lägsta trumfkort", "det är min lägsta trumf")):
                ok = all(c.suit == trump for c in cs) and all(c.rank < k.rank for c in cs for k in kept if k.suit == trump)
            elif "utanför trumfen" in why:
                ok = all(c.suit != trump for c in cs) and ("lågt" not in why and "låga" not in why or all(c.rank <= 10 for c in cs))
            elif "i en kort färg" in why or "i korta färger" in why:
                named = re.match(r"en (\w+) i en kort färg", why)
                ok = all(length[c.suit] <= 3 for c in cs) and (all(c.rank == RANK_WORD[named.group(1)] for c in cs)
                                                              if named else all(c.rank <= 10 for c in cs))
            elif "låga kort tar sällan stick" in why: ok = all(c.rank <= 10 for c in cs)
            elif m := re.match(r"en (\w+) tar stick i sang bara när de högre korten", why):
                ok = all(c.rank == RANK_WORD[m.group(1)] for c in cs)
            else:
                self.false.append(f"[okänt skäl] {why} | {reason}")
                continue
            self.claim('discard', ok, reason, f"{cards}: {why}; kvar {' '.join(map(str, kept))}")

    def normal(self, view, reason):
        self.decisions += 1
        for m in re.finditer(r"normalen för (förhand|motspelarna|dig som förhand|dig) är (\d+) stick", reason):
            fh = m.group(1) in ('förhand', 'dig som förhand')
            me_fh = view.seat == view.forehand
            ok = int(m.group(2)) == (4 if view.mode == 'pass' and fh else 6 if view.mode == 'pass' else 8 if fh else 4)
            if m.group(1) in ('förhand', 'motspelarna') and fh != me_fh: ok = ok and False
            self.claim('normal', ok, reason, f"{view.mode}, förhand {view.forehand}, plats {view.seat}")


def words_plump(seed: int, words: Words):
    rng = random.Random(f"words:{seed}")
    n = 2 + seed % 5
    g = PlumpGame([f"S{i}" for i in range(n)], random_rules(rng, n), seed=seed, first_deal=rng.randrange(6))
    levels = ['van', 'expert', 'nybörjare']
    bots = [make_bot(levels[(i + seed) % 3], seed * 10 + i, **FAST) for i in range(n)]
    for _ in range(2):
        if g.deal is None: break
        done = len(g.deals)
        while g.deal is not None and len(g.deals) == done:
            st = PlumpState.from_game(g)
            seat = st.to_act
            view = st.view(seat)
            d = bots[seat].decide(view)
            if isinstance(d.action, Bid):
                words.bid(view, d)
                g.bid(seat, d.action.tricks)
            else: g.play(seat, d.action.card)


def words_bismarck(seed: int, words: Words):
    g = BismarckGame(['Anna', 'Bo', 'Cissi'], seed=seed, short=seed % 2 == 0)
    levels = ['van', 'expert', 'van']
    bots = [make_bot(levels[(i + seed) % 3], seed * 10 + i, **FAST) for i in range(3)]
    while g.deal is not None:
        st = BismarckState.from_game(g)
        seat = st.to_act
        if st.phase == 'discard':
            view, trial, cards = st.view(seat), st.clone(), []
            for _ in range(4):
                d = bots[seat].decide(trial.view(seat))
                trial.apply(d.action)
                cards.append(d.action.card)
            mode = bots[seat].decide(trial.view(seat))
            words.plan(view, bots[seat].discards_reason(view, cards), (mode.action.mode, mode.action.trump), cards)
            g.discard(seat, cards)
            continue
        view = st.view(seat)
        d = bots[seat].decide(view)
        if isinstance(d.action, ChooseMode):
            words.plan(view, d.reason, (d.action.mode, d.action.trump))
            g.choose_mode(seat, d.action.mode, d.action.trump)
        else:
            words.normal(view, d.reason)
            g.play(seat, d.action.card)


@pytest.mark.parametrize("game", ["plump", "bismarck"])
def test_what_the_computer_says_when_it_bids_plans_and_lays_away_is_true(game):
    words = Words()
    for seed in range(30 if game == 'plump' else 8):
        (words_plump if game == 'plump' else words_bismarck)(seed, words)
    print(f"\n[words] {game}: {words.decisions} beslut, {dict(words.counts)}")
    assert not words.false, f"{len(words.false)} false of {sum(words.counts.values())}:\n" + "\n".join(words.false[:12])
    need = {'plump': ('piles', 'sure', 'possible', 'filler', 'counted', 'high', 'bids', 'spread', 'others', 'often'),
            'bismarck': ('length', 'honours', 'schedule', 'discard', 'normal')}[game]
    for kind in need:
        assert words.counts[kind] >= 3, (kind, dict(words.counts))


def test_the_second_referee_catches_false_words():
    "Each kind of claim, made false on purpose in a real position, is caught (so a passing run means something)."
    from dataclasses import replace
    g = PlumpGame(['A', 'B', 'C'], PlumpRules(), seed=4, first_deal=0)
    st = PlumpState.from_game(g)
    view = st.view(st.to_act)
    hand = list(view.hand)
    low = min(hand, key=lambda c: c.rank)
    high = max(hand, key=lambda c: c.rank)
    d = make_bot('van', 1).decide(view)
    words = Words()
    words.bid(view, d)
    assert not words.false, words.false
    rest = ' '.join(str(c) for c in hand if c != low)
    for reason in (f"Jag bjuder 1: säkra {low}, inga möjliga, fyllnad {rest} (P20).",   # a low card called sure
                   f"Jag bjuder 1: {low} är ett högt kort, och höga kort tar stick.",
                   f"Jag bjuder 1: inga säkra, inga möjliga, fyllnad {rest} (P20).",      # a card missing
                   "Jag bjuder 1: jag bjuder sist och ser att de andra har bjudit 3."):
        words = Words()
        words.bid(view, replace(d, reason=reason))
        assert words.false, reason
    b = BismarckGame(['Anna', 'Bo', 'Cissi'], seed=2, short=True)
    bst = BismarckState.from_game(b)
    bview = bst.view(bst.to_act)
    hand20 = list(bview.hand)
    n = {s: sum(c.suit == s for c in hand20) for s in SUIT_NAMES}
    s = max(n, key=n.get)
    kept_high = max(hand20, key=lambda c: c.rank)
    lows = sorted((c for c in hand20 if c != kept_high), key=lambda c: c.rank)[:4]
    for reason, chosen, cards in ((f"Planen är sang: jag har {n[s] + 1} {SUIT_NAMES[s]} (B9).", None, None),
                                  ("Planen är sang: jag har 99 honnörspoäng (B9).", None, None),
                                  ("Planen är sang: i det korta partiet spelas giv 2 som sang (B5).", None, None),
                                  (f"Planen är pass. Jag lägger bort {' '.join(map(str, lows))}: det är mina högsta kort, "
                                   "och höga kort kan ta stick i pass (B9).", ('pass', None), lows)):
        words = Words()
        words.plan(bview, reason, chosen, cards)
        assert words.false, reason


# ---------------------------------------------------------------- lärarens sidor: körschemat och de tomma protokollen

def test_the_referee_covers_the_run_sheets_and_the_blank_sheets():
    """Issue 37: domaren läser också lärarpaketet. Varje missuppfattning i varje körschema som talar om säkra eller
    möjliga stick, nollbudet eller Bismarcks summa prövas mot motorn (domarna i tests/test_run_sheets.py), och så
    gör meningen om träff på varje tomt protokoll för Plump i paketet, för varje bud på varje rad (tests/test_teacher.py)."""
    from test_run_sheets import ZERO_CLAIMS, _check_sum_claims, _sum_claims, _zero_holds
    from test_teacher import _sheet_instruction, written_by_sheet
    from plump_teach.bots.heuristics import three_piles
    from plump_teach.course.pack import pack_pages
    from plump_teach.course.run_sheets import RUN_SHEETS
    from plump_teach.engine.plump_rules import deal_schedule
    checked = Counter()
    rng = random.Random(37)
    hands = [rng.sample(FULL_DECK, rng.randint(2, 10)) for _ in range(500)]
    for sheet in RUN_SHEETS.values():
        for belief, fix in sheet.misconceptions:
            if re.search(r"\bnoll\b", belief):
                for s in re.split(r"(?<=\.)\s+", fix):
                    better, worse = ZERO_CLAIMS[s.rstrip('.')]           # ett okänt påstående är ett fel
                    assert _zero_holds(better) > _zero_holds(worse), s
                checked['noll'] += 1
            if 'bismarck' in sheet.file and re.search(r"summa|alltid 0|blir 0", f"{belief} {fix}"):
                _check_sum_claims(_sum_claims(fix))
                checked['summa'] += 1
            if re.search(r"säker|möjlig", belief):
                assert "högen möjliga, utom när alla högre kort i färgen finns i den egna handen" in fix, fix
                for hand in hands:                                     # damer och knektar: möjliga, eller säkra
                    piles, mine = three_piles(hand), set(hand)
                    for c in hand:
                        if c.rank not in (11, 12): continue
                        own = all(d in mine for d in FULL_DECK if d.suit == c.suit and d.rank > c.rank)
                        assert c in piles['sure' if own else 'possible'], (str(c), [str(x) for x in hand])
                checked['säker'] += 1
    pages = pack_pages()
    for n in range(2, 7):
        text = _sheet_instruction(pages[f'protokoll-plump-{n}.html'][1])
        for cards in deal_schedule(n):
            for bid in range(cards + 1):
                assert written_by_sheet(text, bid, cards) == score(bid, bid, cards), (n, cards, bid)
        checked['protokoll'] += 1
    assert checked == Counter(noll=1, summa=1, säker=1, protokoll=5), checked
