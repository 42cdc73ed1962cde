"""Protokollföraren i en riktig webbläsare: två givar, omstart av kärnan, fortsätt, och protokollet är intakt.

The score-sheet keeper in JupyterLab 4 driven by Chromium: enter two deals, restart the kernel, resume,
and find the sheet exactly as it was.
"""
import json
import re

import pytest

from browser_helpers import (bid, click, enter_tricks, open_notebook_and_run_all, outputs, play_first_deal,
                             run_all_cells, screenshot, wait_for_kernel_idle, wait_for_text)
from plump_teach.protocol import load_protocol

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = ["from plump_teach.protocol_widget import ProtocolWidget", "ProtocolWidget('protokoll.json')"]


def notebook(path):
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                     "source": src} for i, src in enumerate(CELLS)],
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
