"""RACK-TLP (RFC 8985) as a part of the one sender: how the keyword enters (API, profiles, refusals) and what it
changes over a bursty link, judged by a paired-seed confidence interval. The rule-by-rule checks are the hand-worked
traces of crates/tcpfade-core/tests/rack_traces.rs."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import tcpfade
from tcpfade.tcp.profiles import LINUX

SEEDS = range(20)
#: Bursts of 4 packets at a 2% loss rate: a burst often takes the tail of a window, or a retransmission with it.
BURSTS = tcpfade.GilbertElliott.from_burst(0.02, 4.0)


def link(seed, **kw):
    """The SACK tests' link (tests/test_sack.py): 1000 packets/s, τ = 50 ms, β = 1, Linux's 200-ms minimum RTO."""
    return tcpfade.simulate_link("newreno", rate=1000.0, tau=0.05, beta=1.0, channel=BURSTS, duration=200.0,
                                 seed=seed, min_rto=0.2, sack=True, **kw)


def paired(metric, **kw):
    """The 95% Student-t interval of the per-seed difference (RACK-TLP − plain SACK), and the two means."""
    plain = np.array([getattr(link(s), metric) for s in SEEDS])
    rack = np.array([getattr(link(s, rack=True, **kw), metric) for s in SEEDS])
    d = rack - plain
    h = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    return (d.mean() - h, d.mean() + h), plain.mean(), rack.mean()


def test_rack_tlp_times_out_less_than_sack_alone_over_bursts():
    # RFC 6675 needs three SACKed packets above a hole and cannot see a lost retransmission: a burst that takes the
    # tail of a window, or the retransmission, ends in an RTO. RACK marks by time and TLP probes the tail
    # (measured, 12 seeds: 0.156 → 0.093 timeouts/s, the paired difference [-0.088, -0.039]).
    (low, high), plain, rack = paired("timeouts_per_s")
    assert high < 0, (low, high, plain, rack)


def test_rack_needs_sack_in_the_cores_words_and_takes_true_or_false_only():
    kw = dict(rate=100, tau=0.05, channel=None, duration=100, seed=1)
    with pytest.raises(tcpfade.ParameterError) as e:
        tcpfade.simulate_link("newreno", rack=True, **kw)
    assert str(e.value).startswith("rack = True is not allowed: RACK-TLP is the loss detection of SACK's loss "
                                   "recovery here") and "turn sack on too" in str(e.value)
    for bad in (1, "yes", None):
        with pytest.raises(tcpfade.ParameterError, match=r"rack = .* is not allowed: must be True or False"):
            tcpfade.simulate_link("newreno", sack=True, rack=bad, **kw)


@pytest.mark.filterwarnings("ignore::tcpfade.errors.InertParameterWarning")   # the profile spelled out: its
# prr_partial_ack is SACK-less's rule, said inert with SACK on
def test_the_linux_profile_runs_rack_and_an_explicit_false_wins():
    assert LINUX.values["rack"] is True and LINUX.requires["rack"] == "sack"
    kw = dict(rate=200.0, tau=0.05, beta=1.0, channel=tcpfade.Bernoulli(0.03), duration=100.0, seed=2)
    linux = tcpfade.simulate_link("cubic", profile="linux", **kw)
    spelled = tcpfade.simulate_link("cubic", **tcpfade.simulate_link.model.profile_values("linux"), **kw)
    off = tcpfade.simulate_link("cubic", profile="linux", rack=False, **kw)
    spelled_off = tcpfade.simulate_link("cubic", **{**tcpfade.simulate_link.model.profile_values("linux"), "rack": False}, **kw)
    assert linux.goodput == spelled.goodput and off.goodput == spelled_off.goodput
    assert (linux.goodput, linux.timeouts_per_s) != (off.goodput, off.timeouts_per_s)  # RACK changed the run
    # sack=False under the profile turns its rack off too (RACK needs the scoreboard), and keeps PRR (from
    # duplicate ACKs, as Linux) and F-RTO (from the cumulative ACK, as Linux); rack asked for without SACK is refused.
    assert tcpfade.simulate_link("cubic", profile="linux", sack=False, **kw).goodput == \
        tcpfade.simulate_link("cubic", **{**tcpfade.simulate_link.model.profile_values("linux"), "sack": False, "prr": True, "rack": False, "frto": True},
                              **kw).goodput
    with pytest.raises(tcpfade.ParameterError, match="rack = True is not allowed"):
        tcpfade.simulate_link("cubic", profile="linux", sack=False, rack=True, **kw)


def test_the_transfer_model_and_wcdma_take_rack_and_the_slotted_model_refuses_it():
    lossy = tcpfade.GilbertElliott.from_burst(0.05, 3.0)
    r = tcpfade.simulate_transfer("newreno", lossy, size_bytes=300_000, seed=3, sack=True, rack=True)
    assert r.completed and r.delivered_bytes == 300_000 and r.parameters["rack"] is True
    blocks = (np.arange(3000) % 37 == 0).astype(int)
    w = tcpfade.wcdma.tcp_over_blocks(blocks, sack=True, rack=True)
    assert w.retransmissions > 0 and 0 < w.throughput < 1
    with pytest.raises(tcpfade.ParameterError, match="rack = True is not allowed: the slotted model's timer"):
        tcpfade.simulate("newreno", lossy, slots=10_000, seed=2, sack=True, rack=True)
