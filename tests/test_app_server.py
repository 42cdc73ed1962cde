"""plump-teach som läraren kör den: elevkursen på en ledig port, och allt stängs när appen stoppas.

The classroom app started as a teacher would (the console script, no browser): the class link sets the
cookies, the pupil start page and a lesson answer over HTTP, and when the app is stopped with SIGTERM (as a
process manager does), Ctrl+C (SIGINT) or SIGHUP (a closed terminal), the server and every kernel stop with
it, the port is free again and the temporary course folder is gone. The rest of the classroom server is
tested in tests/test_classroom.py.

Issue 38: the teacher code is given in PLUMP_LARARKOD, as a teacher who keeps it out of the command line does;
it opens the teacher's page, and no process in the tree (the app, the server, a kernel) has it on its command line
(`ps` shows that to every user), nor the kernels in their environment. The class starts with lesson 4
(`--lektion 4`), and the class link page, which holds the class code, is readable by the teacher only.
"""
import os
import signal
import stat
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from proc_helpers import alive, children, cookie_value, free_port, request, teacher_login

pytestmark = [pytest.mark.server, pytest.mark.timeout(180)]

BIN = Path(sys.executable).parent / "plump-teach"
TEACHER = "larare-hemlis-38"


def cmdline(pid: int) -> str:
    try: return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError: return ""


def environ(pid: int) -> str:
    try: return Path(f"/proc/{pid}/environ").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError: return ""




def get(url: str, cookie: str) -> tuple[int, str]:
    try:
        req = urllib.request.Request(url, headers={"Cookie": cookie})
        with urllib.request.urlopen(req, timeout=60) as r: return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e: return e.code, ""
    except OSError: return 0, ""


@pytest.mark.skipif(not Path("/proc").exists(), reason="behöver /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_app_serves_the_course_and_stops_with_everything(tmp_path, how):
    port = free_port()
    env = {**os.environ, "TMPDIR": str(tmp_path), "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
           "PLUMP_LARARKOD": TEACHER}
    proc = subprocess.Popen([str(BIN), "--no-browser", "--port", str(port), "--code", "abcd", "--results",
                             str(tmp_path / "resultat"), "--pool", "0", "--lesson-pool", "0", "--max-pupils", "3",
                             "--lektion", "4"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}/voila/render/"
        end = time.monotonic() + 120                            # eleven går in med klasslänken
        while time.monotonic() < end and proc.poll() is None:
            try: status, headers, _ = request(f"http://127.0.0.1:{port}/?kod=abcd&namn=", timeout=5)
            except OSError: status = 0
            if status == 302: break
            time.sleep(0.5)
        assert status == 302, proc.stdout.readline()
        cookie = f"plump_klass={cookie_value(headers, 'plump_klass')}"
        status, html = get(base + "start.ipynb", cookie)
        assert status == 200 and "Plump och Bismarck: elevkursen" in html, proc.stdout.readline()
        assert "Run All Cells" not in html                      # bara-JupyterLab-cellen är borta
        assert get(base + "start.ipynb", cookie="")[0] == 403     # utan klassens kaka: vägrad
        status, html = get(base + "04_buden.ipynb", cookie)             # en lektion körs av servern
        assert status == 200 and "Lektion 4: Buden" in html and "Traceback" not in html
        tree = children(proc.pid)
        assert tree, "Voilà startade inte som barnprocess"
        # issue 38: lärarkoden ur miljön öppnar lärarsidan, och ingen process har den på sin kommandorad
        assert request(f"http://127.0.0.1:{port}/larare", teacher_login(f"http://127.0.0.1:{port}", TEACHER))[0] == 200
        lines = {pid: cmdline(pid) for pid in [proc.pid, *tree]}
        assert not [l for l in lines.values() if TEACHER in l or "--teacher-code" in l], lines
        assert any("--lesson=4" in l for l in lines.values()), lines
        kernels = [pid for pid, l in lines.items() if "ipykernel" in l]
        assert kernels and not [pid for pid in kernels if TEACHER in environ(pid)], "en kärna har lärarkoden i sin miljö"
        page = tmp_path / "resultat" / "klasslank.html"
        assert stat.S_IMODE(page.stat().st_mode) == 0o600 and "abcd" in page.read_text(encoding="utf-8")
        folders = list(tmp_path.glob("plump-teach-*"))
        assert folders

        proc.send_signal(how)
        proc.wait(timeout=30)
        time.sleep(1)
        assert not [p for p in tree if alive(p)], "Voilà eller en kärna lever kvar"
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0, "porten svarar fortfarande"
        assert not any(f.exists() for f in folders), "den tillfälliga kursmappen finns kvar"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
