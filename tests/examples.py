"""How many examples the property tests run: one place for test_properties, test_bismarck and test_fuzz.

`python3 run.py test` (and CI) runs every property test with the number of examples the test names, chosen for the
faults it is there to catch. The quick loop (`python3 run.py snabb`) sets PLUMP_SNABB=1 and runs a quarter of them
(at least 20), so that a developer sees a broken rule within three minutes; the whole run stays the judge.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

QUICK = os.environ.get("PLUMP_SNABB") == "1"


def examples(n: int) -> int:
    "The number of examples to run for a test that names `n`."
    return max(20, n // 4) if QUICK else n


def prop_settings(n: int, *extra_checks: HealthCheck) -> settings:
    "Hypothesis settings for a property test of `n` examples: repeatable (derandomised), no database, no deadline."
    return settings(max_examples=examples(n), deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, *extra_checks])
