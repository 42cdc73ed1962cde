"""Spelbordet på en telefon (issue 39): handen, Tips och ställningen syns samtidigt, och Bismarcks 20 kort ligger i
högst två rader vid 390 px.

Lesson 7 in JupyterLab (Chromium): a Bismarck table where the pupil lays away four of 20 cards, and a short
Plump game; at 390x844 the score line beside the hand, the hand and the Tips button are in the viewport at the same
time, the hand takes at most two rows, and the speed slider's handle is at least 44 px. Screenshots at
1280x900, 768x1024 and 390x844 go to tests/browser/screenshots/bord-telefon-*.png.
"""
import re

import pytest

from browser_helpers import screenshot, settle, wait_for_text
from table_helpers import start_bismarck, start_short_game, table_output
from test_browser_table import ELEV, SIZES, open_page
from plump_teach.engine.cards import card_svg, parse_card

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

re_tips = re.compile(r"^\W*Tips\W*$")

# Handens rader, raden med ställningen och Tips: var de står på skärmen.
JS_PHONE = """(root) => {
  const seen = e => e && e.checkVisibility();
  const cards = [...root.querySelectorAll('button.pt-kort')].filter(seen);
  const rows = new Set(cards.map(c => Math.round(c.getBoundingClientRect().top)));
  const line = root.querySelector('.pt-poangrad');
  const tips = [...root.querySelectorAll('button')].find(b => seen(b) && /^\\W*Tips\\W*$/.test(b.innerText.trim()));
  const box = e => { if (!seen(e)) return null; const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
  const handle = root.querySelector('.widget-hslider .ui-slider-handle, .widget-hslider .noUi-handle');
  // how much of a card shows before the next card in its row covers it (the hand's cards overlap on a phone)
  const lefts = cards.map(c => c.getBoundingClientRect());
  const strips = lefts.slice(1).map((r, i) => Math.round(lefts[i].top) === Math.round(r.top) ? r.left - lefts[i].left : 1e9);
  return {cards: cards.length, rows: rows.size, line: box(line), text: seen(line) ? line.innerText : '',
          strip: strips.length ? Math.min(...strips) : null, width: cards.length ? lefts[0].width : null,
          tips: box(tips), first: box(cards[0]), last: box(cards[cards.length - 1]),
          handle: handle ? handle.getBoundingClientRect().height : null};
}"""


def phone_view(page, table, label: str) -> dict:
    "Skärmbilder i de tre storlekarna, med handen överst; läget vid 390x844 (JS_PHONE)."
    found = {}
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        if w < 500:   # filbläddraren tar annars nästan hela telefonens bredd
            tab = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
            if tab.count(): tab.first.click()
        settle(page, 400)
        table.locator('[aria-live="polite"]').first.evaluate("e => e.scrollIntoView({block: 'start'})")
        settle(page, 150)
        screenshot(page, f"bord-telefon-{label}-{w}x{h}", full_page=False)
        if w < 500:
            line = table.locator(".pt-poangrad")
            line.evaluate("e => e.scrollIntoView({block: 'start'})")
            settle(page, 150)
            found = table.evaluate(JS_PHONE)
            screenshot(page, f"bord-telefon-{label}-handen-{w}x{h}", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    settle(page, 200)
    return found


def rank_right_edge(card_px: float) -> float:
    "Where the widest rank (Kn) ends, in px from the card's left edge, for a card drawn `card_px` wide."
    svg = card_svg(parse_card("♥Kn"))
    rank = re.search(r'<text x="([\d.]+)"[^>]*font-size="([\d.]+)"[^>]*>Kn<', svg)
    fitted = re.search(r'textLength="([\d.]+)"[^>]*>Kn<', svg)
    # without textLength the bold "Kn" is about 1.35 times its font size wide (sans-serif)
    length = float(fitted[1]) if fitted else 1.35 * float(rank[2])
    return (float(rank[1]) + length) * card_px / float(re.search(r'<svg[^>]* width="([\d.]+)"', svg)[1])


def in_view(box, height=844) -> bool:
    return box is not None and box["top"] >= 0 and box["bottom"] <= height


def test_hand_tips_and_score_are_seen_together_on_a_phone(page, jupyterlab):
    base = jupyterlab(ELEV)
    open_page(page, base, "telefon")
    bismarck = start_bismarck(page)
    bismarck.locator("button.pt-kort").nth(19).wait_for()
    b = phone_view(page, bismarck, "bismarck")
    assert b["cards"] == 20 and b["rows"] <= 2, b
    # the rank in the card's corner (10, Kn too) shows in the part of the card that is not covered
    assert b["strip"] >= rank_right_edge(b["width"]), b
    assert "Dina stick: 0" in b["text"] and "Dina poäng: 0" in b["text"], b

    plump = table_output(page, 0)
    plump.locator(".widget-dropdown", has_text="Första given").locator("select").select_option(index=0)
    plump.get_by_placeholder("slumpas").fill("17")
    plump.get_by_role("button", name="Börja spela").click()
    wait_for_text(page, "Giv 1 av", within=plump, timeout=60_000)
    plump.locator("button.pt-bud").first.wait_for(timeout=60_000)
    p = phone_view(page, plump, "plump")
    assert p["rows"] <= 2, p
    assert "Ditt bud" in p["text"] and "Dina poäng" in p["text"], p
    # ställningen, handen och Tips på skärmen samtidigt (på elevens tur: budknapparna står mellan handen och Tips)
    assert in_view(p["line"]) and in_view(p["first"]) and in_view(p["last"]) and in_view(p["tips"]), p
    assert p["handle"] is None or p["handle"] >= 44, p

    # datorns tur (i sin takt, en sekund per drag): Tips går inte att trycka på, och säger när det går
    plump.locator("button.pt-bud:not([disabled])").first.click()
    page.wait_for_function("(root) => (root.querySelector('p[aria-live=\"polite\"]')?.innerText || '').trim().endsWith('…')",
                           arg=plump.element_handle(), timeout=30_000)
    # varje gång sidan ritas om under datorns tur (en MutationObserver i två sekunder): Tips är grå
    seen = plump.evaluate("""(root) => new Promise(done => {
      const out = [];
      const look = () => {
        const turn = (root.querySelector('p[aria-live="polite"]')?.innerText || '').trim();
        const tips = [...root.querySelectorAll('button')].find(b => /^\\W*Tips\\W*$/.test(b.innerText.trim()));
        if (turn.endsWith('…')) out.push([turn, tips.disabled, tips.title]);
      };
      look();
      const obs = new MutationObserver(look);
      obs.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
      setTimeout(() => { obs.disconnect(); done(out); }, 2000);
    })""")
    bad = [s for s in seen if not (s[1] and "din tur" in s[2])]
    assert seen and not bad, (len(seen), bad[:4])
