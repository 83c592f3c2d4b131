"""CUBIC (RFC 9438), variant "cubic": its response function against simulate_link, and every model that runs it or
refuses it. The hand-worked traces of the window rules are Rust unit tests (crates/tcpfade-core/src/tcp/cubic.rs)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tcpfade
from tcpfade import wcdma
from tcpfade.cli import main
from tcpfade.errors import ParameterError
from tcpfade.sweep import Experiment, Store, run_sweep
from validation_scripts import load

def _response():
    return load("cubic_response")


# -- the response function (RFC 9438 §5.1) ---------------------------------------------------------------------

def test_the_idealized_random_loss_model_gives_the_literatures_constant_for_reno():
    # The fluid model with a geometric number of packets between losses that gives CUBIC's random-loss factor below
    # must give Reno's (α = 1, β = 1/2) known constant: E[W] = 1.3098/sqrt(p) (Ott, Kemperman and Mathis 1996),
    # against sqrt(3/(2p)) = 1.2247/sqrt(p) for periodic losses.
    r = _response()
    for p in (1e-2, 1e-3):
        assert r.random_aimd(p, 1.0, 0.5, switch=False, epochs=50_000) * math.sqrt(p) == pytest.approx(1.3098, rel=0.01)
    # And its closed forms are RFC 9438 §5.1's numbers: 1.054 (R/p)^(3/4) and Reno's 1.2247/sqrt(p).
    assert r.deterministic_cubic(1.0, 1.0) == pytest.approx(1.0538, abs=1e-4)
    assert r.deterministic_reno_friendly(1.0) == pytest.approx(math.sqrt(1.5), rel=1e-12)


@pytest.mark.parametrize("p, rtt, duration, region", [(1e-3, 0.01, 2000.0, "Reno-friendly"),
                                                      (1e-3, 0.5, 20000.0, "cubic")])
def test_the_average_window_under_iid_losses_follows_rfc_9438_s_response_function(p, rtt, duration, region):
    """RFC 9438 §5.1 for a loss every 1/p packets (derived in validation/cubic_response.py and
    docs/validation/standard-tcp.md; C = 0.4, β = 0.7):

    - cubic region:        W̄ = (C(3 + β)/(4(1 − β)))^(1/4) · R^(3/4)/p^(3/4) = 1.054 (R/p)^(3/4);
    - Reno-friendly region: W̄ = sqrt(α(1 + β)/(2(1 − β)p)) with α = 3(1 − β)/(1 + β), = sqrt(3/(2p)).

    Bernoulli losses are not periodic: random losses raise the average window. For Reno the literature's factor is
    1.3098/1.2247 = 1.069 (Ott, Kemperman and Mathis 1996); the same idealized model with CUBIC's rules (fast
    convergence; α_cubic → 1 above the last loss's window) gives 1.13 in the cubic region and 1.15 in the
    Reno-friendly one, computed here from the model, not from the simulator.

    The simulated window (goodput × μ × T / (1 − p): segments sent per round trip, the pipe μT far above it so that
    T is the RTT and the channel is the only loss) must hold the random-loss prediction within 5%: what the fluid
    model leaves out costs that much at these points (p W̄ ≤ 0.13): the usable window is ⌊cwnd⌋ (−0.5 segment:
    −1.1% at W̄ = 44, −0.4% at 126), and recovery takes a round trip per loss event in which cwnd does not grow
    (the same simulator's NewReno sits 1% below Ott's 1.31/sqrt(p) at p = 0.001, R = 10 ms). The idealized
    factor's own sampling error is under 1%. At p W̄ = 0.5 recovery fills half the epoch and the fluid model is 23%
    high (docs/validation/standard-tcp.md reports it)."""
    r = _response()
    cubic, reno = r.deterministic_cubic(p, rtt), r.deterministic_reno_friendly(p)
    # the point lies well inside its region: the other region's window is at least 2.5 times smaller
    assert (cubic > 2.5 * reno) if region == "cubic" else (reno > 2.5 * cubic)
    predicted = r.random_cubic(p, rtt) if region == "cubic" else r.random_reno_friendly(p)
    assert 1.10 < predicted / max(cubic, reno) < 1.17   # the random-loss factor
    window, (low, high) = r.simulated_window(p, rtt, duration, seed=1)
    assert low <= window <= high and (high - low) / window < 0.06
    assert high >= 0.95 * predicted and low <= 1.05 * predicted, (p, rtt, predicted, window, (low, high))
    # and not the deterministic formula: random losses matter here
    assert low > 1.05 * max(cubic, reno)


# -- the models that run it ------------------------------------------------------------------------------------

def test_without_losses_cubic_is_reno_s_slow_start_and_transfers_as_newreno():
    # RFC 9438 §4.10: below ssthresh CUBIC grows as Reno does. Without a loss the window never leaves slow start
    # before the receiver window caps it, so a lossless transfer is NewReno's, time for time.
    cubic = tcpfade.simulate_transfer("cubic", None, size_bytes=300_000, seed=1)
    newreno = tcpfade.simulate_transfer("newreno", None, size_bytes=300_000, seed=1)
    assert cubic.completed and cubic.connection_time == newreno.connection_time
    lossy = tcpfade.simulate_transfer("cubic", tcpfade.Bernoulli(0.02), size_bytes=300_000, seed=3)
    assert lossy.completed and lossy.retransmissions > 0


def test_over_wcdma_blocks_cubic_recovers_each_burst_as_newreno_does():
    # CUBIC's recovery part is NewReno's (RFC 6582): a burst that destroys several segments of one window costs one
    # fast retransmit and no timeout (RFC 6582 §3.2), as for NewReno in tests/test_one_engine.py.
    errors = np.zeros(60_000, dtype=int)
    for start in range(3000, 60_000, 3000):
        errors[start:start + 40] = 1
    r = wcdma.tcp_over_blocks(errors, variant="cubic")
    assert (r.timeouts, r.fast_retransmits) == (0, len(range(3000, 60_000, 3000)))
    w = wcdma.simulate(users=2, duration=3.0, seed=4, target_sir_db=2.0, variant="cubic")
    assert w.parameters["variant"] == "cubic"


def test_a_link_sweep_over_the_variant_stores_the_direct_calls(tmp_path):
    e = Experiment.from_dict({"sweep": {"model": "simulate_link"},
                              "fixed": {"rate": 1000.0, "tau": 0.05, "buffer": 100, "duration": 100.0,
                                        "channel": "bernoulli", "error_rate": 0.005},
                              "axes": {"variant": ["newreno", "cubic"]}, "output": {"store": str(tmp_path / "s.sqlite")}})
    run_sweep(e, workers=1, progress=False)
    rows = Store(e.store).rows()
    assert sorted(row["params"]["variant"] for row in rows) == ["cubic", "newreno"]
    for row in rows:
        direct = tcpfade.simulate_link(row["params"]["variant"], rate=1000, tau=0.05, buffer=100, duration=100,
                                       channel=tcpfade.Bernoulli(0.005), seed=row["seed"])
        assert row["metrics"]["goodput"] == direct.goodput


def test_the_command_line_runs_cubic_on_the_link_and_the_transfer(capsys):
    assert main(["simulate-link", "--variant", "cubic", "--rate", "100", "--tau", "0.05", "--seed", "1",
                 "--lossless", "--duration", "50"]) == 0
    assert "cubic" in capsys.readouterr().out
    assert main(["transfer", "--variant", "cubic", "--phase", "1", "--drop-rate", "0.05", "--seed", "1"]) == 0
    assert "cubic" in capsys.readouterr().out


# -- the models that refuse it, with the reason ------------------------------------------------------------------

def test_the_slotted_model_and_the_analyses_refuse_cubic_with_the_reason(capsys):
    with pytest.raises(ParameterError, match="seconds"):
        tcpfade.simulate("cubic", tcpfade.Bernoulli(0.1), seed=1, slots=1000)
    with pytest.raises(ParameterError, match="seconds"):
        tcpfade.analyze("cubic", tcpfade.Bernoulli(0.1))
    with pytest.raises(ParameterError, match="time since its last loss"):
        tcpfade.analyze_link("cubic", rate=100, tau=0.05, mean_good=1.0, mean_bad=0.1)
    assert "cubic" not in tcpfade.ANALYZED_VARIANTS
    code = main(["simulate", "--variant", "cubic", "--error-rate", "0.1", "--slots", "1000", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "simulate_link" in err and len(err.splitlines()) == 1
