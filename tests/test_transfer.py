"""Finite transfers and TCP-Probing (tsaoussidis-badr §3-§4): the zero-loss row of Table 1 from first principles,
the byte accounting, the energy model, the pluggable decision rule, and bad input. The probe cycle's rules are
hand-worked in crates/tcpfade-core/tests/probing_traces.rs."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tcpfade
from tcpfade.devices import PRESETS, Device
from tcpfade.tcp.transfer import RATE_BPS

SIZE = 5_242_880
ON_OFF = tcpfade.ContinuousTwoState.on_off


@pytest.mark.parametrize("variant", ["tahoe", "reno", "newreno", "probing"])
def test_zero_loss_row_of_table_1_from_first_principles(variant):
    r = tcpfade.simulate_transfer(variant, None)
    # n = ⌈5,242,880 / 2028⌉ = 2586 data segments with 20-byte headers; delayed ACKs: 1293 ACKs of 20 bytes;
    # SYN and SYN-ACK (24 bytes: the MSS option), the handshake's ACK, the FIN, the FIN-ACK and the last ACK.
    n = math.ceil(SIZE / 2028)
    assert n == 2586
    extra = 20 * n + 20 * math.ceil(n / 2) + 2 * 24 + 4 * 20
    assert r.effort_bytes == SIZE + extra
    assert round(r.overhead_percent, 2) == 1.48          # Table 1, rows 0.1-0.4
    # The half-duplex link is busy with every byte once; it idles only while the first segment's ACK is
    # delayed (0.2 s: the window is one segment). Nothing else waits: the delay is 0.
    busy = r.effort_bytes * 8 / RATE_BPS
    assert r.connection_time == pytest.approx(busy + 0.2, abs=2e-3)
    assert abs(r.connection_time - 40.0) < 5e-4           # 40.000 s
    assert r.completed and r.delivered_bytes == SIZE and r.goodput_bps == pytest.approx(8 * SIZE / r.connection_time)
    assert r.retransmissions == r.timeouts == r.probe_cycles == 0


def test_byte_accounting_is_consistent_under_losses():
    r = tcpfade.simulate_transfer("probing", ON_OFF(10.0, 0.2), seed=3, record_frames=True)
    k = r.by_kind
    assert r.completed and r.delivered_bytes == SIZE
    assert r.effort_bytes == sum(c[1] for c in k.values()) == int(r.frames.bytes.sum())
    assert k["data"][0] == math.ceil(SIZE / 2028)
    assert k["retransmission"][0] == r.retransmissions > 0
    assert k["probe"][0] == r.probes_sent > 0 and k["probe"][1] == 28 * r.probes_sent
    assert r.overhead_percent == pytest.approx(100 * (r.effort_bytes - SIZE) / SIZE)
    assert r.probe_cycles == r.cycles_after_timeout + r.cycles_after_dupacks == len(r.cycles)
    assert r.immediate_recoveries + r.slow_starts == r.probe_cycles
    # Every dropped segment is in the log, and none of the receiver's would be with drop_acks=False.
    assert int(r.frames.dropped.sum()) == sum(c[2] for c in k.values()) > 0
    quiet = tcpfade.simulate_transfer("probing", ON_OFF(10.0, 0.2), seed=3, drop_acks=False, record_frames=True)
    assert not quiet.frames[~quiet.frames.sender].dropped.any()


def test_energy_follows_the_device_model():
    r = tcpfade.simulate_transfer("reno", ON_OFF(1.0, 0.1), seed=2)
    wavelan = PRESETS["wavelan"](RATE_BPS)
    s = r.radios["sender"]
    # The link is half-duplex: a host's radio transmits and receives in turn, never both.
    assert s["tx_time"] + s["rx_time"] <= r.connection_time
    assert s["tx_time"] == pytest.approx(s["tx_bytes"] * 8 / RATE_BPS)
    by_hand = 1.6 * s["tx_time"] + 1.2 * s["rx_time"] + 1.15 * (r.connection_time - s["tx_time"] - s["rx_time"])
    assert r.energy_sender_joules == pytest.approx(by_hand, rel=1e-12)
    assert wavelan.tx_power == 1.6
    linear = tcpfade.simulate_transfer("reno", ON_OFF(1.0, 0.1), seed=2, device="802.11-linear")
    s = linear.radios["sender"]
    by_hand = (0.8 * s["idle_time"] + 420e-6 * s["tx_frames"] + 1.9e-6 * s["tx_bytes"] + 330e-6 * s["rx_frames"]
               + 0.42e-6 * s["rx_bytes"])
    assert linear.energy_sender_joules == pytest.approx(by_hand, rel=1e-12)
    assert linear.joules_per_bit == pytest.approx(linear.energy_joules / (8 * SIZE))
    own = Device("mine", tx_power=2.0, rx_power=1.0, idle_power=0.0)
    mine = tcpfade.simulate_transfer("reno", ON_OFF(1.0, 0.1), seed=2, device=own)
    s = mine.radios["sender"]
    assert mine.energy_sender_joules == pytest.approx(2.0 * s["tx_time"] + 1.0 * s["rx_time"])
    phone = PRESETS["3g-dch"](1e6)   # Huang et al.: β + α·(1 Mb/s)
    assert (phone.tx_power, phone.rx_power, phone.idle_power) == pytest.approx((1.68686, 0.94, 0.81788))


def test_same_seed_same_transfer_and_seed_matters():
    a = tcpfade.simulate_transfer("probing", ON_OFF(1.0, 0.1), seed=5)
    b = tcpfade.simulate_transfer("probing", ON_OFF(1.0, 0.1), seed=5)
    c = tcpfade.simulate_transfer("probing", ON_OFF(1.0, 0.1), seed=6)
    assert a.to_dict() == b.to_dict() and a.connection_time != c.connection_time


def test_decision_rule_in_python_sees_the_measurements_and_decides():
    seen = []

    def never(**m):
        seen.append(m)
        return False

    r = tcpfade.simulate_transfer("probing", ON_OFF(10.0, 0.1), seed=1, decision=never)
    assert r.slow_starts == r.probe_cycles == len(seen) > 0 and r.immediate_recoveries == 0
    m = seen[0]
    assert set(m) == {"trigger", "rtt1", "rtt2", "best_rtt", "last_rtt", "duration", "cwnd", "ssthresh", "dupacks",
                      "exchanges"}
    assert m["trigger"] in ("timeout", "dupacks") and 0 < m["best_rtt"] <= min(m["rtt1"], m["rtt2"])
    assert m["exchanges"] >= 1 and m["duration"] >= m["rtt1"] + m["rtt2"]
    # The paper's rule again, written in Python, gives the built-in rule's transfer exactly.
    paper = tcpfade.simulate_transfer("probing", ON_OFF(10.0, 0.1), seed=1,
                                      decision=lambda **m: m["best_rtt"] <= min(m["rtt1"], m["rtt2"])
                                      and max(m["rtt1"], m["rtt2"]) <= m["last_rtt"])
    assert paper.to_dict() == tcpfade.simulate_transfer("probing", ON_OFF(10.0, 0.1), seed=1).to_dict() | {}
    with pytest.raises(ZeroDivisionError):
        tcpfade.simulate_transfer("probing", ON_OFF(10.0, 0.1), seed=1, decision=lambda **m: 1 / 0)
    with pytest.raises(tcpfade.ParameterError, match="must return True"):
        tcpfade.simulate_transfer("probing", ON_OFF(10.0, 0.1), seed=1, decision=lambda **m: "yes")


def test_a_transfer_that_cannot_finish_stops_at_its_time_limit():
    dead = tcpfade.ContinuousTwoState(1.0, 1.0, loss_rule="vdeldrop", loss_good=1.0, loss_bad=1.0)
    r = tcpfade.simulate_transfer("reno", dead, time_limit=500.0, seed=1)
    assert not r.completed and r.connection_time == 500.0 and r.delivered_bytes == 0 and r.goodput_bps == 0.0
    assert r.syn_retransmissions > 0 and r.by_kind["data"][0] == 0 and math.isinf(r.joules_per_bit)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(size_bytes=-1), "size_bytes = -1 is not allowed"),
    (dict(mss=70_000), "mss = 70000 is not allowed: a segment of mss \\+ header_bytes"),
    (dict(mss=1500, mtu=1000), "exceeds the link's mtu = 1000"),
    (dict(device="nokia"), "device = 'nokia' is not allowed: must be a Device or one of"),
    (dict(rate_bps=math.nan), "rate_bps = nan is not allowed"),
    (dict(rwnd_bytes=100), "rwnd_bytes = 100 is not allowed: must hold one segment"),
    (dict(decision=True), "decision = True is not allowed"),
    (dict(probe_high=0.0), "probe_high = 0"),
    (dict(time_limit=0.0), "time_limit = 0"),
])
def test_bad_input_is_refused_naming_the_parameter(kwargs, needle):
    with pytest.raises(tcpfade.ParameterError, match=needle):
        tcpfade.simulate_transfer("probing", **kwargs)


def test_drop_rate_outside_0_1_and_probing_where_the_model_has_no_probes():
    with pytest.raises(tcpfade.ParameterError, match="drop_rate = 1.2 is not allowed"):
        ON_OFF(10.0, 1.2)
    with pytest.raises(tcpfade.ParameterError, match="variant = 'probing' is not allowed: .*the slotted model"):
        tcpfade.simulate("probing", tcpfade.Bernoulli(0.01), slots=1000, seed=1)
    with pytest.raises(tcpfade.ParameterError, match="variant = 'probing' is not allowed: .*the bulk link model"):
        tcpfade.simulate_link("probing", rate=100, tau=0.01, seed=1, duration=10)


def test_simulate_transfers_gives_a_row_per_variant_and_seed():
    df = tcpfade.simulate_transfers(["tahoe", "probing"], ON_OFF(1.0, 0.05), seeds=3)
    assert len(df) == 6 and list(df.variant) == ["tahoe"] * 3 + ["probing"] * 3 and list(df.seed) == [1, 2, 3] * 2
    assert np.all(df.completed) and {"connection_time", "overhead_percent", "probe_segments"} <= set(df.columns)
    one = tcpfade.simulate_transfer("probing", ON_OFF(1.0, 0.05), seed=2).to_dict()
    assert df.iloc[4].to_dict()["connection_time"] == one["connection_time"]


def test_a_probe_timer_without_a_floor_is_refused_up_front(monkeypatch):
    """TCP-Probing's probe timer restarts without backoff and is never shorter than max(G, 2 · delay) (or the fixed
    rto): a run sends at most time_limit / that floor probes, and a long data frame ahead of them on the medium can
    hold them all. Found by the long fuzz (seed 45): G = 0 on a 1000-bit/s link with 9000-byte segments queued 10^8
    probes behind one frame and the process ran out of memory. Now refused where it enters, naming the parameter."""
    link = dict(size_bytes=300_000, time_limit=418.0, rate_bps=1000.0, metering="payload", mss=9000, mtu=9100,
                min_rto=1e-3, initial_rto=1.5, seed=1)
    with pytest.raises(tcpfade.ParameterError, match=r"clock_granularity = 0\.0 is not allowed: up to inf probes "
                                                     r"\(time_limit / the probe timer's floor, 0 s\) implies more "
                                                     r"events than a double"):
        tcpfade.simulate_transfer("probing", None, clock_granularity=0.0, delay=0.0, **link)
    # A floor of 2 µs: 2.09e8 probes, 13.4 GB on the medium at most, beyond a 1-GiB limit (the fuzzer's).
    monkeypatch.setenv("TCPFADE_MEMORY_LIMIT", str(1 << 30))
    with pytest.raises(tcpfade.ParameterError, match=r"clock_granularity = 0\.0 is not allowed: up to 2\.09e\+08 "
                                                     r"probes .* all on the medium at once would need"):
        tcpfade.simulate_transfer("probing", None, clock_granularity=0.0, delay=1e-6, **link)
    # The default tick (10 ms) bounds the same run to 41,800 probes: it runs.
    assert not tcpfade.simulate_transfer("probing", None, delay=1e-6, **link).completed
    # The other variants have no probe cycle, so the floor does not concern them.
    tcpfade.simulate_transfer("reno", None, clock_granularity=0.0, delay=1e-6, **link)
