"""Every puzzle kind over many numbered puzzles: well posed, and the checker accepts exactly the right answers.

The right answers are recomputed here with plain code that does not call the engine's rule functions,
so a rule broken in the engine (or a puzzle answering from the wrong rule) makes these tests fail.
"""
import re
from functools import lru_cache

import pytest

from plump_teach.cards import FULL_DECK, SUITS, card_from_id
from plump_teach.puzzles import PUZZLE_KINDS, make_puzzle
import plump_teach.bismarck_puzzles  # noqa: F401  (registers Bismarck's kinds)
from plump_teach.plump_rules import PlumpError

N = 60  # puzzles per kind and level


PLUMP_KINDS = [k for k in PUZZLE_KINDS.values() if not k.key.startswith('bismarck_')]  # Bismarck's: test_bismarck_puzzles


def all_puzzles():
    for kind in PLUMP_KINDS:
        for level in kind.levels:
            for number in range(1, N + 1):
                yield kind.key, level, number


def plain_winner(trick, trump):
    """Index of the winning card: highest trump if any, else highest card of the suit led (P11)."""
    trumps = [i for i, c in enumerate(trick) if c.suit == trump]
    pool = trumps or [i for i, c in enumerate(trick) if c.suit == trick[0].suit]
    return max(pool, key=lambda i: trick[i].rank)


def plain_score(bid, tricks, cards, rules):
    if bid != tricks: return 0
    if bid == 0 and rules.zero_scores_five: return 5
    if bid == 0 and rules.zero_scores_five_plus_tricks: return 5 + cards
    if rules.one_point_per_trick: return bid
    if bid == 10 and rules.ten_scores_110: return 110
    return 10 + bid


def expected_answers(p):
    d = p.data
    if p.kind == 'dealer_bid':
        return {str(b) for b in range(d['cards'] + 1) if sum(d['earlier_bids']) + b != d['cards']}
    if p.kind == 'forbidden_bid':
        f = d['cards'] - sum(d['earlier_bids'])
        return {str(f) if f >= 0 else 'inget'}
    if p.kind == 'right_card' and p.level == 1:
        led = d['trick'][0].suit
        return {str(c) for c in d['hand'] if c.suit == led}
    if p.kind == 'right_card':
        return brute_force_end(d)
    if p.kind == 'trick_winner':
        return {str(d['trick'][plain_winner(d['trick'], d['trump'])])}
    if p.kind == 'score':
        return {str(plain_score(d['bid'], d['tricks'], d['cards'], d['rules']))}
    if p.kind == 'trump':
        r, shown = d['rules'], d['shown']
        if r.sang or (d['case'] == 'first_deal' and d['first_deal']): return {'sang'}
        if d['case'] == 'ace' and shown.rank == 14: return {'sang'}
        if d['case'] == 'empty' and r.empty_stock_sang: return {'sang'}
        return {shown.suit}
    if p.kind == 'schedule':
        n, r = d['players'], d['rules']
        if r.upward_only: sched = list(range(1, 52 // n + 1))
        else:
            top = 13 if r.thirteen_cards else 8 if n == 6 else 10
            sched = list(range(top, 0, -1)) + [1] * (n - 1 if r.one_card_deal_each else 0)
            if not r.down_only: sched += list(range(2, top + 1))
        assert sched == d['schedule']
        m = re.search(r'giv nummer (\d+)', p.question)
        return {str(sched[int(m.group(1)) - 1])} if m else {str(len(sched))}
    if p.kind == 'bid_balance':
        return {'underbud' if sum(d['bids']) < d['cards'] else 'överbud'}
    if p.kind == 'sheet_error':
        bad = set()
        for r, row in enumerate(d['rows']):
            if sum(row['bids']) == row['cards']: bad.add(f"{r}:{row['order'][-1]}")
            for s in range(d['players']):
                right = 10 + row['bids'][s] if row['bids'][s] == row['tricks'][s] else 0
                if row['points'][s] != right: bad.add(f"{r}:{s}")
        return bad
    if p.kind == 'blind_card':
        trump = d['trump_card'].suit
        seen = set(d['others']) | {d['trump_card']}
        mine = [c for c in FULL_DECK if c not in seen]
        wins = sum(plain_winner([c, *d['others']], trump) == 0 for c in mine)
        assert (wins, len(mine)) == (d['wins'], d['total'])
        return {'1' if wins * 2 > len(mine) else '0'}
    raise AssertionError(p.kind)


def brute_force_end(d):
    """Plain exhaustive search of the open end position: which legal cards guarantee the bid?"""
    n, seat, bid = len(d['hands']), d['seat'], d['bid']
    trump = None if d['trump'] is None else SUITS[d['trump']]

    def legal(hand, trick):
        if trick:
            same = [c for c in hand if c.suit == trick[0].suit]
            if same: return same
        return list(hand)

    @lru_cache(maxsize=None)
    def ok(hands, trick, leader, taken):
        if taken[seat] > bid: return False
        if not any(hands): return taken[seat] == bid
        who = (leader + len(trick)) % n
        outs = []
        for c in legal(hands[who], trick):
            h2 = tuple(tuple(x for x in h if x != c) if i == who else h for i, h in enumerate(hands))
            t2 = trick + (c,)
            if len(t2) == n:
                w = (leader + plain_winner(list(t2), trump)) % n
                outs.append(ok(h2, (), w, tuple(t + (i == w) for i, t in enumerate(taken))))
            else:
                outs.append(ok(h2, t2, leader, taken))
        return any(outs) if who == seat else all(outs)

    hands = tuple(tuple(card_from_id(c) for c in h) for h in d['hands'])
    trick = tuple(card_from_id(c) for c in d['trick'])
    good = set()
    for c in legal(hands[seat], trick):
        h2 = tuple(tuple(x for x in h if x != c) if i == seat else h for i, h in enumerate(hands))
        t2 = trick + (c,)
        if len(t2) == n:
            w = (d['leader'] + plain_winner(list(t2), trump)) % n
            res = ok(h2, (), w, tuple(t + (i == w) for i, t in enumerate(d['taken'])))
        else:
            res = ok(h2, t2, d['leader'], tuple(d['taken']))
        if res: good.add(str(c))
    legal_keys = {str(c) for c in legal(hands[seat], trick)}
    assert good and good != legal_keys, "the position must have some but not all legal cards right"
    return good


@pytest.mark.parametrize("kind,level", [(k.key, l) for k in PLUMP_KINDS for l in k.levels])
def test_every_puzzle_is_well_posed_and_checked_right(kind, level):
    for number in range(1, N + 1):
        p = make_puzzle(kind, number, level)
        keys = [o.key for o in p.options]
        assert len(keys) == len(set(keys)), f"{kind} {number}: duplicate options"
        assert p.answers and p.answers <= set(keys), f"{kind} {number}: answers must be among the options"
        assert p.answers != set(keys) or kind == 'dealer_bid', f"{kind} {number}: every option is right"
        assert p.answers == expected_answers(p), f"{kind} level {level} number {number}"
        for key in keys:
            fb = p.check(key)
            assert fb.correct == (key in p.answers)
            assert fb.text.startswith('Rätt!' if fb.correct else 'Inte riktigt.')
            assert fb.text.endswith(f"({PUZZLE_KINDS[kind].rule})"), fb.text
            assert len(fb.text) > 30
        assert p.hint and all(a not in p.hint.split() for a in p.answers if len(a) > 1)


@pytest.mark.parametrize("kind", list(PUZZLE_KINDS) + ['bismarck_score', 'bismarck_trick', 'bismarck_card',
                                                      'bismarck_modes', 'bismarck_discard'])
def test_numbers_are_reproducible_and_varied(kind):
    a, b = make_puzzle(kind, 17), make_puzzle(kind, 17)
    assert (a.situation, a.answers, [o.key for o in a.options]) == (b.situation, b.answers, [o.key for o in b.options])
    shown = lambda p: (p.situation, tuple(o.label for o in p.options))
    assert len({shown(make_puzzle(kind, i)) for i in range(1, 21)}) >= 10


def test_every_trump_case_and_sheet_error_kind_occur():
    cases = {make_puzzle('trump', i).data['case'] for i in range(1, N + 1)}
    assert cases == {'plain', 'sang', 'first_deal', 'ace', 'empty'}
    texts = ' '.join(make_puzzle('sheet_error', i).check(sorted(make_puzzle('sheet_error', i).answers)[0]).text
                     for i in range(1, N + 1))
    for fragment in ('fick inte bjuda', 'Minus finns inte', 'Budet är skrivet', 'Fel poäng'):
        assert fragment in texts


def test_bad_requests_are_refused_in_swedish():
    with pytest.raises(PlumpError, match='finns inget pussel'): make_puzzle('schack', 1)
    with pytest.raises(PlumpError, match='nivå'): make_puzzle('trick_winner', 1, level=2)
    with pytest.raises(PlumpError, match='heltal'): make_puzzle('trick_winner', -3)
    p = make_puzzle('trick_winner', 1)
    with pytest.raises(PlumpError, match='finns inte bland alternativen'): p.check('♠1')
