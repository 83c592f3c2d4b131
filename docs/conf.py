"""Sphinx configuration of tcpfade's documentation site: the user guide, the models and the validation (the
Markdown files beside this one, read by MyST), the API reference (from the docstrings, numpydoc style) and a
gallery of example notebooks executed at every build (a notebook that fails fails the build).

Build: ``python -m sphinx -W -b html docs docs/_build/html`` (``tests/test_site.py`` does it in CI).
"""

from __future__ import annotations

import tcpfade

project = "tcpfade"
author = "the tcpfade developers"
release = tcpfade.__version__
extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.mathjax"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**.ipynb_checkpoints", "jupyter_execute"]
root_doc = "index"
html_theme = "alabaster"
html_title = f"tcpfade {release}"
# _static/custom.css (linked by alabaster from every page): code blocks and wide tables scroll sideways.
html_static_path = ["_static"]

# Notebooks run at every build, from scratch; an error in a cell fails the build.
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_timeout = 300
nb_execution_show_tb = True

myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header", "misc.highlighting_failure", "myst.xref_missing"]

autodoc_member_order = "bysource"
autodoc_typehints = "none"
napoleon_numpy_docstring = True
napoleon_google_docstring = False
