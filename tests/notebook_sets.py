"""Which top-level notebooks each notebook run covers, written once for the tests that share the work.

The site's Pyodide run (tests/browser/test_browser_lite_notebooks.py) runs every code cell of every notebook in nbs/
but these, in one kernel, and draws what they display (a `_repr_html_` that fails is caught there). The kernel run
(tests/test_notebooks_kernel.py) runs the ones it leaves out, in a real Jupyter kernel.
"""
# Klassrummets server (75_app, 72_pages, 73_kernels, 73c_class_table_web, 74_server) körs på lärarens dator: tornado, Voilà och segno finns
# inte i webbläsarens Python, så de sidorna går att läsa på webbplatsen men inte att köra där.
SERVER_NOTEBOOKS = ("75_app.ipynb", "72_pages.ipynb", "73_kernels.ipynb", "73c_class_table_web.ipynb", "74_server.ipynb")
NOT_IN_PYODIDE = ("pussel.ipynb", "index.ipynb", *SERVER_NOTEBOOKS)
