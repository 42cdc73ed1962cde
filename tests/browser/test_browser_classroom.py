"""Klassrummet i en riktig webbläsare: en elev går in med klasslänken, tränar, stänger fliken, och kärnan är borta.

The classroom server as `plump-teach` starts it (console script, free loopback port, a pool of one pre-started
trainer kernel), in a real Chromium. A pupil opens the class link, types a name on the landing page (a labelled
field, big tap targets, fits at 390 px), lands on the start page (static, no kernel), opens the trainer ("Träna på
allt"), starts a session and answers until a puzzle is solved; the teacher page then lists the pupil by name. When
the tab closes, the browser's beacon frees the pupil's kernel (polled on the teacher code's status endpoint). A
browser without the class cookie is refused with the Swedish page with the code field, and typing the code there
lets it in. Not one request leaves the machine, the Font Awesome icon font still loads (from the server), and the server log has
no traceback and no refused request for a JupyterLab extension (the project's own is not loaded in Voilà). Screenshots at 1280x900, 768x1024 and 390x844 go to
tests/browser/screenshots/klassrum-<page>-WxH.png.
"""
import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

from browser_helpers import plump_teach_server, screenshot, settle, tail, teacher_cookie, teacher_get, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CODE, TEACHER = "abcd", "larare1234"
SIZES = ((1280, 900), (768, 1024), (390, 844))
CONTROLS = {"Starta", "Nästa uppgift", "Ledtråd", "Visa svar", "Ny omgång", "Ny uppgift"}

# Element som sticker ut till höger om sidan, eller som rullar i sidled
JS_TOO_WIDE = """() => { const W = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')].filter(e => e.checkVisibility()
    && e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > W + 1)
    .map(e => e.tagName + ' ' + (e.textContent || '').trim().slice(0, 30)).slice(0, 5); }"""
# Knappar, länkar som ser ut som knappar och fält som är lägre än 44 px
JS_SMALL = """() => [...document.querySelectorAll('main button, main input:not([type=hidden]), main .knapp')]
  .filter(e => e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 60))"""

# Länkar och "Visa svaret" (<summary>) i sidans text som är lägre än 44 px
JS_SMALL_TEXT = """() => [...document.querySelectorAll('.jp-RenderedHTMLCommon a, .jp-RenderedHTMLCommon summary')]
  .filter(e => e.checkVisibility() && e.getBoundingClientRect().height < 44)
  .map(e => e.tagName + ' ' + e.textContent.trim().slice(0, 30) + ' ' + Math.round(e.getBoundingClientRect().height))"""


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    "plump-teach på en ledig port, utan webbläsare; ger (adress, mappen för resultaten, processen)."
    home = tmp_path_factory.mktemp("klassrum")
    with plump_teach_server(home, CODE, "--results", str(home / "resultat"),
                            "--pool", "1", "--lesson-pool", "0", "--seed", "17",
                            teacher=TEACHER) as (base, proc):
        yield base, home / "resultat", proc


_TEACHER = {}


def teacher(base: str) -> str:
    "Lärarens inloggning (kakan), en gång per server."
    if base not in _TEACHER: _TEACHER[base] = teacher_cookie(base, TEACHER)
    return _TEACHER[base]


def status(base: str) -> dict:
    return json.loads(teacher_get(base, "/larare/status.json", teacher(base)))


def check_sizes(page, name: str) -> list[str]:
    "Skärmbilder i de tre storlekarna; ger det som är för brett eller för litet att trycka på."
    problems = []
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        settle(page, 300)
        if wide := page.evaluate(JS_TOO_WIDE): problems.append(f"{name} {w}x{h}: för brett {wide}")
        if small := page.evaluate(JS_SMALL): problems.append(f"{name} {w}x{h}: för litet {small}")
        screenshot(page, f"klassrum-{name}-{w}x{h}", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    return problems


def solve_one(page) -> int:
    """Svara på uppgiften tills den är klar: rätt, eller efter två fel när uppgiften visar det rätta svaret (nya svar
    efter varje fel); ger antalet försök."""
    for attempt in range(1, 12):
        if "Rätt svar:" in page.locator("body").inner_text(): return attempt - 1
        buttons = page.locator(".jp-OutputArea-output button:enabled")
        labels = [t.strip() for t in buttons.all_inner_texts()]
        choice = next(t for t in labels if t and t not in CONTROLS and t[0] not in "✓✗✔✘×")
        before = page.locator("body").inner_text().count("Inte riktigt.")
        page.locator(".jp-OutputArea-output button:enabled", has_text=choice).first.click()
        page.wait_for_function("(n) => document.body.innerText.includes('Rätt!') || "
                               "document.body.innerText.includes('Rätt svar:') || "
                               "document.body.innerText.split('Inte riktigt.').length - 1 > n", arg=before)
        if "Rätt!" in page.locator("body").inner_text(): return attempt
    raise AssertionError("ingen av svaren var rätt")


def test_pupil_trains_and_the_kernel_goes_when_the_tab_closes(browser, page, request_log, classroom):
    base, results, _ = classroom
    problems = []
    # klasslänken: landningssidan med ett namnfält som har en etikett
    page.goto(f"{base}/?kod={CODE}")
    field = page.get_by_label("Ditt namn (frivilligt)")
    field.wait_for()
    problems += check_sizes(page, "landning")
    field.fill("Kim Testsson")
    page.get_by_role("button", name="Börja").click()
    page.wait_for_url(f"{base}/voila/render/start.ipynb")
    page.get_by_role("heading", name="Plump och Bismarck: elevkursen").wait_for()
    problems += check_sizes(page, "start")
    assert status(base)["pupil_kernels"] == []                # startsidan har ingen kärna
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert re.fullmatch("[0-9a-f]{32}", cookies["plump_klass"]) and cookies["plump_namn"] == "Kim%20Testsson"

    # träningen: en färdigstartad kärna, ett pass och en löst uppgift
    page.get_by_role("link", name="Träna på allt").first.click()
    page.wait_for_url(f"{base}/voila/render/traning.ipynb")
    page.get_by_role("button", name="Starta").wait_for(timeout=120_000)
    pupils = status(base)["pupil_kernels"]
    assert len(pupils) == 1, pupils
    page.get_by_role("button", name="Starta").click()
    wait_for_text(page, "Uppgift 1 av", within="body")
    tries = solve_one(page)
    # ikonerna (Font Awesome) finns utan CDN: typsnittet laddas från servern själv
    assert page.evaluate("""async () => (await document.fonts.load('900 16px "Font Awesome 5 Free"', '\\uf00c')).length""") > 0
    problems += check_sizes(page, "traning")
    # issue 39: lektionssidornas länkar i texten (◀ Elevkursen, Ordlistan) är minst 44 px att trycka på på en telefon
    page.set_viewport_size({"width": 390, "height": 844})
    if small := page.evaluate(JS_SMALL_TEXT): problems.append(f"traning 390x844: för litet {small}")
    page.set_viewport_size({"width": 1280, "height": 900})
    # resultatet hamnar hos läraren, med namnet
    deadline = time.monotonic() + 30
    while "Kim Testsson" not in teacher_get(base, "/larare", teacher(base)):
        assert time.monotonic() < deadline, "eleven syns inte på lärarsidan"
        time.sleep(0.5)
    assert list(results.iterdir()), "inget sparades"

    # fliken stängs: kärnan stängs också
    page.close(run_before_unload=True)
    deadline = time.monotonic() + 30
    while pupils[0] in status(base)["kernels"]:
        assert time.monotonic() < deadline, "kärnan finns kvar när fliken är stängd"
        time.sleep(0.5)
    assert not request_log.external(), request_log.external()
    # webbläsaren bad inte om något som servern vägrade (projektets tillägg till JupyterLab laddas inte i Voilà)
    log = (results.parent / "plump-teach.log").read_text("utf-8", "replace")
    assert "Traceback" not in log and "/labextensions/" not in log, tail(results.parent / "plump-teach.log")
    assert not problems, "\n".join(problems)
    print(f"löst på {tries} försök")


def test_without_the_code_the_page_is_refused(browser, classroom):
    base, _, _ = classroom
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="sv-SE")
    outside = []
    ctx.on("request", lambda r: outside.append(r.url) if not r.url.startswith(base) else None)
    try:
        page = ctx.new_page()
        response = page.goto(f"{base}/voila/render/traning.ipynb")
        assert response.status == 403
        page.get_by_role("heading", name="Skriv klasskoden").wait_for()
        assert page.locator(".jp-OutputArea-output").count() == 0
        problems = check_sizes(page, "utan-kod")
        page.get_by_label("Klasskod").fill("fel1")
        page.get_by_role("button", name="Gå in").click()
        page.get_by_text("Koden stämmer inte").wait_for()
        page.get_by_label("Klasskod").fill(CODE.upper())
        page.get_by_role("button", name="Gå in").click()
        page.wait_for_url(f"{base}/voila/render/start.ipynb")
        page.get_by_role("heading", name="Plump och Bismarck: elevkursen").wait_for()
        assert not outside, outside
        assert not problems, "\n".join(problems)
    finally:
        ctx.close()


def test_teacher_page_needs_the_login(browser, classroom):
    """Lärarsidan och CSV-filen vägras utan inloggning, också med lärarkoden i adressen och med elevens kaka; efter
    formuläret (lärarkoden skickas med POST) syns sidan, CSV-filen laddas ner och sidan för klassen visas, utan
    någon kod i någon adress som webbläsaren har besökt."""
    base, _, _ = classroom
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="sv-SE", accept_downloads=True)
    visited = []
    ctx.on("request", lambda r: visited.append(r.url))
    try:
        page = ctx.new_page()
        page.goto(f"{base}/?kod={CODE}&namn=Lärartest")               # en elevs kaka i samma webbläsare
        for path in ("/larare", f"/larare?kod={TEACHER}", "/larare/resultat.csv", f"/larare/resultat.csv?kod={TEACHER}",
                     "/larare/spelbordet.csv", "/larare/klasslank"):
            response = page.goto(base + path)
            assert response.status == 403, path
            page.get_by_label("Lärarkod").wait_for()
            assert "Klassen just nu" not in page.content() and "Kim Testsson" not in page.content(), path
        assert ctx.request.get(f"{base}/larare/resultat.csv").status == 403
        problems = check_sizes(page, "lararinloggning")
        # fel kod i formuläret, sedan rätt
        page.goto(f"{base}/larare")
        page.get_by_label("Lärarkod").fill("fel-kod")
        page.get_by_role("button", name="Öppna lärarsidan").click()
        page.get_by_text("Lärarkoden stämmer inte").wait_for()
        page.get_by_label("Lärarkod").fill(TEACHER)
        page.get_by_role("button", name="Öppna lärarsidan").click()
        page.wait_for_url(f"{base}/larare")
        page.get_by_role("heading", name="Klassen just nu").wait_for()
        page.get_by_role("heading", name="Fel koder").wait_for()
        tries = page.locator("h2#fel-koder + div.wide").inner_text()     # det felaktiga försöket syns
        assert "Lärarkoden" in tries and "127.0.0.1" in tries, tries
        cookie = next(c for c in ctx.cookies() if c["name"] == "plump_larare")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/larare"
        assert cookie["value"] != TEACHER and "plump_larare" not in page.evaluate("document.cookie")
        assert ctx.request.get(f"{base}/larare/resultat.csv").status == 200     # som när en länk hämtar filen
        with page.expect_download() as download:
            page.get_by_role("link", name="Hämta uppgifterna som CSV").click()
        assert download.value.suggested_filename.startswith("resultat-")
        assert Path(download.value.path()).read_text("utf-8").startswith("\ufeffnamn;elev;tid;")
        page.get_by_role("link", name="Sidan att visa för klassen").click()
        page.wait_for_url(f"{base}/larare/klasslank")
        assert page.locator("svg").count() >= 1
        screenshot(page, "klassrum-klasslank-1280x900")
        # lärarkoden har aldrig stått i en adress som webbläsaren bad om, utom de adresser testet själv skrev
        asked = [u for u in visited if TEACHER in u]
        assert all("/larare?kod=" in u or "/larare/resultat.csv?kod=" in u for u in asked), asked
        # logga ut: sidan vägras igen
        page.goto(f"{base}/larare")
        page.get_by_role("button", name="Logga ut").click()
        page.get_by_label("Lärarkod").wait_for()
        assert ctx.request.get(f"{base}/larare/resultat.csv").status == 403
        assert not problems, "\n".join(problems)
    finally:
        ctx.close()
