"""Every result record answers as a researcher would use it: ``to_dict()`` (a flat row), ``to_frame()`` (a
DataFrame), a short ``repr`` and an HTML table for notebooks; intervals and bounds named ``<metric>_low`` and
``<metric>_high`` everywhere."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import tcpfade
from tcpfade import wcdma

CH = tcpfade.GilbertElliott.from_fading(error_rate=0.05, fdt=0.01)


def _records():
    link = dict(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2)
    w = wcdma.simulate(users=6, duration=8.0, seed=1)
    return {
        "simulate": tcpfade.simulate("newreno", CH, slots=200_000, seed=1),
        "analyze": tcpfade.analyze("newreno", CH),
        "simulate_link": tcpfade.simulate_link("reno", duration=100, seed=1, **link),
        "analyze_link": tcpfade.analyze_link("reno", **link),
        "simulate_transfer": tcpfade.simulate_transfer("reno", None, seed=1),
        "fit_markov": tcpfade.fit_markov(CH.trace(50_000, seed=2)),
        "wcdma.simulate": w,
        "wcdma user": w.users[0],
        "wcdma system": w.system,
        "block_error_rate": wcdma.block_error_rate(-1.0, blocks=50, seed=1),
        "fit_universal_curve": wcdma.fit_universal_curve(10 ** np.linspace(-3, -0.3, 12),
                                                         wcdma.universal_curve(10 ** np.linspace(-3, -0.3, 12), 6.0),
                                                         6.0),
    }


RECORDS = _records()


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_record_has_a_row_a_frame_a_short_repr_and_html(name):
    r = RECORDS[name]
    row = r.to_dict()
    assert row and all(isinstance(k, str) for k in row)
    frame = r.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) >= 1
    # One naming convention: no old interval names; every _low has its _high, low <= high.
    for key in row:
        assert not re.search(r"(_ci_low|_ci_high|_pessimistic|_optimistic)$", key), key
        if key.endswith("_low") and key[:-4] + "_high" in row:
            lo, hi = row[key], row[key[:-4] + "_high"]
            assert not (lo > hi), (key, lo, hi)
    text = repr(r)
    assert text.startswith(type(r).__name__ + "(") and len(text) < 400 and "\n" not in text
    # Short: 4 significant digits, never a full-precision float.
    for number in re.findall(r"\d+\.\d+", text):
        assert len(number.replace(".", "").lstrip("0")) <= 4, (number, text)
    page = r._repr_html_()
    assert page.startswith("<div>") and "<table>" in page and type(r).__name__ in page


def test_per_user_records_have_a_row_per_user_and_a_summary_row():
    w = RECORDS["wcdma.simulate"]
    frame = w.to_frame()
    assert len(frame) == 6 and {"throughput", "throughput_low", "throughput_high", "atp", "ace"} <= set(frame)
    summary = w.to_dict()
    assert summary["mean_throughput"] == pytest.approx(frame.throughput.mean())
    assert summary["users"] == 6


def test_analysis_bounds_are_ordered_by_value():
    a = RECORDS["analyze"]
    row = a.to_dict()
    t = a.transmissions_per_delivered           # pessimistic above optimistic for a cost
    assert t.pessimistic > t.optimistic
    assert (row["transmissions_per_delivered_low"], row["transmissions_per_delivered_high"]) == (t.optimistic,
                                                                                               t.pessimistic)
    assert (row["throughput_low"], row["throughput_high"]) == (a.throughput.pessimistic, a.throughput.optimistic)


def test_repr_brackets_are_the_interval():
    s = RECORDS["simulate"]
    lo, hi = s.ci["throughput"]
    assert f"throughput={s.throughput:.4g} [{lo:.4g}, {hi:.4g}]" in repr(s)


def test_a_reproduced_figure_and_a_sweep_report_are_records(tmp_path):
    from tcpfade.reproduce import reproduce
    from tcpfade.sweep import Experiment, run_sweep

    r = reproduce("chockalingam-table1", tmp_path, quick=True, seed=1)
    claims = r.to_frame()
    assert list(claims.columns) == ["figure", "claim", "source", "holds", "status", "evidence", "why", "ablation"] and len(claims) == 1
    assert r.to_dict()["agree"] == 1 and repr(r).startswith("FigureResult(figure='chockalingam-table1'")
    e = Experiment.from_dict({"sweep": {"model": "analyze"}, "fixed": {"fdt": 0.016, "wmax": 6},
                              "axes": {"error_rate": [0.01, 0.1]}, "output": {"store": str(tmp_path / "s.sqlite")}})
    report = run_sweep(e, workers=1, progress=False)
    assert report.to_dict() == {"total": 2, "skipped": 0, "computed": 2, "failures": 0}
    assert report.to_frame().empty and "<table>" in report._repr_html_()


def _undefined_cases():
    """Runs in which a metric has nothing to be computed from (issue 34, review item 9): each NaN or infinite value
    of the row must be named in ``notes`` with the reason the record declares, not the generic fallback."""
    link = dict(rate=100, tau=0.01, buffer=10, duration=10, seed=1)
    return {
        "slotted, no loss": (tcpfade.simulate("reno", tcpfade.Bernoulli(0.0), slots=10_000, seed=1),
                             {"mean_cwnd_at_loss": "no packet was lost"}),
        "slotted, every packet lost": (tcpfade.simulate("reno", tcpfade.Bernoulli(1.0), slots=10_000, seed=1),
                                       {"transmissions_per_delivered": "nothing was delivered",
                                        "channel_mean_burst": "never leaves"}),
        "link, no channel": (tcpfade.simulate_link("reno", channel=None, **link),
                             {"p_timeout": "sample is empty", "mean_backoff_at_bad": "sample is empty"}),
        "link, every packet lost": (tcpfade.simulate_link("reno", channel=tcpfade.Bernoulli(1.0), **link),
                                    {"mean_rtt": "no RTT sample", "p_no_loss": "sample is empty"}),
        "transfer, every packet lost": (tcpfade.simulate_transfer("reno", tcpfade.Bernoulli(1.0), seed=1),
                                        {"joules_per_bit": "nothing was delivered"}),
        "fit, loss only at the end": (tcpfade.fit_markov([0, 1]), {"q_counted": "losses are all at its end"}),
        "fit, success only at the end": (tcpfade.fit_markov([1, 0]), {"p_counted": "successes are all at its end"}),
        "bearer, no power trace": (wcdma.tcp_over_blocks(np.ones(600, int)),
                                   {"atp": "no power trace", "ace": "no power trace"}),
        "bearer, nothing delivered": (wcdma.tcp_over_blocks(np.ones(600, int), power_dbw=np.zeros(600 * 15)),
                                      {"ace": "nothing was delivered"}),
        "analysis, every packet lost": (tcpfade.analyze("reno", tcpfade.GilbertElliott(0.0, 1.0), wmax=4),
                                        {"transmissions_per_delivered": "delivers nothing"}),
    }


@pytest.mark.parametrize("name, case", list(_undefined_cases().items()))
def test_every_undefined_or_infinite_value_of_a_row_says_why(name, case):
    record, expected = case
    row = record.to_dict()
    odd = [k for k, x in row.items() if isinstance(x, float) and not np.isfinite(x)]
    assert odd, f"{name}: the case must have a value that is not finite"
    parts = {}
    for part in row["notes"].split("; "):
        metrics, why = part.split(": ", 1)
        for metric in metrics.split(", "):
            parts[metric] = why
    for key in odd:
        assert key in parts or key.rsplit("_", 1)[0] in parts, f"{name}: {key} is not finite and not in notes"
    for metric, words in expected.items():
        assert words in parts[metric], f"{name}: {metric}: {parts.get(metric)!r}"
    assert "nothing it is conditioned on" not in row["notes"], "a declared reason, not the fallback"
    frame = record.to_frame()
    assert "notes" in frame.columns


@pytest.mark.parametrize("name", list(RECORDS))
def test_a_row_whose_values_are_all_finite_has_empty_notes(name):
    row = RECORDS[name].to_dict()
    assert all(not isinstance(x, float) or np.isfinite(x) for x in row.values()), f"{name}: an ordinary run"
    assert row["notes"] == ""


def test_the_command_line_prints_an_undefined_metric_as_its_reason(tmp_path, capsys):
    from tcpfade.cli import main

    assert main(["simulate-link", "--variant", "reno", "--rate", "100", "--tau", "0.01", "--buffer", "10",
                 "--duration", "10", "--seed", "1", "--error-rate", "0.9999999"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("mean_rtt"))
    assert "no RTT sample" in line and "nan" not in line
    np.save(tmp_path / "t.npy", np.array([0, 1]))
    assert main(["channel", "fit", str(tmp_path / "t.npy")]) == 0
    out = capsys.readouterr().out
    assert "nan" not in out and "losses are all at its end" in out
