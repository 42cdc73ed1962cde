"""Spelbordet i en riktig webbläsare: det som de tre bordstesten (JupyterLab, Voilà, webbplatsen utan installation) gör lika.

Helpers shared by test_browser_table.py, test_browser_table_voila.py and test_browser_table_lite.py: finding the
table's output, reading its state, clicking a button and waiting until the table has been redrawn, playing a
whole short game as a learner does (number buttons, Tips in its steps: the question, "Visa rådet" and "Visa
datorns siffror", a greyed card tapped for its rule, cards clicked until the game is over) and opening the analysis of deal 1. Each test passes its own `check(stage, top)`, which takes
the screenshots and size checks of its place (a notebook in JupyterLab, a Voilà page, the pupil mode of the site).
"""
from __future__ import annotations

import re
import statistics
import time

from playwright.sync_api import Error as PlaywrightError

from browser_helpers import covered_buttons, outputs, screenshot, settle, small_buttons, tap_through, wait_for_text

# Så många gånger får knappen försvinna (bordet ritas om) mellan det att den hittas och trycket, innan testet fäller.
REDRAWN_BEFORE_TAP = 5

# Handen som är ritad för elevens tur: kortens tips säger "Lägg ♥K", varför kortet inte får läggas, eller att det kan
# väljas att lägga bort (Bismarck). Utanför elevens tur är tipset bara kortets namn.
HAND_FOR_THIS_TURN = ('button.pt-kort[title^="Lägg "], button.pt-kort[title*=": "], button.pt-kort[title^="Välj "], '
                      'button.pt-kort[title^="Ångra"]')

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

# Ett kort som det skrivs på bordet och i texterna: färgtecken och valör.
CARD = re.compile(r"[♠♥♦♣](?:10|Kn|[2-9EKD])")


def table_output(page, which: int = 0):
    """Utdatan med spelbord nummer `which` (0 Plump, 1 Bismarck; bordet har knappen Börja spela), som en Locator
    som står kvar när bordet ritas om."""
    found = [i for i, o in enumerate(outputs(page).all()) if o.get_by_role("button", name="Börja spela").count()]
    assert len(found) > which, f"spelbord nummer {which + 1} finns inte på sidan ({len(found)} bord)"
    return outputs(page).nth(found[which])


def state(table) -> dict:
    "Bordets läge just nu: {'turn', 'trick', 'next', 'over'} (se JS_TABLE)."
    return table.evaluate(JS_TABLE)


def click_and_wait_gone(page, loc, covered: list) -> float:
    """Tryck på knappen där ett finger träffar (tap_through; något över dess mitt läggs i `covered`), vänta tills just
    den knappen är borta (bordet har ritats om) och returnera tiden för trycket."""
    for attempt in range(REDRAWN_BEFORE_TAP):
        handle = loc.element_handle()
        t0 = time.monotonic()
        try:
            tap_through(handle, covered)
        except PlaywrightError as e:
            # Bordet ritades om mellan det att knappen hittades och trycket (raden om vems tur det är kan komma
            # före handen som ritas efter den). En elev ser den nya handen och trycker där: leta upp knappen igen.
            if "not attached" not in str(e): raise
            continue
        page.wait_for_function("(e) => !e.isConnected", arg=handle, timeout=60_000)
        return t0
    raise AssertionError(f"knappen ritades om {REDRAWN_BEFORE_TAP} gånger innan den gick att trycka på: {loc}")


def seconds(xs: list[float]) -> str:
    if not xs: return "inga mätningar"
    return f"median {statistics.median(xs):.2f} s, min {min(xs):.2f} s, max {max(xs):.2f} s ({len(xs)} st)"


PACE_MAX = 3.0   # s: reglaget Datorns takt går från 0 till 3 s (plump_teach.ui.table.pace_slider)


def drag_pace(page, table, seconds: float):
    """Dra reglaget Datorns takt till `seconds` med musen, som en elev gör, och se att etiketten säger det
    ("Datorns takt: 0,25 s"; steget är 0,25 s, och ett drag förbi vänsterkanten ger 0 s)."""
    slider = table.locator(".widget-slider", has_text="Datorns takt").first
    handle = slider.locator(".noUi-handle").first
    for attempt in range(3):      # a choice just made (the number of players) may still be drawing the form anew
        try:
            handle.scroll_into_view_if_needed()
            break
        except PlaywrightError as e:
            if "not attached" not in str(e) or attempt == 2: raise
            page.wait_for_timeout(500)
    h, track = handle.bounding_box(), slider.locator(".noUi-target").first.bounding_box()
    x = track["x"] - 20 if seconds <= 0 else track["x"] + track["width"] * seconds / PACE_MAX
    page.mouse.move(h["x"] + h["width"] / 2, h["y"] + h["height"] / 2)
    page.mouse.down()
    page.mouse.move(x, h["y"] + h["height"] / 2, steps=8)
    page.mouse.up()
    wait_for_text(page, f"Datorns takt: {seconds:g} s".replace(".", ","), within=table)


def start_short_game(page, table, covered: list, seed: str = "17", pace: float | None = None):
    """Ett kort parti: bara nedåt från tre kort (tre givar), parti nummer `seed`, datorns takt `pace` sekunder per
    drag om den anges (annars bordets förval, 1 s); tryck Börja spela."""
    table.locator(".widget-dropdown", has_text="Första given").locator("select").select_option(label="3 kort, 3 givar")
    table.get_by_placeholder("slumpas").fill(seed)
    if pace is not None: drag_pace(page, table, pace)
    tap_through(table.get_by_role("button", name="Börja spela"), covered)
    wait_for_text(page, "Giv 1 av 3", within=table, timeout=60_000)


def start_bismarck(page, seed: str = "5"):
    "Bismarckbordet (sidans andra bord) med parti nummer `seed`: Börja spela, och vänta tills förhand lägger bort fyra kort."
    table = table_output(page, 1)
    table.get_by_placeholder("slumpas").fill(seed)
    table.get_by_role("button", name="Börja spela").click()
    wait_for_text(page, "Din tur att lägga bort fyra kort", within=table)
    return table


def tip_steps(page, table, covered: list, advice: str) -> str:
    """Tips i steg, som en elev trycker: Tips ger en fråga (inget råd än), Visa rådet ger rådet (`advice`, ett
    reguljärt uttryck), och på nivån van finns sedan Visa datorns siffror. Returnerar rutans text med alla steg."""
    # knappens namn har ikonens tecken framför ("\uf0eb Tips"); Tips och inget annat
    tap_through(table.get_by_role("button", name=re.compile(r"^\W*Tips\W*$")), covered)
    # en fråga, eller när bara ett kort får läggas, det (issue 39: samma fråga om och om igen hjälpte ingen)
    box = wait_for_text(page, re.compile(r"Tips: (.+\?|Du har bara ett kort du får lägga: .+\.)"), within=table,
                        timeout=60_000)
    assert "Rådet:" not in box.inner_text() and "Datorns siffror" not in box.inner_text(), box.inner_text()
    tap_through(table.get_by_role("button", name="Visa rådet"), covered)
    wait_for_text(page, re.compile(advice), within=table, timeout=60_000)
    numbers = table.get_by_role("button", name="Visa datorns siffror")
    if numbers.count() and numbers.is_visible():
        tap_through(numbers, covered)
        wait_for_text(page, "Datorns siffror", within=table, timeout=60_000)
    box = table.locator(".pt-ruta", has_text="Rådet:").first
    text = box.inner_text()
    assert "%" not in text.split("Datorns siffror")[0], text      # frågan och rådet: inga procent
    return text


def play_game(page, table, covered: list, check, card_tips: int = 1, time_replies: bool = False,
              no_cards_in_log: bool = False, max_steps: int = 300) -> dict:
    """Spela partiet till slut som en elev: Tips på det första budet och på de `card_tips` första korten, ett grått
    kort trycks en gång och dess regel (P10) läses, sedan det första budet som går att välja och det första kort som
    får läggas. `check(stage, top)` anropas vid 'bud', 'gratt-kort' och 'spel' och returnerar sina problem.
    time_replies: mät tiden från ett klickat kort tills datorns kort ligger på bordet. no_cards_in_log: datorns
    skäl i loggen får inte visa något kort medan given pågår.

    Returnerar {'bid_tips', 'card_tips', 'replies' (sekunder), 'played' (elevens kort), 'tapped_grey', 'problems'}."""
    out = {"bid_tips": [], "card_tips": [], "replies": [], "played": 0, "tapped_grey": False, "problems": []}
    for _ in range(max_steps):
        s = state(table)
        if s["over"]: break
        if s["next"]:
            click_and_wait_gone(page, table.get_by_role("button", name="Nästa giv"), covered)
            continue
        if s["turn"].startswith("Din tur att bjuda"):
            if not out["bid_tips"]:
                t = time.monotonic()
                text = tip_steps(page, table, covered, r"Rådet: Bjud \d")
                out["bid_tips"].append(time.monotonic() - t)
                assert re.search(r"Rådet: Bjud \d+\.\s+\S", text) and text.count("Bjud ") == 1, text
                out["problems"] += check("bud", table)
            click_and_wait_gone(page, table.locator("button.pt-bud:not([disabled])").first, covered)
        elif s["turn"].startswith("Din tur att"):
            # raden om vems tur det är kan synas före handen som ritas för turen: vänta på den handen (dess kort
            # säger "Lägg …" eller varför inte), annars läses den förra handen, där inget kort är grått
            table.locator(HAND_FOR_THIS_TURN).first.wait_for(timeout=60_000)
            if no_cards_in_log:              # datorns bud med skäl, men utan datorns kort medan given pågår
                log = table.locator(".pt-ruta").filter(has_text="Vad som har hänt i given")
                if log.count():
                    assert not CARD.search(log.first.inner_text()), log.first.inner_text()
            grey = table.locator("button.pt-kort.pt-nej")
            if grey.count() and not out["tapped_grey"]:   # ett grått kort säger varför (P10)
                name = grey.first.inner_text()
                tap_through(grey.first, covered)
                alert = table.locator('[role="alert"]').filter(has_text="följa färg")
                alert.wait_for()
                assert name in alert.inner_text(), alert.inner_text()
                out["tapped_grey"] = True
                out["problems"] += check("gratt-kort", table.locator('[aria-label="sticket"]').first)
            if len(out["card_tips"]) < card_tips:
                t = time.monotonic()
                text = tip_steps(page, table, covered, r"Rådet: Lägg ")
                out["card_tips"].append(time.monotonic() - t)
                hand = table.locator("button.pt-kort").all_inner_texts()
                assert any(re.search(rf"Lägg {re.escape(c)}[ .]", text) for c in hand), (text, hand)
                if len(out["card_tips"]) == 1:
                    out["problems"] += check("spel", table)
            clicked = click_and_wait_gone(page, table.locator("button.pt-kort:not(.pt-nej)").first, covered)
            out["played"] += 1
            after = state(table)
            if time_replies and not (after["next"] or after["over"] or after["turn"].startswith("Din tur")):
                # datorn står i tur: tiden tills dess kort ligger på bordet (takten ingår)
                page.wait_for_function(f"(a) => ({JS_REPLIED})(a)", arg=[table.element_handle(), after["trick"]],
                                       timeout=60_000, polling=50)
                out["replies"].append(time.monotonic() - clicked)
        else:
            page.wait_for_timeout(100)   # datorn lägger sitt kort
    else:
        raise AssertionError(f"partiet tog inte slut: {state(table)}")
    assert out["bid_tips"] and out["card_tips"], "inget Tips under partiet"
    return out


def open_analysis(page, table, covered: list):
    """Efter partiet: tryck Giv 1 och läs genomgången: domen över budet, staplarna och diagrammets text för den som
    inte ser det. Returnerar (rutan med genomgången, sekunder tills den syntes)."""
    wait_for_text(page, "Partiet är slut", within=table)
    t = time.monotonic()
    tap_through(table.get_by_role("button", name="Giv 1", exact=True), covered)
    box = table.locator(".pt-ruta", has_text=re.compile(r"bjöd \d+ och tog \d+: ")).filter(
        has_text="Datorns siffror").first          # genomgången av given; datorns siffror bakom en stängd rad (van)
    box.wait_for(timeout=180_000)
    took = time.monotonic() - t
    assert "Ett bra bud" not in box.inner_text() and not re.search(r"Budet \d+ var för", box.inner_text())
    tap_through(box.locator("summary", has_text="Datorns siffror"), covered)
    text = box.inner_text()
    assert re.search(r"Ett bra bud|Budet \d+ var för (högt|lågt)", text), text
    assert re.search(r"bud \d+ träffade(?: bara)? i \d+ av dem", text), text     # ett tal per bud, inga staplar
    assert box.locator(".pt-stapel").count() == 0 and "%" not in text, text
    return box, took


SIZES = ((1280, 900), (768, 1024), (390, 844))


def check_sizes(page, table, name: str, top, page_problems, settle_ms: int = 500) -> list[str]:
    """Vid varje storlek (SIZES): en skärmbild `name`-WxH av fönstret med `top` överst; det som `page_problems(where)`
    hittar på sidan (för brett, kod eller fel som syns); knappar i bordet lägre än 44 px och knappar med något över
    sin mitt. Fönstret ställs tillbaka på 1280x900."""
    problems = []
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        settle(page, settle_ms)
        top.evaluate("e => e.scrollIntoView({block: 'start'})")
        settle(page, 150)
        path = screenshot(page, f"{name}-{w}x{h}", full_page=False)
        where = f"{name} {w}x{h} ({path.name})"
        problems += page_problems(where)
        small = small_buttons(table)
        if small: problems.append(f"{where}: knappar lägre än 44 px: {small[:6]}")
        hidden = covered_buttons(table)
        if hidden: problems.append(f"{where}: något ligger över knappar: {hidden[:6]}")
    page.set_viewport_size({"width": 1280, "height": 900})
    settle(page, 300)
    return problems


def covered_problem(covered: list) -> list[str]:
    "Ett problem att rapportera om något tryck inte nådde sin knapp."
    if not covered: return []
    return [f"{len(covered)} tryck nådde inte knappen, något låg över dess mitt: "
            f"{sorted({(c['text'], c['over']) for c in covered})}"]


# Det eleven ser av läget, för att jämföra före och efter en omladdad sida: givens rubrik, spelartabellen med buden,
# och handen (korten i ordning, med sina tips).
JS_POSITION = """(root) => {
  const bord = root.querySelector('.pt-bord');
  const head = (bord?.innerText || '').split('\\n').find(l => l.startsWith('Giv ')) || '';
  const players = root.querySelector('table.pt-spelare')?.innerText.trim() || '';
  const hand = [...root.querySelectorAll('button.pt-kort')].filter(b => b.checkVisibility()).map(b => b.title);
  return {head, players, hand};
}"""


def position(table) -> dict:
    "Läget som eleven ser det: {'head', 'players', 'hand'} (se JS_POSITION)."
    return table.evaluate(JS_POSITION)


def to_first_card(page, table, covered: list, tries: int = 240) -> dict:
    """Som en elev fram till sitt första kort i given: budet med den första sifferknappen som går att välja, sedan
    vänta tills handen är ritad för elevens tur. Returnerar läget (position)."""
    for _ in range(tries):
        s = state(table)
        if s["turn"].startswith("Din tur att bjuda"):
            click_and_wait_gone(page, table.locator("button.pt-bud:not([disabled])").first, covered)
        elif s["turn"].startswith("Din tur att"):
            break
        else: page.wait_for_timeout(300)
    table.locator(HAND_FOR_THIS_TURN).first.wait_for(timeout=60_000)
    return position(table)


def resume_after_reload(page, table, covered: list, before: dict, check=None) -> list[str]:
    """Efter en omladdad sida: inställningen erbjuder partiet ("Du har ett parti som inte är klart"; `check(stage, top)`
    tar skärmbilderna av erbjudandet); ett tryck på Fortsätt där du slutade ger samma läge som `before`, och ett kort
    till går att lägga (partiet går vidare). Returnerar problemen som `check` fann."""
    offer = wait_for_text(page, "Du har ett parti som inte är klart", within=table, timeout=60_000)
    problems = check("erbjudande", offer) if check else []
    tap_through(table.get_by_role("button", name="Fortsätt där du slutade"), covered)
    wait_for_text(page, "Partiet fortsätter där du slutade", within=table, timeout=60_000)
    table.locator(HAND_FOR_THIS_TURN).first.wait_for(timeout=60_000)
    after = position(table)
    assert after == before, f"läget efter omladdningen är ett annat:\nföre  {before}\nefter {after}"
    n = table.locator("button.pt-kort").count()
    click_and_wait_gone(page, table.locator("button.pt-kort:not(.pt-nej)").first, covered)
    page.wait_for_function("(e) => e.querySelectorAll('button.pt-kort').length < %d" % n,
                           arg=table.element_handle(), timeout=60_000)
    return problems
