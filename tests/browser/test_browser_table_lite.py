"""Spelbordet på webbplatsen utan installation: en elev spelar ett kort parti Plump mot datorn i webbläsarens Python.

The play table (nbs/elev/09_spelbordet.ipynb, lesson 9) in the JupyterLite site (tools/lite.py), in pupil mode
(`?elev=1`): the page runs by itself in Pyodide, as a pupil opens it. The learner chooses a short game at the
table's setup (bara nedåt, first deal 3 cards: three deals, three players, the computer at its default pace of
one second per move), bids with the number buttons, taps a greyed card and reads the rule (P10), asks for Tips
on a bid and on a card (the card tip names a card of the hand), plays every card by clicking it, and after the
game opens the analysis of deal 1: the verdict and the bar chart of the computer's estimate are shown. Then
"Spela igen" and a game from ten cards, to time Tips on a bid and on a card with a full hand.

Screenshots at 1280x900 and 768x1024 (and 390x844) go to tests/browser/screenshots/lite-bord-*.png; at every
size nothing on the page is wider than the window, no code or error shows, every button is at least 44 px
tall and nothing lies over a button's centre (every tap is checked where a finger would land; a covered button
is reported at the end, and the click is passed to the button so that the game goes on). No request leaves
loopback. Printed (run with -s), not asserted: page open to usable table, click on a card to the computer's next
card (the pace of 1 s included), the Tips answers and the analysis, all in Pyodide.
"""
from __future__ import annotations

import re
import statistics
import time

import pytest

from browser_helpers import (LITE_BOOT_TIMEOUT, covered_buttons, outputs, screenshot, settle, small_buttons,
                             tap_through, wait_for_text)
from test_browser_lite import JS_PUPIL_PAGE, lite_server, lite_site, wait_pupil_page  # noqa: F401 (fixturer)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1800)]

PAGE = "09_spelbordet.ipynb"
SIZES = ((1280, 900), (768, 1024), (390, 844))
PACE = 1.0   # s: datorns takt som bordet börjar med

# Bordets läge: raden om vems tur det är, sticket på bordet, knappen Nästa giv, och om partiet är slut.
JS_TABLE = """(root) => {
  const turn = root.querySelector('p[aria-live="polite"]')?.innerText.trim() || '';
  const trick = root.querySelector('[aria-label="sticket"]')?.innerText.trim() || '';
  const next = [...root.querySelectorAll('button')].some(b => b.checkVisibility() && b.innerText.includes('Nästa giv'));
  const over = root.innerText.includes('Partiet är slut');
  return {turn, trick, next, over};
}"""

# Datorn har svarat: ett nytt kort på bordet, eller bordet väntar på eleven igen.
JS_REPLIED = """([root, before]) => {
  const s = (%s)(root);
  return s.trick !== before || s.next || s.over || s.turn.startsWith('Din tur');
}""" % JS_TABLE


def table_output(page):
    "Utdatan med Plump-bordet (det första med knappen Börja spela), som en Locator som står kvar när bordet ritas om."
    found = [i for i, o in enumerate(outputs(page).all()) if o.get_by_role("button", name="Börja spela").count()]
    assert found, "inget spelbord på sidan"
    return outputs(page).nth(found[0])


def state(table) -> dict:
    return table.evaluate(JS_TABLE)


def click_and_wait_gone(page, loc, covered: list) -> float:
    "Tryck på knappen, vänta tills just den är borta (bordet har ritats om) och returnera tiden för klicket."
    handle = loc.element_handle()
    t0 = time.monotonic()
    tap_through(handle, covered)
    page.wait_for_function("(e) => !e.isConnected", arg=handle, timeout=60_000)
    return t0


def check_sizes(page, table, label: str, top) -> list[str]:
    """Vid varje storlek: en skärmbild med `top` överst, och det på sidan som är för brett, kod eller fel som syns,
    och knappar i bordet som är lägre än 44 px."""
    problems = []
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        settle(page, 600)
        top.evaluate("e => e.scrollIntoView({block: 'start'})")
        settle(page, 150)
        screenshot(page, f"lite-bord-{label}-{w}x{h}", full_page=False)
        r = page.evaluate(JS_PUPIL_PAGE)
        if r["docWide"] or r["count"]: problems.append(f"{label} {w}x{h}: för brett: {r['bad']}")
        if r["chrome"]: problems.append(f"{label} {w}x{h}: JupyterLabs ramar syns: {r['chrome']}")
        if r["code"]: problems.append(f"{label} {w}x{h}: kod syns")
        for word in ("Traceback", "Error", "Exception"):
            if word in r["text"]: problems.append(f"{label} {w}x{h}: {word!r} syns")
        small = small_buttons(table)
        if small: problems.append(f"{label} {w}x{h}: knappar lägre än 44 px: {small[:6]}")
        hidden = covered_buttons(table)
        if hidden: problems.append(f"{label} {w}x{h}: något ligger över knappar: {hidden[:6]}")
    page.set_viewport_size({"width": 1280, "height": 900})
    settle(page, 300)
    return problems


def seconds(xs: list[float]) -> str:
    if not xs: return "inga mätningar"
    return f"median {statistics.median(xs):.2f} s, min {min(xs):.2f} s, max {max(xs):.2f} s ({len(xs)} st)"


def test_a_pupil_plays_a_short_game_at_the_table_in_jupyterlite(page, lite_server, request_log, record_property):
    page.set_viewport_size({"width": 1280, "height": 900})
    t0 = time.monotonic()
    page.goto(f"{lite_server}/lab/index.html?path=elev/{PAGE}&elev=1")
    wait_pupil_page(page, PAGE)   # sidan kör sig själv: ingen Run All
    page.locator(".jp-OutputArea-output").get_by_role("button", name="Börja spela").first.wait_for(
        state="visible", timeout=LITE_BOOT_TIMEOUT)
    ready = time.monotonic() - t0
    table = table_output(page)
    problems = check_sizes(page, table, "installning", top=table)

    # Ett kort parti: bara nedåt (sidans val) från tre kort, tre givar; du och två datorspelare; parti nummer 17.
    table.locator(".widget-dropdown", has_text="Första given").locator("select").select_option(label="3 kort, 3 givar")
    table.get_by_placeholder("slumpas").fill("17")
    covered = []   # knappar som en elevs tryck inte når
    tap_through(table.get_by_role("button", name="Börja spela"), covered)
    wait_for_text(page, "Giv 1 av 3", within=table)

    replies, bid_tips, card_tips = [], [], []
    tapped_grey = shot = False
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
                wait_for_text(page, re.compile(r"Tips: Bjud \d"), within=table, timeout=60_000)
                bid_tips.append(time.monotonic() - t)
                problems += check_sizes(page, table, "bud", top=table)
            click_and_wait_gone(page, table.locator("button.pt-bud:not([disabled])").first, covered)
        elif s["turn"].startswith("Din tur att"):
            grey = table.locator("button.pt-kort.pt-nej")
            if grey.count() and not tapped_grey:   # ett grått kort säger varför (P10)
                name = grey.first.inner_text()
                tap_through(grey.first, covered)
                alert = table.locator('[role="alert"]').filter(has_text="(P10")
                alert.wait_for()
                assert name in alert.inner_text(), alert.inner_text()
                tapped_grey = True
            if len(card_tips) < 2:
                t = time.monotonic()
                tap_through(table.get_by_role("button", name="Tips"), covered)
                tip = wait_for_text(page, re.compile(r"Tips: Lägg "), within=table, timeout=60_000)
                card_tips.append(time.monotonic() - t)
                hand = table.locator("button.pt-kort").all_inner_texts()
                assert any(f"Lägg {c} " in tip.inner_text() for c in hand), (tip.inner_text(), hand)
                if not shot:
                    problems += check_sizes(page, table, "spel", top=table)
                    shot = True
            clicked = click_and_wait_gone(page, table.locator("button.pt-kort:not(.pt-nej)").first, covered)
            after = state(table)
            if not (after["next"] or after["over"] or after["turn"].startswith("Din tur")):
                # datorn står i tur: tiden tills dess kort ligger på bordet (takten ingår)
                page.wait_for_function(f"(a) => ({JS_REPLIED})(a)", arg=[table.element_handle(), after["trick"]],
                                       timeout=60_000, polling=50)
                replies.append(time.monotonic() - clicked)
        else:
            page.wait_for_timeout(150)   # datorn tänker: ett drag per sekund
    else:
        raise AssertionError(f"partiet tog inte slut: {state(table)}")
    assert bid_tips and card_tips and shot

    # Efter partiet: ställningen och genomgången av första given, med domen och staplarna.
    wait_for_text(page, "Partiet är slut", within=table)
    t = time.monotonic()
    tap_through(table.get_by_role("button", name="Giv 1", exact=True), covered)
    wait_for_text(page, "Datorns bedömning", within=table, timeout=180_000)
    analysis_s = time.monotonic() - t
    box = table.locator(".pt-ruta", has_text="Datorns bedömning").first
    text = box.inner_text()
    assert re.search(r"Ett bra bud|Budet \d+ var för (högt|lågt)", text), text
    chart = box.locator('div[role="img"]')
    assert box.locator(".pt-stapel").count() >= 1
    assert re.search(r"\d+ stick\s*\d+ %", chart.inner_text()), chart.inner_text()
    assert re.search(r"\d+ stick \d+ %", chart.get_attribute("aria-label") or ""), chart.get_attribute("aria-label")
    problems += check_sizes(page, table, "efter", top=table.get_by_text("Partiet är slut"))
    problems += check_sizes(page, table, "analys", top=box)

    # Tipsen med en full hand: ett nytt parti från tio kort, ett bud och ett kort (tiderna skrivs ut).
    tap_through(table.get_by_role("button", name="Spela igen"), covered)
    table.get_by_placeholder("slumpas").fill("17")
    tap_through(table.get_by_role("button", name="Börja spela"), covered)
    wait_for_text(page, "Giv 1 av 10", within=table)
    wait_for_text(page, "Din tur att bjuda", within=table)
    t = time.monotonic()
    tap_through(table.get_by_role("button", name="Tips"), covered)
    wait_for_text(page, re.compile(r"Tips: Bjud \d"), within=table, timeout=60_000)
    full_tips = [time.monotonic() - t]
    click_and_wait_gone(page, table.locator("button.pt-bud:not([disabled])").first, covered)
    wait_for_text(page, re.compile(r"Din tur att (lägga ett kort|spela ut)"), within=table)
    t = time.monotonic()
    tap_through(table.get_by_role("button", name="Tips"), covered)
    wait_for_text(page, re.compile(r"Tips: Lägg "), within=table, timeout=60_000)
    full_tips.append(time.monotonic() - t)

    external = request_log.external()
    print(f"\n[lite-bord] sidan öppnad -> bordet går att använda: {ready:.1f} s"
          f"\n[lite-bord] klick på ett kort -> datorns kort (takten {PACE:.0f} s ingår): {seconds(replies)}"
          f"\n[lite-bord] Tips på ett bud (3 kort): {seconds(bid_tips)}; Tips på ett kort: {seconds(card_tips)}"
          f"\n[lite-bord] genomgången av giv 1 (3 kort): {analysis_s:.1f} s"
          f"\n[lite-bord] med tio kort på hand: Tips på budet {full_tips[0]:.2f} s, Tips på första kortet {full_tips[1]:.2f} s"
          f"\n[lite-bord] {len(request_log.urls)} begäranden, {len(external)} utanför loopback")
    record_property("lite_table_ready_s", round(ready, 1))
    if replies: record_property("lite_table_reply_median_s", round(statistics.median(replies), 2))
    record_property("lite_table_bid_tips_s", [round(x, 2) for x in bid_tips])
    record_property("lite_table_card_tips_s", [round(x, 2) for x in card_tips])
    record_property("lite_table_analysis_s", round(analysis_s, 1))
    record_property("lite_table_ten_card_tips_s", [round(x, 2) for x in full_tips])
    assert replies, "datorn svarade aldrig efter ett kort"
    assert not external, external
    if covered:
        problems.append(f"{len(covered)} tryck nådde inte knappen, något låg över dess mitt: "
                        f"{sorted({(c['text'], c['over']) for c in covered})}")
    assert not problems, "\n".join(problems)
