"""``tcpfade reproduce``: every registered figure runs (quick), writes its files, and the papers' claims
are checked on its data."""

from __future__ import annotations

import pandas as pd
import pytest

from tcpfade.cli import main
from tcpfade.reproduce import FIGURES, reproduce


@pytest.mark.parametrize("figure_id", sorted(FIGURES))
def test_figure_reproduces_and_claims_hold(figure_id, tmp_path):
    result = reproduce(figure_id, tmp_path, quick=True, seed=1)
    for suffix in ("csv", "png", "svg"):
        path = result.files[suffix]
        assert path.exists() and path.stat().st_size > 0 and path.suffix == f".{suffix}"
    data = pd.read_csv(result.files["csv"])
    assert len(data) == len(result.data) > 0
    assert result.files["svg"].read_text().lstrip().startswith(("<?xml", "<svg"))
    # Every claim of the paper about this figure is decided, and holds on our data (seeded, so exact).
    for claim, verdict in result.verdicts:
        assert verdict.holds is True, (claim.statement, verdict.evidence)


def test_cli_lists_and_rejects_unknown_figures(capsys, tmp_path):
    assert main(["reproduce", "--list"]) == 0
    listed = capsys.readouterr().out
    assert all(fid in listed for fid in FIGURES)
    assert main(["reproduce", "no-such-figure", "--out", str(tmp_path)]) == 2
    assert "figure = 'no-such-figure' is not allowed" in capsys.readouterr().err
    assert main(["reproduce", "--out", str(tmp_path)]) == 2


def test_cli_writes_files_and_verdicts(capsys, tmp_path):
    assert main(["reproduce", "chockalingam-table1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "[agrees]" in out and (tmp_path / "chockalingam-table1.svg").exists()
