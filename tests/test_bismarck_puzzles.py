"""Bismarck's puzzle kinds over many numbered puzzles; right answers recomputed here with plain code."""
import pytest

from plump_teach.engine.cards import SUIT_NAMES

import plump_teach.puzzles.bismarck  # noqa: F401  (registers the kinds)
from plump_teach.puzzles.registry import PUZZLE_KINDS, make_puzzle

N = 60
MODES = ['spader', 'trumf', 'sang', 'pass']
KINDS = [k for k in PUZZLE_KINDS if k.startswith('bismarck_')]


def plain_trump(mode, trump):
    return {'spader': '♠', 'trumf': trump}.get(mode)


def plain_winner(trick, trump):
    trumps = [i for i, c in enumerate(trick) if c.suit == trump]
    pool = trumps or [i for i, c in enumerate(trick) if c.suit == trick[0].suit]
    return max(pool, key=lambda i: trick[i].rank)


def expected(p):
    d = p.data
    if p.kind == 'bismarck_score':
        fh, who, t = d['forehand'], d['who'], d['tricks'][d['who']]
        normal = (4 if who == fh else 6) if d['mode'] == 'pass' else (8 if who == fh else 4)
        return {str((normal - t) if d['mode'] == 'pass' else (t - normal))}
    if p.kind == 'bismarck_modes':
        used = {m for name, m in d['history'] if name == d['forehand']}
        return {m for m in MODES if m not in used}
    if p.kind == 'bismarck_trick':
        return {str(d['trick'][plain_winner(d['trick'], plain_trump(d['mode'], d['trump']))])}
    if p.kind == 'bismarck_card':
        return {str(c) for c in d['hand'] if c.suit == d['trick'][0].suit}
    if p.kind == 'bismarck_discard':
        hand, t = d['hand'], plain_trump(d['mode'], d['trump'])
        right = set()
        for i, opt in enumerate(d['options']):
            if d['mode'] == 'pass':
                ok = sorted(c.rank for c in opt) == sorted(c.rank for c in hand)[-4:]
            else:
                suit = {c.suit for c in opt}
                ok = (len(suit) == 1 and t not in suit and all(c.rank < 14 for c in opt)
                      and sum(c.suit in suit for c in hand) == 4)
            if ok: right.add(str(i))
        return right
    raise AssertionError(p.kind)


@pytest.mark.parametrize("kind", KINDS)
def test_bismarck_puzzles_are_checked_right(kind):
    assert len(KINDS) == 5
    for number in range(1, N + 1):
        p = make_puzzle(kind, number)
        keys = [o.key for o in p.options]
        assert len(set(keys)) == len(keys) and p.answers and p.answers <= set(keys)
        assert p.answers == expected(p), f"{kind} {number}"
        for key in keys:
            fb = p.check(key)
            assert fb.correct == (key in p.answers)
            assert fb.text.endswith(f"({PUZZLE_KINDS[kind].rule})")


def test_score_puzzle_sums_to_zero_and_discards_cover_both_rules():
    for i in range(1, N + 1):
        d = make_puzzle('bismarck_score', i).data
        assert sum(d['tricks']) == 16
    modes = {make_puzzle('bismarck_discard', i).data['mode'] for i in range(1, N + 1)}
    assert modes == {'spader', 'trumf', 'pass'}


# --- Claims checked against the engine; the rule order of the deal (issue 10) -------------------------------

from plump_teach.engine.bismarck import BismarckError, bismarck_trick_winner, mode_trump
from plump_teach.engine.bismarck_game import BismarckGame
from test_puzzles import check_trick_claims

MANY = range(1, 301)


def test_trick_explanations_claim_only_what_the_engine_says():
    for number in MANY:
        p = make_puzzle('bismarck_trick', number)
        d = p.data
        trick, trump = d['trick'], mode_trump(d['mode'], d['trump'])
        w = bismarck_trick_winner(trick, d['mode'], d['trump'])
        assert w == plain_winner(trick, plain_trump(d['mode'], d['trump']))
        for o in p.options: check_trick_claims(p.check(o.key).text, trick, trump, w)


def test_discard_comes_before_the_mode_as_in_the_engine():
    deal = BismarckGame(['Anna', 'Björn', 'Cecilia'], seed=3).deal
    assert deal.phase == 'discard'            # B2: the engine asks for the discard first ...
    with pytest.raises(BismarckError): deal.choose_mode(deal.forehand, 'spader')
    for number in MANY:                       # ... so the puzzle asks about a plan, never a mode already chosen
        p = make_puzzle('bismarck_discard', number)
        mode = p.data['mode']
        plan = {'spader': 'spader', 'pass': 'pass'}.get(mode) or f"trumf med {SUIT_NAMES[p.data['trump']]} som trumf"
        assert p.question == f"Du tänker spela {plan}: vilka fyra kort lägger du bort?"
        assert 'Först lägger du bort fyra kort, sedan väljer du spelsätt' in p.situation
        texts = [p.situation, p.question, p.hint] + [p.check(o.key).text for o in p.options]
        assert not any(w in t for t in texts for w in ('har valt', 'valt spelsätt', 'spelsättet du valt'))
