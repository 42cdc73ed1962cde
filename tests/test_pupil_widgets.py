"""Varje elevlektions widgetar, genomgångna som en elev gör (issue 39): ingen regelkod, ingen filväg, inget engelskt ord.

Every pupil lesson (nbs/elev/*.ipynb) is run in this process, cell by cell as the kernel would (the hidden test cells
left out). Every HTML picture a cell shows is read; every widget is walked: every button pressed (wrong answers,
hints and "Visa svar" included), every option of every menu chosen, every number field set to its ends, in a few
rounds because a press can show new buttons; after each step every text the widget shows (values, button texts,
tooltips, menu options) is read. The reading finds no rule code (P1-P21, B1-B9), no file path and none of the English
words that have slipped onto a pupil's screen before, and every word is Swedish (hunspell sv_SE with
tests/ordlista.txt, as test_spelling). The tables of lesson 7 are read before a game starts (a whole
game at the table is played in test_pupil_surface).
"""
from __future__ import annotations

import ast
import json
import re
import time
from pathlib import Path

import ipywidgets as W
import pytest
from IPython.display import DisplayObject
from ipywidgets.widgets.widget_selection import _Selection
from ipywidgets.widgets.widget_string import _String

from test_pupil_surface import CODE, shown
from test_spelling import check, report

ELEV = Path(__file__).resolve().parents[1] / "nbs" / "elev"
LESSONS = sorted(p.name for p in ELEV.glob("[01]*.ipynb"))
PATH = re.compile(r"[\w.~-]*/[\w./-]*\.(?:json|ipynb|py|csv)\b|\b[\w-]+\.(?:json|ipynb|csv)\b"
                  r"|/(?:work|home|tmp|nbs|usr|Users)/")
ENGLISH = re.compile(r"\b(?:the|and|of|is|are|with|Error|True|False|None|Traceback|Exception|click|Loading|"
                     r"loading|button|widget|Save|Open|Cancel|Next|Back|Show|Hide|Start|Reset|undefined|NaN)\b")
NAMES = ("Anna", "Bo", "Cissi", "Dan", "Eva", "Filip")
# Texter som får stå kvar, per lektion (inga just nu: också lektionernas egna celler visar motorns meningar genom pupil_text).
ELSEWHERE: dict[str, tuple[str, ...]] = {}


def code_cells(name: str):
    nb = json.loads((ELEV / name).read_text(encoding="utf-8"))
    for c in nb["cells"]:
        src = "".join(c["source"])
        if c["cell_type"] == "code" and not src.lstrip().startswith("#| hide"):
            yield src


def lesson_outputs(name: str) -> list:
    "Allt lektionens celler visar: cellens sista uttryck och det som skickas till display(), i ordning."
    import IPython.display as D
    shown_objects, ns = [], {"__name__": "__lektion__"}
    original = D.display
    D.display = lambda *objs, **kw: shown_objects.extend(objs)
    try:
        for src in code_cells(name):
            tree = ast.parse(src)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            exec(compile(tree, f"<{name}>", "exec"), ns)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), f"<{name}>", "eval"), ns)
                if value is not None: shown_objects.append(value)
    finally:
        D.display = original
    return shown_objects


def texts(w, out=None) -> list[str]:
    "Allt en widget eller bild visar: värden, knapptexter, tips (tooltip), platshållare, menyernas val, ner genom barnen."
    out = [] if out is None else out
    if isinstance(w, DisplayObject):
        out.append(str(w.data)); return out
    # `value` syns bara i textrutorna (HTML, Label, Text); i en meny eller knapprad är det en nyckel som inte syns
    for attr in (("value",) if isinstance(w, _String) else ()) + ("description", "tooltip", "placeholder"):
        v = getattr(w, attr, None)
        if isinstance(v, str): out.append(v)
    out += [str(t) for t in getattr(w, "tooltips", None) or ()]
    out += [str(t) for t in getattr(w, "titles", None) or () if t]    # rubrikerna i ett dragspel (Accordion)
    for o in getattr(w, "options", ()) or ():
        out.append(str(o[0] if isinstance(o, tuple) else o))
    for c in getattr(w, "children", ()) or ():
        texts(c, out)
    return out


def controls(w, out=None) -> list:
    "Det eleven kan trycka på eller ändra, i ordning, utan det som är dolt."
    out = [] if out is None else out
    if not isinstance(w, W.Widget) or (getattr(w, "layout", None) is not None and w.layout.display == "none"):
        return out
    if isinstance(w, (W.Button, _Selection, W.ToggleButton, W.Checkbox, W.IntText, W.BoundedIntText, W.IntSlider,
                      W.Text)):
        out.append(w)
    for c in getattr(w, "children", ()) or ():
        controls(c, out)
    return out


def actions(c, k: int) -> list:
    if getattr(c, "disabled", False): return []
    if isinstance(c, W.Button): return [c.click]
    if isinstance(c, _Selection):
        return [lambda v=v: setattr(c, "value", v) for v in c._options_values]
    if isinstance(c, (W.ToggleButton, W.Checkbox)): return [lambda: setattr(c, "value", not c.value)]
    if isinstance(c, (W.IntSlider, W.BoundedIntText)):
        return [lambda v=v: setattr(c, "value", v) for v in sorted({c.min, (c.min + c.max) // 2, c.max})]
    if isinstance(c, W.IntText): return [lambda v=v: setattr(c, "value", v) for v in (0, 1, 3, 13)]
    if isinstance(c, W.Text): return [lambda: setattr(c, "value", NAMES[k % len(NAMES)])]
    return []


def walk(w, rounds: int = 3, limit: int = 400) -> list[str]:
    "Varje knapp och varje val i widgeten, i några varv; allt som syns läses efter varje steg."
    seen, steps = texts(w), 0
    for _ in range(rounds):
        for k, c in enumerate(controls(w)):
            for act in actions(c, k):
                if steps >= limit: return seen
                try: act()
                except Exception as e:   # ett fel som eleven skulle se i cellens utdata
                    seen.append(f"Traceback {type(e).__name__}: {e}")
                steps += 1
                seen += texts(w)
    return seen


def findings(seen) -> list[str]:
    found = set()
    for t in seen:
        plain = shown(t)
        for rx in (CODE, PATH, ENGLISH):
            found |= {" ".join(plain[max(0, m.start() - 60): m.end() + 10].split()) for m in rx.finditer(plain)}
    return sorted(found)


def test_the_reading_finds_what_it_looks_for():
    bad = ["Att lägga ♥4 vore renons (P10).", "Sparat i /work/main/nbs/elev/klassparti.json", "klassparti.json",
           "<b>Error</b>: click the button", "False", "Traceback KeyError: 'x'", "Välj spelsätt (B4)"]
    assert all(findings([t]) for t in bad)
    good = ["Lägg ♥E (ditt högsta kort), ta 2 stick av 5. Bo bjuder 1/2 poäng?", "<!-- regel P6 --> Buden får aldrig "
            "gå jämnt ut.", '<a href="ordlista.ipynb#sang">sang</a>', "Bo tar sticket i P-huset med ♠10."]
    assert findings(good) == []


def test_the_walk_presses_every_button_and_reads_what_follows():
    box = W.HTML("")
    right, wrong = W.Button(description="Rätt"), W.Button(description="Fel")
    right.on_click(lambda _: setattr(box, "value", "Rätt!"))
    wrong.on_click(lambda _: setattr(box, "value", "Fel (P10)."))
    menu = W.Dropdown(options=[("ett", 1), ("två", 2)])
    menu.observe(lambda ch: setattr(box, "value", f"Du valde {ch['new']}, True"), "value")
    seen = walk(W.VBox([right, wrong, menu, box]))
    assert "Rätt!" in seen and "Fel (P10)." in seen and "Du valde 1, True" in seen
    assert len(findings(seen)) == 3


@pytest.fixture
def in_lessons_folder(tmp_path, monkeypatch):
    "Lektionerna körs i en tom mapp, som elevens kopia: det de sparar hamnar där och inte i arbetskopian."
    monkeypatch.chdir(tmp_path)
    # spelbordets sparade partier: en tom mapp, inte den som andra tester i samma process har sparat partier i
    monkeypatch.setenv("PLUMP_TEACH_SPARADE", str(tmp_path / "sparade"))
    return tmp_path


def widgets_in(w, out: list | None = None) -> list:
    "The widget and every widget under it (children), each once."
    out = [] if out is None else out
    if isinstance(w, W.Widget) and all(x is not w for x in out):
        out.append(w)
        for c in getattr(w, "children", ()) or ():
            widgets_in(c, out)
    return out


def shared_layouts(objs) -> list[list[str]]:
    "The layouts that more than one of the widgets in `objs` (and under them) hold, each as the widgets holding it."
    holders: dict[int, list[str]] = {}
    for w in [w for o in objs for w in widgets_in(o)]:
        layout = getattr(w, "layout", None)
        if layout is not None:
            holders.setdefault(id(layout), []).append(f"{type(w).__name__}({getattr(w, 'description', '')!r})")
    return [h for h in holders.values() if len(h) > 1]


@pytest.mark.parametrize("name", LESSONS)
def test_every_widget_in_the_lesson_shows_no_code_path_or_english(name, in_lessons_folder):
    start = time.perf_counter()
    seen = []
    shown = lesson_outputs(name)
    # each widget has a layout of its own (test_widget_layouts): a shared one hides or moves every widget holding it
    shared = shared_layouts(shown)
    assert not shared, f"{name}: {len(shared)} layouter delas, t.ex. av {shared[0][:4]}"
    for obj in shown:
        if isinstance(obj, W.Widget):
            table = type(obj).__name__ in ("PlayTable", "BismarckTable")   # ett helt parti: test_pupil_surface
            seen += texts(obj) if table else walk(obj)
        else:
            seen += texts(obj)
    assert len(seen) > 20, f"{name}: lektionen visar nästan ingenting"
    left = [f for f in findings(seen) if not any(k in f for k in ELSEWHERE.get(name, ()))]
    assert not left, f"{name}: {left}"
    misspelled = check([(name, t) for t in set(seen)])     # hunspell sv_SE och tests/ordlista.txt
    assert not misspelled, report(misspelled)
    assert time.perf_counter() - start < 20
