"""Klassrummet rättvist för alla (issue 38): högst några sidor per elev, kärnor som stängs när webbläsaren har gått,
"arbetar just nu" som stämmer, nya elever begränsade per adress, samma elev som kommer tillbaka med sitt namn,
lärarens knappar (stäng alla sidor, ta bort en elev, lektionen som klassen börjar med) och en logg med tid.

One classroom server for the module (started once: about 10 s), with small limits from the environment so that the
tests are quick: 3 new pupils a minute per address (PLUMP_TEACH_NYA) and 3 s without a browser before a pupil's
kernel is closed (PLUMP_TEACH_BORTA). Pupils come from different loopback addresses (127.0.0.x) as from different
computers. Lessons are opened without pre-started kernels, so every page starts its own kernel (about 1-2 s).
"""
import json
import re
import socket
import time
import urllib.parse
from contextlib import contextmanager
from pathlib import Path

import pytest

from proc_helpers import Server, children, cookie_value, request, request_from

pytestmark = [pytest.mark.server, pytest.mark.timeout(300), pytest.mark.skipif(not Path("/proc").exists(), reason="behöver /proc")]

CODE, TEACHER = "fair12", "larare5678"
LESSON = "/voila/render/01_vad_ar_plump.ipynb"


@pytest.fixture(scope="module")
def s(tmp_path_factory):
    home = tmp_path_factory.mktemp("rattvist")
    server = Server(home, "--pool", "0", "--lesson-pool", "0", "--max-pupils", "12", code=CODE, teacher=TEACHER,
                    env={"PLUMP_TEACH_NYA": "3,100", "PLUMP_TEACH_BORTA": "3"})
    yield server
    server.stop()


def join(s, name: str, source: str, cookie: str | None = None, same: str | None = None):
    "En elev går in med klasskoden från adressen `source`: (status, rubriker, sida)."
    q = f"/?kod={CODE}&namn={urllib.parse.quote(name)}" + (f"&samma={same}" if same is not None else "")
    return request_from(source, s.base, q, cookie)


def pupil_cookie(headers) -> str:
    return "; ".join(f"{k}={cookie_value(headers, k)}" for k in ("plump_klass", "plump_elev", "plump_namn"))


def kernel_of(page: str) -> str:
    m = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
    assert m, "sidan har ingen kärna"
    return m[1]


def heard(s, cookie: str, kernel: str) -> dict:
    status, _, body = request(s.base + f"/elev/sida/{kernel}", cookie)
    assert status == 200, status
    return json.loads(body)


@contextmanager
def browser_on(s, kernel: str, cookie: str):
    "En webbläsare ansluten till kärnans websocket, tills blocket är slut (då stängs förbindelsen)."
    host, port = urllib.parse.urlsplit(s.base).netloc.split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    lines = [f"GET /api/kernels/{kernel}/channels?session_id=prov HTTP/1.1", f"Host: {host}:{port}",
             "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
             "Sec-WebSocket-Version: 13", f"Origin: {s.base}", f"Cookie: {cookie}"]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    assert int(sock.recv(200).split()[1]) == 101
    try: yield
    finally: sock.close()


def wait_until(what, timeout: float = 20, step: float = 0.3):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if (got := what()): return got
        time.sleep(step)
    raise AssertionError("väntade förgäves")


def test_new_pupils_are_limited_per_address_and_a_known_pupil_always_gets_in(s):
    firsts = [join(s, f"Ny{i}", "127.0.0.21") for i in range(3)]
    assert [st for st, _, _ in firsts] == [302, 302, 302]
    status, headers, page = join(s, "Ny3", "127.0.0.21")
    assert status == 429 and 0 < int(headers["Retry-After"]) <= 60, status
    assert "Vänta en liten stund" in page and "försöker igen av sig själv" in page
    assert join(s, "Ny4", "127.0.0.22")[0] == 302                                   # en annan dator
    assert join(s, "Ny0", "127.0.0.21", pupil_cookie(firsts[0][1]))[0] == 302         # en elev som redan är inne
    names = [json.loads(l)["name"] for f in s.results.glob("*.jsonl") for l in f.read_text().splitlines()[:1]]
    assert "Ny3" not in names and {"Ny0", "Ny1", "Ny2", "Ny4"} <= set(names)


def test_the_same_pupil_comes_back_by_name_in_another_browser(s):
    status, headers, _ = join(s, "Ada Åkesson", "127.0.0.31")
    assert status == 302
    ada = cookie_value(headers, "plump_elev")
    status, _, page = join(s, "ada  åkesson", "127.0.0.32")                # en annan webbläsare, utan kakor
    assert status == 200 and "Har du varit med förut?" in page and "Ja, det är jag" in page
    assert "plump_elev" not in page and ada not in page                    # sidan visar inte elevens id
    status, headers, _ = join(s, "ada  åkesson", "127.0.0.32", same="1")
    assert status == 302 and cookie_value(headers, "plump_elev") == ada
    status, headers, _ = join(s, "Ada Åkesson", "127.0.0.33", same="0")
    other = cookie_value(headers, "plump_elev")
    assert status == 302 and other != ada
    # läraren ser två rader med samma namn och slår ihop dem, efter en sida som frågar först
    page = request(s.base + "/larare", s.teacher_cookie)[2]
    key = re.search(r'name="nyckel" value="([^"]+)"', page)[1]
    assert 'action="/larare/sla-ihop"' in page
    form = {"nyckel": key, "fran": other, "till": ada}
    status, _, page = request(s.base + "/larare/sla-ihop", s.teacher_cookie, "POST", data=form)
    assert status == 200 and 'name="ja"' in page and (s.results / f"elev-{other}.jsonl").exists()
    status, _, _ = request(s.base + "/larare/sla-ihop", s.teacher_cookie, "POST", data={**form, "ja": "1"})
    assert status == 303 and not (s.results / f"elev-{other}.jsonl").exists()
    assert list((s.results / "sammanslagna").glob(f"*{other}*"))
    status, _, page = request(s.base + "/larare/sla-ihop", s.teacher_cookie, "POST", data={**form, "ja": "1"})
    assert status == 400 and "Det gick inte" in page                      # redan ihopslagna: ett svenskt fel


def test_one_pupil_keeps_at_most_three_pages(s):
    status, headers, _ = join(s, "Många Flikar", "127.0.0.41")
    cookie = pupil_cookie(headers)
    kernels = []
    for _ in range(5):
        status, _, page = request(s.base + LESSON, cookie)
        assert status == 200
        kernels.append(kernel_of(page))
    answers = [heard(s, cookie, k) for k in kernels]
    assert [a["oppen"] for a in answers] == [False, False, True, True, True], answers
    assert "fler sidor" in answers[0]["text"]
    mine = wait_until(lambda: (st := s.status()) and set(kernels[:2]).isdisjoint(st["pupil_kernels"]) and st)
    assert set(kernels[2:]) <= set(mine["pupil_kernels"])
    # utan elevens id i kakorna (bara klassens nyckel) räknas sidorna per adress
    bare = cookie.split("; ")[0]
    assert bare.startswith("plump_klass=")
    others = [kernel_of(request_from("127.0.0.42", s.base, LESSON, bare)[2]) for _ in range(4)]
    assert [heard(s, bare, k)["oppen"] for k in others] == [False, True, True, True]


def test_a_kernel_is_freed_soon_after_its_browser_goes_and_working_is_true(s):
    status, headers, _ = join(s, "Borta Snart", "127.0.0.51")
    cookie = pupil_cookie(headers)
    kernel = kernel_of(request(s.base + LESSON, cookie)[2])
    with browser_on(s, kernel, cookie):
        assert wait_until(lambda: s.status()["working"] >= 1)
        time.sleep(4)                                                   # längre än 3 s: med webbläsaren kvar
        assert kernel in s.status()["pupil_kernels"] and heard(s, cookie, kernel)["oppen"]
    t0 = time.monotonic()
    wait_until(lambda: kernel not in s.status()["kernels"])
    assert time.monotonic() - t0 < 15
    answer = heard(s, cookie, kernel)
    assert not answer["oppen"] and answer["text"]


def test_teacher_closes_every_page_and_removes_a_pupil_with_results_kept_apart(s):
    pupils = []
    for i, source in enumerate(("127.0.0.61", "127.0.0.62")):
        status, headers, _ = join(s, f"Stängs{i}", source)
        cookie = pupil_cookie(headers)
        pupils.append((cookie, cookie_value(headers, "plump_elev"), kernel_of(request(s.base + LESSON, cookie)[2])))
    key = re.search(r'name="nyckel" value="([^"]+)"', request(s.base + "/larare", s.teacher_cookie)[2])[1]
    page = request(s.base + "/larare", s.teacher_cookie)[2]
    assert "Stäng alla elevsidor" in page
    status, _, _ = request(s.base + "/larare/stang-alla", s.teacher_cookie, "POST", data={"nyckel": key})
    assert status == 303
    wait_until(lambda: not s.status()["pupil_kernels"])
    assert all(heard(s, c, k)["text"] == "Läraren har stängt alla elevsidor." for c, _, k in pupils)
    # ta bort: knappen leder först till en sida som frågar, och då händer inget
    cookie, pupil, _ = pupils[0]
    status, _, page = request(s.base + "/larare/ta-bort", s.teacher_cookie, "POST", data={"nyckel": key, "elev": pupil})
    assert status == 200 and "Stängs0" in page and 'name="ja"' in page and (s.results / f"elev-{pupil}.jsonl").exists()
    status, _, _ = request(s.base + "/larare/ta-bort", s.teacher_cookie, "POST",
                           data={"nyckel": key, "elev": pupil, "ja": "1"})
    assert status == 303 and not (s.results / f"elev-{pupil}.jsonl").exists()
    assert list((s.results / "borttagna").glob(f"*{pupil}*"))
    assert "Stängs0" not in request(s.base + "/larare", s.teacher_cookie)[2]
    status, _, page = request(s.base + "/larare/ta-bort", s.teacher_cookie, "POST",
                              data={"nyckel": key, "elev": "0000000000000000", "ja": "1"})
    assert status == 400 and "Det gick inte" in page
    # utan lärarens nyckel: vägras
    assert request(s.base + "/larare/stang-alla", s.teacher_cookie, "POST", data={"nyckel": "fel"})[0] == 403


def test_teacher_prepares_the_lesson_the_class_starts_with(s):
    key = re.search(r'name="nyckel" value="([^"]+)"', request(s.base + "/larare", s.teacher_cookie)[2])[1]
    status, _, _ = request(s.base + "/larare/lektioner", s.teacher_cookie, "POST",
                           data={"nyckel": key, "lektion": "02_korten_och_sticken.ipynb"})
    assert status == 303
    st = s.status()
    assert st["ready"] == ["02_korten_och_sticken.ipynb"] and st["pools"]["02_korten_och_sticken.ipynb"][1] == 12
    wait_until(lambda: s.status()["pools"]["02_korten_och_sticken.ipynb"][0] >= 2, timeout=60)
    assert "Lektion 2: Korten och sticken – " in request(s.base + "/larare", s.teacher_cookie)[2]
    request(s.base + "/larare/lektioner", s.teacher_cookie, "POST", data={"nyckel": key})     # inga lektioner
    st = wait_until(lambda: (st := s.status()) and not st["ready"] and len(st["kernels"]) <= 1 + len(st["pupil_kernels"]) and st,
                    timeout=90)
    assert "02_korten_och_sticken.ipynb" not in st["pools"]


def test_the_log_has_times_joins_and_teacher_visits_and_no_code_on_a_command_line(s):
    join(s, "Loggad", "127.0.0.71")
    request(s.base + "/larare", s.teacher_cookie)
    log = s.output() if len(s.output()) else ""
    s.log.seek(0)
    log = s.log.read()
    assert re.search(r"\[I \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] En elev gick in \(ny\) från 127\.0\.0\.71", log), log[-2000:]
    assert re.search(r"\[I [\d-]+ [\d:]+\] Läraren loggade in från", log)
    assert re.search(r"\[I [\d-]+ [\d:]+\] Läraren öppnade lärarsidan", log)
    assert "Loggad" not in log and TEACHER not in log
    for pid in [s.proc.pid, *children(s.proc.pid)]:
        try: cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError: continue
        assert TEACHER.encode() not in cmd, cmd


def test_the_start_page_marks_the_lessons_whose_goal_the_pupil_has_reached(s):
    "Issue 39: klassrummets startsida har en bock efter lektionerna där eleven har nått målet, bara för den eleven."
    from plump_teach.course.catalogue import PUPIL_LESSONS
    from plump_teach.course.progress import GOAL_MARK
    from plump_teach.course.results import Recorder, ResultStore
    status, headers, _ = join(s, "Målmedveten", "127.0.0.81")
    cookie, pupil = pupil_cookie(headers), cookie_value(headers, "plump_elev")
    start = "/voila/render/start.ipynb"
    assert GOAL_MARK not in request(s.base + start, cookie)[2]
    lesson = next(l for l in PUPIL_LESSONS if l.number == 4)
    rec = Recorder(ResultStore(s.results), pupil, "Målmedveten", lesson.file)
    for streak in range(1, 6): rec.record("task", kind=lesson.kinds[0], outcome="first_try", streak=streak)
    page = request(s.base + start, cookie)[2]
    assert page.count(GOAL_MARK) == 1 and page.index(GOAL_MARK) > page.index(lesson.file)
    other = pupil_cookie(join(s, "Någon Annan", "127.0.0.82")[1])
    assert GOAL_MARK not in request(s.base + start, other)[2]
