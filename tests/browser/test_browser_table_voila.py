"""Spelbordet i klassrummet: en elev spelar ett helt kort parti Plump mot datorn i Voilà, som `plump-teach` visar det.

The play table (pupil lesson 9, nbs/elev/09_spelbordet.ipynb) as the classroom server `plump-teach` serves it
(`classroom_course`: a free loopback port, each page run in a kernel of its own when the browser asks for it), in
a real Chromium. The pupil goes through the landing page with the class code (types a name, presses "Börja"),
follows the start page's link to lesson 9 and, in Voilà, chooses a short game at the table's setup: bara nedåt
from three cards (three deals), three players (the pupil and two computer players), game number 17, and drags
the slider "Datorns takt" to 0 s. The pupil bids with the number buttons, asks for Tips on a bid and on a card
(Swedish advice: "Tips: Bjud n" / "Tips: Lägg <a card of the hand>"), taps a greyed card and reads its rule (P10),
and clicks cards until the game is over; then opens the analysis of deal 1 (verdict and bar chart) and "Dina
egna pussel", and answers the first own puzzle if there is one.

At every stage, at 1280x900, 768x1024 and 390x844: nothing on the page is wider than the window and nothing
scrolls sideways, no code or error shows, every button of the table is at least 44 px tall and nothing lies over
a button's centre (a covered button is reported at the end; the click is passed on so that the game goes on).
No request leaves loopback. Screenshots of the window with the stage at the top go to
tests/browser/screenshots/voila-table-<stage>-WxH.png. Printed (run with -s): page open to usable table, the
Tips answers and the analysis.
"""
from __future__ import annotations

import re
import time

import pytest

from browser_helpers import covered_buttons, screenshot, settle, small_buttons, tap_through, wait_for_text
from test_browser_table_lite import click_and_wait_gone, seconds, state, table_output
from test_browser_voila_course import (CODE, JS_PAGE_TOO_WIDE, check_no_code_no_error, classroom_course,  # noqa: F401
                                       wait_for_rendered)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

PAGE = "09_spelbordet.ipynb"
SIZES = ((1280, 900), (768, 1024), (390, 844))


def enter_as_pupil(page, course: str):
    "Klasslänken: eleven skriver sitt namn, trycker Börja och kommer till startsidan; därifrån länken till lektion 9."
    base = course.split("/voila/")[0]
    page.goto(f"{base}/?kod={CODE}")
    page.get_by_label("Ditt namn (frivilligt)").fill("Testelev")
    page.get_by_role("button", name="Börja").click()
    page.wait_for_url(course + "start.ipynb")
    wait_for_rendered(page, "start.ipynb")
    page.locator(".jp-MarkdownCell a", has_text="Spelbordet").first.click()
    page.wait_for_url(re.compile(re.escape(PAGE) + "$"), timeout=90_000)
    wait_for_rendered(page, PAGE)


def drag_pace_to_zero(page, table):
    "Dra reglaget Datorns takt ända till vänster, med musen som en elev gör, och se att etiketten säger 0 s."
    slider = table.locator(".widget-slider", has_text="Datorns takt").first
    handle = slider.locator(".noUi-handle").first
    handle.scroll_into_view_if_needed()
    h, track = handle.bounding_box(), slider.locator(".noUi-target").first.bounding_box()
    page.mouse.move(h["x"] + h["width"] / 2, h["y"] + h["height"] / 2)
    page.mouse.down()
    page.mouse.move(track["x"] - 20, h["y"] + h["height"] / 2, steps=8)
    page.mouse.up()
    wait_for_text(page, "Datorns takt: 0 s", within=table)


def check_sizes(page, table, stage: str, top) -> list[str]:
    """Vid varje storlek: en skärmbild av fönstret med `top` överst, och det som är för brett, kod eller fel som syns,
    knappar lägre än 44 px och knappar med något över sin mitt."""
    problems = []
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        settle(page, 500)
        top.evaluate("e => e.scrollIntoView({block: 'start'})")
        settle(page, 150)
        path = screenshot(page, f"voila-table-{stage}-{w}x{h}", full_page=False)
        where = f"{stage} {w}x{h} ({path.name})"
        wide = page.evaluate(JS_PAGE_TOO_WIDE)
        if wide["count"]: problems.append(f"{where}: för brett (sidan {wide['width']} px): {wide['bad']}")
        text = page.locator("body").inner_text()
        for word in ("Traceback", "Error", "Exception"):
            if word in text: problems.append(f"{where}: {word!r} syns")
        small = small_buttons(page.locator("body"))
        if small: problems.append(f"{where}: knappar lägre än 44 px: {small[:6]}")
        hidden = covered_buttons(table)
        if hidden: problems.append(f"{where}: något ligger över knappar: {hidden[:6]}")
    page.set_viewport_size({"width": 1280, "height": 900})
    settle(page, 300)
    return problems


def test_a_pupil_plays_a_whole_short_game_at_the_table_in_the_classroom(page, classroom_course, request_log,
                                                                        record_property):
    page.set_viewport_size({"width": 1280, "height": 900})
    t0 = time.monotonic()
    enter_as_pupil(page, classroom_course)
    table = table_output(page)
    ready = time.monotonic() - t0
    check_no_code_no_error(page, PAGE)
    covered: list[dict] = []   # knappar som en elevs tryck inte når
    problems = check_sizes(page, table, "installning", top=table)

    # Ett kort parti: bara nedåt (förvalet) från tre kort, tre givar; du och två datorspelare; parti 17; takten 0 s.
    assert table.locator(".widget-dropdown", has_text="Regler").locator("select option:checked").inner_text() \
        .replace("\xa0", " ").startswith("Kort parti: bara nedåt")
    table.locator(".widget-dropdown", has_text="Första given").locator("select").select_option(label="3 kort, 3 givar")
    table.get_by_placeholder("slumpas").fill("17")
    drag_pace_to_zero(page, table)
    tap_through(table.get_by_role("button", name="Börja spela"), covered)
    wait_for_text(page, "Giv 1 av 3", within=table, timeout=60_000)

    bid_tips, card_tips, played = [], [], 0
    tapped_grey = False
    for _ in range(300):
        s = state(table)
        if s["over"]: break
        if s["next"]:
            click_and_wait_gone(page, table.get_by_role("button", name="Nästa giv"), covered)
            continue
        if s["turn"].startswith("Din tur att bjuda"):
            if not bid_tips:
                t = time.monotonic()
                tap_through(table.get_by_role("button", name="Tips"), covered)
                tip = wait_for_text(page, re.compile(r"Tips: Bjud \d"), within=table, timeout=60_000)
                bid_tips.append(time.monotonic() - t)
                text = tip.inner_text()          # förslaget en gång, sedan skälet
                assert re.search(r"Tips: Bjud \d+\.\s+\S", text) and text.count("Bjud ") == 1, text
                problems += check_sizes(page, table, "bud", top=table)
            click_and_wait_gone(page, table.locator("button.pt-bud:not([disabled])").first, covered)
        elif s["turn"].startswith("Din tur att"):
            log = table.locator(".pt-ruta").filter(has_text="Vad som har hänt i given")
            if log.count():                  # datorns bud med skäl, men utan datorns kort medan given pågår
                assert not re.search(r"[♠♥♦♣](?:10|Kn|[2-9EKD])", log.first.inner_text()), log.first.inner_text()
            grey = table.locator("button.pt-kort.pt-nej")
            if grey.count() and not tapped_grey:   # ett grått kort säger varför (P10)
                name = grey.first.inner_text()
                tap_through(grey.first, covered)
                alert = table.locator('[role="alert"]').filter(has_text="(P10")
                alert.wait_for()
                assert name in alert.inner_text(), alert.inner_text()
                tapped_grey = True
                problems += check_sizes(page, table, "gratt-kort", top=table.locator('[aria-label="sticket"]').first)
            if not card_tips:
                t = time.monotonic()
                tap_through(table.get_by_role("button", name="Tips"), covered)
                tip = wait_for_text(page, re.compile(r"Tips: Lägg "), within=table, timeout=60_000)
                card_tips.append(time.monotonic() - t)
                hand = table.locator("button.pt-kort").all_inner_texts()
                assert any(f"Lägg {c} " in tip.inner_text() or f"Lägg {c}." in tip.inner_text() for c in hand), \
                    (tip.inner_text(), hand)
                problems += check_sizes(page, table, "spel", top=table)
            click_and_wait_gone(page, table.locator("button.pt-kort:not(.pt-nej)").first, covered)
            played += 1
        else:
            page.wait_for_timeout(100)   # datorn lägger sitt kort
    else:
        raise AssertionError(f"partiet tog inte slut: {state(table)}")
    assert bid_tips and card_tips
    assert tapped_grey, "inget grått kort att trycka på i hela partiet (parti 17 har ett i giv 1)"
    assert played == 3 + 2 + 1, f"eleven lade {played} kort, inte 6 (3 + 2 + 1 kort i de tre givarna)"

    # Efter partiet: ställningen och genomgången av första given, med domen och staplarna.
    wait_for_text(page, "Partiet är slut", within=table)
    ranking = table.locator("ol", has_text="Datorn Anna").first.locator("li").all_inner_texts()
    assert sorted(r.split(":")[0] for r in ranking) == ["Datorn Anna", "Datorn Bo", "Du"], ranking
    problems += check_sizes(page, table, "efter", top=table.get_by_text("Partiet är slut"))
    t = time.monotonic()
    tap_through(table.get_by_role("button", name="Giv 1", exact=True), covered)
    wait_for_text(page, "Datorns bedömning", within=table, timeout=180_000)
    analysis_s = time.monotonic() - t
    box = table.locator(".pt-ruta", has_text="Datorns bedömning").first
    text = box.inner_text()
    assert re.search(r"Ett bra bud|Budet \d+ var för (högt|lågt)", text), text
    assert box.locator(".pt-stapel").count() >= 1
    chart = box.locator('div[role="img"]')
    assert re.search(r"\d+ stick \d+ %", chart.get_attribute("aria-label") or ""), chart.get_attribute("aria-label")
    problems += check_sizes(page, table, "analys", top=box)

    # Dina egna pussel: ett pussel ur partiet (ett kort trycks och svaret är svenskt), eller beskedet att inga finns.
    before = table.locator("button.pt-kort").count()
    t = time.monotonic()
    tap_through(table.get_by_role("button", name="Dina egna pussel"), covered)
    head = wait_for_text(page, re.compile(r"Pussel 1 av \d+|Inga pussel den här gången"), within=table, timeout=180_000)
    puzzles_s = time.monotonic() - t
    puzzle = head.inner_text()
    if puzzle.startswith("Pussel"):   # pusslets kort ritas efter de kort som redan fanns i bordet
        cards = table.locator("button.pt-kort")
        playable = [i for i in range(before, cards.count()) if "pt-nej" not in (cards.nth(i).get_attribute("class") or "")]
        assert playable, "pusslet har inget kort att trycka på"
        tap_through(cards.nth(playable[0]), covered)
        wait_for_text(page, re.compile(r"Rätt!|Försök igen\.|Det bättre kortet är"), within=table, timeout=60_000)
    problems += check_sizes(page, table, "pussel", top=table.get_by_role("button", name="Dina egna pussel"))

    external = request_log.external()
    print(f"\n[voila-bord] klasslänken -> bordet går att använda: {ready:.1f} s"
          f"\n[voila-bord] Tips på ett bud: {seconds(bid_tips)}; Tips på ett kort: {seconds(card_tips)}"
          f"\n[voila-bord] genomgången av giv 1: {analysis_s:.1f} s; egna pussel: {puzzles_s:.1f} s ({puzzle[:40]!r})"
          f"\n[voila-bord] {len(request_log.urls)} begäranden, {len(external)} utanför loopback")
    record_property("voila_table_ready_s", round(ready, 1))
    record_property("voila_table_analysis_s", round(analysis_s, 1))
    assert not external, external
    if covered:
        problems.append(f"{len(covered)} tryck nådde inte knappen, något låg över dess mitt: "
                        f"{sorted({(c['text'], c['over']) for c in covered})}")
    assert not problems, "\n".join(problems)
