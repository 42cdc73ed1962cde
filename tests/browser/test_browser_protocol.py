"""Protokollföraren i en riktig webbläsare: två givar, omstart av kärnan, fortsätt, och protokollet är intakt;
klick så fort Playwright kan genom hela givar, och länken till sidan för utskrift.

The score-sheet keeper in JupyterLab 4 driven by Chromium: enter two deals, restart the kernel, resume,
and find the sheet exactly as it was; click through whole deals at full speed and find exactly the clicks
in the saved sheet; the print page link opens the page.
"""
import json
import re

import pytest

from browser_helpers import (bid, click, click_bid_fast, enter_tricks, open_notebook_and_run_all, outputs,
                             play_first_deal, run_all_cells, run_cell, screenshot, wait_for_kernel_idle, wait_for_text)
from plump_teach.engine.scoresheet import load_protocol

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = ["from plump_teach.ui.keeper import ProtocolWidget", "ProtocolWidget('protokoll.json')"]


def notebook(path, cells=CELLS):
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                     "source": src} for i, src in enumerate(cells)],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def test_two_deals_restart_resume(page, jupyterlab, tmp_path):
    nb = notebook(tmp_path / "protokoll.ipynb")
    base = jupyterlab(nb)
    open_notebook_and_run_all(page, base, nb.name)
    area = outputs(page).last
    play_first_deal(page, area)   # med P6: givaren Anna får inte bjuda 5

    bid(page, area, "Cissi", 1)
    bid(page, area, "Anna", 1)
    bid(page, area, "Bo", 0)
    wait_for_text(page, "För in sticken.", within=area)
    enter_tricks(page, area, {"Cissi": 1, "Anna": 1, "Bo": 7})
    wait_for_text(page, "Giv 3 av 19", within=area)
    sheet_before = area.locator(".plump-protokoll").inner_text()
    assert "23" in sheet_before
    screenshot(page, "protokoll-före-omstart")
    saved = load_protocol(tmp_path.glob("jupyterlab*/root/protokoll.json").__next__())
    assert saved.totals == [11, 13, 23]

    # Starta om kärnan (och rensa utdata) och kör allt igen, som när notebooken öppnas på nytt
    page.locator(".lm-MenuBar").get_by_role("menuitem", name=re.compile(r"^(Kernel|Kärna)$")).click()
    page.locator('.lm-Menu li[data-command="kernelmenu:restart-and-clear"]').click()
    page.locator(".jp-Dialog button.jp-mod-accept").click()
    page.locator(".jp-Dialog").wait_for(state="detached")
    wait_for_kernel_idle(page)
    run_all_cells(page)
    area = outputs(page).last
    wait_for_text(page, "Det finns ett sparat protokoll", within=area)
    click(area, "Fortsätt protokollet")
    wait_for_text(page, "Giv 3 av 19: 8 kort. Cissi ger och Anna är förhand. Anna bjuder.", within=area)
    assert area.locator(".plump-protokoll").inner_text() == sheet_before
    screenshot(page, "protokoll-efter-omstart")


FAST_CELLS = ["from plump_teach.ui.keeper import ProtocolWidget",
              "w = ProtocolWidget('snabb.json')\nw",
              "print('vägrade klick:', len(w.refused))"]

# Två hela givar med tre spelare, i budordning (P5): giv 1 (10 kort) ger Anna, giv 2 (9 kort) ger Bo.
FAST_DEALS = [
    (1, [("Bo", 3), ("Cissi", 2), ("Anna", 1)], {"Anna": 5, "Bo": 3, "Cissi": 2}),
    (2, [("Cissi", 0), ("Anna", 4), ("Bo", 2)], {"Anna": 4, "Bo": 4, "Cissi": 1}),
]
SEATS = {"Anna": 1, "Bo": 2, "Cissi": 3}


def test_fast_clicks_are_recorded_exactly_as_clicked(page, jupyterlab, tmp_path):
    nb = notebook(tmp_path / "snabb.ipynb", FAST_CELLS)
    base = jupyterlab(nb)
    open_notebook_and_run_all(page, base, nb.name)
    area = outputs(page).filter(has=page.locator(".widget-button")).first
    for i, name in enumerate(["Anna", "Bo", "Cissi"]):
        area.get_by_placeholder(f"Spelare {i + 1}").fill(name)
    click(area, "Starta protokollet")

    # Så fort Playwright kan: inga väntetider mellan klicken. Ett klick som hinner träffa förra spelarens
    # knapp (innan knapparna ritats om) ska vägras synligt och klickas om; aldrig föras in för någon annan.
    step, stale, expected = 0, 0, []
    for deal, bids, tricks in FAST_DEALS:
        for player, value in bids:
            stale += click_bid_fast(area, value, f"plump-giv-{deal}-steg-{step}-plats-{SEATS[player]}")
            expected.append(["bid", SEATS[player] - 1, value])      # filen har platsen från 0, som partiets fil
            step += 1
        enter_tricks(page, area, tricks)
        expected.append(["tricks", [tricks[p] for p in ["Anna", "Bo", "Cissi"]], []])
        step += 1
    wait_for_text(page, "Giv 3 av 19: 8 kort. Cissi ger och Anna är förhand. Anna bjuder.", within=area)
    wait_for_kernel_idle(page)
    screenshot(page, "protokoll-snabba-klick")

    saved = load_protocol(next(tmp_path.glob("jupyterlab*/root/snabb.json")))
    assert saved.events == expected
    assert saved.totals == [14, 13, 12]
    # Klicken på gamla knappar vägrades (och syntes: widgeten sparar meddelandena i w.refused), och inget annat
    # vägrades. Ett klick som Playwright började på en knapp som just byttes ut når inte alltid kärnan (under last,
    # i CI: 5 sådana klick, 4 vägrade); det är inget fel, för inget av dem fördes in (saved.events ovan).
    refused = int(run_cell(page, 2).strip().rsplit(" ", 1)[1])
    assert refused <= stale, (refused, stale)
    print(f"klick på gamla knappar: {stale}, vägrade i kärnan: {refused}")

    # Sidan för utskrift: länken öppnar den i en ny flik
    click(area, "Spara för utskrift")
    link = area.get_by_role("link", name="Öppna sidan för utskrift")
    link.wait_for()
    assert link.get_attribute("target") == "_blank"
    with page.expect_popup() as popup:
        link.click()
    printed = popup.value
    printed.wait_for_load_state()
    assert printed.title() == "Protokoll, Plump"
    assert "Summa" in printed.locator("table.plump-protokoll").inner_text()
    printed.close()


def test_the_pupil_keeper_in_lesson_6_speaks_the_pupils_words(page, jupyterlab, tmp_path):
    "Lektion 6 (issue 39): ingen sökväg, ingen CSV eller tom Ändra giv-meny, och utan namn vad eleven ska göra."
    nb = notebook(tmp_path / "klass.ipynb", ["from plump_teach.ui.keeper import ProtocolWidget",
                                             "ProtocolWidget('klassparti.json', short_game=5)"])
    base = jupyterlab(nb)
    open_notebook_and_run_all(page, base, nb.name)
    area = outputs(page).last
    click(area, "Starta protokollet")
    wait_for_text(page, "Skriv namnen på dem som spelar, två till sex.", within=area)
    assert "inte 0" not in area.inner_text()
    for i, name in enumerate(["Anna", "Bo", "Cissi"]):
        area.get_by_placeholder(f"Spelare {i + 1}").fill(name)
    click(area, "Starta protokollet")
    wait_for_text(page, "sparas på datorn", within=area)
    for w, h in ((1280, 900), (768, 1024), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        if w < 500:   # filbläddraren tar annars nästan hela telefonens bredd
            tab = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
            if tab.count(): tab.first.click()
        page.wait_for_timeout(400)
        area.evaluate("e => e.scrollIntoView({block: 'start'})")
        screenshot(page, f"protokoll-elev-{w}x{h}", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    text = area.inner_text()
    assert "klassparti.json" not in text and str(tmp_path) not in text, text
    assert text.count("sparas på datorn") == 1, text
    assert not area.get_by_role("button", name="Spara CSV").is_visible()
    assert not area.locator(".widget-dropdown", has_text="Ändra giv").is_visible()
