"""The renewal-reward analysis (zorzi-rao §4): hand-derived cases, internal consistency, edge cases,
and agreement with the slotted simulator on a representative subset of the validation grid."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings, strategies as st

import tcpfade
from tcpfade.analysis import EXACT_METRICS, METRICS, compare
from tcpfade.analysis.channel import SlotMatrices
from tcpfade.analysis.cycle import cycle_model
from tcpfade.analysis.renewal import _gth, stationary_distribution

import reference_tahoe
from reference_fast_recovery import phase2 as reference_phase2


def stop_and_wait_throughput(channel, rto: int) -> tuple[float, float]:
    """Wmax = 1 derived on its own: a packet is sent; correct, the next goes in the next slot; lost, it
    goes again T0 slots after it was sent. The channel state of the slot before each send is a Markov
    chain Q = A + F M^(T0-1); per step 1 or T0 slots, 1 transmission, 1 or 0 deliveries."""
    m = SlotMatrices.from_channel(channel)
    q = m.success + m.failure @ np.linalg.matrix_power(m.step, rto - 1)
    w, vl = scipy.linalg.eig(q.T)
    pi = np.real(vl[:, np.argmin(np.abs(w - 1))])
    pi /= pi.sum()
    slots = pi @ (m.success.sum(axis=1) + rto * m.failure.sum(axis=1))
    return float(pi @ m.success.sum(axis=1) / slots), float(1.0 / slots)


@pytest.mark.parametrize("variant", ["oldtahoe", "tahoe"])
@pytest.mark.parametrize("channel,rto", [
    (tcpfade.Bernoulli(0.1), 2),
    (tcpfade.Bernoulli(0.37), 30),
    (tcpfade.GilbertElliott(p=0.97, q=0.6), 7),
    (tcpfade.GilbertElliott(p=0.9, q=0.8, loss_good=0.05, loss_bad=0.9), 50),
])
def test_window_of_one_is_stop_and_wait(variant, channel, rto):
    r = tcpfade.analyze(variant, channel, wmax=1, dupthresh=3, rto_slots=rto)
    eta, load = stop_and_wait_throughput(channel, rto)
    # With one packet in flight every correct transmission is delivered: the bounds coincide.
    assert r.throughput.pessimistic == pytest.approx(eta, rel=1e-10)
    assert r.throughput.optimistic == pytest.approx(eta, rel=1e-10)
    assert r.load.optimistic == pytest.approx(load, rel=1e-10)
    assert r.fast_retransmits_per_slot.optimistic == 0.0


def test_bernoulli_stop_and_wait_closed_form():
    eps, t0 = 0.1, 2
    r = tcpfade.analyze("oldtahoe", tcpfade.Bernoulli(eps), wmax=1, rto_slots=t0)
    assert r.throughput.optimistic == pytest.approx((1 - eps) / ((1 - eps) + eps * t0), rel=1e-12)  # 9/11


def test_tahoe_without_fast_retransmit_is_oldtahoe():
    ch = tcpfade.GilbertElliott.from_fading(error_rate=0.05, fdt=0.016)
    old = tcpfade.analyze("oldtahoe", ch, wmax=8, rto_slots=60)
    for k in (8, 9, 50):
        tahoe = tcpfade.analyze("tahoe", ch, wmax=8, dupthresh=k, rto_slots=60)
        for name in METRICS:
            assert getattr(tahoe, name) == pytest.approx(getattr(old, name), rel=1e-12), name


TAHOE_CHANNELS = [
    tcpfade.GilbertElliott.from_fading(error_rate=0.03, fdt=0.016),
    tcpfade.GilbertElliott.from_fading(error_rate=0.3, fdt=0.256),
    tcpfade.GilbertElliott(p=0.9, q=0.8, loss_good=0.05, loss_bad=0.9),
    tcpfade.Bernoulli(0.02),
]


@pytest.mark.parametrize("channel", TAHOE_CHANNELS, ids=["slow", "fast", "lossy-good", "bernoulli"])
def test_tahoe_core_equals_the_numpy_analysis(channel):
    """The core's Tahoe and OldTahoe (phase 1 walked per start state, phase 2 from one recursion, the chain over
    the reachable states) against the numpy analysis they replaced (phase 1 tabulated per k, the chain over all
    4⌈Wmax/2⌉ states): every long-run reward rate, and so every metric, equal to 1e-12 (measured: 5e-15)."""
    m = SlotMatrices.from_channel(channel)
    for wmax in (1, 2, 3, 6, 11, 24, 40):
        for k in sorted({1, 2, 3, 6, wmax, wmax + 3}):
            for rto in (wmax + 1, wmax + 7, 100 + wmax):
                for variant, dupthresh in (("tahoe", k), ("oldtahoe", None)):
                    if variant == "oldtahoe" and k > 1:
                        continue
                    ref = reference_tahoe.cycle_model(m, wmax=wmax, dupthresh=dupthresh, rto=rto)
                    new = cycle_model(m, variant, wmax=wmax, dupthresh=k, rto=rto)
                    assert new.transition.shape[0] <= ref.transition.shape[0]
                    np.testing.assert_allclose(new.transition.sum(axis=1), 1.0, atol=1e-12)
                    # Both solved by state reduction, which keeps the relative accuracy of states with a stationary
                    # mass of 1e-100: LU, which analyze uses, is off by up to 3e-12 in the rate of fast retransmits
                    # at Wmax = 40 on the fast channel, in either chain alike, and would hide what is compared.
                    want = {name: _gth(ref.transition) @ r for name, r in ref.rewards.items()}
                    got = {name: _gth(new.transition) @ r for name, r in new.rewards.items()}
                    for name, value in want.items():
                        assert got[name] == pytest.approx(value, rel=1e-12, abs=1e-300), (variant, wmax, k, rto, name)


def test_window_sequence_follows_d3():
    w = reference_tahoe.window_sequence(3, 6)
    assert list(w[:4]) == [1.0, 2.0, 3.0, 3.0 + 1.0 / 3.0]   # slow start below Wth, then +1/W
    assert w[-1] == 6.0 and np.all(np.diff(w) > 0)


def test_power_table_matches_matrix_power():
    a = np.array([[0.9, 0.05], [0.3, 0.1]])
    table = reference_tahoe.power_table(a, 77)
    for k in (0, 1, 2, 31, 64, 76):
        np.testing.assert_allclose(table[k], np.linalg.matrix_power(a, k), rtol=1e-13, atol=1e-300)


# Windows big enough for NewReno to take two partial ACKs (K + 2 < Wmax) and for Reno to fast-retransmit
# a second time after leaving recovery on a partial ACK (K = 1, ⌈Y/2⌉ >= 3).
@pytest.mark.parametrize("newreno, wmax, k, rto", [(True, 5, 2, 7), (True, 5, 1, 7), (False, 6, 3, 8),
                                                    (False, 6, 1, 8)])
def test_fast_recovery_phase2_matches_brute_force(newreno, wmax, k, rto):
    """Both core kernels, the reduced recursion over protocol states and the one from loss patterns
    that the analysis uses, against tests/reference_fast_recovery.py, which follows every path with
    absolute sequence numbers and the full set of held packets, on a channel that loses in both
    states: same endings, same probabilities and rewards to 1e-10, for every window class."""
    from tcpfade import _core

    ch = SlotMatrices.from_channel(tcpfade.GilbertElliott(p=0.8, q=0.5, loss_good=0.1, loss_bad=0.9))
    a, f = ch.success.tolist(), ch.failure.tolist()
    names = ["probability", "slots", "transmissions", "successes", "delivered", "losses_at_y", "losses",
             "cwnd_at_loss", "fast_retransmits"]
    patterns = _core.FastRecoveryPhase2(a, f, newreno, wmax, k, rto)
    for m in range(1, wmax + 1):
        for h in sorted({(m + 1) // 2, (m + 2) // 2}):
            ref = reference_phase2(a, f, newreno=newreno, wmax=wmax, k=k, rto=rto, window=m, next_ssthresh=h)
            for kernel, (endings, table) in [("explorer", _core.fast_recovery_phase2(a, f, newreno, wmax, k, rto, m, h)),
                                             ("patterns", patterns.outcomes(m, h))]:
                got = {tuple(e): table[i] for i, e in enumerate(endings)}
                assert set(got) == set(ref), (kernel, m, h)
                for key, rows in got.items():
                    for r, name in enumerate(names):
                        np.testing.assert_allclose(rows[r], ref[key][name], rtol=0, atol=1e-10,
                                                   err_msg=f"{kernel} {m} {h} {name}")


@pytest.mark.parametrize("wmax, k, rto", [(16, 1, 17), (20, 2, 60), (28, 3, 100), (36, 3, 37),
                                         (24, 5, 200)])
@pytest.mark.parametrize("channel", [tcpfade.GilbertElliott(p=0.8, q=0.5, loss_good=0.1, loss_bad=0.9),
                                     tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.016)])
def test_phase2_kernel_equals_the_full_exploration_at_larger_windows(wmax, k, rto, channel):
    """The kernel the analysis uses (loss patterns, and for Reno after a partial ACK its rounds summed over loss
    patterns, the held packets no ACK can reveal forgotten) against the exploration that keeps every held packet
    and follows every slot, for every window class of Wmax up to 36: the same endings, and probabilities and rewards
    equal to 1e-12, on a channel that loses in both states and on the papers' (a lost packet is a bad slot)."""
    from tcpfade import _core

    ch = SlotMatrices.from_channel(channel)
    a, f = ch.success.tolist(), ch.failure.tolist()
    for newreno in (False, True):
        patterns = _core.FastRecoveryPhase2(a, f, newreno, wmax, k, rto)
        for m in range(1, wmax + 1):
            for h in sorted({(m + 1) // 2, (m + 2) // 2}):
                endings, table = patterns.outcomes(m, h)
                ref_endings, ref_table = _core.fast_recovery_phase2(a, f, newreno, wmax, k, rto, m, h)
                assert [tuple(e) for e in endings] == [tuple(e) for e in ref_endings], (newreno, m, h)
                np.testing.assert_allclose(table, ref_table, rtol=1e-12, atol=1e-300, err_msg=f"{newreno} {m} {h}")


@settings(max_examples=40, deadline=None)
@given(p=st.floats(0.5, 0.9999), q=st.floats(0.0, 0.99), wmax=st.integers(1, 30), k=st.integers(1, 6),
       extra=st.integers(1, 200), lg=st.sampled_from([0.0, 0.01]))
def test_embedded_chain_is_a_chain_and_bounds_are_ordered(p, q, wmax, k, extra, lg):
    ch = tcpfade.GilbertElliott(p=p, q=q, loss_good=lg)
    m = SlotMatrices.from_channel(ch)
    for name in ("oldtahoe", "tahoe", "reno", "newreno"):
        model = cycle_model(m, name, wmax=wmax, dupthresh=k, rto=wmax + extra)
        np.testing.assert_allclose(model.transition.sum(axis=1), 1.0, atol=1e-9)
        assert np.all(model.transition >= -1e-15)
        pi = stationary_distribution(model.transition)
        np.testing.assert_allclose(pi @ model.transition, pi, atol=1e-9)
        r = tcpfade.analyze(name, ch, wmax=wmax, dupthresh=k, rto_slots=wmax + extra)
        assert 0 <= r.throughput.pessimistic <= r.throughput.optimistic <= r.load.optimistic <= 1 + 1e-12
        assert r.success_probability.optimistic <= 1 + 1e-12
        # Fast recovery inflates W past Wmax (Wth + K + one per duplicate ACK, BRIEF D1/D3).
        top = wmax if name in ("oldtahoe", "tahoe") else 2 * wmax + k
        assert 1 - 1e-9 <= r.mean_cwnd_at_loss.optimistic <= top + 1e-9


@pytest.mark.parametrize("kwargs", [
    dict(channel=tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.016), wmax=1),
    dict(channel=tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.016), wmax=6, dupthresh=6),
    dict(channel=tcpfade.GilbertElliott.from_fading(error_rate=1e-9, fdt=0.016)),
    dict(channel=tcpfade.GilbertElliott.from_fading(error_rate=0.999, fdt=0.016)),
    dict(channel=tcpfade.GilbertElliott.from_fading(error_rate=0.03, fdt=1e-4)),
    dict(channel=tcpfade.Bernoulli(0.0)),
    dict(channel=tcpfade.Bernoulli(1.0)),
])
def test_edge_cases_are_answered(kwargs):
    channel = kwargs.pop("channel")
    for variant in tcpfade.ANALYZED_VARIANTS:
        r = tcpfade.analyze(variant, channel, **kwargs)
        t = r.throughput
        assert 0 <= t.pessimistic <= t.optimistic <= 1
        assert math.isfinite(r.load.optimistic)
        if channel.error_rate == 0:
            assert t.pessimistic == 1.0 and r.timeouts_per_slot.optimistic == 0
        if channel.error_rate == 1:
            assert t.optimistic == 0 and r.load.optimistic == pytest.approx(1 / r.rto_slots)


def test_tiny_error_rate_approaches_lossless():
    r = tcpfade.analyze("tahoe", tcpfade.GilbertElliott.from_fading(error_rate=1e-9, fdt=0.016))
    assert r.throughput.pessimistic == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("bad, match", [
    (dict(variant="vegas"), "variant"),
    (dict(channel=tcpfade.ThresholdFading(fdt=0.01, error_rate=0.1)), "channel"),
    (dict(rto_slots=24), "rto_slots"),
    (dict(wmax=0), "wmax"),
    (dict(variant="newreno", wmax=129, rto_slots=200), "wmax"),
    (dict(dupthresh=0), "dupthresh"),
    (dict(transmit_energy=-1.0), "transmit_energy"),
    (dict(w_idle=-1.0), "w_idle"),
])
def test_bad_input_names_the_parameter(bad, match):
    args = dict(variant="tahoe", channel=tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.016))
    args.update(bad)
    with pytest.raises(tcpfade.ParameterError, match=match):
        tcpfade.analyze(args.pop("variant"), args.pop("channel"), **args)


def test_what_would_not_fit_is_refused_up_front(monkeypatch):
    """Tahoe's phase 1 is walked slot by slot (about Wmax³ slots) and its chain is dense (about 2 Wmax states):
    with the limits lowered, a Wmax past them is refused before any work, naming wmax and the figure."""

    ch = tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.016)
    monkeypatch.setenv("TCPFADE_WORK_LIMIT", str(1.0))    # 5e7 phase-1 slots a second: Wmax = 368 is the edge
    with pytest.raises(tcpfade.ParameterError, match=r"wmax = 400 .*tahoe analysis at Wmax = 400 implies 6.4e\+07"):
        tcpfade.analyze("tahoe", ch, wmax=400, rto_slots=500)
    assert tcpfade.analyze("oldtahoe", ch, wmax=360, rto_slots=500).states > 0
    monkeypatch.setenv("TCPFADE_MEMORY_LIMIT", str(2**20))        # 128 bytes per Wmax²: Wmax = 90 is the edge
    with pytest.raises(tcpfade.ParameterError, match=r"wmax = 100 .*oldtahoe analysis at Wmax = 100 would need"):
        tcpfade.analyze("oldtahoe", ch, wmax=100, rto_slots=500)


def test_energy_follows_eqs_14_to_18():
    ch = tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.016)
    base = tcpfade.analyze("tahoe", ch)
    full = tcpfade.analyze("tahoe", ch, w_active=2.0, w_idle=1.0)
    f = ch.fading_margin
    for which in (0, 1):
        lam0, eta = base.energy_efficiency[which], base.throughput[which]
        load = base.load[which]
        # eq. (15) through eq. (16)'s middle form, and eq. (18) below it
        lam = lam0 / (1 + (2.0 - 1.0) / f + 1.0 * lam0 / eta)
        assert full.energy_efficiency_full[which] == pytest.approx(lam, rel=1e-12)
        assert full.energy_efficiency_lower_bound[which] <= full.energy_efficiency_full[which] <= lam0
        assert lam0 == pytest.approx(eta / (f * load), rel=1e-12)


# A representative subset of the docs/validation/zorzi-rao.md grid: both variants, slow and fast fading,
# low and high error rates, Wmax 6 and 24, K 1 and 3, T0 50 and 100.
SUBSET = [
    ("newreno", 0.016, 0.1, 24, 3, 100),
    ("newreno", 0.256, 0.3, 6, 1, 50),
    ("reno", 0.001, 0.01, 24, 3, 50),
    ("reno", 0.256, 0.1, 24, 3, 100),
    ("tahoe", 0.001, 0.03, 6, 3, 100),
    ("tahoe", 0.016, 0.1, 24, 3, 100),
    ("tahoe", 0.256, 0.3, 24, 1, 50),
    ("tahoe", 0.256, 0.01, 24, 3, 50),
    ("oldtahoe", 0.016, 0.01, 6, 3, 50),
    ("oldtahoe", 0.256, 0.1, 24, 3, 100),
]


@pytest.mark.parametrize("variant, fdt, pe, wmax, k, t0", SUBSET)
def test_analysis_agrees_with_simulation(variant, fdt, pe, wmax, k, t0, scale):
    ch = tcpfade.GilbertElliott.from_fading(error_rate=pe, fdt=fdt)
    a = tcpfade.analyze(variant, ch, wmax=wmax, dupthresh=k, rto_slots=t0)
    # 99.9% batch-means intervals: 6 points x 6 checks, fixed seed.
    s = tcpfade.simulate(variant, ch, wmax=wmax, dupthresh=k, rto_slots=t0, slots=int(8_000_000 * scale), seed=11,
                         confidence=0.999)
    table = compare(a, s)
    # Quantities the count of successes does not touch agree with the simulation's interval ...
    for name in EXACT_METRICS:
        lo, hi = s.ci[name]
        assert lo <= a.bounds[name].optimistic <= hi, (name, a.bounds[name], s.ci[name])
    # ... and the delivered throughput lies between the bounds (the interval overlaps them).
    assert table.loc["throughput", "agrees"], table.loc["throughput"]

