"""Klassrummets server (plump_teach.classroom.server) med riktiga kärnor: kakorna, grinden, taket, stängningen och gallringen.

The classroom server started through the console script on a free loopback port, one server per test (started
and stopped inside it): the class link sets the cookies and leads to the start page (the empty teacher page shows that link), and a pupil who has just
joined shows on the teacher page (the pupil gets in even when the results folder cannot be written); without the
class cookie (a random key the landing sets, not the code: the code as a cookie is refused) every page, API call and kernel
websocket is refused with the Swedish page (403); the teacher pages want the teacher's login (not a pupil's cookie, not
a code in the URL); the browser's shutdown beacon (no _xsrf) frees the kernel; beyond --max-pupils the Swedish "Klassen är full"
page (503) retries by itself; idle kernels are culled; a pre-started kernel serves the trainer; nothing any page
references is on another host, and the JupyterLab extensions Voilà loads exist (the project's own,
for JupyterLab, is not among them); and when plump-teach is killed without warning the server and its kernels die too.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

from proc_helpers import Server, alive, children, request, set_cookies

pytestmark = [pytest.mark.server, pytest.mark.timeout(300), pytest.mark.skipif(not Path("/proc").exists(), reason="behöver /proc")]

CODE, TEACHER = "abcd", "larare1234"


@pytest.fixture
def server(tmp_path):
    "Fabrik: `server(*argument)` startar plump-teach; alla stoppas efter testet, också vid fel."
    started = []
    def start(*args):
        home = tmp_path / f"server{len(started)}"
        home.mkdir()
        started.append(Server(home, *args, code=CODE, teacher=TEACHER))
        return started[-1]
    yield start
    for s in started: s.stop()


def kernel_id(page: str) -> str:
    "Kärnans id i en sida som Voilà har ritat."
    m = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page) or re.search(r"kernel_id[\"']?\s*[:=]\s*[\"']([0-9a-f-]{36})", page)
    assert m, "sidan har ingen kärna"
    return m[1]


def websocket_status(base: str, path: str, cookie: str | None) -> int:
    "Statuskoden för en websocket-uppkoppling (101 om den godtas)."
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=30) as s:
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13", f"Origin: {base}"]
        if cookie: lines.append(f"Cookie: {cookie}")
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return int(s.recv(200).split()[1])


SWEDISH_REFUSAL = "Skriv klasskoden"


def test_class_link_cookies_and_refusals(server):
    s = server("--pool", "0", "--lesson-pool", "0")
    status, _, page = request(s.base + f"/?kod={CODE.upper()}", None)      # koden får skrivas med stora bokstäver
    assert status == 200 and '<label for="namn">' in page and 'name="namn"' in page
    # ingen elev har gått in än: lärarsidan visar elevlänken som den är
    status, _, page = request(s.base + "/larare", s.teacher_cookie)
    assert status == 200 and "Inga elever har börjat" in page and f"<b>{s.base}/?kod={CODE}</b>" in page, page
    status, headers, _ = request(s.base + f"/?kod={CODE}&namn=%C3%85sa%20Ek", None)
    assert status == 302 and headers["Location"] == "/voila/render/start.ipynb"
    cookies = dict(c.split(";")[0].split("=", 1) for c in headers.get_all("Set-Cookie"))
    # klassens kaka är en slumpad nyckel, inte koden
    assert re.fullmatch("[0-9a-f]{32}", cookies["plump_klass"]) and re.fullmatch("[0-9a-f]{16}", cookies["plump_elev"])
    assert urllib.parse.unquote(cookies["plump_namn"]) == "Åsa Ek"
    # eleven syns på lärarsidan direkt, innan hon har öppnat en sida med kärna (startsidan har ingen)
    status, _, page = request(s.base + "/larare", s.teacher_cookie)
    assert status == 200 and "Åsa Ek" in page and "Startsidan" in page, page
    # elevens id behålls när eleven går in igen
    again = request(s.base + f"/?kod={CODE}&namn=", f"plump_elev={cookies['plump_elev']}")[1].get_all("Set-Cookie")
    assert f"plump_elev={cookies['plump_elev']}" in ";".join(again)
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    status, _, page = request(s.base + "/voila/render/start.ipynb", cookie)
    assert status == 200 and "Plump och Bismarck: elevkursen" in page
    assert request(s.base + "/", cookie)[0] == 302                        # med kakan: direkt till startsidan

    # fel kod, och ingen kod: sidan med kodfältet, 403, för sidor, anrop och websockets
    status, _, page = request(s.base + "/?kod=zzzz", None)
    assert status == 403 and "Koden stämmer inte" in page and 'name="kod"' in page
    for path in ("/", "/voila/render/start.ipynb", "/voila/render/01_vad_ar_plump.ipynb", "/api/kernels",
                 "/voila/tree", "/voila/api/shutdown/x"):
        for bad in (None, "plump_klass=zzzz", f"plump_klass={CODE}"):
            status, _, page = request(s.base + path, bad, method="POST" if "shutdown" in path else "GET")
            assert status == 403 and SWEDISH_REFUSAL in page and 'lang="sv"' in page, (path, bad, status)

    # en lektion startar en kärna; dess websocket godtas bara med klasskoden
    status, _, page = request(s.base + "/voila/render/01_vad_ar_plump.ipynb", cookie)
    assert status == 200 and "Traceback" not in page
    kid = kernel_id(page)
    channels = f"/api/kernels/{kid}/channels"
    assert websocket_status(s.base, channels, None) == 403
    assert websocket_status(s.base, channels, f"plump_klass={CODE}") == 403
    assert websocket_status(s.base, channels, cookie) == 101
    assert request(s.base + f"/api/kernels/{kid}", None)[0] == 403

    # lärarsidan vill ha lärarens inloggning: elevens kaka och koder i adressen räcker inte
    for q in ("", f"?kod={CODE}", "?kod=fel", f"?kod={TEACHER}"):
        status, _, page = request(s.base + "/larare" + q, cookie)
        assert status == 403 and "Lärarkod" in page and "Klassen just nu" not in page, q
    assert request(s.base + f"/larare/resultat.csv?kod={CODE}", cookie)[0] == 403
    teacher = s.teacher_cookie
    status, _, page = request(s.base + "/larare", teacher)
    assert status == 200 and "<html" in page.lower()
    status, headers, text = request(s.base + "/larare/resultat.csv", teacher)
    assert status == 200 and headers["Content-Type"] == "text/csv; charset=utf-8"
    assert re.fullmatch(r'attachment; filename="resultat-\d{4}-\d\d-\d\d\.csv"', headers["Content-Disposition"])
    assert text.count("\n") >= 1
    status, headers, text = request(s.base + "/larare/spelbordet.csv", teacher)   # givarna vid bordet
    assert status == 200 and headers["Content-Type"] == "text/csv; charset=utf-8"
    assert re.fullmatch(r'attachment; filename="spelbordet-\d{4}-\d\d-\d\d\.csv"', headers["Content-Disposition"])
    assert text.startswith("\ufeffnamn;elev;tid;spel;")
    assert request(s.base + f"/larare/spelbordet.csv?kod={TEACHER}", cookie)[0] == 403
    assert s.results.is_dir() and (s.results / "klasslank.html").exists()
    status, _, page = request(s.base + "/larare/klasslank", teacher)     # sidan att visa för klassen
    assert status == 200 and "<svg" in page and f"/?kod={CODE}" in page
    assert request(s.base + f"/larare/klasslank?kod={TEACHER}", cookie)[0] == 403

    # resultatmappen går inte att skriva i: eleven går ändå in, utan fel
    for f in s.results.iterdir(): f.unlink()
    s.results.rmdir()
    s.results.write_text("ingen mapp")
    status, headers, page = request(s.base + f"/?kod={CODE}&namn=Bea", None)
    assert status == 302 and headers["Location"] == "/voila/render/start.ipynb", (status, page)


def test_trainer_only(server):
    s = server("--trainer-only", "--pool", "0", "--idle-minutes", "0")
    status, headers, _ = request(s.base + f"/?kod={CODE}&namn=", None)
    assert status == 302 and headers["Location"] == "/voila/render/Pusseltr%C3%A4ning.ipynb"
    status, _, page = request(s.base + headers["Location"], s.cookie)
    assert status == 200 and "Plump: pusseltr&#228;ning" in page and "PuzzleTrainer" in page and "Traceback" not in page
    # sidans dolda sista cell sparar elevens resultat, som på kursens sidor
    events = [json.loads(l) for l in (s.results / "elev-0123456789abcdef.jsonl").read_text("utf-8").splitlines()]
    assert {"type": "page", "name": "Kim", "page": "Pusselträning.ipynb"}.items() <= events[-1].items(), events
    assert "Kim" in request(s.base + "/larare", s.teacher_cookie)[2]


def test_beacon_frees_the_kernel_and_the_class_gets_full(server):
    s = server("--pool", "0", "--lesson-pool", "0", "--max-pupils", "1", "--idle-minutes", "0")
    status, _, page = request(s.base + "/voila/render/01_vad_ar_plump.ipynb", s.cookie)
    assert status == 200
    kid = kernel_id(page)
    assert s.status()["pupil_kernels"] == [kid]
    kernel_pids = set(children(s.proc.pid))

    # en till sida: klassen är full (503), sidan försöker igen av sig själv
    status, headers, page = request(s.base + "/voila/render/02_korten_och_sticken.ipynb", s.cookie)
    assert status == 503 and "Klassen är full" in page and 'http-equiv="refresh"' in page
    assert headers["Retry-After"] == "10" and "Traceback" not in page

    # fliken stängs: webbläsarens POST utan _xsrf godtas och kärnan stängs
    status, _, _ = request(s.base + f"/voila/api/shutdown/{kid}", s.cookie, method="POST")
    assert status == 204
    s.wait_for(lambda st: not st["kernels"], timeout=30)
    time.sleep(1)
    assert len([p for p in kernel_pids if alive(p)]) < len(kernel_pids), "kärnans process lever"
    assert request(s.base + f"/voila/api/shutdown/{kid}", s.cookie, method="POST")[0] == 204   # en gång till: ingen skada
    # nu finns det plats igen
    assert request(s.base + "/voila/render/02_korten_och_sticken.ipynb", s.cookie)[0] == 200


def test_idle_kernels_are_culled(server):
    s = server("--pool", "0", "--lesson-pool", "0", "--idle-minutes", "0.05")      # 3 sekunder
    assert request(s.base + "/voila/render/01_vad_ar_plump.ipynb", s.cookie)[0] == 200
    assert s.status()["kernels"]
    # ingen flik är kopplad till kärnan: den stängs när den har varit oanvänd i 3 sekunder
    s.wait_for(lambda st: not st["kernels"], timeout=60)


def test_pool_serves_the_trainer_and_all_dies_with_plump_teach(server):
    s = server("--pool", "1", "--lesson-pool", "0", "--idle-minutes", "0")
    s.wait_for(lambda st: len(st["kernels"]) == 1)              # poolens kärna, ingen elevs
    assert s.status()["pupil_kernels"] == []
    t = time.monotonic()
    status, _, page = request(s.base + "/voila/render/traning.ipynb", s.cookie)
    took = time.monotonic() - t
    assert status == 200 and "Traceback" not in page and "application/vnd.jupyter.widget-view+json" in page
    kid = kernel_id(page)
    st = s.wait_for(lambda st: len(st["kernels"]) == 2)        # poolen fylls på
    assert st["pupil_kernels"] == [kid], st
    print(f"träningssidan ur poolen på {took:.1f} s")

    # plump-teach dör utan att hinna säga till (kill -9): servern och kärnorna dör ändå
    tree = children(s.proc.pid)
    assert len(tree) >= 3                                       # servern, elevens kärna och poolens
    os.kill(s.proc.pid, signal.SIGKILL)
    s.proc.wait()
    end = time.monotonic() + 30
    while time.monotonic() < end and any(alive(p) for p in tree): time.sleep(0.5)
    assert not [p for p in tree if alive(p)], "servern eller en kärna lever kvar"


class Refs(HTMLParser):
    "Adresserna som en sida hämtar: src och href (utom länkar som eleven klickar på)."
    def __init__(self):
        super().__init__()
        self.refs = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href", "data"):
            if a.get(key) and not (tag == "a" and key == "href"): self.refs.append(a[key])


OUTSIDE = re.compile(r"""(?:url\(\s*["']?|@import\s+["']|import\(\s*["'])(?:https?:)?//""", re.I)


def test_nothing_from_outside(server):
    s = server("--pool", "0", "--lesson-pool", "0", "--max-pupils", "3", "--idle-minutes", "0")
    pages = [("/?kod=" + CODE, None), ("/", None), ("/larare", None), ("/larare?kod=" + TEACHER, None),
             ("/larare", s.teacher_cookie)]                                # lärarsidan, inloggad
    for name in ("start.ipynb", "ordlista.ipynb", "01_vad_ar_plump.ipynb", "traning.ipynb"):
        pages.append(("/voila/render/" + name, s.cookie))
    seen, assets = {}, set()
    for path, cookie in pages:
        status, headers, page = request(s.base + path, cookie)
        assert status in (200, 403), (path, status)
        seen[path] = page
        p = Refs()
        p.feed(page)
        for ref in p.refs:
            if ref.startswith("data:") or ref.startswith("#"): continue
            url = urllib.parse.urljoin(s.base + path, ref)
            assert urllib.parse.urlsplit(url).netloc == f"127.0.0.1:{s.port}", (path, ref)
            assets.add(url.split("#")[0])
        assert not OUTSIDE.search(page), (path, OUTSIDE.search(page)[0])
        assert "cdn.jsdelivr.net" not in page and "cdnjs.cloudflare.com" not in page, path
    assert any("/voila/static/" in a for a in assets)
    # tilläggen som Voilàs sidor laddar finns alla; projektets tillägg till JupyterLab är inte med
    for path, page in seen.items():
        m = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S)
        if not m: continue
        extensions = json.loads(m[1])["federated_extensions"]
        assert "plump-teach-elev" not in {e["name"] for e in extensions}, path
        for e in extensions: assets.add(f"{s.base}/voila/labextensions/{e['name']}/{e['load']}")
    for url in sorted(assets):
        status, headers, body = request(url, s.cookie)
        assert status == 200, url
        if "css" in headers.get("Content-Type", "") or "html" in headers.get("Content-Type", ""):
            assert not OUTSIDE.search(body), (url, OUTSIDE.search(body)[0])
    s.log.seek(0)
    log = s.log.read()
    assert "Traceback" not in log and "/labextensions/" not in log, log[-3000:]
    # startsidan och ordlistan har ingen kod: de kom utan kärna (bara lektionen och träningen har en)
    assert len(s.status()["kernels"]) == 2
    # lektionens länkar till ordlistan hamnar på ordet: ankaret finns i ordlistan utan kärna
    words = set(re.findall(r'href="ordlista\.ipynb#([^"]+)"', seen["/voila/render/01_vad_ar_plump.ipynb"]))
    assert words and all(f'id="{w}"' in seen["/voila/render/ordlista.ipynb"] for w in words), words
