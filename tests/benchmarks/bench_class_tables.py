"""Benchmark for issue 42 (Klassens bord): many tables of pupils at once on one `plump-teach`.

Run:  python tests/benchmarks/bench_class_tables.py [--tables 8] [--pupils 4] [--seed 1] [--bots 0]

A fresh `plump-teach` on a free loopback port (no kernels: --pool 0 --lesson-pool 0; the computer moves without
pause). The teacher opens `--tables` tables of `--pupils` seats (Plump, the short game: 5, 4, 3, 2 and 1 cards),
`--bots` of them left to the computer. Every pupil is a websocket client in this process (the same messages a
browser gets), with its own cookies from the class link; all sit, and every table plays its whole game at once:
a pupil whose picture says it is their turn answers with a random legal move right away, and presses "Nästa giv"
after each deal.

Measured:
- latency: from the moment a pupil sends a move until each *other* device at the table has a picture that shows
  it (the first picture with a newer version), median, p90 and max over every move of every table;
- moves per second over the whole run, and the wall time of the games;
- memory: the server's VmRSS (from /proc) before the tables, with every table open and every pupil connected, and
  at the end; per table and per pupil;
- a dropped connection: at one table a pupil's websocket is closed mid-trick; after reconnecting the pupil must
  have the same seat and the same cards, and the game goes on (counted, not asserted).

The bench prints figures and asserts nothing (the machine is shared and noisy). The clients run in this process
and take some of the same two cores as the server: the latency includes their share.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))          # tests/: proc_helpers
from proc_helpers import Server, cookie_value, request   # noqa: E402

CODE, TEACHER = "bord8", "larare8888"


def rss_kb(pid: int) -> int:
    "VmRSS of `pid` and all its descendants, in kB."
    import os
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit(): continue
        try:
            with open(f"/proc/{d}/stat") as f: ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError: continue
        kids.setdefault(ppid, []).append(int(d))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo += kids.get(p, [])
        try:
            with open(f"/proc/{p}/status") as f:
                total += next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
        except (OSError, StopIteration): pass
    return total


class Device:
    "One pupil's browser, reduced to the websocket: pictures in, moves out, and when each picture arrived."
    def __init__(self, base: str, table: str, cookie: str, name: str):
        self.base, self.table, self.cookie, self.name = base, table, cookie, name
        self.pic: dict | None = None
        self.arrived: list[tuple[int, float]] = []      # (version, time)
        self.errors: list[str] = []
        self.pressed: dict[int, bool] = {}              # Nästa giv pressed on the picture with this version
        self.ws = None

    async def connect(self):
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect
        url = self.base.replace("http", "ws") + f"/bord/{self.table}/ws"
        self.ws = await websocket_connect(HTTPRequest(url, headers={"Cookie": self.cookie, "Origin": self.base}),
                                          max_message_size=1 << 24)

    async def listen(self, changed: asyncio.Event):
        while True:
            msg = await self.ws.read_message()
            if msg is None: return
            m = json.loads(msg)
            if m["t"] == "pic":
                self.pic = m
                if m.get("started"): self.arrived.append((m["version"], time.perf_counter()))
                changed.set()
            elif m["t"] == "err": self.errors.append(m["text"])

    def send(self, **msg): return self.ws.write_message(json.dumps(msg, ensure_ascii=False))


async def play_table(devices: list[Device], rng: random.Random, latencies: list[float], drop: bool) -> dict:
    "Every device at the table plays its own seat until the game is over; the latency of every move is recorded."
    changed = asyncio.Event()
    readers = [asyncio.ensure_future(d.listen(changed)) for d in devices]
    out = {"moves": 0, "dropped": None}
    await devices[0].send(t="start")
    last_change = time.perf_counter()
    while True:
        await asyncio.sleep(0.002)           # the readers fill in the pictures; this loop only looks at them
        if time.perf_counter() - last_change > 60: raise TimeoutError("a table stopped moving")
        pics = [d.pic for d in devices]
        if not all(p and p.get("started") for p in pics): continue
        newest = max(p["version"] for p in pics)
        if any(p["over"] and not p["waiting_next"] and p["version"] == newest for p in pics): break
        for d, p in zip(devices, pics):
            if p["waiting_next"] and p["seat"] not in p["ready"] and p["version"] == newest and not d.pressed.get(newest):
                d.pressed[newest] = True
                await d.send(t="next")
                last_change = time.perf_counter()
        mover = next((d for d, p in zip(devices, pics) if p["your_turn"] and p["version"] == newest), None)
        if mover is None: continue
        pic = mover.pic
        if drop and out["dropped"] is None and pic["phase"] == "playing" and pic["trick"]:
            k = devices.index(mover)
            mover.ws.close()
            await readers[k]
            await mover.connect()
            mover.pic = None
            readers[k] = asyncio.ensure_future(mover.listen(changed))
            while mover.pic is None: await asyncio.sleep(0.002)
            same = mover.pic["seat"] == pic["seat"] and mover.pic["hand"] == pic["hand"] and mover.pic["your_turn"]
            out["dropped"] = same
            pic = mover.pic
        v, t0 = pic["version"], time.perf_counter()
        await mover.send(t="move", a=rng.choice(pic["legal"]), v=v)
        out["moves"] += 1
        others = [d for d in devices if d is not mover]
        end = time.perf_counter() + 30
        while time.perf_counter() < end and not all(any(ver > v for ver, _ in d.arrived) for d in others):
            await asyncio.sleep(0.001)
        for d in others:
            t = next((t for ver, t in d.arrived if ver > v), None)
            if t is not None: latencies.append(t - t0)
        last_change = time.perf_counter()
    for d in devices: d.ws.close()
    for r in readers:
        try: await asyncio.wait_for(r, 5)
        except (asyncio.TimeoutError, Exception): pass
    out["errors"] = sum(len(d.errors) for d in devices)
    return out


def memory_in_process(tables: int, pupils: int, bots: int) -> tuple[float, float, float]:
    """What the tables themselves take in the server's Python heap (tracemalloc): `tables` started tables with their
    games and pictures; kB per table and per pupil. RSS cannot see this little."""
    import tracemalloc
    sys.path.insert(0, str(HERE.parents[1]))
    from plump_teach.classroom.class_tables import ClassTables, TableSettings
    from plump_teach.classroom.class_table_pages import seat_picture
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    room, size = ClassTables(), 0
    for i in range(tables):
        t = room.open(TableSettings("plump", pupils + bots))
        for k in range(pupils): room.sit(t.id, f"{i * 16 + k + 1:016x}", f"Elev {k}")
        room.start(t.id, seed=i + 1)
        size += sum(len(json.dumps(seat_picture(room, t, k), ensure_ascii=False).encode()) for k in range(pupils))
    used = (tracemalloc.get_traced_memory()[0] - before) / 1024
    tracemalloc.stop()
    return used / tables, used / (tables * pupils), size / (tables * pupils) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--pupils", type=int, default=4, help="pupils per table (3-5)")
    ap.add_argument("--bots", type=int, default=0, help="seats per table left to the computer")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    import tempfile
    home = Path(tempfile.mkdtemp(prefix="bench_bord_"))
    s = Server(home, "--pool", "0", "--lesson-pool", "0", "--max-pupils", "200", code=CODE, teacher=TEACHER,
               env={"PLUMP_TEACH_BORDETS_TAKT": "0", "PLUMP_TEACH_NYA": "1000,1000"})
    try:
        time.sleep(2)
        idle = rss_kb(s.proc.pid)
        key = __import__("re").search(r'data-key="([^"]+)"', request(s.base + "/larare/bord", s.teacher_cookie)[2])[1]
        seats = a.pupils + a.bots
        tables = []
        for _ in range(a.tables):
            before = {t["id"] for t in json.loads(request(s.base + "/larare/bord.json", s.teacher_cookie)[2])["tables"]}
            request(s.base + "/larare/bord/oppna", s.teacher_cookie, "POST",
                    data={"nyckel": key, "spel": "plump", "platser": str(seats), "niva": "van", "langd": "kort"})
            now = json.loads(request(s.base + "/larare/bord.json", s.teacher_cookie)[2])["tables"]
            tables.append(next(t["id"] for t in now if t["id"] not in before))
        devices = []
        for ti, table in enumerate(tables):
            row = []
            for k in range(a.pupils):
                pid = f"{ti * 16 + k + 1:016x}"
                status, headers, _ = request(s.base + f"/?kod={CODE}&namn=Elev{ti}x{k}", f"plump_elev={pid}")
                cookie = f"plump_klass={cookie_value(headers, 'plump_klass')}; plump_elev={pid}"
                request(s.base + f"/bord/{table}/sitt", cookie, "POST", data={})
                row.append(Device(s.base, table, cookie, f"{ti}/{k}"))
            devices.append(row)

        async def run():
            for row in devices:
                for d in row: await d.connect()
            await asyncio.sleep(1)
            connected = rss_kb(s.proc.pid)
            lat: list[float] = []
            t0 = time.perf_counter()
            results = await asyncio.gather(*(play_table(row, random.Random(a.seed * 100 + i), lat, i == 0)
                                             for i, row in enumerate(devices)))
            return connected, lat, results, time.perf_counter() - t0
        connected, lat, results, wall = asyncio.run(run())
        end = rss_kb(s.proc.pid)
    finally:
        s.stop()
    moves = sum(r["moves"] for r in results)
    lat.sort()
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000
    print(f"{a.tables} tables x {a.pupils} pupils (+{a.bots} computer seats), Plump 5-4-3-2-1, one plump-teach on loopback")
    print(f"  games: {wall:.1f} s wall, {moves} pupil moves, {moves / wall:.1f} moves/s over all tables")
    print(f"  a move reaching each other device at its table ({len(lat)} deliveries):")
    print(f"    median {p(0.5):.0f} ms, p90 {p(0.9):.0f} ms, p99 {p(0.99):.0f} ms, max {lat[-1] * 1000:.0f} ms"
          f"   (goal: under 300 ms)")
    print(f"  memory (server VmRSS): idle {idle / 1024:.0f} MB, all connected {connected / 1024:.0f} MB, "
          f"after the games {end / 1024:.0f} MB")
    n = a.tables * a.pupils
    if connected - idle < 1024:
        print(f"    RSS grew by {connected - idle} kB with every table open and every pupil connected: under what it resolves")
    else:
        print(f"    per table {(connected - idle) / a.tables:.0f} kB, per pupil {(connected - idle) / n:.0f} kB "
              f"(with every table open and every pupil connected)")
    per_table, per_pupil, picture = memory_in_process(a.tables, a.pupils, a.bots)
    print(f"    in the server's heap (tracemalloc, the same tables built in this process): {per_table:.0f} kB per table,"
          f" {per_pupil:.0f} kB per pupil; one picture to a pupil is {picture:.1f} kB of JSON")
    drop = results[0]["dropped"]
    print(f"  dropped connection mid-trick at table 1: {'same seat and cards after reconnecting' if drop else drop}")
    print(f"  Swedish errors sent to pupils: {sum(r['errors'] for r in results)}")


if __name__ == "__main__":
    main()
