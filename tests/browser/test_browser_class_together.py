"""Hela klassen på en gång (issue 38): tio elever i var sin webbläsare öppnar lektion 1 i samma ögonblick, och alla
får hela sidan med varje pussel; sedan stänger läraren alla sidor och varje sida säger det.

`plump-teach --lektion 1` on a free loopback port with room for 12 pupils: lesson 1 gets 12 pre-started pages (the
test waits until they are ready, as a teacher starts the server before the lesson). One pupil alone first shows
what a whole page has (the widgets, the puzzles with their "Visa svar" button). Then ten browser contexts (ten
pupils, each with their own cookies) join with the class code and open lesson 1 at the same moment; every page must
show every widget and every puzzle, answer a click on its first puzzle, and have no cell that did not finish.
Last the teacher presses "Stäng alla elevsidor" and every page shows the Swedish message on top (390x844
screenshot: tests/browser/screenshots/klassrum-stangd-390x844.png).

Over 20 s (about 60 s): the server fills 12 kernels before the class comes, and ten Chromium pages share the
machine's two cores with the server; the class at once is the point of the test.
"""
import json
import re
import time
import urllib.request

import pytest

from browser_helpers import plump_teach_server, screenshot, settle, teacher_cookie, teacher_get

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

CODE, TEACHER = "hela12", "larare9876"
LESSON = "/voila/render/01_vad_ar_plump.ipynb"
PUPILS = 10


@pytest.fixture(scope="module")
def lesson_one(tmp_path_factory):
    home = tmp_path_factory.mktemp("helaklassen")
    with plump_teach_server(home, CODE, "--results", str(home / "resultat"), "--pool", "0", "--lesson-pool", "0",
                            "--max-pupils", "12", "--lektion", "1", teacher=TEACHER,
                            env={"PLUMP_TEACH_NYA": "100,100"}) as (base, proc):
        cookie = teacher_cookie(base, TEACHER)
        deadline = time.monotonic() + 180
        while True:
            st = json.loads(teacher_get(base, "/larare/status.json", cookie))
            ready, size = st["pools"]["01_vad_ar_plump.ipynb"]
            if ready >= size == 12: break
            assert time.monotonic() < deadline, st
            time.sleep(1)
        yield base, cookie


COUNT = """() => ({
  widgets: document.querySelectorAll('.jp-OutputArea-output > .jupyter-widgets, .jp-OutputArea-output > .widget-box').length,
  puzzles: [...document.querySelectorAll('button')].filter(b => b.textContent.trim() === 'Visa svar').length,
  notReady: document.querySelectorAll('.plump-ej-klar').length,
  talk: document.body.innerText.includes('Att prata om'),
})"""


# The widget outputs the server sent in the page (Voilà's cell outputs), and whether the page has finished.
JS_WIDGETS_SENT = """() => ({
  sent: [...document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]')]
        .filter(s => s.textContent.includes('application/vnd.jupyter.widget-view+json')).length,
  cells: document.querySelectorAll('[cell-index]').length,
  spinner: !!document.querySelector('#loading') && getComputedStyle(document.querySelector('#loading')).display !== 'none',
})"""


def whole(page, expected: dict, timeout: float = 120) -> dict:
    "Vänta tills sidan har allt som `expected` säger (widgetar, pussel, texten längst ner); ger det som räknades."
    end = time.monotonic() + timeout
    while True:
        got = page.evaluate(COUNT)
        if got["notReady"]: return got
        if got["widgets"] >= expected["widgets"] and got["puzzles"] >= expected["puzzles"] and got["talk"]: return got
        if time.monotonic() > end: return got
        page.wait_for_timeout(300)


def answer_first_puzzle(page):
    "Klicka på det första svaret i det första pusslet; pusslet svarar (Rätt!, Inte riktigt …)."
    puzzle = page.locator(".jp-OutputArea-output", has=page.get_by_role("button", name="Visa svar")).first
    buttons = puzzle.locator("button:enabled")
    labels = [t.strip() for t in buttons.all_inner_texts()]
    choice = next(t for t in labels if t and t not in ("Ny uppgift", "Ledtråd", "Visa svar") and t[0] not in "✓✗✔✘")
    puzzle.get_by_role("button", name=choice, exact=True).first.click()
    puzzle.get_by_role("status").filter(has_text=re.compile(r"\S")).first.wait_for(timeout=60_000)


def test_ten_pupils_open_lesson_one_together_and_every_page_is_whole(browser, lesson_one):
    base, cookie = lesson_one
    alone = browser.new_context(viewport={"width": 1280, "height": 900}, locale="sv-SE")
    page = alone.new_page()
    page.goto(f"{base}/?kod={CODE}&namn=Ensam")
    page.goto(base + LESSON)
    expected = whole(page, {"widgets": 1, "puzzles": 1}, timeout=120)
    assert expected["puzzles"] >= 2 and expected["widgets"] >= 4 and expected["talk"] and not expected["notReady"], expected
    page.close(run_before_unload=True)                # fliken stängs: kärnan går
    alone.close()

    contexts, pages, said = [], [], []
    try:
        for i in range(PUPILS):
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE")
            contexts.append(ctx)
            pg = ctx.new_page()
            said.append([])
            pg.on("console", lambda m, box=said[-1]: box.append(f"{m.type}: {m.text[:200]}"))
            pg.on("websocket", lambda ws, box=said[-1]: ws.on("close", lambda _: box.append(f"websocket stängd: {ws.url[-60:]}")))
            pg.goto(f"{base}/?kod={CODE}&namn=Elev{i + 1}")
            pg.wait_for_url(f"{base}/voila/render/start.ipynb")
            pages.append(pg)
        t0 = time.monotonic()
        for pg in pages: pg.goto(base + LESSON, wait_until="commit")
        times, problems = [], []
        for i, pg in enumerate(pages):
            got = whole(pg, expected, timeout=max(5.0, 150 - (time.monotonic() - t0)))
            times.append(round(time.monotonic() - t0, 1))
            if got != expected:
                # what the page had: the widgets in its cells' outputs, and what the browser said (for the next reader)
                sent = pg.evaluate(JS_WIDGETS_SENT)
                problems.append(f"elev {i + 1}: {got}, väntat {expected}; widgetar i cellernas utdata: {sent}; "
                                f"webbläsaren: {said[i][-8:]}")
                screenshot(pg, f"FAILED-klassen-elev-{i + 1}", always=True)
        assert not problems, "\n".join(problems)
        for pg in pages: answer_first_puzzle(pg)
        print(f"{PUPILS} elever på en gång: hela sidan efter {times} s")
        deadline = time.monotonic() + 30
        while len(json.loads(teacher_get(base, "/larare/status.json", cookie))["pupil_kernels"]) != PUPILS:
            assert time.monotonic() < deadline, "den ensamma elevens kärna finns kvar"
            time.sleep(0.5)

        # läraren stänger alla sidor: varje sida säger det (sidan frågar när eleven kommer tillbaka till fliken)
        page_html = teacher_get(base, "/larare", cookie)
        key = re.search(r'name="nyckel" value="([^"]+)"', page_html)[1]
        assert f"Stäng alla elevsidor ({PUPILS} öppna)" in page_html
        req = urllib.request.Request(f"{base}/larare/stang-alla", data=f"nyckel={key}".encode(),
                                     headers={"Cookie": cookie})
        urllib.request.urlopen(req, timeout=30)
        for pg in pages: pg.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        for pg in pages:
            pg.get_by_role("alert").filter(has_text="Läraren har stängt alla elevsidor.").wait_for(timeout=30_000)
        banner = pages[0].get_by_role("alert").filter(has_text="Läraren har stängt")
        assert banner.bounding_box()["width"] <= 390 and pages[0].get_by_role("button", name="Ladda om sidan").is_visible()
        settle(pages[0], 200)
        screenshot(pages[0], "klassrum-stangd-390x844", full_page=False)
    finally:
        for ctx in contexts: ctx.close()
