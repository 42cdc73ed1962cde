"""Each widget has a layout of its own, and no module creates a widget when it is imported (issue 39).

Found while the site learnt to import a lesson's modules while the page draws (tools/lite_warm_worker.js): the
lesson widgets shared module-level `W.Layout` objects. A shared layout changes for every widget that holds it: in
lesson 5's short game (`SheetTry`), hiding the bid buttons after the last bid hid the row with "Ångra" and "Börja
om" too, and on the same page the house-rule toggles of the scoring widget above it. And a `Layout` made at import
opens a comm: the module could not be imported before the kernel is up. That no two widgets of a pupil lesson
share a layout is checked where the lessons are walked anyway (test_pupil_widgets).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_short_game_keeps_undo_and_start_over_in_view_while_tricks_are_entered():
    from plump_teach.ui.tryout.scoring import SheetTry
    s = SheetTry()
    row = s.children[-1]
    assert [b.description for b in row.children] == ["Ångra", "Börja om"]
    for _ in range(3): s.bid(0)
    assert s.keeper.status()["phase"] == "tricks"
    assert s.bid_buttons.layout.display == "none" and s.tricks_box.layout.display == "flex"
    assert row.layout.display != "none"
    assert not s.undo_button.disabled


def test_importing_the_package_makes_no_widget():
    code = """
import importlib, pkgutil
import ipywidgets.widgets.widget as ww
import plump_teach
names = [m.name for m in pkgutil.walk_packages(plump_teach.__path__, 'plump_teach.')]
made = {}
for name in names:
    before = len(ww._instances)
    importlib.import_module(name)
    if len(ww._instances) != before: made[name] = len(ww._instances) - before
print(len(names), made)
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    count, made = out.stdout.split(" ", 1)
    assert int(count) > 40 and made.strip() == "{}", out.stdout
