"""Hur testerna delas mellan processerna (pytest-xdist) i `python3 run.py test` (tre) och `python3 run.py snabb` (två).

How the suite is shared between the worker processes of `run.py test` (`-n 3`) and `run.py snabb` (`-n 2`), both
with `--dist loadscope --no-loadscope-reorder`. Every test module is one unit of work, so that a module's server,
browser page or kernel (module-scoped fixtures) starts once, on one worker. The units are handed out in the order
below, longest first, so that the longest ones start at once and no long unit is left for the end while the other
workers idle. The zero-install site's tests are three modules (test_browser_lite, _notebooks, _pupil) so that
they can run side by side; the site is built once per run: the fixture lite_site (tests/browser/conftest.py) of a
module waits for a build under way in another process (tools/lite.py, one_build_at_a_time) and then reuses the
site. The first of them comes first, the other two after the longest other modules, when the site is there.

(`--dist loadgroup` would keep chosen modules on one worker, but with pytest 9 xdist 3.8 does not see the groups,
and every test becomes a unit of its own.) Run with `-n 0`, the order is the only difference.
"""
from __future__ import annotations

import os
import tempfile

import pytest

# Spelbordet sparar sina partier efter varje drag (plump_teach.ui.table, PLUMP_TEACH_SPARADE): i testerna, och i
# kärnorna som testerna startar, i en tillfällig mapp och aldrig i arbetskopian.
os.environ.setdefault("PLUMP_TEACH_SPARADE", tempfile.mkdtemp(prefix="plump-sparade-"))
# Elevens framsteg (målen i lektionerna, sorterna som gick fel: plump_teach.course.progress, PLUMP_TEACH_FRAMSTEG) på
# samma sätt; varje test får dessutom en egen, ny fil (fresh_progress), så att ett pass som gick fel i ett test inte
# ändrar nästa tests pass.
os.environ.setdefault("PLUMP_TEACH_FRAMSTEG", os.path.join(tempfile.mkdtemp(prefix="plump-framsteg-"), "framsteg.json"))
_progress_dir = tempfile.mkdtemp(prefix="plump-framsteg-test-")
_progress_count = iter(range(10 ** 9))


@pytest.fixture(autouse=True)
def fresh_progress(monkeypatch):
    "Varje test börjar utan sparade framsteg, i en egen fil."
    monkeypatch.setenv("PLUMP_TEACH_FRAMSTEG", os.path.join(_progress_dir, f"framsteg-{next(_progress_count)}.json"))

# Measured on the 2-core machine with three workers (tests/benchmarks/results/suite-*.txt): the modules of a
# minute and a half or more, longest first; every other module follows in the usual order.
LONGEST_FIRST = ["test_browser_lite", "test_browser_pupil", "test_properties", "test_browser_voila_course",
                 "test_browser_lite_notebooks", "test_browser_lite_pupil", "test_bismarck", "test_browser_table",
                 "test_browser_goal", "test_notebooks_kernel", "test_classroom", "test_browser_table_lite",
                 "test_browser_protocol", "test_pupil_lessons", "test_browser_class_together",
                 "test_browser_lesson12_phone"]


def module_of(item: pytest.Item) -> str:
    return item.module.__name__.rpartition(".")[2] if getattr(item, "module", None) else ""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    rank = {m: i for i, m in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda it: rank.get(module_of(it), len(LONGEST_FIRST)))   # stable: the rest keep their order
