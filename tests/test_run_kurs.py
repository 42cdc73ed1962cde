"""`python3 run.py kurs --no-browser` skriver en adress som fungerar: en fråga, med elevläget och nyckeln (issue 38).

JupyterLab prints the address to open as its default_url followed by "?token=…". The pupil's default_url already
has a query (?elev=1), so the address had two "?" (start.ipynb?elev=1?token=…): neither the pupil mode nor the
token worked from it. The test starts JupyterLab with the command `run.py kurs` runs (run.run is replaced by a
recorder; the environment in .venv is already there), reads the address it prints, and opens it. Loopback, a free
port, stopped at the end (about 5 s).
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from proc_helpers import free_port

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import run  # noqa: E402

pytestmark = [pytest.mark.server, pytest.mark.timeout(120)]


def kurs_command(monkeypatch, args: list[str]) -> tuple[list[str], Path]:
    "The command and folder that `run.py kurs ARGS` starts, without starting it."
    started = []
    monkeypatch.setattr(run, "ensure_env", lambda extra: None)
    monkeypatch.setattr(run, "run", lambda *cmd, **kw: started.append(([str(c) for c in cmd], kw["cwd"])))
    run.kurs(args)
    [(cmd, cwd)] = started
    return cmd, cwd


def test_kurs_without_a_browser_prints_an_address_that_opens_the_pupil_mode(monkeypatch, tmp_path):
    port = free_port()
    cmd, cwd = kurs_command(monkeypatch, ["--no-browser", "--port", str(port), "--ServerApp.port_retries=0"])
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    env.pop("JUPYTER_TOKEN", None)                             # JupyterLab draws its own token, as for the pupil
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        seen, urls, end = [], [], time.monotonic() + 90
        while not urls and time.monotonic() < end:
            line = proc.stdout.readline()
            if not line: break
            seen.append(line)
            urls = re.findall(rf"http://(?:localhost|127\.0\.0\.1):{port}/\S+", line)
        assert urls, "".join(seen)
        for url in urls:
            assert url.count("?") == 1, url
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
            assert query["elev"] == ["1"] and query["token"][0] not in ("", "..."), url
            assert urllib.parse.urlsplit(url).path == "/lab/tree/elev/start.ipynb", url
        while True:                     # the address is printed just before the server listens
            try:
                with urllib.request.urlopen(urls[-1], timeout=30) as r: page = r.read().decode(); break
            except urllib.error.URLError:
                assert time.monotonic() < end and proc.poll() is None, "".join(seen)
                time.sleep(0.3)
        # the token lets the pupil in: JupyterLab's page, not its login page
        assert r.status == 200 and "/login" not in r.url and "jupyter-config-data" in page, r.url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try: proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
