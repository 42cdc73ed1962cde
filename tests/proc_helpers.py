"""För testerna av plump-teach: en ledig port, processer ur /proc (vilka som finns under en process, och om en
process lever), och klassrummets server över HTTP (`Server`, `request`, `request_from` en annan adress,
`teacher_login`)."""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path


def children(pid: int) -> list[int]:
    "Processerna under `pid` (rekursivt), ur /proc."
    kids = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit(): continue
        try: ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError): continue
        if ppid == pid: kids.append(int(d.name))
    return kids + [g for k in kids for g in children(k)]


def alive(pid: int) -> bool:
    "Lever processen `pid` (och är inte en zombie)?"
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError): return False


def free_port() -> int:
    "En ledig port på 127.0.0.1."
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- klassrummets server över HTTP

BIN = Path(sys.executable).parent / "plump-teach"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k): return None


OPENER = urllib.request.build_opener(NoRedirect)


def request(url: str, cookie: str | None = None, method: str = "GET", timeout: float = 120, data: dict | None = None):
    "(status, rubriker, text) för en begäran, också för 3xx, 4xx och 5xx; `data` skickas som ett formulär (POST)."
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    req = urllib.request.Request(url, method=method, data=body, headers={"Cookie": cookie} if cookie else {})
    try:
        with OPENER.open(req, timeout=timeout) as r: return r.status, r.headers, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e: return e.code, e.headers, e.read().decode("utf-8", "replace")


def request_from(source: str, base: str, path: str, cookie: str | None = None, method: str = "GET",
                 data: dict | None = None):
    """Som `request`, men från adressen `source` (127.0.0.2, 127.0.0.3 …: hela 127.0.0.0/8 är den egna datorn på
    Linux), så att servern ser olika datorer på nätverket."""
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60, source_address=(source, 0))
    headers = {"Cookie": cookie} if cookie else {}
    body = None
    if data is not None:
        body = urllib.parse.urlencode(data)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        return r.status, r.headers, r.read().decode("utf-8", "replace")
    finally: conn.close()


def set_cookies(headers) -> dict:
    "Kakorna i svarets Set-Cookie: namn → hela raden (värdet och attributen)."
    return {c.split("=", 1)[0]: c for c in (headers.get_all("Set-Cookie") or [])}


def cookie_value(headers, name: str) -> str:
    "Värdet av kakan `name` i svarets Set-Cookie."
    return set_cookies(headers)[name].split(";")[0].split("=", 1)[1]


def teacher_login(base: str, code: str, source: str | None = None) -> str:
    "Logga in på lärarsidan med formuläret (POST); ger kakan att skicka med (`plump_larare=…`)."
    form = {"kod": code, "till": ""}
    if source: status, headers, page = request_from(source, base, "/larare/logga-in", None, "POST", form)
    else: status, headers, page = request(base + "/larare/logga-in", None, "POST", data=form)
    assert status == 303, (status, page[:500])
    return "plump_larare=" + cookie_value(headers, "plump_larare")


class Server:
    """plump-teach på en ledig port, som läraren startar den (utan webbläsare), med klasskoden `code` och lärarkoden
    `teacher`. `cookie` är en elevs kakor (eleven går in med klasslänken första gången den behövs), `teacher_cookie`
    lärarens inloggning."""
    def __init__(self, tmp_path: Path, *args: str, code: str = "abcd", teacher: str = "larare1234",
                 env: dict | None = None):
        self.port, self.code, self.teacher = free_port(), code, teacher
        self.base = f"http://127.0.0.1:{self.port}"
        self.results = tmp_path / "resultat"
        env = {**os.environ, "TMPDIR": str(tmp_path), "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
               "PLUMP_LARARKOD": teacher, **(env or {})}
        self.log = open(tmp_path / "server.log", "w+")
        self.proc = subprocess.Popen([str(BIN), "--no-browser", "--port", str(self.port), "--code", code,
                                      "--results", str(self.results), *args],
                                     env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self._cookie = self._teacher_cookie = None
        end = time.monotonic() + 120
        while time.monotonic() < end:
            try:
                if request(self.base + f"/?kod={code}", None, timeout=5)[0] == 200: return
            except OSError: pass
            assert self.proc.poll() is None, self.output()
            time.sleep(0.3)
        raise AssertionError("servern startade inte: " + self.output())

    @property
    def cookie(self) -> str:
        "Eleven Kims kakor (id 0123456789abcdef), från landningssidan med klasskoden."
        if self._cookie is None:
            status, headers, _ = request(self.base + f"/?kod={self.code}&namn=Kim", "plump_elev=0123456789abcdef")
            assert status == 302, status
            self._cookie = f"plump_klass={cookie_value(headers, 'plump_klass')}; plump_elev=0123456789abcdef; plump_namn=Kim"
        return self._cookie

    @property
    def teacher_cookie(self) -> str:
        if self._teacher_cookie is None: self._teacher_cookie = teacher_login(self.base, self.teacher)
        return self._teacher_cookie

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()[-3000:]

    def status(self) -> dict:
        return json.loads(request(self.base + "/larare/status.json", self.teacher_cookie)[2])

    def wait_for(self, what, timeout: float = 90, step: float = 0.5):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            s = self.status()
            if what(s): return s
            time.sleep(step)
        raise AssertionError(f"väntade förgäves; status {self.status()}")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try: self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired: pass
        try: os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError: pass
        self.proc.wait()
        self.log.close()
