"""Prototype: exact phase-2 exploration for Reno/NewReno from a fresh loss window.

Slots are numbered from the loss (slot 0). A timer "fires at the end of slot d".
"""
import math
from collections import defaultdict
import numpy as np

# accumulator layout
P, TX, SUCC, L_Y, L_W, W_SUM, FR, DELIV = range(8)
NACC = 8


def _run_after_una(held: int) -> int:
    """Packets held right after una (held bit b = una + b; bit 0 is una itself, never held)."""
    n, hb = 0, held >> 1
    while hb & 1:
        n += 1
        hb >>= 1
    return n


def explore(ch, variant, m, h, s0, wmax, k, rto, prune=0.0):
    """Distribution of phase-2 outcomes.

    Returns dict: key -> accumulated vector, key = ("timeout", s_end, ssthresh_next, end_slot) or
    ("clean", s_end, ssthresh, cwnd, end_slot).
    """
    a, f, step = ch.success, ch.failure, ch.step
    newreno = variant == "newreno"
    # (s, pre, cwnd, ssth, dup, rec, retx, d, una, high, held)
    start = (s0, True, 0.0, 0.0, 0, -1, -1, rto - 1, 0, 1, 0)
    acc0 = np.zeros(NACC); acc0[P] = 1.0
    live = {start: acc0}
    out = defaultdict(lambda: np.zeros(NACC))
    t = 0
    peak = 1
    while live:
        t += 1
        nxt = {}
        for st, acc in live.items():
            if st[0] == "doom":
                _, s, cwnd, n_out, r, full, d = st
                if n_out >= min(int(cwnd), wmax):
                    dist = np.linalg.matrix_power(step, d - t + 1)[s]
                    for s2 in (0, 1):
                        if dist[s2] == 0:
                            continue
                        o = out[("timeout", s2, math.ceil(cwnd / 2), d)]
                        o += dist[s2] * acc
                        o[DELIV] += dist[s2] * acc[P] * r
                    continue
                for ok, mat in ((True, a), (False, f)):
                    for s2 in (0, 1):
                        pr = mat[s, s2]
                        if pr == 0.0 or acc[P] * pr <= prune:
                            continue
                        n = acc * pr
                        n[TX] += n[P]
                        if ok:
                            n[SUCC] += n[P]
                            key = ("doom", s2, cwnd + 1.0, n_out + 1, r + 1 if full else r, full, d)
                        else:
                            n[L_W] += n[P]
                            n[W_SUM] += n[P] * cwnd
                            key = ("doom", s2, cwnd, n_out + 1, r, False, d)
                        if d <= t:
                            o = out[("timeout", s2, math.ceil(key[2] / 2), t)]
                            o += n
                            o[DELIV] += n[P] * key[4]
                            continue
                        if key in nxt:
                            nxt[key] += n
                        else:
                            nxt[key] = n
                continue
            s, pre, cwnd, ssth, dup, rec, retx, d, una, high, held = st
            usable = m if pre else min(int(cwnd), wmax)
            if retx >= 0:
                seq = retx
            elif high < una + usable:
                seq = high
            else:
                # Nothing to send and no ACK can come: idle through slot d, then the timer fires.
                dist = np.linalg.matrix_power(step, d - t + 1)[s]
                nth = h if pre else math.ceil(cwnd / 2)
                for s2 in (0, 1):
                    if dist[s2] == 0:
                        continue
                    o = out[("timeout", s2, nth, d)]
                    o += dist[s2] * acc
                    o[DELIV] += dist[s2] * acc[P] * (una + _run_after_una(held))
                continue
            for ok, mat in ((True, a), (False, f)):
                for s2 in (0, 1):
                    pr = mat[s, s2]
                    if pr == 0.0 or acc[P] * pr <= prune:
                        continue
                    n = acc * pr
                    n[TX] += n[P]
                    c = [pre, cwnd, ssth, dup, rec, retx, d, una, high, held]
                    c_pre, c_cwnd, c_ssth, c_dup, c_rec, c_retx, c_d, c_una, c_high, c_held = c
                    if seq == c_retx:
                        c_retx = -1
                    c_high = max(c_high, seq + 1)
                    if c_d < 0:
                        c_d = t + rto - 1
                    if ok:
                        n[SUCC] += n[P]
                        if seq == c_una:
                            ack = c_una + 1 + _run_after_una(c_held)
                            c_held >>= ack - c_una
                        else:
                            ack = c_una
                            c_held |= 1 << (seq - c_una)
                        if ack > c_una:
                            acked = ack - c_una
                            c_una = ack
                            if 0 <= c_retx < ack:
                                c_retx = -1
                            if c_rec < 0:
                                c_dup = 0
                                assert not c_pre
                                c_cwnd = c_cwnd + 1.0 if c_cwnd < c_ssth else c_cwnd + 1.0 / c_cwnd
                                c_cwnd = min(c_cwnd, float(wmax))
                            elif not newreno or ack >= c_rec:
                                c_cwnd, c_rec, c_dup = c_ssth, -1, 0
                            else:
                                c_retx = c_una
                                c_cwnd = max(c_cwnd - acked + 1.0, 1.0)
                            c_d = t + rto if c_una < c_high else -1
                        elif c_una < c_high:
                            c_dup += 1
                            if c_rec >= 0:
                                c_cwnd += 1.0
                            elif c_dup == k:
                                n[FR] += n[P]
                                c_ssth = float(h) if c_pre else float(math.ceil(c_cwnd / 2))
                                c_pre = False
                                c_cwnd = c_ssth + k
                                c_retx = c_una
                                c_rec = c_high
                    else:
                        if c_pre:
                            n[L_Y] += n[P]
                        else:
                            n[L_W] += n[P]
                            n[W_SUM] += n[P] * cwnd
                    if 0 <= c_d <= t:
                        nth = h if c_pre else math.ceil(c_cwnd / 2)
                        o = out[("timeout", s2, nth, t)]
                        o += n
                        o[DELIV] += n[P] * (c_una + _run_after_una(c_held))
                        continue
                    if c_una == c_high and c_rec < 0 and c_retx < 0:
                        o = out[("clean", s2, c_ssth, c_cwnd, t)]
                        o += n
                        o[DELIV] += n[P] * c_una
                        continue
                    if c_rec >= 0 and c_retx < 0:
                        # Doomed: the retransmission of una was lost and nothing can resend it before the
                        # timer; only counts matter from here on. Fold una into the delivered count.
                        n[DELIV] += n[P] * c_una
                        r = _run_after_una(c_held)
                        n_out = c_high - c_una
                        key = ("doom", s2, c_cwnd, n_out, r, r == n_out - 1, c_d)
                    else:
                        key = (s2, c_pre, c_cwnd, c_ssth, c_dup, c_rec, c_retx, c_d, c_una, c_high, c_held)
                    if key in nxt:
                        nxt[key] += n
                    else:
                        nxt[key] = n
        live = nxt
        peak = max(peak, len(live))
    return out, peak, t


from tcpfade.analysis.window import window_sequence, window_class
from tcpfade.analysis.channel import power_table
from tcpfade.analysis.renewal import stationary_distribution


def phase1(ch, wmax, ssth, w0):
    """List of (m, h, G0[s,s0], G1, GW) for a clean start at W = w0 (offset 0)."""
    w = window_sequence(int(ssth), wmax, w0) if float(ssth).is_integer() else None
    a, f = ch.success, ch.failure
    kend = len(w) - 1
    pw = power_table(a, kend + 1)
    out = {}
    for kk in range(kend):
        cls = window_class(w[kk])
        v = pw[kk] @ f
        g = out.setdefault(cls, [np.zeros((2, 2)), np.zeros((2, 2)), np.zeros((2, 2))])
        g[0] += v; g[1] += (kk + 1) * v; g[2] += w[kk] * v
    R = np.linalg.inv(np.eye(2) - a)
    g0 = pw[kend] @ R @ f
    g1 = pw[kend] @ ((kend + 1) * R + a @ R @ R) @ f
    cls = window_class(float(wmax))
    g = out.setdefault(cls, [np.zeros((2, 2)), np.zeros((2, 2)), np.zeros((2, 2))])
    g[0] += g0; g[1] += g1; g[2] += wmax * g0
    return out


def model(ch, variant, wmax, k, rto):
    cache = {}
    index = {}
    order = []
    def idx(state):
        if state not in index:
            index[state] = len(order); order.append(state)
        return index[state]
    idx((0, 1.0, 1.0))
    rows = []
    qi = 0
    peak = 0
    while qi < len(order):
        s, ssth, w0 = order[qi]; qi += 1
        row = defaultdict(float)
        rew = np.zeros(9)  # slots, tx, succ_low, succ_high, timeouts, fr, losses, wsum
        for (m, hh), (g0, g1, gw) in phase1(ch, wmax, ssth, w0).items():
            for s0 in (0, 1):
                pm = g0[s, s0]
                if pm == 0: continue
                key = (m, hh, s0)
                if key not in cache:
                    out, pk, _ = explore(ch, variant, m, hh, s0, wmax, k, rto)
                    peak = max(peak, pk)
                    cache[key] = out
                out = cache[key]
                # phase 1 rewards
                rew[0] += g1[s, s0]; rew[1] += g1[s, s0]
                rew[2] += g1[s, s0] - pm; rew[3] += g1[s, s0] - pm
                rew[6] += pm; rew[7] += gw[s, s0]
                for ok, o in out.items():
                    if ok[0] == "timeout":
                        _, s2, nth, tend = ok
                        nxt = (s2, float(nth), 1.0); rew[4] += pm * o[P]
                    else:
                        _, s2, ssth2, cw2, tend = ok
                        nxt = (s2, float(ssth2), float(cw2))
                    row[idx(nxt)] += pm * o[P]
                    rew[0] += pm * o[P] * tend
                    rew[1] += pm * o[TX]
                    rew[2] += pm * o[DELIV]
                    rew[3] += pm * o[SUCC]
                    rew[5] += pm * o[FR]
                    rew[6] += pm * (o[L_Y] + o[L_W])
                    rew[7] += pm * o[W_SUM] + (gw[s, s0] / pm if pm else 0) * pm * o[L_Y]
        rows.append((row, rew))
    n = len(order)
    T = np.zeros((n, n)); Rw = np.zeros((n, 9))
    for i, (row, rew) in enumerate(rows):
        for j, p in row.items(): T[i, j] = p
        Rw[i] = rew
    return T, Rw, peak, n
