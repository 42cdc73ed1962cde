"""Hur testerna delas mellan två processer (pytest-xdist) i `python3 run.py snabb` och `python3 run.py test --parallellt`.

How the suite is shared between the two worker processes of `run.py snabb` and `run.py test --parallellt` (`-n 2 --dist
loadscope --no-loadscope-reorder`). Every test module is one unit of work, so that a module's server, browser
page or kernel (module-scoped fixtures) starts once, on one worker. The units are handed out in the order below,
longest first, so that the longest one starts at once and no long unit is left for the end while the other
worker idles. The zero-install site is built once per run: the fixture lite_site of the modules that use it waits
for a build under way in the other process (tools/lite.py, one_build_at_a_time) and then reuses the site.

(`--dist loadgroup` would keep the site's modules on one worker, but with pytest 9 xdist 3.8 does not see the
groups, and every test becomes a unit of its own.) Run without -n, the order is the only difference.
"""
from __future__ import annotations

import pytest

# Measured on the 2-core machine (tests/benchmarks/results/suite-*.txt): the modules of a minute or more, longest
# first; every other module follows in the usual order.
LONGEST_FIRST = ["test_browser_lite", "test_browser_pupil", "test_browser_voila_course", "test_browser_table",
                 "test_browser_table_lite", "test_notebooks_kernel", "test_classroom", "test_pupil_lessons",
                 "test_properties", "test_bismarck"]


def module_of(item: pytest.Item) -> str:
    return item.module.__name__.rpartition(".")[2] if getattr(item, "module", None) else ""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    rank = {m: i for i, m in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda it: rank.get(module_of(it), len(LONGEST_FIRST)))   # stable: the rest keep their order
