"""Hur testerna delas mellan två processer (pytest-xdist) när `python3 run.py test` kör dem.

How the suite is shared between the two worker processes of `python3 run.py test` (pytest-xdist, `-n 2 --dist
loadgroup`). Every test module is one unit of work, so that a module's server, browser page or kernel
(module-scoped fixtures) starts once, on one worker. Everything that uses the zero-install site
(LITE_MODULES) is one unit: the site is built once per run, on one worker, and no two builds write _lite/ at the
same time. The units are handed out largest first: the site's unit is the longest, so it starts at once and the
other worker takes the rest. Run without -n (one module, -k, a debugger), nothing here changes what a test does.
"""
from __future__ import annotations

import pytest

# The modules that build or use _lite/site (the fixture lite_site, or the built site itself).
LITE_MODULES = {"test_browser_lite", "test_browser_table_lite", "test_pyodide_numbers"}
LITE_TESTS = {"test_built_site_keeps_what_the_pupil_pages_need"}   # in test_lite_build: reads the built site


def group_of(item: pytest.Item) -> str:
    module = item.module.__name__.rpartition(".")[2]
    if module in LITE_MODULES or item.originalname in LITE_TESTS: return "lite"
    return module


@pytest.hookimpl(tryfirst=True)   # before xdist's own hook, which reads the groups
def pytest_collection_modifyitems(config, items):
    # (on xdist's workers too, where -n is not set: the groups must be the same in every process)
    for item in items:
        item.add_marker(pytest.mark.xdist_group(group_of(item)))
    # largest unit first: the lite site's tests (and the built-site check after them), then the rest in order
    order = {"lite": 0}
    items.sort(key=lambda it: order.get(group_of(it), 1))
