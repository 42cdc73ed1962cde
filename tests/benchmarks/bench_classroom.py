"""Benchmark: the classroom server (`plump-teach`) with a simulated class.

Run:  python tests/benchmarks/bench_classroom.py --pupils 30 60 [--pool 8] [--spread 0] [--short]

For each class size a fresh server is started on a free loopback port, in its own process group. The bench waits
until it answers and its memory has settled (the pool of kernels is warm), measures the idle memory (VmRSS summed
over the server and all its descendants, from /proc), then lets N simulated pupils (tests/benchmarks/
classroom_client.py: HTTP plus the kernel websocket, clicking through the widget protocol) arrive at once, or
spread evenly over --spread seconds. Each pupil: landing with the class code, the trainer page, kernel_info,
the widget state, 'Starta', one answer. When every pupil is done (or has given up), the bell rings and all
leave as closed tabs do (the shutdown beacon, then the websocket closes). Memory is then read right away, after
1 minute and after 5 minutes (--short: 10 s and 30 s).

Printed per class size: served / shown the full page / failed / left hanging, median and max time to a
clickable puzzle (from the first GET until the page, the kernel_info_reply and the widget state are in),
Starta-to-puzzle, click-to-feedback, peak memory and kernels, the memory after the pupils left and its ratio to
the idle figure, the beacon's answers, and warnings and errors from the server's log. A table at the end.

Issue 12's targets on the 2-core machine: 30 pupils at once, median time to a clickable puzzle at most 5 s and
max at most 10 s; memory back within 20 % of idle after the pupils left; 60 pupils, not one left hanging.
The bench prints figures and asserts nothing (the machine is shared and noisy). The client runs in this process
and takes some of the same CPU.

The server's flags of the classroom contract (--code, --pool, --max-pupils, --results, --idle-minutes) are used
when `plump-teach -h` lists them; the older server without them gets only --no-browser and --port.

To measure an older version of the server ("before"), unpack it and point --src at it; its plump_teach comes
first on PYTHONPATH, for the server and its kernels:
    git archive 2facfa2 | tar -x -C /tmp/old && python tests/benchmarks/bench_classroom.py --src /tmp/old
"""
import argparse
import asyncio
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tornado.httpclient import AsyncHTTPClient, HTTPRequest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom_client import Pupil  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / ".venv" / "bin" / "plump-teach"
CONTRACT_FLAGS = ("--code", "--pool", "--max-pupils", "--results", "--idle-minutes", "--lektion", "--lesson-pool")


# ---- the server's processes and memory

def _children() -> dict[int, list[int]]:
    kids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit(): continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(d))
    return kids


def tree(pid: int) -> list[int]:
    "The process and all its descendants."
    kids, out, todo = _children(), [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += kids.get(p, [])
    return out


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"): return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _is_kernel(pid: int) -> bool:
    return "ipykernel" in _cmdline(pid)


def memory(pid: int) -> tuple[float, int, int]:
    "(MB summed over the tree, processes, kernels)."
    ps = tree(pid)
    return sum(map(_rss_kb, ps)) / 1024, len(ps), sum(map(_is_kernel, ps))


# ---- starting and stopping the server

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(src: Path | None) -> tuple[list[str], dict]:
    "The command that starts `plump-teach` and its environment (with --src: that tree's plump_teach first)."
    base = dict(os.environ, PLUMP_LARARKOD="benchlarare1", PLUMP_TEACH_NYA="1000,1000")   # all pupils share one address
    if src is None: return [str(SERVER)], base
    env = dict(base, PYTHONPATH=os.pathsep.join([str(src)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    # `python -c` puts the working folder first on sys.path: the source tree goes before it
    code = f"import sys; sys.path.insert(0, {str(src)!r}); from plump_teach.classroom.app import main; sys.exit(main())"
    return [str(SERVER.parent / "python"), "-c", code], env


def server_flags(src: Path | None = None) -> set[str]:
    cmd, env = server_command(src)
    out = subprocess.run(cmd + ["-h"], capture_output=True, text=True, timeout=60, env=env).stdout
    return {f for f in CONTRACT_FLAGS if re.search(rf"(^|\s){re.escape(f)}\b", out)}


class Server:
    def __init__(self, a, results: Path, log: Path):
        self.port = free_port()
        a.lesson_number = int(a.page[:2]) if a.page[:2].isdigit() else None
        self.base = f"http://127.0.0.1:{self.port}"
        self.flags = server_flags(a.src)
        cmd, env = server_command(a.src)
        cmd = cmd + ["--no-browser", "--port", str(self.port)]
        extra = {"--code": a.code, "--pool": a.pool, "--max-pupils": a.max_pupils, "--results": results,
                 "--idle-minutes": a.idle_minutes, "--lesson-pool": a.lesson_pool,
                 "--lektion": a.lesson_number if a.lektion else None}
        for flag, value in extra.items():
            if flag in self.flags and value is not None: cmd += [flag, str(value)]
        self.cmd, self.log = cmd, log
        self.logf = open(log, "w")
        self.proc = subprocess.Popen(cmd, stdout=self.logf, stderr=subprocess.STDOUT, start_new_session=True,
                                     cwd=results.parent, env=env)

    def stop(self):
        "Stop the server's process group; kernels (each in a session of its own) that outlive it are killed by pid."
        left = [p for p in tree(self.proc.pid) if p != self.proc.pid]
        if self.proc.poll() is None:
            try: os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError: pass
            try: self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired: pass
        try: os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError: pass
        time.sleep(1)
        stray = [p for p in left if _is_kernel(p) or _cmdline(p).startswith(str(ROOT))]
        for p in stray:
            try: os.kill(p, signal.SIGKILL)
            except ProcessLookupError: pass
        if stray: print(f"  {len(stray)} processer levde kvar efter servern och dödades", flush=True)
        self.logf.close()

    async def wait_ready(self, timeout=180) -> float:
        t0 = time.monotonic()
        http = AsyncHTTPClient()
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None: raise RuntimeError(f"servern avslutades (kod {self.proc.returncode})")
            try:
                r = await http.fetch(HTTPRequest(self.base + "/voila/static/voila.js", request_timeout=5), raise_error=False)
                if r.code == 200: return time.monotonic() - t0
            except Exception:   # noqa: BLE001
                pass
            await asyncio.sleep(0.5)
        raise RuntimeError("servern svarar inte")

    async def settle(self, quiet=10.0, timeout=240.0) -> float:
        "Wait until the process tree is still: the same processes and memory within 2 % for `quiet` seconds."
        t0 = time.monotonic()
        last, since = None, time.monotonic()
        while time.monotonic() - t0 < timeout:
            mb, n, k = memory(self.proc.pid)
            if last is None or n != last[1] or abs(mb - last[0]) > 0.02 * last[0]:
                last, since = (mb, n, k), time.monotonic()
            elif time.monotonic() - since >= quiet:
                return time.monotonic() - t0
            await asyncio.sleep(1)
        return time.monotonic() - t0

    async def probe_landing(self, code: str) -> str:
        "Does the landing of the contract exist? (GET /?kod=...&namn=... answers 302 with the class cookie.)"
        r = await AsyncHTTPClient().fetch(HTTPRequest(f"{self.base}/?kod={code}&namn=Prov", follow_redirects=False,
                                                      request_timeout=30), raise_error=False)
        cookies = " ".join(r.headers.get_list("Set-Cookie")) if r.headers else ""
        if r.code == 302 and "plump_klass" in cookies: return f"ja (302 till {r.headers.get('Location')})"
        return f"nej (HTTP {r.code})"


# ---- one class

def _fmt(xs, f=statistics.median):
    return f"{f(xs):.2f}" if xs else "-"


_NOISE = ("is not trusted", "running over TCP without encryption")
_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def log_summary(log: Path, start: int = 0) -> tuple[Counter, Counter]:
    "The server's log from byte `start`: answers 400 and up by (status, method, path), and warning/error lines."
    text = log.read_bytes()[start:].decode("utf-8", "replace")
    statuses, other = Counter(), Counter()
    for line in text.splitlines():
        if m := re.match(r"(\d{3}) (GET|POST|PUT|DELETE|PATCH|HEAD) (\S+) \(.*\) [\d.]+ms", line):
            if int(m.group(1)) >= 400: statuses[(m.group(1), m.group(2), _ID.sub("<id>", m.group(3).split("?")[0]))] += 1
        elif re.search(r"\b(WARNING|ERROR|CRITICAL) \||Traceback|Error:|Exception", line) and \
                not any(n in line for n in _NOISE):
            other[_ID.sub("<id>", line)[:200]] += 1
    return statuses, other


async def whole_page(server: Server, a) -> int:
    "How many widget views the page has when one pupil opens it alone (the pupils' pages are checked against it)."
    r = await Pupil(server.base, 0, a.code, static=False, timeout=a.timeout, page="/voila/render/" + a.page).run()
    if r["utfall"] != "klar": raise RuntimeError(f"sidan {a.page} fungerar inte för en ensam elev: {r['fel']}")
    return r["vyer"]


async def run_class(server: Server, n: int, a, views: int | None = None) -> dict:
    pupils = [Pupil(server.base, i + 1, a.code, static=not a.no_static, timeout=a.timeout,
                    page="/voila/render/" + a.page, views=views) for i in range(n)]
    bell = asyncio.Event()
    peak = [0.0, 0, 0]
    done = asyncio.Event()

    async def watch():
        while not done.is_set():
            mb, procs, kernels = await asyncio.to_thread(memory, server.proc.pid)
            peak[0], peak[1], peak[2] = max(peak[0], mb), max(peak[1], procs), max(peak[2], kernels)
            await asyncio.sleep(0.5)

    async def arrive(i, p):
        if a.spread: await asyncio.sleep(a.spread * i / n)
        return await p.run(bell)

    watcher = asyncio.ensure_future(watch())
    t0 = time.monotonic()
    tasks = [asyncio.ensure_future(arrive(i, p)) for i, p in enumerate(pupils)]
    await asyncio.gather(*(p.arrived.wait() for p in pupils))
    t_all = time.monotonic() - t0
    mb_all, _, kernels_all = memory(server.proc.pid)
    load = os.getloadavg()[0]
    bell.set()
    results = await asyncio.gather(*tasks)
    done.set()
    await watcher
    return {"n": n, "results": results, "t_all": t_all, "peak": tuple(peak), "at_bell": (mb_all, kernels_all),
            "load": load}


def report(n, run, idle, after, log_counts, log_other) -> dict:
    res = run["results"]
    outcome = Counter(r["utfall"] for r in res)
    served = [r for r in res if r["utfall"] == "klar"]
    click = [r["tider"]["klickbart"] for r in res if "klickbart" in r["tider"]]
    page = [r["tider"]["sidan"] for r in res if "sidan" in r["tider"] and r["utfall"] != "fullt"]
    puzzle = [r["tider"]["pussel"] for r in res if "pussel" in r["tider"]]
    fb = [r["tider"]["återkoppling"] for r in res if "återkoppling" in r["tider"]]
    full = [r["tider"]["sidan"] for r in res if r["utfall"] == "fullt"]
    print(f"\n== {n} elever ==")
    print(f"  betjänade {len(served)}, fullt (503) {outcome['fullt']}, fel {outcome['fel']}, hänger {outcome['hänger']}"
          f", halv sida {outcome['halv']}"
          f"; alla klara efter {run['t_all']:.1f} s (maskinens last då: {run['load']:.1f} på {os.cpu_count()} kärnor)")
    print(f"  tid till klickbart pussel: median {_fmt(click)} s, max {_fmt(click, max)} s"
          f"  (sidan: median {_fmt(page)} s, max {_fmt(page, max)} s)")
    if full: print(f"  sidan 'Klassen är full': median {_fmt(full)} s, max {_fmt(full, max)} s")
    print(f"  Starta till pussel: median {_fmt(puzzle)} s, max {_fmt(puzzle, max)} s;"
          f" klick till återkoppling: median {_fmt(fb)} s, max {_fmt(fb, max)} s")
    print(f"  minne: i vila {idle[0]:.0f} MB ({idle[2]} kärnor), topp {run['peak'][0]:.0f} MB ({run['peak'][2]} kärnor),"
          f" när alla var klara {run['at_bell'][0]:.0f} MB ({run['at_bell'][1]} kärnor)")
    for label, (mb, _, k) in after:
        print(f"  minne {label} efter att eleverna gått: {mb:.0f} MB ({k} kärnor), {mb / idle[0]:.2f} × vilan")
    print(f"  landningen: {Counter(r['landning'] for r in res)}; avskedet (POST shutdown): "
          f"{Counter(r['avsked'] for r in res)}")
    errors = Counter(r["fel"] for r in res if r["fel"])
    for e, c in errors.most_common(8): print(f"  fel ×{c}: {e}")
    if log_counts:
        print("  serverns logg, varningar/fel per svar:")
        for (code, method, path), c in sorted(log_counts.items(), key=lambda kv: -kv[1])[:10]:
            print(f"    {code} {method} {path} ×{c}")
    if log_other:
        print(f"  serverns logg, andra varningar/fel ({sum(log_other.values())} rader), de vanligaste:")
        for line, c in log_other.most_common(10): print(f"    ×{c} {line}")
    return {"n": n, "served": len(served), "full": outcome["fullt"], "failed": outcome["fel"] + outcome["halv"],
            "hanging": outcome["hänger"], "click_med": _fmt(click), "click_max": _fmt(click, max),
            "fb_med": _fmt(fb), "fb_max": _fmt(fb, max), "idle": idle[0], "peak": run["peak"][0],
            "after": [(label, mb) for label, (mb, _, _) in after]}


async def bench(a):
    rows = []
    flags = server_flags(a.src)
    print(f"sidan: {a.page}{' (servern startas med --lektion)' if a.lektion else ''}")
    print(f"servern: {SERVER}{f' med plump_teach från {a.src}' if a.src else ''}; avtalets flaggor: {' '.join(sorted(flags)) or 'inga (den gamla servern)'}")
    waits = [("direkt", 2), ("efter 1 min", 60), ("efter 5 min", 300)] if not a.short else \
        [("direkt", 2), ("efter 10 s", 10), ("efter 30 s", 30)]
    for n in a.pupils:
        with tempfile.TemporaryDirectory(prefix="bench-klassrum-") as d:
            results = Path(d) / "resultat"
            server = Server(a, results, Path(d) / "server.log")
            try:
                print(f"\n-- startar servern för {n} elever: {' '.join(server.cmd[1 if a.src is None else 3:])}", flush=True)
                t_ready = await server.wait_ready()
                t_settle = await server.settle(quiet=a.settle)
                idle = memory(server.proc.pid)
                print(f"  svarar efter {t_ready:.1f} s, stilla efter {t_settle:.1f} s till: {idle[0]:.0f} MB, "
                      f"{idle[1]} processer, {idle[2]} kärnor; maskinens last {os.getloadavg()[0]:.1f}", flush=True)
                print(f"  landningen med klasskod finns: {await server.probe_landing(a.code)}", flush=True)
                views = await whole_page(server, a) if a.page != "traning.ipynb" else None
                if views is not None: print(f"  {a.page} ensam: {views} widgetar i sidan", flush=True)
                await asyncio.sleep(2)
                log_start = server.log.stat().st_size
                run = await run_class(server, n, a, views)
                after, t_left = [], time.monotonic()
                for label, t in waits:
                    await asyncio.sleep(max(0.0, t - (time.monotonic() - t_left)))
                    after.append((label, memory(server.proc.pid)))
                    print(f"  {label}: {after[-1][1][0]:.0f} MB, {after[-1][1][2]} kärnor", flush=True)
                counts, other = log_summary(server.log, log_start)
                rows.append(report(n, run, idle, after, counts, other))
                if a.keep_log: print(f"  serverns logg: {server.log.read_text(errors='replace')[-a.keep_log:]}")
            finally:
                server.stop()

    print("\n== sammanfattning ==")
    last = waits[-1][0]
    print(f"{'elever':>6} {'betj.':>5} {'fullt':>5} {'fel':>4} {'häng':>4} {'klickb. med/max s':>18} "
          f"{'återk. med/max s':>17} {'vila MB':>8} {'topp MB':>8} {last + ' MB':>15} {'/vila':>6}")
    for r in rows:
        mb_last = r["after"][-1][1]
        print(f"{r['n']:>6} {r['served']:>5} {r['full']:>5} {r['failed']:>4} {r['hanging']:>4} "
              f"{r['click_med'] + ' / ' + r['click_max']:>18} {r['fb_med'] + ' / ' + r['fb_max']:>17} "
              f"{r['idle']:>8.0f} {r['peak']:>8.0f} {mb_last:>15.0f} {mb_last / r['idle']:>6.2f}")
    print("mål (30 elever): median ≤ 5 s, max ≤ 10 s; minnet inom 20 % av vilan efter 5 min; 60 elever: ingen hänger")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pupils", type=int, nargs="+", default=[30, 60], help="klassens storlek, en körning för var och en")
    p.add_argument("--pool", type=int, default=None, help="--pool till servern (om den har flaggan)")
    p.add_argument("--max-pupils", type=int, default=None, help="--max-pupils till servern (om den har flaggan)")
    p.add_argument("--idle-minutes", type=int, default=None, help="--idle-minutes till servern (om den har flaggan)")
    p.add_argument("--code", default="bnch", help="klasskoden (bnch)")
    p.add_argument("--page", default="traning.ipynb", help="sidan som klassen öppnar, till exempel 01_vad_ar_plump.ipynb")
    p.add_argument("--lektion", action="store_true", help="starta servern med --lektion för sidans lektion")
    p.add_argument("--lesson-pool", type=int, default=None, help="--lesson-pool till servern (om den har flaggan)")
    p.add_argument("--spread", type=float, default=0.0, help="eleverna kommer jämnt utspridda över så många sekunder (0)")
    p.add_argument("--timeout", type=float, default=180.0, help="en elev som väntar så länge på ett svar hänger (180 s)")
    p.add_argument("--settle", type=float, default=10.0, help="servern är stilla när inget ändras på så många sekunder")
    p.add_argument("--no-static", action="store_true", help="hämta inte sidans skript och stilmallar")
    p.add_argument("--short", action="store_true", help="minnet efter 10 s och 30 s i stället för 1 och 5 min")
    p.add_argument("--src", type=Path, default=None, metavar="MAPP",
                   help="en annan versions källträd (git archive REV | tar -x -C MAPP): dess plump_teach används")
    p.add_argument("--keep-log", type=int, default=0, metavar="TECKEN", help="skriv ut slutet av serverns logg")
    a = p.parse_args()
    if a.src is not None: a.src = a.src.resolve()

    async def guarded():
        # Ctrl+C or SIGTERM (also when started in the background with SIGINT ignored) cancels the run, and the
        # server is stopped on the way out
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM): loop.add_signal_handler(sig, task.cancel)
        await bench(a)
    try:
        asyncio.run(guarded())
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("avbruten", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
