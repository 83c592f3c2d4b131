"""CUBIC's response function (RFC 9438 §5.1) against simulate_link under i.i.d. losses.

The closed forms (derived in docs/validation/standard-tcp.md from RFC 9438 §4.2-4.3 for a loss every 1/p packets,
the RFC's *deterministic* loss model, with C = 0.4, β = β_cubic = 0.7):

- cubic region: the window climbs from β W_max back to W_max in K = ∛(W_max (1 − β)/C) seconds, sending
  (W_max K − C K⁴/4)/R = W_max K (3 + β)/(4R) packets = 1/p. The average window, packets × R / K, is
  ``avg_cubic = (C (3 + β) / (4 (1 − β)))^(1/4) · R^(3/4) / p^(3/4)`` (1.054 (R/p)^(3/4));
- Reno-friendly region: AIMD with α = α_cubic = 3(1 − β)/(1 + β) per RTT and decrease β has the average window
  sqrt(α (1 + β)/(2 (1 − β) p)) = ``sqrt(3/(2p))``, Reno's (1.22/sqrt(p)), which is what α_cubic was chosen for.

Losses here are Bernoulli per packet, not periodic. Random losses raise the average window by a factor that the
deterministic model leaves out; Ott, Kemperman and Mathis (1996) give 1.31/sqrt(p) for Reno against 1.22 for the
periodic case. The same idealized fluid models with a geometric number of packets between losses (`random_*`
below, which reproduce 1.31 for Reno) give the factor for CUBIC's two regions, with its own rules: fast
convergence (§4.7, which acts at every loss below the last W_max, about half of them) and α_cubic → 1 once
W_est passes the window before the last reduction (§4.3).

Run ``python validation/cubic_response.py`` (about a minute) for the table in docs/validation/standard-tcp.md and
validation/cubic_response.csv.
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

import numpy as np

C, BETA = 0.4, 0.7
ALPHA = 3 * (1 - BETA) / (1 + BETA)
#: Reno's average window × sqrt(p) under random losses (Ott, Kemperman and Mathis 1996).
OTT = 1.3098


def deterministic_cubic(p: float, rtt: float) -> float:
    """RFC 9438 §5.1's average window in the cubic region [segments], periodic losses."""
    return (C * (3 + BETA) / (4 * (1 - BETA))) ** 0.25 * rtt ** 0.75 / p ** 0.75


def deterministic_reno_friendly(p: float) -> float:
    """The Reno-friendly region's average window [segments], periodic losses: AIMD(α_cubic, β_cubic) = Reno's."""
    return math.sqrt(ALPHA * (1 + BETA) / (2 * (1 - BETA) * p))


def random_aimd(p: float, alpha: float, beta: float, switch: bool, epochs: int = 20_000, seed: int = 1) -> float:
    """The average window of a fluid AIMD (α per RTT, ×β at a loss) with a geometric(p) number of packets between
    losses; with ``switch`` α becomes 1 above the window before the last loss (RFC 9438 §4.3). Per packet
    W dW = a dn, per unit time dW/dt = a/R: each epoch is closed-form. The average window is R × packets / time."""
    ns = np.random.default_rng(seed).geometric(p, epochs)
    prior, packets, time = 1.0 / math.sqrt(p), 0.0, 0.0
    for i, n in enumerate(ns):
        w0 = beta * prior
        n1 = (prior ** 2 - w0 ** 2) / (2 * alpha) if switch else math.inf
        if n <= n1:
            w = math.sqrt(w0 ** 2 + 2 * alpha * n)
            t = (w - w0) / alpha  # in RTTs
        else:
            w = math.sqrt(prior ** 2 + 2 * (n - n1))
            t = (prior - w0) / alpha + (w - prior)
        if i >= epochs // 20:  # the first epochs forget the start
            packets, time = packets + n, time + t
        prior = w
    return packets / time


def random_cubic(p: float, rtt: float, epochs: int = 5_000, seed: int = 1, fast_convergence: bool = True) -> float:
    """The average window of RFC 9438's W_cubic(t) (§4.2, cwnd_epoch = β × the window at the loss, K from W_max −
    cwnd_epoch, fast convergence §4.7) with a geometric(p) number of packets between losses; the packets sent in t
    seconds of an epoch are (W_max t + C((t − K)⁴ − K⁴)/4)/R, solved for t by bisection."""
    ns = np.random.default_rng(seed).geometric(p, epochs)
    w_loss = w_max = deterministic_cubic(p, rtt)
    packets = time = 0.0
    for i, n in enumerate(ns):
        cw = BETA * w_loss
        k = ((w_max - cw) / C) ** (1 / 3) if w_max > cw else 0.0
        wm = max(w_max, cw)

        def sent(t: float) -> float:
            return (wm * t + C * ((t - k) ** 4 - k ** 4) / 4) / rtt

        lo, hi = 0.0, 1.0
        while sent(hi) < n:
            hi *= 2
        for _ in range(50):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if sent(mid) < n else (lo, mid)
        t = (lo + hi) / 2
        w = C * (t - k) ** 3 + wm
        if i >= epochs // 20:
            packets, time = packets + n, time + t
        w_max = w * (1 + BETA) / 2 if fast_convergence and w < wm else w
        w_loss = w
    return rtt * packets / time


def random_reno_friendly(p: float, epochs: int = 20_000, seed: int = 1) -> float:
    """The Reno-friendly region with random losses (α_cubic, β_cubic, α → 1 above the last loss's window)."""
    return random_aimd(p, ALPHA, BETA, switch=True, epochs=epochs, seed=seed)


def simulated_window(p: float, rtt: float, duration: float, seed: int = 1,
                     variant: str = "cubic") -> tuple[float, tuple[float, float]]:
    """simulate_link(variant) over Bernoulli(p) with the round trip T = rtt, a pipe far above the window and a
    buffer that never fills: the average window goodput × μ × T / (1 − p) (packets sent per RTT), with its
    batch-means interval."""
    import tcpfade

    rate = 1e5
    r = tcpfade.simulate_link(variant, rate=rate, tau=rtt - 1 / rate, buffer=1 << 20, channel=tcpfade.Bernoulli(p),
                              duration=duration, seed=seed, batches=20)
    assert r.buffer_losses == 0 and r.pipe > 5 * r.sent / (r.duration - r.warmup) * rtt
    scale = r.rate * r.round_trip / (1 - r.channel_loss_rate)
    low, high = r.ci["goodput"]
    return r.goodput * scale, (low * scale, high * scale)


#: (p, R [s], simulated duration [s]): three points deep in each region (the other region's window at least 2.5×
#: smaller) and one near the boundary.
POINTS = [(0.01, 0.01, 2000.0), (0.001, 0.01, 2000.0), (0.003, 0.02, 2000.0),
          (0.001, 0.5, 20000.0), (1e-4, 0.2, 20000.0), (0.01, 2.0, 40000.0), (0.003, 0.1, 5000.0)]


def main(out: Path = Path(__file__).with_suffix(".csv")) -> None:
    print("| p | R [s] | region | p W̄ | periodic losses | random losses | simulated [95% CI] | simulated / random "
          "| NewReno / 1.3098/sqrt(p) |")
    rows = []
    for p, rtt, duration in POINTS:
        cubic, reno = deterministic_cubic(p, rtt), deterministic_reno_friendly(p)
        region = "cubic" if cubic > reno else "Reno-friendly"
        det = max(cubic, reno)
        rnd = random_cubic(p, rtt) if region == "cubic" else random_reno_friendly(p)
        sim, (low, high) = simulated_window(p, rtt, duration)
        # the control: the same simulator's NewReno against the literature's 1.3098/sqrt(p) at the same point
        control = simulated_window(p, rtt, duration, variant="newreno")[0] / (OTT / math.sqrt(p))
        rows.append({"p": p, "rtt_s": rtt, "region": region, "pW": p * sim, "deterministic": det,
                     "random_losses": rnd, "simulated": sim, "ci_low": low, "ci_high": high,
                     "simulated_over_random": sim / rnd, "newreno_over_ott": control})
        print(f"| {p:g} | {rtt:g} | {region} | {p * sim:.2f} | {det:.1f} | {rnd:.1f} | {sim:.1f} [{low:.1f}, "
              f"{high:.1f}] | {sim / rnd:.3f} | {control:.3f} |", flush=True)
    with out.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print("Reno (α = 1, β = 1/2) with random losses, × sqrt(p):",
          round(random_aimd(1e-3, 1.0, 0.5, switch=False, epochs=100_000) * math.sqrt(1e-3), 4),
          "(Ott, Kemperman and Mathis 1996: 1.3098)")


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:]))
