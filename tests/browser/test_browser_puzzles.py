"""Pusslen i en riktig webbläsare: kursens pusselnotebook i JupyterLab och klassrumsappen i Voilà.

Real-browser tests of the puzzles: the course's puzzle notebook run in JupyterLab 4, and the classroom
app (the notebook `plump-teach` serves) in Voilà. Each clicks a wrong answer, then a right one, and checks
the Swedish feedback. Which answers are right is asked of the puzzle engine, with the same numbers.
"""
import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser_helpers import right_and_wrong, open_notebook_and_run_all, outputs, screenshot, wait_for_text
from plump_teach.classroom.app import app_notebook
from plump_teach.puzzles.registry import NAMES, make_puzzle
from plump_teach.ui.puzzle_trainer import PuzzleTrainer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

NBS = Path(__file__).resolve().parents[2] / "nbs"


def answer_wrong_then_right(page, widget, p, wrong_text, shot):
    right, wrong = right_and_wrong(p)
    widget.get_by_role("button", name=wrong, exact=True).click()
    wait_for_text(page, "Inte riktigt.", within=widget)
    wait_for_text(page, wrong_text, within=widget)
    wait_for_text(page, "Försök igen!", within=widget)          # the first wrong answer says why, not what is right
    assert f"({p.rule})" not in widget.inner_text()        # regeln i ord; koden hör till lärarens sidor
    screenshot(page, f"{shot}-fel")
    widget.get_by_role("button", name=right, exact=True).click()
    wait_for_text(page, "Rätt!", within=widget)
    # the counter is a widget of its own: its new text may come a moment after the answer's
    wait_for_text(page, "Rätt: 1 · Försök: 2 · Rätt direkt i rad: 0", within=widget)
    screenshot(page, f"{shot}-rätt")


def test_puzzle_notebook_in_jupyterlab(page, jupyterlab, request_log):
    said = []   # the page's console, told if the end fails (twice in full suite runs the kernel's status stayed
    page.on("console", lambda m: said.append(f"{m.type}: {m.text[:200]}"))   # "Connecting" after Ny uppgift)
    base = jupyterlab(NBS / "pussel.ipynb")
    state = open_notebook_and_run_all(page, base, "pussel.ipynb")
    assert not state["errors"], state

    dealer = outputs(page).filter(has_text="Givarens bud").filter(has_text="Uppgift 1 ").first
    dealer.wait_for()
    answer_wrong_then_right(page, dealer, make_puzzle("dealer_bid", 1), "precis lika många som sticken",
                            "pussel-lab-givarens-bud")

    trick = outputs(page).filter(has_text="Vem tar sticket?").first
    answer_wrong_then_right(page, trick, make_puzzle("trick_winner", 1), "sticket", "pussel-lab-stick")
    # korten i situationen har svenska namn för skärmläsare, och knapparna nås med tangentbordet
    assert trick.locator("svg[aria-label]").count() >= 3
    # nivå 2: spelföljden efter svaret är pusslets egen (Feedback.line), från sticket som pågår till givens slut
    end = outputs(page).filter(has_text="Alla kort syns").first
    p = make_puzzle("right_card", 1, 2)
    answer_wrong_then_right(page, end, p, "Så här kan de göra", "pussel-lab-slutspel")
    line = p.check(sorted(p.answers)[0]).line
    items = end.locator("li")
    assert items.count() == len(line)
    for i, t in enumerate(line):
        assert items.nth(i).inner_text().strip() == (' '.join(f"{NAMES[w]} {c}" for w, c in t.plays)
                                                     + f" → {NAMES[t.winner]} tar sticket")
    trick.get_by_role("button", name="Ny uppgift").click()    # a solved puzzle needs no hint: take a new one
    expect(trick).not_to_contain_text("Rätt!", timeout=30_000)   # the new puzzle is drawn
    hint = trick.get_by_role("button", name="Ledtråd")
    hint.focus()
    page.keyboard.press("Enter")
    try:
        wait_for_text(page, "Ledtråd:", within=trick)
    except Exception:
        status = page.locator(".jp-StatusBar-Widget").all_inner_texts()
        raise AssertionError(f"ingen ledtråd; statusraden {status}; konsolen (sist): {said[-15:]}") from None
    assert not request_log.external(), request_log.external()


def test_classroom_app_in_voila(page, voila, tmp_path):
    kinds, seed = ["trick_winner", "score"], 17
    nb = tmp_path / "Pusselträning.ipynb"
    nb.write_text(json.dumps(app_notebook(kinds, rounds=2, seed=seed), ensure_ascii=False), encoding="utf-8")
    page.goto(voila(nb))
    start = page.get_by_role("button", name="Starta")
    start.wait_for(timeout=60_000)
    assert page.locator(".cm-editor, .jp-CodeCell .jp-InputArea").count() == 0   # ingen kod på sidan
    assert page.get_by_text("PuzzleTrainer(").count() == 0
    start.click()

    plan = PuzzleTrainer(kinds=kinds, rounds=2, seed=seed).start().plan
    for i, (kind, number) in enumerate(plan):
        p = make_puzzle(kind, number)
        wait_for_text(page, f"Uppgift {i + 1} av 2", within=page.locator("body"))
        wait_for_text(page, p.question, within=page.locator("body"))   # the new puzzle is drawn (no second number)
        widget = page.locator("body")
        answer_wrong_then_right(page, widget, p, {"trick_winner": "sticket", "score": "poäng"}[kind],
                                f"pussel-voila-{i + 1}") if i == 0 else \
            widget.get_by_role("button", name=right_and_wrong(p)[0], exact=True).click()
        page.get_by_role("button", name="Nästa uppgift").click()
    wait_for_text(page, "Sammanfattning", within=page.locator("body"))
    wait_for_text(page, "Du löste 1 av 2 uppgifter rätt direkt", within=page.locator("body"))
    screenshot(page, "pussel-voila-sammanfattning")
