"""Every course notebook runs top to bottom in a real Jupyter kernel, as a learner's Run All does.

nbdev-test runs the lessons in-process and never renders rich output; a real kernel does, so a
`_repr_html_` that fails (or any cell that only fails when displayed) is caught here.
"""
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.kernel

NBS = Path(__file__).resolve().parents[1] / "nbs"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", sorted(p.name for p in NBS.glob("*.ipynb")))
def test_notebook_runs_in_a_kernel(name, tmp_path):
    nb = nbformat.read(NBS / name, as_version=4)
    NotebookClient(nb, timeout=240, kernel_name="python3", resources={"metadata": {"path": str(NBS)}}).execute()
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{name}: {out.get('ename')}: {out.get('evalue')}"
            if out.get("output_type") == "display_data" or out.get("output_type") == "execute_result":
                data = out.get("data", {})
                assert "text/plain" in data or "text/html" in data, f"{name}: empty display"
