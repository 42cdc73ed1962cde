"""Förhands kort att lägga bort, valda ett i taget (issue 40's bug): the picks are moves of the game like every
other. Before, `BismarckGame.apply(Discard(c))` left the game equal to a fresh one, a JSON round trip dropped the
picked card, and `BismarckState.from_game(game)` ignored it, so the `van` bot picked the same card again and got
"... finns inte bland korten ..."."""
from __future__ import annotations

import pytest

from plump_teach import BismarckGame, BismarckState, Discard, make_bot
from plump_teach.engine.bismarck import BismarckError


@pytest.mark.parametrize("level", ["nybörjare", "van", "expert"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bot_discarding_one_card_at_a_time_through_the_game(level, seed):
    g = BismarckGame(["Anna", "Bo", "Cissi"], seed=seed)
    bot, fh = make_bot(level, seed=seed), g.forehand
    picked = []
    for i in range(4):
        state = BismarckState.from_game(g)
        assert state.hand(fh) == [c for c in g.deal.hand(fh) if c not in picked]
        d = bot.decide(state.view(fh))
        assert isinstance(d.action, Discard) and d.action.card not in picked
        g.apply(d.action)
        picked.append(d.action.card)
        assert g.pending_discards == (picked if i < 3 else [])
    assert g.phase == "mode" and set(g.deal.discards) == set(picked)


def test_picked_cards_are_kept_compared_and_saved():
    fresh = BismarckGame(["Anna", "Bo", "Cissi"], seed=7)
    g = BismarckGame(["Anna", "Bo", "Cissi"], seed=7)
    c = g.deal.hand(g.forehand)[0]
    g.apply(Discard(c))
    assert g != fresh
    again = BismarckGame.from_json(g.to_json())
    assert again == g and again.pending_discards == [c]
    with pytest.raises(BismarckError, match="finns inte bland korten"):
        again.apply(Discard(c))                       # the same card twice
    # four cards given at once forget the picks; the file then holds one discard, as older files do
    four = [x for x in g.deal.hand(g.forehand) if x != c][:4]
    g.discard(g.forehand, four)
    assert g.pending_discards == [] and [e[0] for e in g.events] == ["discard"]
    assert set(g.deal.discards) == set(four)


def test_new_hands_forget_the_cards_picked_from_the_old_ones():
    "Picks made before `set_hands` were of the old hands: the game's events no longer hold them, and a reload agrees."
    g = BismarckGame(["Anna", "Björn", "Cecilia"], seed=3)
    fh = g.to_act
    g.pick(fh, g.deal.hand(fh)[0])
    other = BismarckGame(["Anna", "Björn", "Cecilia"], seed=4).deal
    g.set_hands(other.dealt, other.upcards)
    assert [e[0] for e in g.events] == ["hands"] and g.pending_discards == []
    assert BismarckGame.from_json(g.to_json()) == g
