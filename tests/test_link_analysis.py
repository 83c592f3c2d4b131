"""``tcpfade.analyze_link``, the abouzeid §IV analysis: internal consistency, closed forms, a Monte Carlo check
of the timeout law, and abouzeid Table III against the published goodput and the simulator."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
import scipy.stats

import tcpfade
from tcpfade.analysis.link import analyze_link, link_analysis_arguments
from tcpfade.analysis.link.climb import Trajectory, good_state_terms, packets_by_window
from tcpfade.analysis.link.recovery import idle_timeout_law, loss_count_law, recovery_rounds, rounds_time
from tcpfade.analysis.link.visits import timeout_law
from tcpfade.cli import main

TABLE3_LINK = dict(rate=100, tau=0.01, beta=8, packet_bytes=1000)
#: abouzeid Table III: E[X], E[Y] [s] and the published ρ.
TABLE3 = [(0.08, 0.02, 0.1591), (0.8, 0.2, 0.5367), (8.0, 2.0, 0.6973), (80.0, 20.0, 0.7189), (800.0, 200.0, 0.7480)]


CHAIN_CASES = [
    dict(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2),      # Table III, beta > 1
    dict(rate=250, tau=0.1, beta=0.5, mean_good=0.3, mean_bad=0.01),    # beta < 1
    dict(rate=250, tau=0.1, beta=1.3, mean_good=0.08, mean_bad=0.001),  # Fig. 8
]


@pytest.mark.parametrize("reading", ["refined", "paper"])
@pytest.mark.parametrize("kwargs", [
    dict(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2),      # Table III, beta > 1
    dict(rate=250, tau=0.1, beta=0.5, mean_good=0.3, mean_bad=0.01),    # beta < 1
    dict(rate=250, tau=0.1, beta=1.3, mean_good=0.08, mean_bad=0.001),  # Fig. 8
])
def test_chain_is_stochastic_and_outcomes_a_distribution(kwargs, reading):
    a = analyze_link(**kwargs, reading=reading)
    assert np.all(a.good_chain >= -1e-15)
    np.testing.assert_allclose(a.good_chain.sum(axis=1), 1.0, atol=1e-12)
    total = a.outcome["no_loss"] + a.outcome["triple_duplicate"] + a.outcome["timeout"]
    np.testing.assert_allclose(total, 1.0, atol=1e-12)
    assert np.all(a.outcome["no_loss"][a.max_window - 1:] == 0)  # above muT the round has no idle time
    assert a.window_good.sum() == pytest.approx(1.0) and a.window_bad.sum() == pytest.approx(1.0)
    assert a.p_no_loss + a.p_triple_duplicate + a.p_timeout == pytest.approx(1.0)
    assert 0 < a.goodput <= a.ideal_goodput
    assert a.goodput_bps == pytest.approx(a.goodput * a.rate * 1000 * 8)
    assert a.mean_backoff_at_bad >= 1.0 - 1e-12
    if reading == "paper":   # eq. (2)'s timer is fresh at every visit
        assert a.mean_backoff_at_bad == pytest.approx(1.0, abs=1e-12)


def test_figure_8_limit_of_the_triple_duplicate_probability():
    # abouzeid §V-C: for w >= muT and E[Y] << T, P_TD = exp(-3/(mu E[X])) = 0.86 and P_TO = 0.14.
    a = analyze_link(rate=250, tau=0.1, beta=1.3, mean_good=0.08, mean_bad=0.001)
    above = np.arange(1, a.max_window + 1) > a.pipe + 1
    expected = math.exp(-3 / (250 * 0.08))
    np.testing.assert_allclose(a.outcome["triple_duplicate"][above], expected, rtol=1e-3)
    assert expected == pytest.approx(0.86, abs=0.005)


@pytest.mark.parametrize("reading", ["refined", "paper"])
def test_slow_fading_approaches_the_ceiling_of_eq_20(reading):
    # Long good and bad states: every good state is sampled and nearly all spent in the ideal cycle, so
    # rho -> (1 - f) rho_ideal (abouzeid eq. (20)); the timeouts after each bad state cost ~3e-4 of the time.
    # rho_ideal counts whole packets per cycle (the paper's integer rule): 121 of 121.5 here.
    a = analyze_link(rate=100, tau=0.01, beta=8, mean_good=80000.0, mean_bad=20000.0, reading=reading)
    assert a.goodput == pytest.approx(a.goodput_ceiling, rel=2e-3)
    b = analyze_link(rate=1000, tau=0.1, buffer=50, mean_good=80000.0, mean_bad=20000.0, reading=reading)  # beta < 1
    # Table II's fluid value is 0.9634 with w_p/2 = 75.5; the analysis' cycle starts at the integer 75.
    assert b.ideal_goodput == pytest.approx(0.9634, rel=3e-3)
    assert b.goodput == pytest.approx(b.goodput_ceiling, rel=2e-3)


def test_timeout_law_without_doubling_is_geometric():
    # With the backoff capped at 1x every interval is delta and each retransmission gets through with
    # P_delta = (1 - f)(1 - exp(-(l0 + l1) delta)) (eq. (13)): Z = delta * Geometric(P_delta), E[Z] = delta / P.
    lam0, lam1, delta = 2.0, 5.0, np.array([0.1, 0.3, 1.0])
    law = timeout_law(delta, 0, 0, 0.0, np.zeros(3), 1e9, lam0, lam1)
    p = lam1 / (lam0 + lam1) * (1 - np.exp(-(lam0 + lam1) * delta))
    np.testing.assert_allclose(law.mean, delta / p, rtol=1e-12)
    np.testing.assert_allclose(law.exit.sum(axis=1), 1.0, rtol=1e-12)


def _simulated_z(rng, lam0, lam1, delta, first, levels, start_delay, known_bad, count):
    """Z and the number of timeouts, by simulating the two-state channel itself: bad at `known_bad`, then
    exponential sojourns; the timeouts at the backed-off instants; Z is the first that finds the channel good."""
    z, timeouts = np.empty(count), np.empty(count, dtype=int)
    for i in range(count):
        bad_until = known_bad + rng.exponential(1 / lam1)   # memoryless from known_bad
        good_until = -math.inf
        fire, exponent = start_delay, first
        while True:
            fire += delta * 2.0 ** min(exponent, levels)
            while bad_until <= fire and good_until <= fire:   # move the channel on to the timeout
                good_until = bad_until + rng.exponential(1 / lam0)
                if good_until <= fire:
                    bad_until = good_until + rng.exponential(1 / lam1)
            exponent += 1
            if bad_until <= fire < good_until:
                z[i], timeouts[i] = fire, exponent - first
                break
    return z, timeouts


def test_timeout_law_matches_a_simulated_channel():
    # Eqs. (13)-(15) with doubling up to 8x, a first timeout 0.05 s after the visit began and the channel known
    # bad until 0.15 s: E[Z] and P(the first retransmission gets through) against 40 000 simulated visits,
    # each within its 99.9% interval. (Ignoring known_bad moves the latter by 0.15, 19 half-widths.)
    lam0, lam1, delta, first, levels = 1 / 0.4, 1 / 0.3, 0.12, 1, 3
    law = timeout_law(np.array([delta]), first, levels, 0.05, np.array([0.15]), 1e9, lam0, lam1)
    z, timeouts = _simulated_z(np.random.default_rng(7), lam0, lam1, delta, first, levels, 0.05, 0.15, 40000)
    q = scipy.stats.norm.ppf(0.9995)
    half = q * z.std(ddof=1) / math.sqrt(len(z))
    assert abs(law.mean[0] - z.mean()) < half, (law.mean[0], z.mean(), half)
    first_through = np.mean(timeouts == 1)
    half = q * math.sqrt(first_through * (1 - first_through) / len(z))
    assert abs(law.exit[0, first + 1] - first_through) < half, (law.exit[0, first + 1], first_through, half)


def test_idle_timeout_law_matches_a_simulated_channel():
    # A visit that begins S into a stalled Reno sender's wait for its timer (S exponential given that it falls
    # in the wait of delta): the timer fires delta - S after the visit began, then doubles from 2 delta. E[Z]
    # and P(the first retransmission gets through) against 40 000 simulated visits, each within its 99.9%
    # interval. (A fresh timer, first at delta after the visit, is 0.08 s off, over five half-widths: the test
    # can fail.)
    lam0, lam1, delta, levels = 1 / 0.8, 1 / 0.2, 0.3, 3
    law = idle_timeout_law(np.array([delta]), levels, 1e9, lam0, lam1)
    rng = np.random.default_rng(11)
    u = rng.uniform(size=40000)
    starts = -np.log1p(-u * -np.expm1(-lam0 * delta)) / lam0   # inverse CDF of Exp(lam0) truncated to [0, delta]
    draws = [_simulated_z(rng, lam0, lam1, delta, 0, levels, -s, 0.0, 1) for s in starts]
    z = np.array([d[0][0] for d in draws])
    timeouts = np.array([d[1][0] for d in draws])
    q = scipy.stats.norm.ppf(0.9995)
    half = q * z.std(ddof=1) / math.sqrt(len(z))
    assert abs(law.mean[0] - z.mean()) < half, (law.mean[0], z.mean(), half)
    fresh = timeout_law(np.array([delta]), 0, levels, 0.0, np.zeros(1), 1e9, lam0, lam1)
    assert abs(fresh.mean[0] - z.mean()) > 5 * half
    first_through = np.mean(timeouts == 1)
    half = q * math.sqrt(first_through * (1 - first_through) / len(z))
    assert abs(law.exit[0, 1] - first_through) < half, (law.exit[0, 1], first_through, half)


def test_without_backoff_persistence_matters_only_through_the_timer():
    # max_backoff = 1 leaves nothing for Karn's rule to carry: the mean multiplier is exactly 1, and the
    # window chain (the outcomes' shares) is the paper model's, since the timer only changes durations.
    kwargs = dict(rate=100, tau=0.01, beta=8, mean_good=0.08, mean_bad=0.02)
    a = analyze_link(**kwargs, max_backoff=1)
    b = analyze_link(**kwargs, reading="paper", max_backoff=1)
    assert a.mean_backoff_at_bad == pytest.approx(1.0)
    np.testing.assert_allclose(a.good_chain.sum(axis=1), 1.0, atol=1e-12)
    assert a.p_timeout == pytest.approx(b.p_timeout, rel=1e-9)
    np.testing.assert_allclose(a.window_bad, b.window_bad, atol=1e-12)


@pytest.mark.parametrize("ex, ey, published", TABLE3[1:4])
def test_table_iii_analysis_within_5_percent_of_the_published_goodput(ex, ey, published):
    a = analyze_link("reno", mean_good=ex, mean_bad=ey, **TABLE3_LINK)
    assert a.goodput == pytest.approx(published, rel=0.05)


def _interval(values):
    values = np.asarray(values, dtype=float)
    return values.mean(), scipy.stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / math.sqrt(len(values))


def test_table_iii_fast_row_is_a_lower_bound_with_the_simulated_timer():
    # D = 0.1 s < RTT_max = 0.17 s: several bad visits fall in a round, which approximation 2 counts as visits
    # of different rounds, so the model is a lower bound there (abouzeid §IV-B): within 10% below the
    # published 0.1591 (docs/validation/abouzeid.md). The timer it predicts is the simulator's: the base RTO and the
    # backoff that Karn's rule carries into a bad visit, each within 5% of five simulated runs (+ their 95%
    # interval).
    ex, ey, published = TABLE3[0]
    a = analyze_link("reno", mean_good=ex, mean_bad=ey, **TABLE3_LINK)
    assert 0.9 * published < a.goodput < published
    runs = [tcpfade.simulate_link("reno", mean_good=ex, mean_bad=ey, seed=s, duration=1215.0, **TABLE3_LINK)
            for s in range(1, 6)]
    for name in ("mean_rto_at_bad", "mean_backoff_at_bad"):
        mean, half = _interval([getattr(r, name) for r in runs])
        assert abs(getattr(a, name) - mean) < 0.05 * mean + half, (name, getattr(a, name), mean, half)


def test_table_iii_slowest_row_is_at_the_ceiling_of_eq_20():
    # D = 1000 s >> t_p: the paper says the goodput is (1 - f) rho_ideal (eq. (20)) = 0.8 here (beta = 8 keeps
    # the ideal link busy), and no timer can take it to the published 0.748 (6.5% below it; 2.3 standard
    # deviations of the bad-time share over the paper's 10^5-s run, docs/validation/abouzeid.md). Both our analysis and
    # our simulation are within 1.5% of the ceiling, so the row is judged against the ceiling, within 2%.
    ex, ey, published = TABLE3[4]
    a = analyze_link("reno", mean_good=ex, mean_bad=ey, **TABLE3_LINK)
    assert published < 0.95 * a.goodput_ceiling
    assert a.goodput == pytest.approx(a.goodput_ceiling, rel=0.015)


@pytest.mark.parametrize("ex, ey, published", TABLE3)
def test_table_iii_simulation_against_the_published_goodput_and_the_analysis(ex, ey, published):
    # Five seeds of the paper's run length rule. The simulation must be within 5% of the published rho (rows
    # 1-4) or within 2% of eq. (20)'s ceiling (row 5, judged against the ceiling: docs/validation/abouzeid.md), and the
    # analysis within 5% of the simulation; both up to the simulation's 95% interval.
    runs = [tcpfade.simulate_link("reno", mean_good=ex, mean_bad=ey, seed=s, **TABLE3_LINK,
                                  duration=max(1215.0, 100 * (ex + ey))) for s in range(1, 6)]
    mean, half = _interval([r.goodput for r in runs])
    a = analyze_link("reno", mean_good=ex, mean_bad=ey, **TABLE3_LINK)
    assert abs(a.goodput - mean) < 0.05 * mean + half
    target, tolerance = (published, 0.05) if ex < 800 else (a.goodput_ceiling, 0.02)
    assert abs(mean - target) < tolerance * target + half


@pytest.mark.parametrize("rate, t, wp, at_link, lam0", [
    (100, 0.02, 18, True, 12.5),       # Table III's link, fast fading
    (250, 0.104, 60, True, 12.5),      # Fig. 8's
    (100, 0.11, 4, False, 2.0),        # β < 1: the typical cycle has a phase A
    (1000, 0.1, 200, True, 50.0),      # λ0 τ(w_p) ≈ 1000: e^{λ0 τ} alone would overflow
])
def test_good_state_terms_against_the_climb_packet_by_packet(rate, t, wp, at_link, lam0):
    """E[N | w1] for all w1 at once (window sums and suffix sums in log space) against the direct sums over each
    climb's packets (Table I's t_n, eqs. (4)-(6)), and the climb's birth chain (survive a window or end in it, then
    the typical cycles) against P[W' = w' | w1] from the chance V outlasts the climb to each window."""
    traj = Trajectory(rate, t, wp, at_link)
    climb = good_state_terms(traj, lam0)
    decay = math.exp(-lam0 * traj.cycle)
    cycle_reward = np.exp(-lam0 * traj.packet_times(traj.low, traj.wp)).sum()
    assert len(traj.packet_times(traj.low, traj.wp)) == traj.packets_per_cycle
    cycle_entered = np.exp(-lam0 * traj.time(traj.low, np.arange(int(traj.low), wp + 1.0)))

    def birth_chain(w1):
        held, reach = np.zeros(wp), 1.0
        for u in range(w1, wp):
            held[u - 1] = reach * climb.ends[u - 1]
            reach *= climb.survive[u - 1]
        return held, reach

    cycle_held, cycle_decay = birth_chain(climb.low)
    assert cycle_decay == pytest.approx(decay, rel=1e-12)
    for w1 in sorted({1, 2, wp // 3, wp // 2, wp - 1, wp}):
        entered = np.exp(-lam0 * traj.time(w1, np.arange(w1, wp + 1.0)))
        repeat = entered[-1] / (1 - decay)
        direct = np.exp(-lam0 * traj.packet_times(w1, traj.wp)).sum() + repeat * cycle_reward
        assert climb.reward[w1 - 1] == pytest.approx(direct, rel=1e-11, abs=1e-300)
        expected = np.zeros(wp)
        expected[w1 - 1:wp - 1] += entered[:-1] - entered[1:]
        expected[int(traj.low) - 1:wp - 1] += repeat * (cycle_entered[:-1] - cycle_entered[1:])
        held, reach = birth_chain(w1)
        held += reach / (1 - cycle_decay) * cycle_held
        np.testing.assert_allclose(held, expected, rtol=1e-11, atol=1e-300)
        assert held.sum() == pytest.approx(1.0, rel=1e-12)   # V ends at some window
    assert np.all(np.isfinite(climb.reward))


@pytest.mark.parametrize("rate, t, wp, at_link, lam0", [
    (100, 0.02, 18, True, 12.5),             # all windows below DIRECT_WINDOWS: packet by packet
    (1000, 0.1, 200, True, 50.0),            # phase A steep at first (λ0 T = 5)
    (1000, 0.1, 300, False, 1.0),            # the paper's counting: phase B geometric
    (5000, 0.05, 500, True, 300.0),          # steep everywhere: summed one by one until negligible
    (5000, 0.05, 500, False, 3000.0),
    (100_000, 0.05, 900, True, 20.0),        # phase A only: w_p < μT
    (2000, 0.5, 1500, True, 0.01),           # nearly flat: Euler-Maclaurin over runs of 3000 packets
    (0.5, 1.0, 100, True, 0.5),              # μT < 1: phase B from the first packet
    (30_000, 0.05, 3000, True, 1.0),         # the benchmarks' link at w_p = 3000
    (30_000, 0.05, 3000, False, 1.0),
    (30_000, 0.05, 3000, True, 1e-3),
])
def test_window_sums_equal_the_packet_by_packet_sums(rate, t, wp, at_link, lam0):
    """The climb's per-window sums from runs (geometric series, packets one by one where they fall fast,
    Euler-Maclaurin with the integral in closed form elsewhere) against every packet summed
    (tests/reference_climb.py): the sums equal to 1e-13 beyond the rounding of their logs (measured: 2.4e-15),
    the same windows empty."""
    from reference_climb import packets_by_window as reference_packets_by_window

    traj = Trajectory(rate, t, wp, at_link)
    for new, ref in zip(packets_by_window(traj, lam0), reference_packets_by_window(traj, lam0)):
        assert np.array_equal(np.isfinite(new), np.isfinite(ref))
        f = np.isfinite(ref)
        assert np.all(np.abs(new[f] - ref[f]) <= 1e-13 + 4 * np.spacing(np.abs(ref[f])))


def test_bad_input_is_named(monkeypatch):
    with pytest.raises(tcpfade.ParameterError, match="reading"):
        analyze_link(rate=100, tau=0.01, mean_good=1, mean_bad=0.1, reading="exact")
    with pytest.raises(tcpfade.ParameterError, match="recovery"):
        analyze_link(rate=100, tau=0.01, mean_good=1, mean_bad=0.1, recovery="sack")
    with pytest.raises(tcpfade.ParameterError, match="recovery.*refined"):
        analyze_link(rate=100, tau=0.01, mean_good=1, mean_bad=0.1, reading="paper", recovery="rounds")
    with pytest.raises(tcpfade.ParameterError, match="max_backoff"):
        analyze_link(rate=100, tau=0.01, mean_good=1, mean_bad=0.1, max_backoff=48)
    with pytest.raises(tcpfade.ParameterError, match="mean_bad"):
        analyze_link(rate=100, tau=0.01, mean_good=1)
    with pytest.raises(tcpfade.ParameterError, match="buffer"):
        analyze_link(rate=100, tau=0.01, buffer=4, beta=1, mean_good=1, mean_bad=0.1)
    # What would not fit in memory is refused at once, naming the buffer and the chain's size: here with the limit
    # lowered to 100 MiB, w_p = 8000 windows (about 4e6 transitions); and on any machine a w_p of 10^6 (about 5e9
    # transitions).
    monkeypatch.setenv("TCPFADE_MEMORY_LIMIT", str(100 * 2**20))
    with pytest.raises(tcpfade.ParameterError, match=r"buffer = 4000 .*w_p = B \+ μT = 8000 windows .*transitions"):
        analyze_link(rate=40_000, tau=0.1 - 2.5e-5, beta=1, mean_good=1, mean_bad=0.05)
    monkeypatch.undo()
    with pytest.raises(tcpfade.ParameterError, match=r"buffer = 1000 .*w_p = B \+ μT = 501000 windows .*of memory"):
        analyze_link(rate=5_000_000, tau=0.1 - 2e-7, buffer=1000, mean_good=1, mean_bad=0.05)
    assert link_analysis_arguments(rate=1_000, tau=0.1 - 1e-3, buffer=413, mean_good=1, mean_bad=0.05)["buffer"] == 413


def test_a_chain_that_falls_apart_is_refused_without_a_crash():
    """A chain in which some windows keep all their mass in double precision (P_ii = 1: zeros on the diagonal of
    the sparse system) was handed to SuperLU as a triangular preconditioner with those zeros as pivots, which wrote
    out of bounds: the fuzzing suite found this case killing its child. Run in a child whose allocator fills freed
    memory and checks the heap, where the out-of-bounds write crashed every time."""
    import subprocess
    import sys

    script = ("import tcpfade\n"
              "try:\n"
              "    tcpfade.analyze_link('reno', rate=281.554436269212, tau=0.3, mean_good=1e-4, mean_bad=1e-4, "
              "min_rto=0.001)\n"
              "except tcpfade.ParameterError as e:\n"
              "    print(e)\n")
    env = dict(os.environ, MALLOC_CHECK_="3", MALLOC_PERTURB_="165")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("mean_good = 0.0001 is not allowed:") and "falls apart" in done.stdout


def test_top_level_and_cli(capsys):
    a = tcpfade.analyze_link("reno", rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2)
    assert a.goodput == analyze_link(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2).goodput
    assert main(["analyze-link", "--rate", "100", "--tau", "0.01", "--beta", "8", "--mean-good", "0.8",
                 "--mean-bad", "0.2", "--json"]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    assert out["goodput"] == pytest.approx(a.goodput)
    assert main(["analyze-link", "--rate", "100", "--tau", "0.01", "--mean-good", "0.8", "--mean-bad", "-1"]) == 2
    assert "--mean-bad = -1.0 is not allowed" in capsys.readouterr().err
    assert main(["analyze-link", "--rate", "100", "--tau", "0.01", "--beta", "8", "--mean-good", "0.8",
                 "--mean-bad", "0.2", "--max-backoff", "1", "--json"]) == 0
    no_backoff = analyze_link(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2, max_backoff=1).goodput
    assert json.loads(capsys.readouterr().out)["goodput"] == pytest.approx(no_backoff) and no_backoff != a.goodput


# -- recovery="rounds": each variant's recovery of the L packets a bad visit destroys --

@pytest.mark.parametrize("variant", ["reno", "newreno"])
@pytest.mark.parametrize("kwargs", CHAIN_CASES)
def test_recovery_rounds_chain_is_stochastic(kwargs, variant):
    a = analyze_link(variant, **kwargs, recovery="rounds")
    assert np.all(a.good_chain >= -1e-15)
    np.testing.assert_allclose(a.good_chain.sum(axis=1), 1.0, atol=1e-12)
    assert a.window_good.sum() == pytest.approx(1.0) and a.window_bad.sum() == pytest.approx(1.0)
    assert a.p_no_loss + a.p_triple_duplicate + a.p_timeout == pytest.approx(1.0)
    assert 0 < a.goodput <= a.ideal_goodput and a.recovery == "rounds"


def test_loss_count_law_against_monte_carlo():
    # L = 1 + floor(mu Y + U): the packets a visit of length Y, starting at a uniform offset U within a packet,
    # overlaps; given TD, Y < (w' - 3)/mu. Drawn directly, 200 000 times; each share within its Bonferroni 99.9%
    # binomial interval.
    mu, mean_bad, w = 100.0, 0.03, 12
    law = loss_count_law(w, mu, 1 / mean_bad)[w - 1]
    rng = np.random.default_rng(11)
    y = rng.exponential(mean_bad, 600_000)
    y = y[y < (w - 3) / mu][:200_000]
    losses = 1 + np.floor(mu * y + rng.random(len(y))).astype(int)
    share = np.bincount(losses, minlength=w + 1)[1:] / len(y)
    q = scipy.stats.norm.ppf(1 - 0.0005 / w)
    half = q * np.sqrt(np.maximum(law * (1 - law), 1e-12) / len(y))
    assert np.all(np.abs(share - law) <= half + 1e-12), (share, law)
    assert law.sum() == pytest.approx(1.0) and law[w - 2:].sum() == 0   # at most w' - 2 lost


def test_rounds_and_recovery_laws():
    # Sum of max(T, (n1 + k)/mu) over k = 1..count, term by term.
    mu, t = 100.0, 0.05
    for n1 in range(0, 12):
        for count in range(1, 9):
            direct = sum(max(t, (n1 + k) / mu) for k in range(1, count + 1))
            assert rounds_time(np.array([n1]), np.array([count]), mu, t)[0] == pytest.approx(direct, abs=1e-12)
    # After a TD every prelude is survived (into some state) or broken: the shares sum to one.
    wp, states = 30, 30 * 7
    for variant in ("reno", "newreno"):
        r = recovery_rounds(variant, wp, 200.0, 0.084, 1 / 1.9, 1 / 0.08, np.full(wp, 0.2), True, states, 6, 64.0)
        np.testing.assert_allclose(r.target.sum(axis=1) + r.broken_timeout + r.broken_idle + r.broken_visit, 1.0,
                                   atol=1e-12)
        assert np.all(r.reward >= 0)


#: A link of abouzeid Fig. 6's kind (muT = 16.8, beta = 1.5, E[X] = 23 T) where bad visits of mu E[Y] packet
#: times destroy several packets of a window.
ROUNDS_LINK = dict(rate=200.0, tau=16.8 / 200 - 1 / 200, beta=1.5, mean_good=23 * 16.8 / 200)


@pytest.mark.parametrize("packets_per_visit", [1.0, 3.4, 16.8])
@pytest.mark.parametrize("variant", ["reno", "newreno"])
def test_recovery_rounds_against_simulation(variant, packets_per_visit):
    # Within 5% of five simulated runs (+ their 95% interval), for both variants. The default eq. (10) cannot
    # tell Reno from NewReno, and overestimates Reno by more than 15% at a few packets per visit.
    link = dict(ROUNDS_LINK, mean_bad=packets_per_visit / 200)
    runs = [tcpfade.simulate_link(variant, seed=s, **link) for s in range(1, 6)]
    mean, half = _interval([r.goodput for r in runs])
    a = analyze_link(variant, **link, recovery="rounds")
    assert abs(a.goodput - mean) < 0.05 * mean + half, (a.goodput, mean, half)
    if variant == "reno" and packets_per_visit == 3.4:
        assert analyze_link(variant, **link).goodput > 1.15 * mean


SPARSE_GRID = [dict(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2),       # Table III
               dict(rate=250, tau=0.1, beta=0.5, mean_good=0.3, mean_bad=0.01),     # β < 1
               dict(rate=250, tau=0.1, beta=1.3, mean_good=0.08, mean_bad=0.001),   # Fig. 8
               dict(rate=1000, tau=0.05, beta=0.3, mean_good=2.0, mean_bad=0.05),   # w_p = 66, long good states
               dict(rate=400, tau=0.2, beta=1.0, mean_good=0.5, mean_bad=0.3),      # w_p = 162
               dict(rate=100, tau=0.01, beta=8, mean_good=800, mean_bad=200)]       # the slowest fading of Table III


@pytest.mark.parametrize("link", SPARSE_GRID)
@pytest.mark.parametrize("options", [dict(), dict(reading="paper"), dict(recovery="rounds"),
                                     dict(recovery="rounds", variant="newreno"), dict(max_backoff=4)])
def test_sparse_chain_equals_the_dense_one(link, options):
    """The expanded chain solved sparsely against the dense embedded chain it replaced (tests/reference_link_dense.py),
    which finishes on all these links: every figure to 1e-9 (relative, or 1e-15 absolute for probabilities that are
    0 to round-off), the laws of the window to 1e-11, and the embedded chain itself, censored from the expanded one,
    to 1e-12, once the dense chain's backoff levels are lumped as the sparse one's are."""
    from reference_link_dense import analyze_link_dense

    options = dict(options)
    variant = options.pop("variant", "reno")
    dense = analyze_link_dense(variant, **link, **options)
    sparse = analyze_link(variant, **link, **options)
    for name in ("goodput", "reward", "mean_effective_bad", "p_no_loss", "p_triple_duplicate", "p_timeout",
                 "mean_rto_at_bad", "mean_backoff_at_bad", "ideal_goodput"):
        assert getattr(sparse, name) == pytest.approx(dense[name], rel=1e-9, abs=1e-15), name
    for name in ("window_good", "window_bad"):
        np.testing.assert_allclose(getattr(sparse, name), dense[name], rtol=0, atol=1e-11, err_msg=name)
    for name in ("effective_bad", "reward_by_window", "rto_by_window"):
        np.testing.assert_allclose(getattr(sparse, name), dense[name.replace("_by_window", "") if name == "rto_by_window" else name], rtol=1e-11, atol=1e-300, err_msg=name)
    if link["rate"] <= 250:
        np.testing.assert_allclose(sparse.good_chain, _levels_lumped(dense["good_chain"], sparse), rtol=0, atol=1e-12)


@pytest.mark.parametrize("link", SPARSE_GRID[:5])
@pytest.mark.parametrize("options", [dict(), dict(recovery="rounds"), dict(max_backoff=4)])
def test_the_backed_off_starts_split_by_level_add_up_to_their_lumped_mass(link, options):
    """The sparse chain has one start B_h for every backoff level; the split of its mass by level, worked out from
    the inflows of each level after the solve, adds up to the mass the solve gave B_h, but for the solve's own
    residual (π P − π) there: exactly so in exact arithmetic, as the inflows summed over the levels are the lumped
    chain's column. The tolerance is the round-off of those sums: a few hundred terms of a total mass of 1 (the
    starts'), 1e-13."""
    a = analyze_link(**link, **options)
    wp, chain = a.max_window, a.chain
    residual = (chain.matrix.T @ chain.mass - chain.mass)[wp:2 * wp]
    np.testing.assert_allclose(chain.by_level[1:].sum(axis=0), chain.mass[wp:2 * wp] + residual, rtol=0, atol=1e-13)
    assert np.all(chain.by_level >= 0.0)


def _levels_lumped(chain: np.ndarray, analysis) -> np.ndarray:
    """The dense embedded chain, whose backed-off starts B_{k,h} are one per level k = 1..L, with the levels of each
    h made one state B_h, as the sparse chain has them: its columns summed over the levels, and each level's rows
    checked to leave for every lumped state alike (strong lumpability, to 1e-12) before level 1's stand for all."""
    wp, n, lumped = analysis.max_window, chain.shape[0], analysis.chain.starts
    levels = (n - lumped) // wp + 1
    if levels <= 1:
        return chain
    group = np.arange(n)
    group[wp:wp * (levels + 1)] = wp + np.arange(wp * levels) % wp
    group[wp * (levels + 1):] = 2 * wp + np.arange(n - wp * (levels + 1))
    columns = np.zeros((n, lumped))
    np.add.at(columns.T, group, chain.T)
    for k in range(2, levels + 1):
        np.testing.assert_allclose(columns[wp * k:wp * (k + 1)], columns[wp:2 * wp], rtol=0, atol=1e-12,
                                   err_msg=f"level {k}")
    return columns[np.r_[0:2 * wp, wp * (levels + 1):n]]


def test_a_high_bandwidth_delay_link_is_analysed_and_agrees_with_simulation():
    """100 Mb/s, a 100 ms round trip, 1500-byte packets and a buffer of one pipe: w_p = 1668 windows, which the dense
    chain refused. With Reno's own recovery (recovery="rounds") the analysis is within abouzeid's normalized-error
    criterion (Fig. 6: 10%) of a simulation of the same link; eq. (10)'s single halving overestimates it, as on
    Fig. 6's links where a visit costs several packets of a window (validation/high_bdp_link.py has more points)."""
    link = dict(rate=1e8 / 12000, tau=0.1, packet_bytes=1500, beta=1, mean_good=1.0, mean_bad=0.001)
    rounds = analyze_link(**link, recovery="rounds")
    halving = analyze_link(**link)
    assert rounds.max_window == 1668
    simulated = tcpfade.simulate_link("reno", **link, seed=1)
    assert abs(rounds.goodput - simulated.goodput) / simulated.goodput < 0.1, (rounds.goodput, simulated.goodput)
    assert halving.goodput > simulated.ci["goodput"][1]


#: Links past the dense reference's reach: w_p = 301, 603, 802 and 1668 (100 Mb/s, 100 ms, 1500 B).
SWEPT_LINKS = [dict(rate=2000, tau=0.1, beta=0.5, mean_good=0.05, mean_bad=0.02),
               dict(rate=1000, tau=0.2, beta=2, mean_good=5.0, mean_bad=0.2),
               dict(rate=4000, tau=0.1, beta=1, mean_good=0.5, mean_bad=0.01),
               dict(rate=1e8 / 12000, tau=0.1, packet_bytes=1500, beta=1, mean_good=1.0, mean_bad=0.001)]


@pytest.mark.parametrize("link, options", [(link, options) for link in (SPARSE_GRID[0], SWEPT_LINKS[0])
                                             for options in (dict(), dict(reading="paper"), dict(recovery="rounds"))]
                         + [(SWEPT_LINKS[1], dict(reading="paper"))])
def test_the_sweep_over_the_windows_equals_state_reduction(link, options):
    """The chain's stationary law by the core's sweep over the windows against Grassmann-Taksar-Heyman state
    reduction of the whole chain, dense (:func:`~tcpfade.analysis.renewal.stationary_distribution`, an independent
    direct solver without cancellation), on the chains it can take (up to 2100 states here): both keep every digit,
    so the laws agree to their rounding, n ε ≈ 1e-13 in ‖·‖₁ at most (measured: 5e-15)."""
    from tcpfade.analysis.renewal import stationary_distribution

    chain = analyze_link(**link, **options).chain
    pi = chain._sweep(None, (0.0, 1.0))
    assert pi is not None, "the sweep declined the chain"
    assert np.abs(pi - stationary_distribution(chain.matrix.toarray())).sum() < 1e-13


@pytest.mark.parametrize("link", SWEPT_LINKS)
@pytest.mark.parametrize("options", [dict(), dict(reading="paper"), dict(recovery="rounds")])
def test_the_sweep_over_the_windows_equals_the_iterative_solve(link, options, monkeypatch):
    """The same against the general solver the sweep replaced, GMRES preconditioned by a Gauss-Seidel sweep
    (:func:`~tcpfade.analysis.link.chain.sparse_stationary`, reached here by making the sweep decline), on chains
    up to w_p = 1668. The sweep solves π P = π to a residual ‖πP − π‖₁ of a few 1e-16 (asserted below 1e-14), GMRES
    to 1e-15..1e-14 on these chains; the law moves by the residual times the chain's condition (its mean passage
    times, up to ~10³ steps), so the figures agree to 1e-10 relative or 1e-12 absolute (a probability of 1.7e-5
    differs by 5e-15: GMRES's, as state reduction shows in the test above)."""
    swept = analyze_link(**link, **options)
    chain = swept.chain
    pi = chain._sweep(None, (0.0, 1.0))
    assert pi is not None, "the sweep declined the chain"
    assert np.abs(chain.matrix.T @ pi - pi).sum() < 1e-14
    monkeypatch.setattr(tcpfade._core, "link_chain_stationary", lambda *args, **kwargs: None)
    iterated = analyze_link(**link, **options)
    for name in ("goodput", "reward", "mean_effective_bad", "p_no_loss", "p_triple_duplicate", "p_timeout",
                 "mean_rto_at_bad", "mean_backoff_at_bad"):
        assert getattr(swept, name) == pytest.approx(getattr(iterated, name), rel=1e-10, abs=1e-12), \
            name
    np.testing.assert_allclose(swept.window_bad, iterated.window_bad, rtol=0, atol=1e-12)
