"""The receiver's window (``rwnd_rule``; docs/models.md, "The receiver's window"): Wmax in every ACK, the papers'
receiver, or Linux 6.18's autotuned window. The rule itself is worked by hand in
``crates/tcpfade-core/src/tcp/rwnd.rs``; here, what a run must show whatever the channel (the sender never has more
outstanding than the last window allows, and that window never moves its right edge back), the kernel's own first
windows (``validation/kernel_rwnd.csv``, traced at the kernel's receiver), and the parameter at every entry."""

from __future__ import annotations

import pandas as pd
import pytest
from validation_scripts import load

import tcpfade
from tcpfade.errors import ParameterError

#: A kernel-grid cell's link (docs/validation/kernel.md): 10 Mb/s of 1500-byte packets, 50 ms one way, a fading channel.
CELL = dict(rate=833.0, tau=0.1, buffer=84, packet_bytes=1500, duration=8.0, warmup=0.0, batches=4)


def _trace(variant="cubic", seed=1, **kw):
    channel = tcpfade.ThresholdFading(2.5 / 833.0, error_rate=0.01)
    return tcpfade.simulate_link(variant, **CELL, channel=channel, seed=seed, profile="linux", trace_seconds=8.0, **kw)


@pytest.mark.parametrize("sack", [True, False])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_sender_stays_within_the_window_whose_edge_never_moves_back(sack, seed):
    r = _trace(seed=seed, sack=sack, **({} if sack else {"rack": False}))
    t = r.trace
    assert r.parameters["rwnd_rule"] == "linux"
    # The kernel's first window: its SYN-ACK's 64 KiB in whole segments of 1448 bytes (1500 less 52 of headers).
    assert t.rwnd.iloc[0] == 65160 // 1448 == 45
    assert (t.high - t.una <= t.rwnd).all()
    edge = t.una + t.rwnd
    assert (edge.diff().dropna() >= 0).all()
    # Right-sized as the data arrives: well past the first buffer's 56 segments (the kernel's reached 2,335-3,230 in
    # this cell with SACK; how far depends on the losses each run meets).
    assert t.rwnd.max() > 2 * 56


def test_the_papers_receiver_advertises_wmax_and_is_the_default():
    r = tcpfade.simulate_link("cubic", **CELL, channel=None, seed=1, trace_seconds=2.0)
    assert r.parameters["rwnd_rule"] == "wmax" and (r.trace.rwnd == r.parameters["wmax"]).all()
    # The linux profile's send buffer (4 MiB) caps what is outstanding, with either rule (the next test but one); the
    # receiver still advertises its whole buffer, and the trace shows the receiver's window.
    p = tcpfade.simulate_link("cubic", **CELL, channel=None, seed=1, trace_seconds=2.0, profile="linux",
                              rwnd_rule="wmax")
    assert p.parameters["wmax"] == 1 << 16 and (p.trace.rwnd == 1 << 16).all()


def test_the_first_round_trips_windows_are_the_kernels():
    """Against the kernel's receiver, traced (validation/kernel_rwnd.csv): 45 segments before the first ACK, then
    55.87 for the first round trip (80,896 bytes: the clamp 81,920 less the segment unread, rounded up to 1 KiB),
    of which the sender may use 55 whole segments; the simulated window is the same in every cell traced."""
    kernel = pd.read_csv(load("kernel_rwnd").OUT)
    assert (kernel["window_0s"] == 45).all()
    assert ((kernel["window_0.1s"].round(2) == 55.87) | (kernel["window_0.1s"] > 56)).all()
    t = _trace().trace
    first_rtt = t[t.time <= 0.3]
    assert first_rtt.rwnd.iloc[0] == 45 and first_rtt.rwnd.max() == 55 == int(80896 / 1448)


def test_right_sizing_lets_a_loss_free_slow_start_double_as_the_kernel_means_it_to():
    """A transfer of 4 MB at 100 Mb/s and 50 ms one way with a 32-MiB receive buffer: the window starts at the
    SYN-ACK's 65,535 bytes (31 segments of the transfer's 2048 bytes) and, right-sized at six times what arrived in the last
    round trip of a slow start (2c(1 + 2(c − s)/s) with c = 2s), stays ahead of a sender that doubles each round trip
    ("slow start: allow the sender to double its rate", tcp_rcvbuf_grow()): the transfer takes the time it takes with
    the whole buffer advertised, within 1%, and never has more outstanding than the window allows."""
    runs = {rule: tcpfade.simulate_transfer("cubic", size_bytes=4_000_000, mss=2048, rate_bps=100e6, delay=0.05,
                                            channel=None, profile="linux", rwnd_rule=rule, rwnd_bytes=1 << 25, seed=1,
                                            trace_seconds=2.0)
            for rule in ("wmax", "linux")}
    t = runs["linux"].trace
    assert t.rwnd.iloc[0] == 65535 // 2048 and t.rwnd.max() > 10 * 32 and (t.high - t.una <= t.rwnd).all()
    assert abs(runs["linux"].connection_time / runs["wmax"].connection_time - 1) < 0.01


def test_the_linux_profiles_transfer_has_linuxs_largest_receive_buffer():
    """The linux profile sets a transfer's receive buffer to tcp_rmem[2], 32 MiB (this machine's kernel, 6.18; the
    kernel grid's traced runs, docs/validation/kernel.md), so its autotuned window is not capped by the papers' 64 KiB:
    the call without ``rwnd_bytes`` is the call with 2^25 bytes, event for event. Given, the caller's buffer wins; the
    papers' profile keeps 65,535 bytes, which holds the autotuned window below its first 45 segments."""
    call = dict(size_bytes=2_000_000, mss=1448, rate_bps=100e6, delay=0.02, channel=None, seed=1, trace_seconds=1.0)
    r = tcpfade.simulate_transfer("cubic", profile="linux", **call)
    assert r.parameters["rwnd_bytes"] == 1 << 25 and r.parameters["rwnd_rule"] == "linux"
    same = tcpfade.simulate_transfer("cubic", profile="linux", rwnd_bytes=1 << 25, **call)
    assert r.connection_time == same.connection_time and r.trace.equals(same.trace)
    assert r.trace.rwnd.max() > 2 * 56
    small = tcpfade.simulate_transfer("cubic", profile="linux", rwnd_bytes=65_535, **call)
    assert small.parameters["rwnd_bytes"] == 65_535 and small.trace.rwnd.max() == 65_535 // 1448 == 45
    papers = tcpfade.simulate_transfer("cubic", rwnd_rule="linux", **call)
    assert papers.parameters["rwnd_bytes"] == 65_535 and papers.trace.rwnd.max() == 45
    # The link model counts its window in packets: the profile's buffer in bytes is not one of its parameters.
    assert "rwnd_bytes" not in tcpfade.simulate_link("cubic", **CELL, channel=None, seed=1, profile="linux").parameters


def test_the_trace_shows_the_receivers_window_beyond_the_senders_buffer():
    """The sender's buffer (the linux profile's 4 MiB, tcp_wmem[2]) caps what is outstanding, not what the receiver
    advertises: a loss-free transfer at 100 Mb/s and 50 ms one way has its flight held at 4 MiB // 1480 bytes = 2,833
    segments while the autotuned window grows past it, to the kernel's own largest: the clamp 32 MiB · 160/256 =
    20,971,520 bytes less the segment being read, rounded up to 1 KiB (as the first round trip's 80,896 of 81,920),
    20,970,496 bytes or 14,482 segments (rwnd.rs); without the send buffer the flight goes past 2,833 and the window is the same (found by a
    review: the trace had shown the sender's cap as the receiver's window)."""
    call = dict(channel=None, size_bytes=20_000_000, mss=1448, rate_bps=100e6, delay=0.05, trace_seconds=5, seed=1,
                profile="linux")
    capped = tcpfade.simulate_transfer("cubic", **call).trace
    free = tcpfade.simulate_transfer("cubic", send_buffer=None, **call).trace
    assert (capped.high - capped.una).max() == 4194304 // (1448 + 20 + 12) == 2833   # mss, header_bytes, timestamps
    clamp = 33554432 * 160 // 256
    assert capped.rwnd.max() == free.rwnd.max() == -(-(clamp - 1448) // 1024) * 1024 // 1448 == 14482
    assert (free.high - free.una).max() > 2833


def test_a_packet_without_payload_is_refused_with_the_linux_window():
    """The kernel's window counts payload bytes: a packet of the link model at most its 52 bytes of headers (40 without
    timestamps) has none, and was once taken as one byte without a word."""
    for packet_bytes, timestamps in ((1, True), (52, True), (40, False)):
        with pytest.raises(ParameterError, match=f"packet_bytes = {packet_bytes} is not allowed: must carry 1 to"):
            tcpfade.simulate_link("cubic", **{**CELL, "packet_bytes": packet_bytes}, channel=None, seed=1,
                                  rwnd_rule="linux", timestamps=timestamps)
    assert tcpfade.simulate_link("cubic", **{**CELL, "packet_bytes": 53}, channel=None, seed=1, rwnd_rule="linux",
                                 timestamps=True).goodput > 0
    # The papers' receiver counts packets: any size runs.
    assert tcpfade.simulate_link("cubic", **{**CELL, "packet_bytes": 1}, channel=None, seed=1).goodput > 0


def test_jumbo_segments_are_right_sized_too():
    """A 9000-byte packet carries 8948 bytes: the kernel's first measure is then not ten segments (89,480 bytes, above
    its first buffer's 81,920) but min(ceiling, window, 10 segments) = 56,588 bytes (tcp_init_buffer_space()), so the
    first round trip's reads exceed it and the window grows as with 1500-byte packets: a loss-free run goes as fast
    as with Wmax."""
    link = dict(rate=1000, tau=0.05, buffer=200, packet_bytes=9000, duration=30, warmup=0, batches=2, channel=None,
                seed=1, profile="linux", trace_seconds=30)
    r, w = (tcpfade.simulate_link("cubic", rwnd_rule=rule, **link) for rule in ("linux", "wmax"))
    assert r.trace.rwnd.iloc[0] == 65536 // 8948 and r.trace.rwnd.max() > 100
    assert r.goodput > 0.95 * w.goodput


def test_the_syn_acks_window_is_at_most_65535_bytes():
    """tcp_make_synack() sends min(window, 65535) unscaled: with 2048-byte segments (65536 a whole number of them)
    the first window is 31 segments, not 32."""
    r = tcpfade.simulate_transfer("cubic", size_bytes=200_000, mss=2048, rate_bps=1e7, delay=0.01, channel=None,
                                  profile="linux", rwnd_bytes=1 << 25, seed=1, trace_seconds=1.0)
    assert r.trace.rwnd.iloc[0] == 65535 // 2048 == 31


def test_a_payload_beyond_an_ip_packet_is_refused_with_the_linux_window():
    with pytest.raises(ParameterError, match="packet_bytes"):
        tcpfade.simulate_link("cubic", **{**CELL, "packet_bytes": 70_000}, channel=None, seed=1, rwnd_rule="linux")
    with pytest.raises(ParameterError, match="mss"):
        tcpfade.simulate_transfer("cubic", size_bytes=10**6, mss=70_000, mtu=1 << 20, channel=None, rwnd_rule="linux",
                                  rwnd_bytes=1 << 25, seed=1)


@pytest.mark.parametrize("bad", ["bsd", "", None, 3, True])
def test_an_unknown_rule_is_refused_naming_the_parameter(bad):
    with pytest.raises(ParameterError, match="rwnd_rule"):
        tcpfade.simulate_link("cubic", **CELL, channel=None, seed=1, rwnd_rule=bad)


def test_the_wcdma_bearer_takes_the_rule():
    """Over the bearer (512-byte packets, 472 of payload) Linux's first window, the SYN-ACK's 64 KiB, is 138 packets,
    above the bearer's receiver window of 128 (zorzi-rossi-mazzini's 64 KB), which caps it: the rule is taken and
    changes nothing there."""
    import numpy as np

    errors = np.zeros(3000, dtype=np.int8)
    errors[::40] = 1
    runs = {rule: tcpfade.wcdma.tcp_over_blocks(errors, rwnd_rule=rule) for rule in ("wmax", "linux")}
    assert 0 < runs["linux"].throughput == runs["wmax"].throughput < 1
    assert 65536 // 472 == 138 > 128


def test_cwnd_limited_is_linuxs_and_refused_by_the_slotted_model_with_its_reason():
    """The part (tcp/cwnd_usage.rs; hand-worked in crates/tcpfade-core/tests/receive_window_traces.rs) is in the linux
    profile, off elsewhere; the slotted sender always fills its window, so that model refuses it, saying why."""
    assert _trace().parameters["cwnd_limited"] is True
    assert tcpfade.simulate_link("cubic", **CELL, channel=None, seed=1).parameters["cwnd_limited"] is False
    with pytest.raises(ParameterError, match="cwnd_limited.*always fills its window"):
        tcpfade.simulate("reno", tcpfade.Bernoulli(0.01), slots=10_000, seed=1, cwnd_limited=True)
