"""The table session (plump_teach.table.session, issue 42) without widgets or a browser.

Whole games where every seat is a pupil who plays only from what `seen_by(seat)` shows; what a seat sees never holds
another seat's hidden cards; a move out of turn, on a stale picture or against the rules is refused in Swedish and
changes nothing; the computer takes over a seat mid-deal; a table saved mid-trick comes back the same; Bismarck's
four discards are all or nothing; simultaneous bids (P6) stay hidden until all have bid; Tips only on the pupil's
turn and only when the teacher allows them.
"""
from __future__ import annotations

import json
import random
import re

import pytest

from plump_teach.engine.bismarck_game import BismarckGame
from plump_teach.engine.cards import FULL_DECK, PlumpTeachError, parse_card
from plump_teach.engine.actions import Discard, PlayCard
from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpRules
from plump_teach.table.session import (NotYourTurn, StaleMove, TableError, TableSession, action_from_wire,
                                       wire_action)

CARD = re.compile(r'[♠♥♦♣](?:10|Kn|[2-9EKD])(?![0-9n])')


def plump(n=4, seed=1, rules=PlumpRules(), first_deal=None, deals=None):
    g = PlumpGame(["Anna", "Bo", "Cissi", "Dan", "Eva"][:n], rules, seed=seed)
    if first_deal is not None: g = PlumpGame(list(g.players), rules, seed=seed, first_deal=first_deal)
    return g


def hidden_cards(t: TableSession, seat: int) -> set[str]:
    "Cards that seat may not see: the other hands (less what the view shows, P15)."
    st = t.state()
    if st is None: return set()
    v = st.view(seat)
    seen = {str(c) for cs in v.others.values() for c in cs}
    return {str(c) for s in range(t.n) if s != seat for c in st.deal.hand(s)} - seen


def play_whole(t: TableSession, rng: random.Random, most: int = 5000) -> int:
    "Every human seat plays random legal moves from its own picture until the game is over; bots move at once."
    moves = 0
    for _ in range(most):
        t.run_bots()
        if t.over: return moves
        if t.ready is not None:
            for s in sorted(t.humans - t.ready): t.next_deal(s)
            continue
        seat = t.to_act()
        pic = t.seen_by(seat)
        assert pic["your_turn"] and pic["legal"], pic
        text = json.dumps(pic, ensure_ascii=False)
        assert not hidden_cards(t, seat) & set(CARD.findall(text))
        wire = rng.choice(pic["legal"])
        if wire[0] == "pick":       # Bismarck: four cards at once, chosen from the hand
            picks = rng.sample(pic["hand"], 4)
            t.move(seat, [Discard(parse_card(c)) for c in picks], pic["version"])
        else: t.move(seat, action_from_wire(wire), pic["version"])
        moves += 1
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("n", [3, 4, 5])
def test_pupils_play_a_whole_plump_game_from_what_they_see(n):
    g = PlumpGame(["Anna", "Bo", "Cissi", "Dan", "Eva"][:n], PlumpRules(), seed=n, first_deal=12 if n == 4 else 0)
    g = PlumpGame(list(g.players), PlumpRules(), seed=n, first_deal=max(0, g.n_deals - 3))
    t = TableSession(g, humans=range(n))
    assert play_whole(t, random.Random(n)) > 0
    assert t.over and g.deal is None and len(g.deals) == 3
    pic = t.seen_by(0)
    assert pic["over"] and pic["totals"] == g.totals and "slut" in pic["turn"]


def test_a_bismarck_game_with_three_pupils():
    g = BismarckGame(["Anna", "Bo", "Cissi"], seed=4, short=True)
    t = TableSession(g, humans=(0, 1, 2))
    play_whole(t, random.Random(4))
    assert t.over and g.deal is None and len(g.deals) == g.n_deals


def test_bots_fill_the_empty_seats_and_a_pupil_is_replaced_mid_deal():
    g = plump(4, seed=7)
    g = PlumpGame(list(g.players), PlumpRules(), seed=7, first_deal=g.n_deals - 2)
    t = TableSession(g, humans=(0, 2), level="nybörjare")
    rng = random.Random(1)
    t.run_bots()
    for _ in range(3):                       # a few moves, then pupil 2 leaves and the computer takes the seat
        seat = t.to_act()
        if seat is None or seat not in t.humans: t.run_bots(); continue
        t.move(seat, action_from_wire(rng.choice(t.seen_by(seat)["legal"])))
        t.run_bots()
    t.make_bot_seat(2)
    assert t.humans == {0}
    play_whole(t, rng)
    assert t.over


def test_out_of_turn_stale_and_illegal_moves_change_nothing():
    g = plump(4, seed=2)
    t = TableSession(g, humans=range(4))
    first = t.to_act()
    other = (first + 1) % 4
    before = (json.dumps(g.to_dict()), t.version)
    with pytest.raises(NotYourTurn, match=r"Vänta: det är .* tur att bjuda"):
        t.move(other, action_from_wire(["bid", 0]))
    with pytest.raises(StaleMove, match="hann ändras"):
        t.move(first, action_from_wire(["bid", 0]), version=t.version - 1)
    with pytest.raises(PlumpTeachError):
        t.move(first, action_from_wire(["bid", 99]))
    with pytest.raises(PlumpTeachError):
        t.move(first, PlayCard(parse_card("♠E")))
    with pytest.raises(TableError, match="Platsen 9 finns inte"):
        t.move(9, action_from_wire(["bid", 0]))
    for bad in ([], ["bid"], ["play", "♠1"], "bid 2", None, ["fly", 2]):
        with pytest.raises(TableError, match="inget drag"):
            action_from_wire(bad)
    assert (json.dumps(g.to_dict()), t.version) == before


def test_a_fast_second_click_is_not_taken_for_the_next_player():
    g = plump(4, seed=5)
    t = TableSession(g, humans=range(4))
    seat, pic = t.to_act(), t.seen_by(t.to_act())
    t.move(seat, action_from_wire(pic["legal"][0]), pic["version"])
    with pytest.raises((StaleMove, NotYourTurn)):   # the same click again, now that the turn has passed on
        t.move(seat, action_from_wire(pic["legal"][0]), pic["version"])
    with pytest.raises(StaleMove):                  # the next player's click on the old picture
        t.move(t.to_act(), action_from_wire(pic["legal"][0]), pic["version"])


def test_wire_actions_round_trip():
    g = BismarckGame(["Anna", "Bo", "Cissi"], seed=1)
    t = TableSession(g, humans=(0, 1, 2))
    for a in t.state().legal_actions():
        assert action_from_wire(json.loads(json.dumps(wire_action(a), ensure_ascii=False))) == a


def test_four_discards_are_all_or_nothing():
    g = BismarckGame(["Anna", "Bo", "Cissi"], seed=3)
    t = TableSession(g, humans=(0, 1, 2))
    seat = t.to_act()
    hand = t.seen_by(seat)["hand"]
    other = next(c for c in ("♠E", "♥E", "♦E", "♣E", "♠K", "♥K") if c not in hand)
    before = json.dumps(g.to_dict())
    with pytest.raises(PlumpTeachError):
        t.move(seat, [Discard(parse_card(c)) for c in [*hand[:3], other]])
    with pytest.raises(PlumpTeachError):
        t.move(seat, [Discard(parse_card(c)) for c in [hand[0]] * 4])
    assert json.dumps(g.to_dict()) == before
    t.move(seat, [Discard(parse_card(c)) for c in hand[:4]])
    assert g.deal.phase == "mode" and "lägger bort fyra kort" in t.told[-1]
    assert not set(hand[:4]) & set(CARD.findall(json.dumps(t.seen_by((seat + 1) % 3), ensure_ascii=False)))


def test_simultaneous_bids_stay_hidden_until_all_have_bid_p6():
    rules = PlumpRules(simultaneous_bids=True)
    g = PlumpGame(["Anna", "Bo", "Cissi"], rules, seed=3)
    t = TableSession(g, humans=(0, 1, 2))
    first = t.to_act()
    t.move(first, action_from_wire(t.seen_by(first)["legal"][0]))
    assert not any("bjuder" in line for line in t.seen_by((first + 1) % 3)["told"])
    while g.deal.phase == "bidding":
        s = t.to_act()
        t.move(s, action_from_wire(t.seen_by(s)["legal"][0]))
    assert sum("bjuder" in line for line in t.seen_by(0)["told"]) == 3


def test_a_table_saved_mid_trick_comes_back_the_same(tmp_path):
    g = plump(4, seed=11)
    path = tmp_path / "bord.json"
    t = TableSession(g, humans=(0, 1), level="van", path=path, tips=False)
    rng = random.Random(3)
    while not (g.deal.phase == "playing" and g.deal.trick):
        t.run_bots()
        s = t.to_act()
        if s in t.humans: t.move(s, action_from_wire(rng.choice(t.seen_by(s)["legal"])))
    again = TableSession.load(path)
    strip = lambda p: {k: v for k, v in p.items() if k != "version"}
    assert all(strip(again.seen_by(s)) == strip(t.seen_by(s)) for s in range(4))
    assert again.humans == {0, 1} and again.tips is False and again.level == "van"
    assert not list(tmp_path.glob("*.tmp*")) and json.loads(path.read_text(encoding="utf-8"))["session"]


def test_pause_and_end_stop_every_move():
    g = plump(3, seed=1)
    t = TableSession(g, humans=(0,))
    t.pause()
    assert t.think() is None and t.run_bots() == 0 and "pausat" in t.seen_by(0)["turn"]
    t.pause(False)
    t.run_bots()
    assert t.to_act() == 0
    t.end()
    with pytest.raises(NotYourTurn, match="avslutat"):
        t.move(0, action_from_wire(t.state().legal_actions() and wire_action(t.state().legal_actions()[0])))
    assert t.over and t.seen_by(0)["legal"] == []


def test_ending_a_game_that_waits_for_the_next_deal():
    g = plump(3, seed=4)
    t = TableSession(g, humans=(0, 1, 2))
    while t.ready is None:
        s = t.to_act()
        t.move(s, action_from_wire(t.seen_by(s)["legal"][0]))
    assert t.seen_by(0)["waiting_next"]
    t.end()
    pic = t.seen_by(0)
    assert pic["over"] and not pic["waiting_next"] and t.next_deal(0) is None and "avslutat" in pic["turn"]


def test_listeners_hear_every_change_once():
    g = plump(3, seed=2)
    t = TableSession(g, humans=(0,))
    heard = []
    stop = t.listen(heard.append)
    k = t.run_bots()
    assert [c.version for c in heard] == list(range(1, k + 1)) and all(c.what == "move" for c in heard)
    stop()
    t.make_bot_seat(0)
    assert len(heard) == k


def test_tips_only_on_the_pupils_turn_and_when_allowed():
    g = plump(4, seed=3)
    t = TableSession(g, humans=(0, 1, 2, 3), level="van")
    s = t.to_act()
    q = t.tip(s)
    assert q["step"] == 1 and q["question"]
    full = t.tip(s, 2)
    assert full["advice"] and full["step"] == 2
    with pytest.raises(NotYourTurn):
        t.tip((s + 1) % 4)
    t.tips = False
    with pytest.raises(TableError, match="stängt av Tips"):
        t.tip(s)


def test_a_beginner_level_pupil_takes_back_a_move_and_the_computers_answers():
    "Issue 42: undo where the level allows it: the pupil's last move in the deal and the computer's after it, nothing else."
    g = PlumpGame(["Du", "Datorn Anna", "Datorn Bo"], PlumpRules(down_only=True), seed=17, first_deal=7)
    t = TableSession(g, (0,), "nybörjare")
    t.run_bots()
    events, told = list(g.events), list(t.told)
    assert not t.can_undo(0)
    with pytest.raises(TableError, match="inget drag att ta tillbaka"):
        t.undo(0)
    t.move(0, t.state().legal_actions()[0])
    t.run_bots()
    assert t.can_undo(0) and len(g.events) > len(events)
    assert t.to_act() == 0                    # a refused move does not lose the move that can be taken back
    with pytest.raises(PlumpTeachError):
        t.move(0, PlayCard(next(c for c in FULL_DECK if c not in t.state().hand(0))))
    assert t.can_undo(0)
    version = t.version
    assert t.undo(0).what == "undo" and t.version == version + 1
    assert g.events == events and t.told == told and t.to_act() == 0 and not t.can_undo(0)
    rng = random.Random(3)                    # play the deal out: after it, the move before cannot be taken back
    while t.ready is None:
        if t.to_act() == 0: t.move(0, rng.choice(t.state().legal_actions()))
        t.run_bots()
    assert not t.can_undo(0)
    with pytest.raises(TableError):
        t.undo(0)


def test_undo_is_refused_above_the_beginner_level_and_after_another_pupils_move():
    g = PlumpGame(["Anna", "Bo", "Datorn Cissi"], PlumpRules(down_only=True), seed=5, first_deal=8)
    van = TableSession(PlumpGame(["Du", "Datorn Anna", "Datorn Bo"], seed=5), (0,), "van")
    van.run_bots()
    van.move(0, van.state().legal_actions()[0])
    with pytest.raises(TableError, match="nybörjare"):
        van.undo(0)
    t = TableSession(g, (0, 1), "nybörjare")
    t.run_bots()
    first = t.to_act()
    t.move(first, t.state().legal_actions()[0])
    t.run_bots()
    second = t.to_act()
    assert (first, second) == (1, 0)                           # Bo bids first, then Anna (dealer 0)
    t.move(second, t.state().legal_actions()[0])
    assert not t.can_undo(first) and t.can_undo(second)        # the other pupil's move stands in the way
    with pytest.raises(TableError):
        t.undo(first)
