"""Every course notebook runs top to bottom in a real Jupyter kernel, as a learner's Run All does.

nbdev-test runs the lessons in-process and never renders rich output; a real kernel does, so a
`_repr_html_` that fails (or any cell that only fails when displayed) is caught here.

Most notebooks also run, and draw what they display, in the site's Pyodide run (tests/notebook_sets.py says which):
here only the ones it leaves out run, the start page, the puzzle page and the classroom server's notebooks, so
that each notebook's code runs once in a kernel per test run (it also runs in-process in nbdev-test).

The notebooks share one kernel (tests/kernels.py): before each notebook the course's modules are imported anew, the
folder is nbs/ and the names of the notebook before are gone, so each notebook runs as in a kernel of its own
(which cost 1-3 s a notebook to start). The last test shows that this run catches a notebook that leans on the one
before, and a display that fails.
"""
from pathlib import Path

import nbformat
import pytest

from kernels import one_kernel
from notebook_sets import NOT_IN_PYODIDE

pytestmark = pytest.mark.kernel

NBS = Path(__file__).resolve().parents[1] / "nbs"


@pytest.fixture(scope="module")
def kernel():
    with one_kernel(NBS) as k:
        yield k


def check_outputs(name: str, results):
    for i, r in enumerate(results):
        assert not r.errors, f"{name}, kodcell {i + 1}: {r.errors}"
        for out in r.outputs:
            if out["output_type"] in ("display_data", "execute_result"):
                data = out.get("data", {})
                assert "text/plain" in data or "text/html" in data, f"{name}: empty display"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", sorted(NOT_IN_PYODIDE))
def test_notebook_runs_in_a_kernel(kernel, name):
    nb = nbformat.read(NBS / name, as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    results = kernel.run_cells(cells)
    check_outputs(name, results)
    assert len(results) == len(cells)


def test_shared_kernel_catches_what_a_new_kernel_would(kernel):
    "A notebook that uses a name or a module state from the notebook before fails; so does a display that fails."
    check_outputs("a", kernel.run_cells(["x = 1", "import plump_teach.engine.cards as c\nc.MARK = 1"]))
    with pytest.raises(AssertionError, match="NameError: name 'x' is not defined"):
        check_outputs("b", kernel.run_cells(["x"]))
    with pytest.raises(AssertionError, match="has no attribute 'MARK'"):
        check_outputs("c", kernel.run_cells(["import plump_teach.engine.cards as c\nc.MARK"]))
    bad = "class Bad:\n    def _repr_html_(self): raise ValueError('ritas inte')\nBad()"
    with pytest.raises(AssertionError, match="ritas inte"):
        check_outputs("d", kernel.run_cells([bad]))
