"""The sender's window over time (``simulate_link(..., trace_seconds=...)``, ``LinkResult.trace``, ``plot_trace``,
``tcpfade simulate-link --trace-csv/--trace-plot``): the rows against a slow start worked by hand, what the trace
leaves unchanged, and every input answered."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import tcpfade
from tcpfade.cli import main
from tcpfade.errors import ParameterError, TcpfadeError

#: A loss-free link: 1/μ = 0.1 s, τ = 0.2 s, so T = 0.3 s.
SLOW_START = dict(rate=10.0, tau=0.2, buffer=100, channel=None, duration=5.0, warmup=0.0, batches=2, seed=1)


def test_slow_start_rows_as_worked_by_hand():
    """One packet at 0; its ACK at T = 0.3 s gives cwnd 2 and sends two (high 3); theirs at 2T = 0.6 s and 2T + 1/μ =
    0.7 s give cwnd 3 and 4 (high 5, 7). The RTO: 3 s before a sample (ns-2's initial value, the papers' profile);
    the first sample R = 0.3 s gives SRTT = R, RTTVAR = R/2, RTO = SRTT + 4 RTTVAR = 0.9 s (RFC 6298 §2.2); the second,
    of packet 1 (timed at 0.3 s, ACKed at 0.6 s), RTTVAR = 3/4 · 0.15 + 1/4 · 0 = 0.1125, RTO = 0.3 + 0.45 = 0.75 s
    (§2.3); the ACK at 0.7 s covers no timed packet."""
    r = tcpfade.simulate_link("newreno", **SLOW_START, trace_seconds=0.75)
    t = r.trace
    assert list(t.columns) == ["time", "cwnd", "ssthresh", "una", "high", "in_flight", "pipe", "rwnd", "in_recovery",
                               "rto", "timeouts", "fast_retransmits"]
    expected = [(0.0, 1, 0, 1, 3.0), (0.3, 2, 1, 3, 0.9), (0.6, 3, 2, 5, 0.75), (0.7, 4, 3, 7, 0.75)]
    assert len(t) == len(expected)
    for row, (time, cwnd, una, high, rto) in zip(t.itertuples(), expected):
        assert row.time == pytest.approx(time, abs=1e-12) and row.cwnd == cwnd
        assert (row.una, row.high, row.in_flight) == (una, high, high - una)
        assert row.rto == pytest.approx(rto, abs=1e-12)
    assert (t.ssthresh == 65536).all() and t["pipe"].isna().all() and not t.in_recovery.any()
    assert (t.timeouts == 0).all() and (t.fast_retransmits == 0).all()


def test_a_sack_sender_traces_its_pipe():
    """With SACK (the linux profile) pipe is RFC 6675's, an integer in every row; loss-free, it is the data
    outstanding."""
    r = tcpfade.simulate_link("cubic", **SLOW_START, trace_seconds=1.0, profile="linux")
    assert r.trace["pipe"].notna().all() and (r.trace["pipe"] == r.trace.in_flight).all()
    assert r.trace.cwnd.iloc[0] == 10   # IW10


def test_tracing_changes_nothing_and_its_counts_reach_the_runs():
    """The trace only watches: every figure of the run is the same with it and without it; over the whole run from
    time 0, its last row's timeouts and fast retransmits are the run's."""
    kw = dict(rate=125.0, tau=0.04, buffer=6, duration=40.0, warmup=0.0, seed=3, channel=tcpfade.Bernoulli(0.02))
    for variant, profile in (("newreno", "papers"), ("cubic", "linux")):
        plain = tcpfade.simulate_link(variant, **kw, profile=profile).to_dict()
        traced_run = tcpfade.simulate_link(variant, **kw, profile=profile, trace_seconds=40.0)
        traced = traced_run.to_dict()
        assert plain.keys() == traced.keys()
        for key, value in plain.items():
            same = (isinstance(value, float) and math.isnan(value) and math.isnan(traced[key])) or value == traced[key]
            assert same, (variant, key, value, traced[key])
        last = traced_run.trace.iloc[-1]
        assert traced_run.fast_retransmits > 0
        assert (last.timeouts, last.fast_retransmits) == (traced_run.timeouts, traced_run.fast_retransmits)
        assert traced_run.trace.time.is_monotonic_increasing and traced_run.trace.time.iloc[-1] <= 40.0


def test_no_trace_unless_asked_and_plot_says_why():
    r = tcpfade.simulate_link("reno", **SLOW_START)
    assert r.trace is None
    with pytest.raises(ParameterError, match="trace_seconds"):
        r.plot_trace()


def test_plot_trace_writes_the_figure(tmp_path):
    r = tcpfade.simulate_link("newreno", rate=125.0, tau=0.04, buffer=6, duration=30.0, seed=1,
                              channel=tcpfade.Bernoulli(0.02), trace_seconds=20.0)
    fig = r.plot_trace(tmp_path / "w.png")
    assert (tmp_path / "w.png").stat().st_size > 0
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert {"cwnd", "ssthresh", "fast retransmit"} <= set(labels)


@pytest.mark.parametrize("value", [math.nan, -1.0, math.inf, True, "5", [1.0]])
def test_trace_seconds_refused_where_it_enters(value):
    with pytest.raises(TcpfadeError, match="trace_seconds"):
        tcpfade.simulate_link("reno", **SLOW_START, trace_seconds=value)


def test_a_trace_that_cannot_fit_is_refused_up_front(monkeypatch):
    monkeypatch.setenv("TCPFADE_MEMORY_LIMIT", "1000000")
    with pytest.raises(ParameterError, match="trace_seconds.*memory"):
        tcpfade.simulate_link("reno", rate=1e5, tau=0.01, buffer=100, channel=None, duration=100.0, seed=1,
                              trace_seconds=100.0)


@pytest.mark.parametrize("table", [pd.DataFrame(), pd.DataFrame({"time": [0.0]}), "not a table"])
def test_plot_window_trace_refuses_what_is_not_a_trace(table):
    with pytest.raises(TcpfadeError, match="trace"):
        tcpfade.plots.plot_window_trace(table)


def test_cli_writes_the_trace_and_refuses_it_without_seconds(tmp_path, capsys):
    base = ["simulate-link", "--variant", "cubic", "--profile", "linux", "--rate", "125", "--tau", "0.04", "--buffer",
            "6", "--error-rate", "0.02", "--duration", "30", "--seed", "1"]
    out = tmp_path / "w.csv"
    assert main([*base, "--trace-seconds", "10", "--trace-csv", str(out), "--trace-plot", str(tmp_path / "w.svg")]) == 0
    table = pd.read_csv(out)
    assert table.time.max() <= 10 and {"cwnd", "ssthresh", "pipe"} <= set(table.columns)
    assert (tmp_path / "w.svg").read_text().lstrip().startswith(("<?xml", "<svg"))
    capsys.readouterr()
    assert main([*base, "--trace-csv", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--trace-csv" in err[0] and "needs --trace-seconds > 0" in err[0]


def test_a_transfer_traces_its_window_from_the_handshakes_end():
    """The transfer model's trace, over tests/transfer_traces.rs's hand-worked miniature (1000 bytes/s, no delay,
    MSS 1000, 20-byte headers): the handshake ends at 0.048 s and segment 0 goes; ACK 1 at 1.108 s (W = 2, two more:
    high 3); ACK 2, held behind segment 2 on the half-duplex link, at 3.168 s (W = 3, the FIN: high 4); ACK 3 at
    3.188 s (W = 4). Tracing changes nothing."""
    kw = dict(size_bytes=3000, mss=1000, header_bytes=20, rate_bps=8000, delay=0.0, rwnd_bytes=4000,
              initial_ssthresh=4.0, initial_rto=3.0, min_rto=3.0, delayed_ack=None)
    r = tcpfade.simulate_transfer("reno", None, **kw, trace_seconds=3.2)
    rows = [(row.time, row.cwnd, row.una, row.high) for row in r.trace.itertuples()]
    expected = [(0.048, 1, 0, 1), (1.108, 2, 1, 3), (3.168, 3, 2, 4), (3.188, 4, 3, 4)]
    assert len(rows) == len(expected), rows
    for got, want in zip(rows, expected):
        assert got[0] == pytest.approx(want[0], abs=1e-9) and got[1:] == want[1:]
    plain = tcpfade.simulate_transfer("reno", None, **kw)
    assert plain.trace is None and plain.to_dict() == r.to_dict()


def test_the_transfer_command_writes_the_first_transfers_trace(tmp_path):
    out = tmp_path / "t.csv"
    assert main(["transfer", "--variant", "cubic", "--profile", "linux", "--error-rate", "0.03", "--seed", "1",
                 "--size-bytes", "200000", "--replications", "2", "--trace-seconds", "5", "--trace-csv", str(out)]) == 0
    table = pd.read_csv(out)
    direct = tcpfade.simulate_transfer("cubic", tcpfade.Bernoulli(0.03), seed=1, size_bytes=200_000, profile="linux",
                                       trace_seconds=5)
    assert len(table) == len(direct.trace) > 3
    assert table.cwnd.tolist() == direct.trace.cwnd.tolist()


def test_two_outputs_naming_one_file_are_refused_before_the_run(tmp_path, capsys):
    """Found by a review: --csv and --trace-csv naming one file wrote one over the other without a word."""
    same = str(tmp_path / "same.csv")
    assert main(["simulate-link", "--rate", "125", "--tau", "0.04", "--buffer", "6", "--error-rate", "0.02",
                 "--duration", "20", "--seed", "1", "--csv", same, "--trace-seconds", "5", "--trace-csv", same]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--trace-csv" in err[0] and "--csv writes too" in err[0]
    assert not (tmp_path / "same.csv").exists()


@pytest.mark.parametrize("value", [5.0, [0.0, 5.0], np.array([1.0, 2.0]), True])
def test_tables_of_runs_refuse_a_trace_they_would_drop(value):
    with pytest.raises(ParameterError, match="trace_seconds = .* is not kept by runs"):
        tcpfade.runs(tcpfade.simulate_link, **{k: x for k, x in SLOW_START.items() if k != "seed"}, seeds=1,
                     trace_seconds=value)
    with pytest.raises(ParameterError, match="trace_seconds = .* is not kept by simulate_transfers"):
        tcpfade.simulate_transfers(["reno"], None, seeds=1, trace_seconds=5.0)
