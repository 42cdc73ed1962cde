"""Fel koder och lärarens inloggning, prövat över HTTP mot en riktig plump-teach, som ett skript på skolans nätverk.

A real `plump-teach` on loopback (one server for the module, no kernels: pool 0) with small limits for wrong codes
(environment PLUMP_TEACH_FORSOK: 3 free wrong tries per address, then waits of 1 and 2 s, locked at 6; for all
addresses together a wait after 9 and a lock at 11), so that nothing sleeps long. The requests come from different
loopback addresses (127.0.0.2 …), which the server sees as different computers. A script tries wrong class codes:
after the free tries every try, the right code too, is refused with 429 and a Retry-After that grows (1, then 2),
then the address is locked; another address with the right code still gets in, and so do pupils behind the locked
address who already have the class cookie (a random key; the code as a cookie opens nothing). The teacher's pages,
the CSV files, the projector page and the status are refused without the login and with the teacher code in the
URL, and with a pupil's cookie; the login form (POST) gives an HttpOnly, SameSite=Strict cookie for /larare that is
not the code; the teacher page shows the lockout and the wrong tries per address, and its form (with the form key)
lifts it. The teacher form has the same limits. Too many wrong tries from all addresses lock the code for every new
pupil, until the teacher lifts it. Nothing secret is in the server's log.
"""
import json
import re
import time
from pathlib import Path

import pytest

from proc_helpers import Server, cookie_value, request, request_from, set_cookies, teacher_login

pytestmark = [pytest.mark.server, pytest.mark.timeout(120),
              pytest.mark.skipif(not Path("/proc").exists(), reason="behöver /proc")]

CODE, TEACHER = "k3x9mp", "larare1234"
LIMITS = {"free": 3, "lock": 6, "class_free": 9, "class_lock": 11, "first_wait": 1, "max_wait": 2}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("forsok"), "--pool", "0", "--lesson-pool", "0", "--idle-minutes", "0",
               code=CODE, teacher=TEACHER, env={"PLUMP_TEACH_FORSOK": json.dumps(LIMITS)})
    yield s
    s.stop()


def enter(s, source: str, code: str = CODE, cookie: str | None = None):
    "En elev på datorn `source` skriver klasskoden `code` och sitt namn: (status, rubriker, sida)."
    return request_from(source, s.base, f"/?kod={code}&namn=Eva&samma=0", cookie)   # samma=0: en ny Eva varje gång


def test_wrong_codes_wait_then_lock_and_the_teacher_lifts_it(server):
    s = server
    t0 = time.monotonic()
    pupil = s.cookie                                               # en elev som redan är inne
    # tre fel utan väntan; det fjärde räknas, och sedan får adressen vänta 1 s: också rätt kod vägras
    for code in ("aaaaaa", "k3x9mq", "zzz+zzz", "k3x9mm"):
        status, headers, page = enter(s, "127.0.0.2", code)
        assert status == 403 and "Koden stämmer inte" in page and "Retry-After" not in headers
    status, headers, page = enter(s, "127.0.0.2")
    assert status == 429 and headers["Retry-After"] == "1" and "Vänta 1 sekund" in page, (status, page)
    assert "plump_klass" not in set_cookies(headers)
    # en annan dator på nätverket går in med rätt kod (med mellanslag, som på tavlan)
    status, headers, _ = enter(s, "127.0.0.3", "K3X+9MP")
    assert status == 302 and "plump_klass" in set_cookies(headers)
    time.sleep(1.05)
    assert enter(s, "127.0.0.2", "bbbbbb")[0] == 403               # det femte felet: nu 2 s
    status, headers, page = enter(s, "127.0.0.2")
    assert status == 429 and headers["Retry-After"] == "2" and "Vänta 2 sekunder" in page
    time.sleep(2.05)
    assert enter(s, "127.0.0.2", "cccccc")[0] == 403               # det sjätte: spärrad
    status, headers, page = enter(s, "127.0.0.2")
    assert status == 429 and int(headers["Retry-After"]) > 3000 and "spärrad" in page and "läraren" in page
    # eleverna bakom samma adress som redan är inne fortsätter; koden som kaka öppnar inget
    assert request_from("127.0.0.2", s.base, "/voila/render/start.ipynb", pupil)[0] == 200
    assert request_from("127.0.0.2", s.base, "/", pupil)[0] == 302
    assert enter(s, "127.0.0.2", cookie=pupil)[0] == 302           # klasslänken igen, med kakan
    assert request_from("127.0.0.4", s.base, "/voila/render/start.ipynb", f"plump_klass={CODE}")[0] == 403

    # lärarsidan: utan inloggning, med koden i adressen och med elevens kaka vägras allt
    for path in ("/larare", "/larare/resultat.csv", "/larare/spelbordet.csv", "/larare/klasslank",
                 "/larare/status.json"):
        for q, cookie in (("", None), (f"?kod={TEACHER}", None), (f"?kod={TEACHER}", pupil), ("", pupil)):
            status, headers, page = request(s.base + path + q, cookie)
            assert status == 403 and "Lärarkod" in page and "text/csv" not in headers["Content-Type"], (path, q, cookie)
            assert "Klassen just nu" not in page and CODE not in page
    assert "Lärarkoden fungerar inte i adressen" in request(s.base + f"/larare?kod={TEACHER}")[2]
    # inloggningen: ett formulär som skickas med POST, och en kaka som bara gäller /larare
    status, headers, _ = request(s.base + "/larare/logga-in", None, "POST", data={"kod": TEACHER, "till": "/klasslank"})
    assert status == 303 and headers["Location"] == "/larare/klasslank"
    line = set_cookies(headers)["plump_larare"]
    assert re.search(r"(?i); HttpOnly", line) and re.search(r"(?i); SameSite=Strict", line) and "Path=/larare" in line
    token = cookie_value(headers, "plump_larare")
    assert TEACHER not in token and len(token) >= 40
    teacher = f"plump_larare={token}"
    assert request(s.base + "/larare/klasslank", teacher)[0] == 200
    status, headers, text = request(s.base + "/larare/resultat.csv", teacher)
    assert status == 200 and headers["Content-Type"] == "text/csv; charset=utf-8" and text.startswith("\ufeffnamn;")
    assert request(s.base + "/larare", f"plump_larare={token[:-1]}x")[0] == 403     # en påhittad nyckel
    assert request(s.base + "/larare", pupil + "; " + teacher)[0] == 200
    # lärarsidan visar spärren och varifrån felen kom
    status, _, page = request(s.base + "/larare", teacher)
    assert status == 200 and 'href="/larare/resultat.csv"' in page and "kod=" + TEACHER not in page
    assert "Klasskoden har skrivits fel för många gånger" in page
    row = re.search(r"<tr><td>Klasskoden</td><td>127\.0\.0\.2</td><td class=\"n\">(\d+)</td>.*?</tr>", page)
    assert row and row[1] == "6" and "spärrad" in row[0] and "Häv spärren" in row[0], page[-3000:]
    key = re.search(r'name="nyckel" value="([^"]+)"', page)[1]
    # spärren hävs bara med lärarens inloggning och formulärnyckeln
    lift = {"nyckel": key, "vilken": "klass", "adress": "127.0.0.2"}
    assert request(s.base + "/larare/hav", None, "POST", data=lift)[0] == 403
    assert request(s.base + "/larare/hav", pupil, "POST", data=lift)[0] == 403
    assert request(s.base + "/larare/hav", teacher, "POST", data={**lift, "nyckel": "fel"})[0] == 403
    assert enter(s, "127.0.0.2")[0] == 429
    status, headers, _ = request(s.base + "/larare/hav", teacher, "POST", data=lift)
    assert status == 303 and headers["Location"] == "/larare"
    assert enter(s, "127.0.0.2")[0] == 302
    # terminalen säger spärren, utan koden
    log = Path(s.log.name).read_text("utf-8").split("klasslank.html", 1)[1]
    assert "från adressen 127.0.0.2. Spärrat nu" in log and CODE not in log and TEACHER not in log
    took = time.monotonic() - t0
    assert took < 20, took


def test_teacher_form_limits_and_the_class_wide_lock(server):
    s = server
    t0 = time.monotonic()
    teacher = s.teacher_cookie
    pupil = s.cookie          # en elev som är inne innan koden spärras (hämtas här, så att testet inte beror på ordningen)
    # lärarformuläret: samma gränser, från en annan dator
    for _ in range(4):
        status, _, page = request_from("127.0.0.5", s.base, "/larare/logga-in", None, "POST", {"kod": "fel", "till": ""})
        assert status == 403 and "Lärarkoden stämmer inte" in page
    status, headers, page = request_from("127.0.0.5", s.base, "/larare/logga-in", None, "POST",
                                         {"kod": TEACHER, "till": ""})
    assert status == 429 and headers["Retry-After"] == "1" and "plump_larare" not in set_cookies(headers)
    assert teacher_login(s.base, TEACHER, source="127.0.0.6")      # en annan adress loggar in
    page = request(s.base + "/larare", teacher)[2]
    assert re.search(r"<tr><td>Lärarkoden</td><td>127\.0\.0\.5</td><td class=\"n\">4</td>", page)

    # fel från många datorer, en gång var: efter 9 fel tillsammans får alla vänta, efter 11 är koden spärrad för
    # alla nya (felen från det förra testet räknas med, om det har körts)
    before = len(re.findall(r"<tr><td>Klasskoden</td>", page))
    waits = []
    for i in range(20, 40):
        status, headers, page = enter(s, f"127.0.0.{i}", f"fel{i}xx")
        if status == 429 and "ingen ny kan gå in" in page: break
        if status == 429:
            waits.append(int(headers["Retry-After"]))
            time.sleep(waits[-1] + 0.05)
        else: assert status == 403 and "Koden stämmer inte" in page
    else: raise AssertionError("koden spärrades aldrig för alla")
    assert waits == [1], waits
    status, headers, page = enter(s, "127.0.0.12")                 # en ny dator, rätt kod
    assert status == 429 and "ingen ny kan gå in" in page, (status, page)
    assert request_from("127.0.0.12", s.base, "/voila/render/start.ipynb", pupil)[0] == 200   # de som är inne
    page = request(s.base + "/larare", teacher)[2]
    assert "alla adresser tillsammans" in page and len(re.findall(r"<tr><td>Klasskoden</td>", page)) > before
    key = re.search(r'name="nyckel" value="([^"]+)"', page)[1]
    assert request(s.base + "/larare/hav", teacher, "POST", data={"nyckel": key, "vilken": "klass", "adress": ""})[0] == 303
    assert enter(s, "127.0.0.12")[0] == 302

    # logga ut: kakan gäller inte längre
    assert request(s.base + "/larare/logga-ut", teacher, "POST", data={"nyckel": key})[0] == 303
    assert request(s.base + "/larare", teacher)[0] == 403
    s._teacher_cookie = None
    # efter det som plump-teach skriver när den startar står inga koder och inga namn i terminalen, men spärrarna
    log = Path(s.log.name).read_text("utf-8").split("klasslank.html", 1)[1]
    assert TEACHER not in log and CODE not in log and "fel25xx" not in log and "Eva" not in log, log[-2000:]
    assert "Spärrat nu för alla nya" in log
    took = time.monotonic() - t0
    assert took < 20, took
