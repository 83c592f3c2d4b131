"""A brute-force reference for the core's Reno/NewReno phase 2 (tcpfade_core::analysis::fast_recovery).

Written separately and as plainly as possible: absolute sequence numbers, a Python set for the packets
the receiver holds, every path followed slot by slot with no state reduction (so only small windows and
timeouts are practical). The rules are BRIEF D1-D4 as docs/models.md states them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, replace

import numpy as np


@dataclass(frozen=True)
class Path:
    channel: int
    cwnd: float | None          # None: still the window Y of the loss
    ssthresh: float
    dupacks: int
    recover: int | None
    retransmit: bool
    fires_at: int | None        # the slot at whose end the timer fires
    una: int
    high: int
    held: frozenset


def phase2(success, failure, *, newreno: bool, wmax: int, k: int, rto: int, window: int, next_ssthresh: int):
    """{(kind, ssthresh, cwnd, end_channel): {reward: [value for s0 = 0, 1]}} with kind 0 timeout, 1 clean.

    Rewards: probability, slots, transmissions, successes, delivered, losses, cwnd_at_loss (losses at
    W = Y count Y as 0 here and are reported in losses_at_y), losses_at_y, fast_retransmits.
    """
    step = np.asarray(success) + np.asarray(failure)
    out: dict = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0]))

    def finish(key, s0, prob, acc):
        o = out[key]
        o["probability"][s0] += prob
        for name, value in acc.items():
            o[name][s0] += prob * value

    for s0 in (0, 1):
        # Loss of packet 0 at slot 0, timer started then.
        start = Path(s0, None, 0.0, 0, None, False, rto - 1, 0, 1, frozenset())
        paths = [(start, 1.0, {"slots": 0, "transmissions": 0, "successes": 0, "losses": 0, "cwnd_at_loss": 0.0,
                               "losses_at_y": 0, "fast_retransmits": 0})]
        t = 0
        while paths:
            t += 1
            nxt = []
            for p, prob, acc in paths:
                w = window if p.cwnd is None else min(int(math.floor(p.cwnd)), wmax)
                halve = next_ssthresh if p.cwnd is None else math.ceil(p.cwnd / 2)
                if p.retransmit:
                    seq = p.una
                elif p.high < p.una + w:
                    seq = p.high
                else:
                    # Stalled: idle to the end of slot fires_at, then the timer.
                    idle = np.linalg.matrix_power(step, p.fires_at - t + 1)[p.channel]
                    freed = run_after(p.held, p.una)
                    for end in (0, 1):
                        a = dict(acc, slots=p.fires_at, delivered=p.una + freed)
                        finish((0, halve, 1.0, end), s0, prob * idle[end], a)
                    continue
                for ok, matrix in ((True, success), (False, failure)):
                    for end in (0, 1):
                        pr = matrix[p.channel][end]
                        if pr == 0:
                            continue
                        q, a = replace(p, channel=end), dict(acc)
                        a["transmissions"] += 1
                        if seq == q.una and q.retransmit:
                            q = replace(q, retransmit=False)
                        q = replace(q, high=max(q.high, seq + 1))
                        if q.fires_at is None:
                            q = replace(q, fires_at=t + rto - 1)
                        if ok:
                            a["successes"] += 1
                            q = receive(q, seq, a, newreno=newreno, wmax=wmax, k=k, rto=rto, t=t,
                                        next_ssthresh=next_ssthresh)
                        elif q.cwnd is None:
                            a["losses_at_y"] += 1
                        else:
                            a["losses"] += 1
                            a["cwnd_at_loss"] += p.cwnd
                        if q.fires_at == t:
                            nh = next_ssthresh if q.cwnd is None else math.ceil(q.cwnd / 2)
                            a.update(slots=t, delivered=q.una + run_after(q.held, q.una))
                            finish((0, nh, 1.0, end), s0, prob * pr, a)
                        elif q.una == q.high and q.recover is None and not q.retransmit:
                            a.update(slots=t, delivered=q.una)
                            finish((1, int(q.ssthresh), q.cwnd, end), s0, prob * pr, a)
                        else:
                            nxt.append((q, prob * pr, a))
            paths = nxt
    return out


def run_after(held: frozenset, una: int) -> int:
    n = 0
    while una + 1 + n in held:
        n += 1
    return n


def receive(q: Path, seq: int, a: dict, *, newreno, wmax, k, rto, t, next_ssthresh) -> Path:
    """The receiver's cumulative ACK for a correct packet `seq`, and the sender's reaction to it."""
    held = set(q.held)
    if seq == q.una:
        ack = q.una + 1
        while ack in held:
            held.discard(ack)
            ack += 1
    else:
        held.add(seq)
        ack = q.una
    q = replace(q, held=frozenset(held))
    if ack > q.una:
        acked = ack - q.una
        q = replace(q, una=ack)
        if q.recover is None:
            w = q.cwnd + 1.0 if q.cwnd < q.ssthresh else q.cwnd + 1.0 / q.cwnd
            q = replace(q, dupacks=0, cwnd=min(w, float(wmax)))
        elif not newreno or ack >= q.recover:
            q = replace(q, cwnd=q.ssthresh, recover=None, dupacks=0)
        else:
            q = replace(q, retransmit=True, cwnd=max(q.cwnd - acked + 1.0, 1.0))
        return replace(q, fires_at=t + rto if q.una < q.high else None)
    if q.una < q.high:
        q = replace(q, dupacks=q.dupacks + 1)
        if q.recover is not None:
            q = replace(q, cwnd=q.cwnd + 1.0)
        elif q.dupacks == k:
            a["fast_retransmits"] += 1
            ssthresh = float(next_ssthresh if q.cwnd is None else math.ceil(q.cwnd / 2))
            q = replace(q, ssthresh=ssthresh, cwnd=ssthresh + k, retransmit=True, recover=q.high)
    return q
