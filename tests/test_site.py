"""The documentation site builds from the repository with one command, warnings as errors, and every gallery
notebook runs (a notebook whose cell raises fails the build, so a broken example fails CI)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_site_builds_and_every_notebook_runs(tmp_path):
    pytest.importorskip("myst_nb")
    out = tmp_path / "html"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", str(ROOT / "docs"),
                           str(out)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    notebooks = sorted(p.stem for p in (ROOT / "docs" / "gallery").glob("*.ipynb"))
    assert len(notebooks) >= 5
    for name in notebooks:
        page = (out / "gallery" / f"{name}.html").read_text()
        # Executed: the page holds the cells' outputs (tables, text or figures), not just their code.
        assert page.count("cell_output") >= 2, name
        assert "Traceback" not in page, name
    # The figures the notebooks draw are images on the site, not "<Figure size ...>" text.
    assert len(list((out / "_images").glob("*.png"))) >= 4
    assert not re.search(r"&lt;Figure size", "".join((out / "gallery" / f"{n}.html").read_text() for n in notebooks))
    api = (out / "api.html").read_text()
    for name in ("tcpfade.simulate", "tcpfade.runs", "tcpfade.wcdma.simulate", "tcpfade.sweep.run_sweep",
                 "tcpfade.emulate"):
        assert f'id="{name}"' in api, name
