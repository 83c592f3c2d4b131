"""HyStart++ (RFC 9406) from Python: the keyword in each driver, the slotted model's refusal, and what it is for,
fewer losses from the initial slow start's overshoot (hand-worked traces: crates/tcpfade-core/tests/hystart_traces.rs)."""

from __future__ import annotations

import pytest

import tcpfade

# A loss-free 8 Mb/s link (1000 packets/s), τ = 50 ms, a buffer of 200 packets (about 4 μT): the only losses are the
# buffer's, and the initial slow start overshoots it.
LINK = dict(rate=1000, tau=0.05, buffer=200, channel=None, duration=5, warmup=0, seed=1, profile="linux")


@pytest.mark.parametrize("variant", ["newreno", "cubic"])
def test_hystart_leaves_slow_start_before_the_overshoot_fills_the_buffer(variant):
    plain = tcpfade.simulate_link(variant, **LINK).to_dict()
    hystart = tcpfade.simulate_link(variant, hystart=True, **LINK).to_dict()
    # The run is deterministic (no channel losses): one run decides. Without HyStart++ slow start doubles into the
    # buffer, loses hundreds of packets and times out once. With it, a round whose smallest RTT is RttThresh =
    # max(4 ms, min(51 ms / 8, 16 ms)) = 6.4 ms above the last round's (a standing queue of 7 packets at 1 ms each)
    # sends it to CSS, whose quarter growth overshoots the buffer far less. With Linux's RTO (at least SRTT + 200 ms,
    # the profile's rto_rule) the overshoot's long recovery does not time out; with RFC 6298's (at least 200 ms) it
    # times out once, and HyStart++ avoids that too. Under ns-2's delayed-ACK rule the go-back-N after that timeout
    # into the flight the receiver partly holds is ACKed late (each in-order segment below a gap waits for the next or
    # the timer), and a second timeout follows with the profile's ssthresh_once_per_window (the timeout inside the
    # overshoot's recovery keeps that recovery's large ssthresh, as Linux's tcp_enter_loss() does, so the slow start
    # after it overshoots again), not without it. The timeouts counted under RFC 6298's rule are with Karn's backoff
    # (timestamps off): the profile's timestamps time the timeout's retransmission and end its backoff, and the RTO,
    # back at its base during the overshoot's long recovery, fires once more.
    assert plain["buffer_losses"] > 200 and plain["timeouts"] == 0
    assert hystart["buffer_losses"] < plain["buffer_losses"] / 3 and hystart["timeouts"] == 0
    rfc = tcpfade.simulate_link(variant, rto_rule="rfc6298", timestamps=False, **LINK).to_dict()
    rfc_hystart = tcpfade.simulate_link(variant, rto_rule="rfc6298", timestamps=False, hystart=True, **LINK).to_dict()
    assert rfc["buffer_losses"] > 200 and rfc["timeouts"] == 1
    assert rfc_hystart["buffer_losses"] < rfc["buffer_losses"] / 3 and rfc_hystart["timeouts"] == 0
    ns2 = dict(rto_rule="rfc6298", delayed_ack_rule="ns2", timestamps=False, **LINK)
    assert tcpfade.simulate_link(variant, **ns2).timeouts == 2
    assert tcpfade.simulate_link(variant, ssthresh_once_per_window=False, **ns2).timeouts == 1


def test_the_keyword_is_checked_taken_by_every_timed_driver_and_refused_by_the_slotted_model():
    for bad in (1, "yes", None):
        with pytest.raises(tcpfade.ParameterError, match=f"hystart = {bad!r} is not allowed: must be True or False"):
            tcpfade.simulate_link("newreno", hystart=bad, **LINK)
    r = tcpfade.simulate_transfer("cubic", None, size_bytes=200_000, hystart=True)
    assert r.completed and r.parameters["hystart"] is True
    w = tcpfade.wcdma.tcp_over_blocks([0] * 3000, hystart=True)
    assert w.retransmissions == 0
    with pytest.raises(tcpfade.ParameterError, match="hystart = True is not allowed: the slotted model's clock counts "
                                                     "slots"):
        tcpfade.simulate("newreno", tcpfade.Bernoulli(0.01), slots=1000, seed=1, hystart=True)
    # No profile turns it on: Linux runs HyStart, not HyStart++.
    from tcpfade.tcp.profiles import PROFILES
    assert all(not p.values.get("hystart", False) for p in PROFILES)
