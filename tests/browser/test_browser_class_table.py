"""Klassens bord i riktiga webbläsare (issue 42): fyra elever vid var sin skärm spelar ett helt kort parti Plump, och
datorn tar en elevs plats mitt i partiet; tre elever börjar en giv Bismarck som läraren avslutar; läraren ser borden.

`plump-teach` on a free loopback port (no kernels; the computer moves 0.05 s apart). The teacher opens the table
from the teacher's page in a browser. Four browser contexts (four pupils with their own cookies, phone 390x844,
tablet 768x1024 and two laptops 1280x900) join with the class link, sit at Bord 1 and one of them presses "Börja
spela". They play every deal to the end by clicking what their own page offers; a grey card says why when pressed
and changes nothing; the dealer's closed bid is grey with its reason; one pupil reloads the page mid-deal and carries
on; the teacher lets the computer take another pupil's seat mid-game, and that pupil's page then shows the table
without a hand. Three pupils play the discards, the mode and two tricks of Bismarck, and the teacher ends the game
from the teacher's page; every page says so, without a "Nästa giv". On the phone and the tablet the hand, whose turn
it is and the score fit without scrolling sideways (screenshots klassbord-*.png with PLUMP_SKARMBILDER=1). The
teacher's page shows the finished game. No pupil's page has a script error.

About 10 s for Plump on a quiet machine, more in the full suite: a whole game is about 80 clicks, each waiting for the server's picture to reach
the pages; the whole game at several screens is the point of the test.
"""
from __future__ import annotations

import random
import time

import pytest

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_helpers import plump_teach_server, screenshot, teacher_cookie

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

CODE, TEACHER = "bord42", "larare4242"
SIZES = [(390, 844), (768, 1024), (1280, 900), (1280, 900)]
NAMES = ["Alva", "Bror", "Cleo", "Dino"]
STATE = """() => typeof pic === 'undefined' || !pic ? null : ({v: pic.version, started: pic.started, your: !!pic.your_turn,
  over: !!pic.over, wn: !!pic.waiting_next, ready: pic.ready || [], seat: pic.seat, discard: !!pic.discard,
  tricks: (pic.taken || []).reduce((a, b) => a + b, 0), deal: pic.deal})"""


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    home = tmp_path_factory.mktemp("klassensbord")
    with plump_teach_server(home, CODE, "--results", str(home / "resultat"), "--pool", "0", "--lesson-pool", "0",
                            teacher=TEACHER, env={"PLUMP_TEACH_BORDETS_TAKT": "0.05"}) as (base, proc):
        yield base, home


PAGE_ERRORS: list[str] = []     # script errors on any pupil's page: there must be none


def teacher_page(browser, base):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="sv-SE")
    name, value = teacher_cookie(base, TEACHER).split("=", 1)
    ctx.add_cookies([{"name": name, "value": value, "url": base + "/larare"}])
    page = ctx.new_page()
    page.goto(base + "/larare/bord")
    return ctx, page


def open_table(page, game: str, seats: str, pupils_choose: bool = False) -> str:
    page.select_option("#spel", game)
    page.select_option("#platser", seats)
    page.select_option("#niva", "expert" if pupils_choose else "nybörjare")
    page.set_checked("input[name=valj]", pupils_choose)
    before = page.locator("[data-bord-id]").count()
    page.click("text=Öppna bordet")
    page.wait_for_function(f"() => document.querySelectorAll('[data-bord-id]').length > {before}")
    return page.locator("[data-bord-id]").last.get_attribute("data-bord-id")


def pupil_pages(browser, base, names, sizes, table_title="Bord 1"):
    ctxs, pages = [], []
    for name, (w, h) in zip(names, sizes):
        ctx = browser.new_context(viewport={"width": w, "height": h}, locale="sv-SE")
        page = ctx.new_page()
        page.on("pageerror", lambda e: PAGE_ERRORS.append(str(e)))
        page.goto(f"{base}/?kod={CODE}&namn={name}")
        page.goto(base + "/bord")
        page.click(f"text=Sätt dig vid {table_title}")
        page.wait_for_function("() => typeof pic !== 'undefined' && pic && pic.started === false")
        ctxs.append(ctx); pages.append(page)
    return ctxs, pages


def states(pages):
    assert not PAGE_ERRORS, PAGE_ERRORS
    return [p.evaluate(STATE) for p in pages]


SEEN: dict[str, str] = {}      # once per run: a grey card's reason, and the dealer's closed bid with its reason


def click_a_move(page, st, rng):
    "Click what this pupil's page offers: a bid or a mode, four cards and 'Lägg bort', or a card."
    grey, shut = page.locator("#hand button.pt-nej"), page.locator("#val button:disabled")
    if "grey" not in SEEN and grey.count():         # a grey card says why it may not be laid, and nothing changes
        grey.first.click()
        page.wait_for_function("() => document.getElementById('msg').textContent.includes('följa färg')")
        assert page.evaluate("() => pic.version") == st["v"] and "(P" not in page.inner_text("#msg")
        SEEN["grey"] = page.inner_text("#msg")
    if "dealer" not in SEEN and shut.count():       # the dealer's bid that may not be said, greyed with the reason
        assert "jämnt ut" in page.inner_text("#varfor") and "(P6)" not in page.inner_text("#varfor")
        SEEN["dealer"] = page.inner_text("#varfor")
    choices = page.locator("#val button:enabled")
    if st["discard"]:
        cards = page.locator("#hand button:enabled")
        for i in rng.sample(range(cards.count()), 4): cards.nth(i).click()
        page.locator("#val button", has_text="Lägg bort").click()
    elif choices.count():
        choices.nth(rng.randrange(choices.count())).click()
    else:
        cards = page.locator("#hand button:enabled:not(.pt-nej)")
        cards.nth(rng.randrange(cards.count())).click()


def play_to_the_end(pages, rng, on_move=lambda k, moves: None, most=600, tricks=None):
    "Play until the game is over (or until `tricks` tricks of the deal are taken); the number of pupils' moves."
    moves, pressed = 0, set()
    for _ in range(most):
        sts = states(pages)
        live = [s for s in sts if s and s["started"]]
        newest = max(s["v"] for s in live)
        if tricks is not None and any(s["tricks"] >= tricks for s in live): return moves
        if any(s["over"] and not s["wn"] and s["v"] == newest for s in live): return moves
        acted = False
        for i, (p, s) in enumerate(zip(pages, sts)):
            if s and s["wn"] and s["seat"] is not None and s["seat"] not in s["ready"] and (i, s["deal"]) not in pressed:
                pressed.add((i, s["deal"]))   # once per deal: the picture saying so may still be on its way
                try: p.click("#nasta", timeout=3000)
                except PlaywrightTimeout: pass
                acted = True
        k = next((i for i, s in enumerate(sts) if s and s["your"] and s["v"] == newest), None)
        if k is not None:
            click_a_move(pages[k], sts[k], rng)
            moves += 1
            on_move(k, moves)
            acted = True
        if not acted:                         # the computer's turn, or a page still on its way to the newest picture
            time.sleep(0.05)
            continue
        # wait (in the browser) until the first pupil's page has a newer picture than the one looked at
        try: pages[0].wait_for_function("v => pic && pic.version > v", arg=newest, timeout=20000)
        except PlaywrightTimeout: pass        # look again: the next round finds what is left to do
    raise AssertionError("the game did not end")


def fits(page) -> dict:
    return page.evaluate("""() => ({wide: document.documentElement.scrollWidth <= window.innerWidth + 1,
      hand: !!document.querySelector('#hand button'), turn: document.getElementById('tur').textContent,
      score: document.getElementById('poang').textContent})""")


def test_four_pupils_play_plump_with_a_reload_and_a_bot_taking_a_seat(browser, classroom):
    base, home = classroom
    tctx, teacher = teacher_page(browser, base)
    table = open_table(teacher, "plump", "4", pupils_choose=True)
    ctxs, pages = pupil_pages(browser, base, NAMES, SIZES)
    try:
        pages[0].check("input[name=niva][value=nybörjare]")      # the pupils choose: the beginner level, the short game
        pages[0].check("input[name=langd][value=kort]")
        screenshot(pages[0], f"klassbord-valj-{SIZES[0][0]}x{SIZES[0][1]}", full_page=False)
        pages[0].click("#borja")
        for p in pages: p.wait_for_function("() => pic && pic.started")
        for p, (w, h) in zip(pages[:2], SIZES[:2]):
            f = fits(p)
            assert f["wide"] and f["hand"] and "tur" in f["turn"] and f["score"], (w, h, f)
            screenshot(p, f"klassbord-plump-{w}x{h}", full_page=False)
        rng, events = random.Random(42), {}

        def on_move(k, moves):
            if moves == 12 and "reload" not in events:          # Bror reloads mid-deal
                pages[1].reload()
                pages[1].wait_for_function("() => pic && pic.started")
                events["reload"] = pages[1].evaluate("() => pic.seat")
            if moves == 20 and "undo" not in events:            # the beginner level: the pupil takes the move back
                page = pages[k]
                page.wait_for_selector("#angra:not([hidden])", timeout=20000)
                before = page.evaluate("() => [pic.version, pic.hand.length, pic.your_turn]")
                screenshot(page, f"klassbord-angra-{SIZES[k][0]}x{SIZES[k][1]}", full_page=False)
                page.click("#angra")
                page.wait_for_function("v => pic.version > v && pic.your_turn", arg=before[0], timeout=20000)
                page.wait_for_function("() => document.getElementById('msg').textContent.includes('taget tillbaka')")
                assert page.is_hidden("#angra") and page.evaluate("() => pic.hand.length") >= before[1]
                events["undo"] = True
            if moves == 30 and "bot" not in events:             # Dino leaves; the computer takes the seat
                teacher.wait_for_selector(f'[data-bord-id="{table}"] button[data-vad="dator"][data-plats="3"]')
                teacher.click(f'[data-bord-id="{table}"] button[data-vad="dator"][data-plats="3"]')
                pages[3].wait_for_function("() => pic && pic.seat === null")
                events["bot"] = True
            if moves == 40 and "back" not in events:            # Dino is back: the teacher gives the seat back
                teacher.wait_for_selector(f'[data-bord-id="{table}"] button[data-vad="elev"][data-plats="3"]')
                screenshot(teacher, "klassbord-lararen-tillbaka-1280x900", full_page=False)
                teacher.click(f'[data-bord-id="{table}"] button[data-vad="elev"][data-plats="3"]')
                pages[3].wait_for_function("() => pic && pic.seat === 3")
                events["back"] = True

        moves = play_to_the_end(pages, rng, on_move)
        assert {k: events[k] for k in ("reload", "bot", "undo", "back")} == {"reload": 1, "bot": True, "undo": True, "back": True}
        assert moves > 40
        assert "grey" in SEEN and "dealer" in SEEN, SEEN
        assert pages[3].locator("#hand button").count() == 0          # every card is played
        for p, (w, h) in zip(pages, SIZES):
            assert "Partiet är slut" in p.inner_text("#resultat") or "slut" in p.inner_text("#tur")
            screenshot(p, f"klassbord-plump-slut-{w}x{h}", full_page=True)
        teacher.wait_for_function(f"""() => {{ const el = document.querySelector('[data-bord-id="{table}"]');
            return el && el.textContent.includes('Partiet är slut'); }}""")
        text = teacher.inner_text(f'[data-bord-id="{table}"]')
        assert "Dino" in text and "Dino (datorn)" not in text and "Poäng:" in text and "Alva" in text
        screenshot(teacher, "klassbord-lararen-1280x900")
    finally:
        for c in ctxs: c.close()
        tctx.close()


def test_three_pupils_play_a_deal_of_bismarck_and_the_teacher_ends_the_game(browser, classroom):
    base, home = classroom
    tctx, teacher = teacher_page(browser, base)
    table = open_table(teacher, "bismarck", "3")
    number = teacher.inner_text(f'[data-bord-id="{table}"] h2')
    ctxs, pages = pupil_pages(browser, base, ["Ella", "Frej", "Gull"], [(390, 844), (768, 1024), (1280, 900)], number)
    try:
        pages[2].click("#borja")
        for p in pages: p.wait_for_function("() => pic && pic.started")
        shots = {}

        def on_move(k, moves):
            for p, (w, h) in zip(pages, [(390, 844), (768, 1024)]):
                st = p.evaluate("() => pic.phase")
                if st not in shots.get((w, h), set()):
                    shots.setdefault((w, h), set()).add(st)
                    f = fits(p)
                    assert f["wide"] and f["turn"], (w, h, st, f)
                    screenshot(p, f"klassbord-bismarck-{st}-{w}x{h}", full_page=False)

        moves = play_to_the_end(pages, random.Random(3), on_move, tricks=2)
        assert moves >= 8 and pages[0].evaluate("() => pic.phase") == "playing"
        assert all("playing" in seen for seen in shots.values()) and {"discard", "mode"} & set().union(*shots.values())
        teacher.click(f'[data-bord-id="{table}"] button[data-vad="avsluta"]')
        for p in pages:
            p.wait_for_function("() => pic && pic.over")
            assert "Läraren avslutade partiet" in p.inner_text("#resultat") and not p.is_visible("#nasta")
        screenshot(pages[0], "klassbord-bismarck-slut-390x844")
        teacher.wait_for_function(f"""() => {{ const el = document.querySelector('[data-bord-id="{table}"]');
            return el && el.textContent.includes('avslutat'); }}""")
    finally:
        for c in ctxs: c.close()
        tctx.close()
