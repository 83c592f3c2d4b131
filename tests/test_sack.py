"""SACK (RFC 2018 / RFC 6675) and PRR (RFC 6937) as parts of the one sender: what they change over lossy links,
judged by paired-seed confidence intervals, and how the keywords enter (API, CLI, refusals). The rule-by-rule
checks are the hand-worked traces of crates/tcpfade-core/tests/sack_traces.rs; the figures are in
docs/validation/standard-tcp.md."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

import tcpfade
from tcpfade.cli import main

SEEDS = range(12)


def link(variant, channel, seed, **kw):
    """A 1000-packet/s link, τ = 50 ms, β = 1, Linux's 200-ms minimum RTO (at ns-2's 20 ms both recoveries race a
    timer barely above the round trip: docs/validation/standard-tcp.md)."""
    return tcpfade.simulate_link(variant, rate=1000.0, tau=0.05, beta=1.0, channel=channel, duration=200.0,
                                 seed=seed, min_rto=0.2, **kw)


def paired(metric, variant, channel, **kw):
    """The 95% Student-t interval of the per-seed difference (with the keywords − without)."""
    d = np.array([getattr(link(variant, channel, s, **kw), metric) - getattr(link(variant, channel, s), metric)
                  for s in SEEDS])
    h = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    return d.mean() - h, d.mean() + h


@pytest.mark.parametrize("p", [0.02, 0.05])
def test_sack_repairs_in_one_recovery_what_reno_times_out_on(p):
    # Reno leaves recovery at the first partial ACK; with a second loss in the window it waits for the timer (Fall
    # and Floyd 1996). SACK's recovery repairs every hole before it ends: fewer timeouts, more goodput.
    low, high = paired("timeouts_per_s", "reno", tcpfade.Bernoulli(p), sack=True)
    assert high < 0
    low, high = paired("goodput", "reno", tcpfade.Bernoulli(p), sack=True)
    assert low > 0


def test_sack_beats_newreno_when_losses_come_in_bursts():
    # Gilbert-Elliott bursts of 4 packets: several holes per window. NewReno repairs one per round trip, SACK all in
    # the first (measured with 30 seeds: goodput 0.157 → 0.220, the paired difference [+0.043, +0.084]).
    low, _ = paired("goodput", "newreno", tcpfade.GilbertElliott.from_burst(0.02, 4.0), sack=True)
    assert low > 0


def test_prr_keeps_sacks_gain_and_cubic_runs_with_both():
    ch = tcpfade.GilbertElliott.from_burst(0.02, 4.0)
    low, _ = paired("goodput", "newreno", ch, sack=True, prr=True)
    assert low > 0
    r = link("cubic", tcpfade.Bernoulli(0.02), 1, sack=True, prr=True)
    assert r.fast_retransmits > 0 and 0 < r.goodput < 1


def test_sack_off_is_the_default_and_changes_nothing():
    a = link("newreno", tcpfade.Bernoulli(0.03), 4)
    b = link("newreno", tcpfade.Bernoulli(0.03), 4, sack=False, prr=False)
    assert json.dumps(a.to_dict(), default=str) == json.dumps(b.to_dict(), default=str)  # NaN fields too


def test_the_transfer_and_slotted_models_and_wcdma_take_sack():
    lossy = tcpfade.Bernoulli(0.05)
    plain = tcpfade.simulate_transfer("newreno", lossy, size_bytes=300_000, seed=3)
    sack = tcpfade.simulate_transfer("newreno", lossy, size_bytes=300_000, seed=3, sack=True, prr=True)
    assert sack.completed and sack.delivered_bytes == plain.delivered_bytes == 300_000
    # ACKs with SACK blocks carry the option: 12, 20 or 28 bytes more than a plain ACK's header.
    acks_plain, acks_sack = plain.by_kind["ack"], sack.by_kind["ack"]
    assert acks_sack[1] / acks_sack[0] > acks_plain[1] / acks_plain[0]
    s = tcpfade.simulate("newreno", tcpfade.GilbertElliott.from_burst(0.05, 3.0), slots=100_000, seed=2, sack=True)
    assert 0 < s.throughput < 1
    blocks = (np.arange(3000) % 37 == 0).astype(int)
    w = tcpfade.wcdma.tcp_over_blocks(blocks, sack=True, prr=True)
    assert w.retransmissions > 0 and 0 < w.throughput < 1


def test_the_cli_takes_sack_and_prr(capsys):
    args = ["simulate-link", "--variant", "reno", "--rate", "100", "--tau", "0.05", "--error-rate", "0.05",
            "--duration", "300", "--seed", "1", "--json"]
    api = dict(rate=100, tau=0.05, channel=tcpfade.Bernoulli(0.05), duration=300, seed=1)
    assert main(args + ["--sack", "--prr"]) == 0
    with_sack = json.loads(capsys.readouterr().out)["goodput"]
    assert with_sack == tcpfade.simulate_link("reno", sack=True, prr=True, **api).goodput
    assert with_sack != tcpfade.simulate_link("reno", **api).goodput
    assert main(["simulate-link", "--variant", "tahoe", "--rate", "100", "--tau", "0.05", "--error-rate", "0.05",
                 "--seed", "1", "--sack"]) == 2
    err = capsys.readouterr().err
    assert "sack = True is not allowed: tahoe has no fast recovery" in err and "Traceback" not in err


@pytest.mark.parametrize("given, message", [
    ({"sack": 2}, "sack = 2 is not allowed: must be True or False"),
    ({"sack": "yes"}, "sack = 'yes' is not allowed: must be True or False"),
    ({"variant": "tahoe", "prr": True}, "prr = True is not allowed: tahoe has no fast recovery for PRR (RFC 6937)"),
    ({"variant": "oldtahoe", "sack": True}, "sack = True is not allowed: oldtahoe has no fast recovery"),
])
def test_bad_values_are_refused_in_one_line(given, message):
    args = {"variant": "newreno", **given}
    with pytest.raises(tcpfade.ParameterError) as e:
        tcpfade.simulate_link(args.pop("variant"), rate=100, tau=0.05, channel=None, duration=100, seed=1,
                              **args)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_probing_refuses_sack_with_its_reason():
    with pytest.raises(tcpfade.ParameterError, match="probing reacts to a loss with a probe cycle"):
        tcpfade.simulate_transfer("probing", None, size_bytes=10_000, seed=1, sack=True)


def test_a_sweep_sets_sack_and_prr_and_refuses_them_where_they_do_not_fit(tmp_path):
    from tcpfade.sweep import Experiment, ExperimentError, Store, run_sweep

    e = Experiment.from_dict({"sweep": {"model": "simulate_link", "seed": 5},
                              "fixed": {"rate": 100.0, "tau": 0.05, "buffer": 10, "channel": "bernoulli",
                                        "error_rate": 0.05, "duration": 300.0, "variant": "reno"},
                              "axes": {"sack": [False, True]}, "output": {"store": str(tmp_path / "s.db")}})
    run_sweep(e, workers=1, progress=False)
    rows = Store(e.store).rows()
    assert len(rows) == 2
    for row in rows:
        direct = tcpfade.simulate_link("reno", sack=row["params"]["sack"], rate=100, tau=0.05, buffer=10,
                                       channel=tcpfade.Bernoulli(0.05), duration=300, seed=row["seed"])
        assert row["metrics"]["goodput"] == direct.goodput
    assert len({row["metrics"]["goodput"] for row in rows}) == 2   # SACK changed the run
    with pytest.raises(ExperimentError, match="axes.sack: sack = True is not allowed: tahoe has no fast recovery"):
        Experiment.from_dict({"sweep": {"model": "simulate_link"},
                              "fixed": {"rate": 100.0, "tau": 0.05, "channel": "none", "duration": 100.0,
                                        "variant": "tahoe"},
                              "axes": {"sack": [True]}, "output": {"store": str(tmp_path / "b.db")}})
