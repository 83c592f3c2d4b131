"""tsaoussidis-badr Table 1's statistics and TCP-Probing's readings of best RTT, checked against the paper's own
rows and against values worked out by hand from the link's arithmetic (BRIEF D12)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import tcpfade
from tcpfade.reproduce.registry import Ablation, Claim, Verdict
from tcpfade.reproduce.tsaoussidis_table import PHASES, TABLE1, cell, paper_goodput, transfers
from tcpfade.tcp.transfer import HEADER_BYTES, MSS, RATE_BPS, SIZE_BYTES

ON_OFF = tcpfade.ContinuousTwoState.on_off


def test_the_papers_goodput_column_is_8_size_over_its_time_column():
    """§4: "Goodput = Original Data / Connection Time". Every standard variant's row (42 of them) equals
    8·5,242,880 / time to within the printed time's rounding (half a unit of its last digit: 0.0005 s in the
    1-s columns, 0.005 s in the 10-s ones) and the goodput's own (0.5 bit/s). Five Probing rows are 0.01-0.07%
    off (e.g. 1.4: 8·5,242,880 / 53.26 = 787,515 against 787,426 printed): still the same statistic, not the mean
    of per-run goodputs, which would lie above it by the spread of the times."""
    for (rate, variant), columns in TABLE1.items():
        for k, (time, goodput, _overhead) in enumerate(columns):
            half = 0.0005 if k == 0 else 0.005
            low, high = paper_goodput(time + half) - 0.5, paper_goodput(time - half) + 0.5
            if variant == "probing":
                assert goodput == pytest.approx(paper_goodput(time), rel=7e-4), (rate, variant, PHASES[k])
            else:
                assert low <= goodput <= high, (rate, variant, PHASES[k])


def test_a_cells_goodput_is_8_size_over_the_mean_time_with_that_times_interval():
    size = 500_000
    runs = transfers("reno", 1.0, 0.05, seeds=range(1, 9), size_bytes=size)
    times = np.array([r.connection_time for r in runs])
    row = cell(runs)
    assert row["goodput"] == pytest.approx(8 * size / times.mean(), rel=1e-12)
    # The mean time's 95% Student-t interval (scipy's t quantile with 7 degrees of freedom), carried through the
    # decreasing map 8·size / t: its upper end gives the goodput's lower end.
    half = stats.t.ppf(0.975, 7) * times.std(ddof=1) / math.sqrt(8)
    assert 0 < half < times.mean()
    assert (row["time_low"], row["time_high"]) == pytest.approx((times.mean() - half, times.mean() + half))
    assert row["goodput_low"] == pytest.approx(8 * size / (times.mean() + half))
    assert row["goodput_high"] == pytest.approx(8 * size / (times.mean() - half))
    # Not the mean of the runs' goodputs, which is larger whenever the times differ (Jensen).
    assert np.mean([r.goodput_bps for r in runs]) > row["goodput"]


def _cycles(best_rtt: str, seed: int = 3):
    r = tcpfade.simulate_transfer("probing", ON_OFF(10.0, 0.2), seed=seed, best_rtt=best_rtt)
    assert r.probe_cycles > 5
    return r.cycles


#: The SYN's round trip on the idle link at t = 0: SYN and SYN-ACK of 24 bytes each (20-byte header and the MSS
#: option), no delay: 2 · 24 · 8 / 1,069,465 s.
SYN_RTT = 2 * (HEADER_BYTES + 4) * 8 / RATE_BPS
#: No data segment comes back faster than its own serialization: (2028 + 20) bytes at the link's rate.
DATA_FLOOR = (MSS + HEADER_BYTES) * 8 / RATE_BPS


def test_best_rtt_from_data_segments_only_lies_above_every_unqueued_probe():
    c = _cycles("data")
    assert (c.best_rtt >= DATA_FLOOR).all()
    # A probe that met no queue takes 2 · 28 bytes: about 0.42 ms, far below a data segment's 15 ms floor, so the
    # paper's rule [best RTT, last RTT] fails on it and the cycle slow-starts.
    unqueued = c[c.rtt1 < DATA_FLOOR]
    assert len(unqueued) > 0 and (unqueued.outcome == "slow_start").all()


def test_best_rtt_from_earlier_probes_starts_unbounded_and_then_takes_the_earlier_cycles_probes():
    c = _cycles("probes")
    assert c.best_rtt.iloc[0] == 0.0   # no earlier cycle: the lower bound does not bind
    earlier = np.minimum.accumulate(np.minimum(c.rtt1, c.rtt2).to_numpy())
    single = (c.exchanges == 1).to_numpy()
    for k in range(1, len(c)):
        # At most the smallest probe RTT of the cycles before (abandoned exchanges may add smaller ones) ...
        assert c.best_rtt.iloc[k] <= earlier[k - 1] + 1e-15
        # ... and exactly it when no cycle before restarted an exchange.
        if single[:k].all():
            assert c.best_rtt.iloc[k] == pytest.approx(earlier[k - 1], abs=1e-15)
        # Never this cycle's own probes: a probe below the earlier best is possible, and then fails the rule.
        if min(c.rtt1.iloc[k], c.rtt2.iloc[k]) < c.best_rtt.iloc[k]:
            assert c.outcome.iloc[k] == "slow_start"


def test_best_rtt_from_every_earlier_sample_is_the_syns_until_a_probe_beats_it():
    c = _cycles("earlier")
    # Data samples take at least DATA_FLOOR > SYN_RTT, so before any probe has come back the best is the SYN's.
    assert c.best_rtt.iloc[0] == pytest.approx(SYN_RTT, rel=1e-9)
    probes_before = np.minimum.accumulate(np.minimum(c.rtt1, c.rtt2).to_numpy())
    for k in range(1, len(c)):
        assert c.best_rtt.iloc[k] <= min(SYN_RTT, probes_before[k - 1]) * (1 + 1e-12)


def test_an_ablation_makes_a_disagreement_explained_only_when_it_reaches_the_paper():
    fails = Verdict(False, "ours 0.9")
    reaches = Ablation("one change", 0.9, 0.72, 0.72, True)
    misses = Ablation("one change", 0.9, 0.85, 0.72, False)

    def claim(ablation=None, known=""):
        return Claim("s", "§", lambda _d: fails, known_disagreement=known,
                     ablation=None if ablation is None else (lambda _d: ablation))

    assert claim(reaches, "found").judge(None).status == "explained"
    assert claim(misses, "found").judge(None).status == "not explained"
    assert claim(None, "found").judge(None).status == "not explained"
    assert claim().judge(None).status == "unexpected"
    assert "0.9 -> 0.72 (paper 0.72; reaches it)" in str(reaches)
    holds = Claim("s", "§", lambda _d: Verdict(True, "ok"), ablation=lambda _d: pytest.fail("not measured"))
    assert holds.judge(None).status == "agrees" and holds.judge(None).ablation is None


@pytest.mark.parametrize("kwargs, needle", [
    (dict(best_rtt="own"), "best_rtt = 'own' is not allowed"),
    (dict(best_rtt=1), "best_rtt = 1 is not allowed"),
    (dict(metering="bytes"), "metering = 'bytes' is not allowed"),
])
def test_readings_are_named_choices(kwargs, needle):
    with pytest.raises(tcpfade.ParameterError, match=needle):
        tcpfade.simulate_transfer("probing", **kwargs)


def test_payload_metering_is_5_mib_in_40_s_plus_the_first_delayed_ack():
    """Only payload takes link time: 5,242,880 · 8 bits at 2^20 bit/s is 40 s exactly; headers, ACKs and the
    handshake take none; the first segment's ACK waits the delayed-ACK timeout (0.2 s) with a window of one."""
    r = tcpfade.simulate_transfer("reno", None, metering="payload", rate_bps=float(2 ** 20))
    assert r.connection_time == pytest.approx(40.2, abs=1e-9)
    assert r.radios["sender"]["tx_time"] == pytest.approx(40.0, abs=1e-9)
    no_delack = tcpfade.simulate_transfer("reno", None, metering="payload", rate_bps=float(2 ** 20),
                                          delayed_ack=None)
    assert no_delack.connection_time == pytest.approx(40.0, abs=1e-9) and math.isclose(
        no_delack.goodput_bps, 8 * SIZE_BYTES / 40.0)
