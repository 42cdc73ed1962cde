"""Klassens bord (plump_teach.classroom.class_tables and class_table_web, issue 42).

Without a server: the teacher opens tables; pupils sit, get the same seat back, and a full table or a started one says
so in Swedish; the computer takes the empty seats at the start and a missing pupil's seat later; every table is saved
atomically after each change and comes back the same after a restart; a damaged file is skipped and named.

With a real `plump-teach` on a loopback port (no kernels): four pupils with their own cookies sit at one table and
play a whole short game over websockets, each reading only what their own browser receives: no message to a pupil
ever holds a card of another hand; a connection killed mid-trick costs nothing (the same seat, the same cards, the
move goes through after reconnecting); the teacher's page lists the table live and can pause it; a server restart
keeps the table's game.
"""
from __future__ import annotations

import asyncio
import json
import random
import re
import time

import pytest

from plump_teach.classroom.class_tables import ClassTables, TableSettings, table_status, table_record
from plump_teach.table.session import TableError

CARD = re.compile(r'[♠♥♦♣](?:10|Kn|[2-9EKD])(?![0-9n])')


# ----------------------------------------------------------------------------------------------- without a server

def test_pupils_sit_and_get_the_same_seat_back(tmp_path):
    tables = ClassTables(tmp_path)
    t = tables.open(TableSettings('plump', 3))
    assert [tables.sit(t.id, p, n) for p, n in (("a1", "Anna"), ("b2", "Anna"), ("a1", "Anna"))] == [0, 1, 0]
    assert t.pupils[1][1] == "Anna 2"            # two pupils called Anna: the second gets a number
    assert tables.sit(t.id, "c3", "") == 2 and t.pupils[2][1] == "Elev 3"
    with pytest.raises(TableError, match="fullt"):
        tables.sit(t.id, "d4", "Dan")
    other = tables.open(TableSettings('bismarck', 3))
    tables.sit(other.id, "a1", "Anna")           # a pupil sits at one table at a time before the game starts
    assert t.seat_of("a1") is None and other.seat_of("a1") == 0


def test_the_computer_takes_the_empty_seats_and_a_missing_pupils_seat(tmp_path):
    tables = ClassTables(tmp_path)
    t = tables.open(TableSettings('plump', 4, level='nybörjare'))
    tables.sit(t.id, "a1", "Anna")
    tables.sit(t.id, "b2", "Bo")
    s = tables.start(t.id, seed=5)
    assert s.names == ["Anna", "Bo", "Datorn Anna", "Datorn Bo"] and s.humans == {0, 1}
    assert len(s.game.deals) == 0 and s.game.n_deals - s.game.first_deal == 5     # the short game: 5 ... 1 cards
    with pytest.raises(TableError, match="redan börjat"):
        tables.sit(t.id, "c3", "Cissi")
    assert tables.sit(t.id, "b2", "Bo") == 1     # a reload: the same seat
    tables.to_bot(t.id, 1)
    assert s.humans == {0} and t.seat_of("b2") is None
    status = table_status(tables, t)
    assert [x["computer"] for x in status["seats"]] == [False, True, True, True] and status["deal"] == 1
    assert [x["left"] for x in status["seats"]] == [False, True, False, False]
    assert ClassTables(tmp_path).tables[t.id].left == {1: ("b2", "Bo")}   # kept after a restart
    with pytest.raises(TableError, match="Ingen elev"):
        tables.to_pupil(t.id, 2)                 # a seat the computer had from the start
    tables.to_pupil(t.id, 1)                     # Bo is back: the teacher gives the seat back
    assert s.humans == {0, 1} and t.seat_of("b2") == 1 and not t.left and 1 not in s.bots


def test_a_restart_keeps_every_table(tmp_path):
    tables = ClassTables(tmp_path)
    t = tables.open(TableSettings('plump', 3))
    waiting = tables.open(TableSettings('bismarck', 3, tips=False))
    tables.sit(t.id, "a1", "Anna")
    tables.sit(waiting.id, "b2", "Bo")
    s = tables.start(t.id, seed=2)
    rng = random.Random(1)
    for _ in range(12):
        s.run_bots()
        if s.to_act() == 0: s.move(0, s.state().legal_actions()[rng.randrange(len(s.state().legal_actions()))])
    again = ClassTables(tmp_path)
    assert sorted(again.tables) == sorted(tables.tables) and not again.problems
    a = again.tables[t.id]
    assert a.session.seen_by(0) == s.seen_by(0) and a.pupils == t.pupils
    assert table_record(again.tables[waiting.id]) == table_record(waiting)
    assert not list(tmp_path.glob("*.tmp*"))
    (tmp_path / "trasig.json").write_text("{inte json", encoding="utf-8")
    assert ClassTables(tmp_path).problems and len(ClassTables(tmp_path).tables) == 2


def test_every_finished_deal_goes_to_the_pupils_results_also_after_a_restart(tmp_path):
    "Issue 42: the class table records each pupil's deals in the class's results, as the play table does."
    from plump_teach.course.results import ResultStore
    store = ResultStore(tmp_path / "resultat")
    anna, bo = "0123456789abcdef", "fedcba9876543210"
    tables = ClassTables(tmp_path / "klassbord", store)
    t = tables.open(TableSettings('plump', 3))
    tables.sit(t.id, anna, "Anna")
    tables.sit(t.id, bo, "Bo")
    s = tables.start(t.id, seed=4)
    rng = random.Random(2)

    def play_until(done):
        for _ in range(200):
            if done(): return
            s.run_bots()
            if s.ready is not None:
                for p in sorted(s.humans): s.next_deal(p)
            elif s.to_act() in s.humans:
                if s.to_act() == 0 and s.tips_in_deal.get(0, 0) == 0: s.tip(0)
                legal = s.state().legal_actions()
                s.move(s.to_act(), legal[rng.randrange(len(legal))])
        raise AssertionError("the deal did not end")

    play_until(lambda: len(s.game.deals) == 1)
    deals = [e for e in store.events(anna) if e["type"] == "deal"]
    d = s.game.deals[0]
    assert [(e["number"], e["player"], e["bid"], e["tricks"], e["points"], e["tips"], e["game"]) for e in deals] == \
        [(1, "Anna", d.bids[0], d.taken[0], d.points()[0], 1, "plump")]
    assert [e["player"] for e in store.events(bo) if e["type"] == "deal"] == ["Bo"]
    s = ClassTables(tmp_path / "klassbord", store).tables[t.id].session      # the server restarts
    play_until(lambda: len(s.game.deals) == 2)
    assert [e["number"] for e in store.events(anna) if e["type"] == "deal"] == [1, 2]


def test_the_pupils_choose_the_game_and_the_level_when_the_teacher_lets_them(tmp_path):
    "Issue 42: the teacher opens a table where the pupils choose; their choice is checked, used and kept."
    tables = ClassTables(tmp_path)
    t = tables.open(TableSettings('plump', 3, level='expert', pupils_choose=True))
    assert "väljs vid bordet" in t.settings.describe()
    tables.sit(t.id, "a1", "Anna")
    for level, length in (("mästare", "kort"), ("van", "evigt"), (["van"], "kort")):
        with pytest.raises(TableError):
            tables.start(t.id, seed=3, level=level, length=length)
        assert not t.started and t.settings.pupils_choose          # a refused choice changes nothing
    s = tables.start(t.id, seed=3, level="nybörjare", length="nedat")
    assert s.level == "nybörjare" and s.game.first_deal == 0 and "nybörjare" in t.settings.describe()
    assert ClassTables(tmp_path).tables[t.id].settings == t.settings  # kept after a restart
    fixed = tables.open(TableSettings('plump', 3, level='expert'))   # without the choice, the teacher's settings hold
    tables.sit(fixed.id, "b2", "Bo")
    assert tables.start(fixed.id, seed=3, level="nybörjare", length="nedat").level == "expert"
    assert tables.tables[fixed.id].settings.length == "kort"


def test_bad_settings_are_refused_in_swedish():
    for bad in (TableSettings('poker'), TableSettings('plump', 6), TableSettings('bismarck', 4),
                TableSettings('plump', 4, level='mästare'), TableSettings('plump', 4, length='evigt')):
        with pytest.raises(TableError):
            ClassTables().open(bad)


# ------------------------------------------------------------------------------------- with a real plump-teach

CODE, TEACHER = "abcd", "larare1234"


def run_async(coro):
    """asyncio.run in a thread of its own: another test in the same worker process may have left an event loop
    running in this thread (the play table's timers), and asyncio.run refuses to start inside one."""
    import threading
    out: dict = {}
    def go():
        try: out["value"] = asyncio.run(coro)
        except BaseException as e: out["error"] = e
    t = threading.Thread(target=go)
    t.start(); t.join()
    if "error" in out: raise out["error"]
    return out.get("value")
NAMES = ["Alva", "Bror", "Cleo", "Dino", "Ebba"]


def pupil_cookie(base: str, k: int) -> str:
    from proc_helpers import cookie_value, request
    pid = f"{k + 1:016x}"
    status, headers, _ = request(base + f"/?kod={CODE}&namn={NAMES[k]}", f"plump_elev={pid}")
    assert status == 302, status
    return f"plump_klass={cookie_value(headers, 'plump_klass')}; plump_elev={pid}; plump_namn={NAMES[k]}"


def teacher_key(base: str, cookie: str) -> str:
    from proc_helpers import request
    status, _, page = request(base + "/larare/bord", cookie)
    assert status == 200, page[:300]
    return re.search(r'data-key="([^"]+)"', page)[1]


def open_table(s, **form) -> str:
    from proc_helpers import request
    key = teacher_key(s.base, s.teacher_cookie)
    before = {t["id"] for t in json.loads(request(s.base + "/larare/bord.json", s.teacher_cookie)[2])["tables"]}
    status, _, page = request(s.base + "/larare/bord/oppna", s.teacher_cookie, "POST",
                              data={"nyckel": key, "spel": "plump", "platser": "4", "niva": "nybörjare", "tips": "1",
                                    "langd": "kort", **form})
    assert status == 303, page[:300]
    tables = json.loads(request(s.base + "/larare/bord.json", s.teacher_cookie)[2])["tables"]
    return next(t["id"] for t in tables if t["id"] not in before)


class Pupil:
    "A pupil's browser tab, reduced to its websocket: every message it receives is kept."
    def __init__(self, base: str, table: str, cookie: str):
        self.url, self.cookie = base.replace("http", "ws") + f"/bord/{table}/ws", cookie
        self.base, self.ws, self.pics, self.errors, self.received = base, None, [], [], []

    async def connect(self):
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect
        self.ws = await websocket_connect(HTTPRequest(self.url, headers={"Cookie": self.cookie, "Origin": self.base}))

    async def read(self, timeout: float = 20):
        msg = await asyncio.wait_for(self.ws.read_message(), timeout)
        assert msg is not None, "the server closed the connection"
        self.received.append(msg)
        m = json.loads(msg)
        (self.pics if m["t"] == "pic" else self.errors).append(m)
        return m

    async def picture(self, want=lambda p: True, timeout: float = 30):
        "The newest picture that satisfies `want`, reading until one comes."
        end = time.monotonic() + timeout
        while not (self.pics and want(self.pics[-1])):
            await self.read(max(0.1, end - time.monotonic()))
        return self.pics[-1]

    async def error(self, timeout: float = 20):
        "The next Swedish error the server sends this page (pictures in between are kept)."
        end = time.monotonic() + timeout
        while True:
            m = await self.read(max(0.1, end - time.monotonic()))
            if m["t"] == "err": return m

    def send(self, **msg): return self.ws.write_message(json.dumps(msg, ensure_ascii=False))


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    from proc_helpers import Server
    home = tmp_path_factory.mktemp("klassbord")
    s = Server(home, "--pool", "0", "--lesson-pool", "0", code=CODE, teacher=TEACHER,
               env={"PLUMP_TEACH_BORDETS_TAKT": "0.05"})
    yield s
    s.stop()


@pytest.mark.server
@pytest.mark.timeout(300)
def test_four_pupils_play_a_whole_game_and_see_only_their_own_cards(classroom):
    from proc_helpers import request
    s = classroom
    table = open_table(s, platser="5")
    cookies = [pupil_cookie(s.base, k) for k in range(4)]
    for c in cookies:
        status, headers, _ = request(s.base + f"/bord/{table}/sitt", c, "POST", data={})
        assert status == 303 and headers["Location"] == f"/bord/{table}"
    status, _, page = request(s.base + "/bord", cookies[0])
    assert status == 200 and "Gå till ditt bord" in page

    async def play():
        pupils = [Pupil(s.base, table, c) for c in cookies]
        for p in pupils: await p.connect()
        first = await pupils[0].picture()
        assert first["started"] is False and first["seated"] == NAMES[:4] and first["free"] == 1
        await pupils[0].send(t="start")
        rng, dropped, moves = random.Random(4), False, 0
        for _ in range(3000):
            pics = [await p.picture(lambda q: q.get("started")) for p in pupils]
            newest = max(pics, key=lambda q: q["version"])
            if newest["over"] and not newest["waiting_next"]: break
            mover = next((p for p in pupils if p.pics[-1]["your_turn"] and p.pics[-1]["version"] == newest["version"]), None)
            waiting = [p for p in pupils if p.pics[-1]["waiting_next"] and p.pics[-1]["seat"] not in p.pics[-1]["ready"]]
            if waiting:
                for p in waiting: await p.send(t="next")
            elif mover is not None:
                pic = mover.pics[-1]
                if not dropped and pic["phase"] == "playing" and pic["trick"] and moves > 8:
                    # the connection dies mid-trick; the pupil comes back to the same seat and the same cards
                    mover.ws.close()
                    await asyncio.sleep(0.2)
                    await mover.connect()
                    again = await mover.picture(lambda q: q.get("started"))
                    assert again["seat"] == pic["seat"] and again["hand"] == pic["hand"] and again["your_turn"]
                    dropped, pic = True, again
                a = rng.choice(pic["legal"])
                await mover.send(t="move", a=a, v=pic["version"])
                moves += 1
            for p in pupils:                       # read at least one new message somewhere before looking again
                try: await p.read(0.3)
                except asyncio.TimeoutError: pass
        else: raise AssertionError("the game did not end")
        return pupils, moves, dropped

    pupils, moves, dropped = run_async(play())
    assert dropped and moves > 20
    final = pupils[0].pics[-1]
    assert final["over"] and final["names"][4] == "Datorn Anna" and len(final["totals"]) == 5
    # What each browser received, message by message: no card that its pupil could not see at that moment. The moment
    # is read from the message itself (cards left in the hands), the cards from the saved game.
    saved = json.loads(next((s.results / "klassbord").glob("*.json")).read_text(encoding="utf-8"))
    from plump_teach.table.session import TableSession
    from plump_teach.engine.cards import FULL_DECK
    g = TableSession.from_dict(saved["session"]).game
    deck, checked = {str(c) for c in FULL_DECK}, 0
    for k, p in enumerate(pupils):
        for text in p.received:
            m = json.loads(text)
            if m["t"] != "pic" or not m.get("started") or "hand_sizes" not in m: continue
            assert m["seat"] == k
            deal = g.deals[m["deal"] - 1]
            played = [str(c) for _, cards, _ in deal.history for c in cards]
            seen = {str(c) for c in deal.dealt[k]} | set(played[:deal.cards * 5 - sum(m["hand_sizes"])])
            if deal.trump_card is not None: seen.add(str(deal.trump_card))
            assert not (deck - seen) & set(CARD.findall(text)), (k, m["deal"], (deck - seen) & set(CARD.findall(text)))
            assert {h["card"] for h in m["hand"]} <= {str(c) for c in deal.dealt[k]}
            checked += 1
    assert checked > 100
    status, _, page = request(s.base + "/larare/bord.json", s.teacher_cookie)
    row = next(t for t in json.loads(page)["tables"] if t["id"] == table)
    assert row["over"] and [x["name"] for x in row["seats"]] == [*NAMES[:4], "Datorn Anna"]


@pytest.mark.server
@pytest.mark.timeout(300)
def test_bad_messages_a_spectator_and_the_teachers_pause(classroom):
    from proc_helpers import request
    s = classroom
    table = open_table(s, platser="3", niva="van")
    cookies = [pupil_cookie(s.base, k) for k in range(4)]
    for c in cookies[:2]: request(s.base + f"/bord/{table}/sitt", c, "POST", data={})

    async def run():
        alva, bror, dino = (Pupil(s.base, table, cookies[k]) for k in (0, 1, 3))
        for p in (alva, bror, dino): await p.connect()
        await alva.picture()
        for bad in ("inte json", json.dumps([1, 2]), json.dumps({"t": "move", "a": ["fly", 1]}),
                    json.dumps({"t": "discard", "cards": ["♠E"]}), json.dumps({"t": "vad"}),
                    json.dumps({"t": "tip", "step": "två"})):
            await alva.ws.write_message(bad)
            assert (await alva.error())["text"]
        await dino.send(t="start")                         # Dino does not sit at this table: refused
        assert "Sätt dig" in (await dino.error())["text"]
        await alva.send(t="start")
        pic = await dino.picture(lambda q: q.get("started"))
        assert pic["seat"] is None and pic["hand"] == [] and pic["legal"] == []   # a spectator sees no hand
        await alva.send(t="undo")                          # the computer plays 'van' here: no taking back
        assert "nybörjare" in (await alva.error())["text"]
        key = teacher_key(s.base, s.teacher_cookie)
        status, _, _ = request(s.base + "/larare/bord/gor", s.teacher_cookie, "POST",
                               data={"nyckel": key, "bord": table, "vad": "paus"})
        assert status == 200
        paused = await alva.picture(lambda q: q.get("paused"))
        assert "pausat" in paused["turn"] and paused["legal"] == []
        status, _, _ = request(s.base + "/larare/bord/gor", s.teacher_cookie, "POST",
                               data={"nyckel": "fel", "bord": table, "vad": "fortsatt"})
        assert status == 403
        for p in (alva, bror, dino): p.ws.close()
    run_async(run())
    rows = json.loads(request(s.base + "/larare/bord.json", s.teacher_cookie)[2])["tables"]
    row = next(t for t in rows if t["id"] == table)
    assert row["paused"] and [x["name"] for x in row["seats"]] == ["Alva", "Bror", "Datorn Anna"]
    status, _, page = request(s.base + "/voila/render/start.ipynb", cookies[0])     # the start page shows the way
    assert status == 200 and 'href="/bord"' in page and "Läraren har öppnat klassens bord" in page
    status, _, page = request(s.base + "/bord/000000000000", cookies[0])
    assert status == 400 and "finns inte" in page
    assert request(s.base + "/larare/bord.json", cookies[0])[0] in (302, 303)   # a pupil is not the teacher


@pytest.mark.server
@pytest.mark.timeout(300)
def test_a_server_restart_keeps_the_tables_game(tmp_path):
    from proc_helpers import Server, request
    s = Server(tmp_path, "--pool", "0", "--lesson-pool", "0", code=CODE, teacher=TEACHER,
               env={"PLUMP_TEACH_BORDETS_TAKT": "0"})
    try:
        table = open_table(s, platser="3")
        cookie = pupil_cookie(s.base, 0)
        request(s.base + f"/bord/{table}/sitt", cookie, "POST", data={})

        async def some_moves():
            p = Pupil(s.base, table, cookie)
            await p.connect()
            await p.picture()
            await p.send(t="start")
            for _ in range(4):
                pic = await p.picture(lambda q: q.get("your_turn"))
                await p.send(t="move", a=pic["legal"][0], v=pic["version"])
                await p.picture(lambda q, v=pic["version"]: q["version"] > v)
            pic = await p.picture(lambda q: q.get("your_turn"))
            p.ws.close()
            return pic
        before = run_async(some_moves())
    finally:
        s.stop()
    s = Server(tmp_path, "--pool", "0", "--lesson-pool", "0", code=CODE, teacher=TEACHER)
    try:
        cookie = pupil_cookie(s.base, 0)     # a new class key after the restart; the same pupil (plump_elev)
        async def look():
            p = Pupil(s.base, table, cookie)
            await p.connect()
            return await p.picture()
        after = run_async(look())
        assert {k: after[k] for k in ("seat", "hand", "trick", "told", "version", "deal")} == \
               {k: before[k] for k in ("seat", "hand", "trick", "told", "version", "deal")}
    finally:
        s.stop()


def test_the_start_page_shows_the_way_only_when_a_table_is_open(tmp_path):
    from plump_teach.classroom.class_table_pages import with_tables_link
    page = "<html><body class='x'><main>Start</main></body></html>"
    tables = ClassTables(tmp_path)
    assert with_tables_link(page, None) == page and with_tables_link(page, tables) == page
    tables.open(TableSettings('plump', 4))
    shown = with_tables_link(page, tables)
    assert shown.startswith("<html><body class='x'><div") and 'href="/bord"' in shown and shown.endswith(page[25:])
