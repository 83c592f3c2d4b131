"""The Viterbi decoder of the UMTS rate-1/2, K = 9 code against the union bound at high SNR (zorzi-rossi-mazzini's
code, TS 25.212 §4.2.3.1): the block error rate of the paper's transport format (1066 information bits, repeated
from 2148 to 2400 coded bits) by Monte Carlo, beside

    P_B ≲ L · Σ_d A_d · Σ_x Binomial(x; d, r) · Q(√(2 γ (d + x))),

L = 1066 starting points, A_d the number of error events of weight d (from a depth-first search of the trellis
written here, independent of the core), γ the symbol SNR, and x the coded bits of the event sent twice by rate
matching, each with probability r = 252/2148 (the pattern is periodic, so this is an approximation; replacing it
by the average energy, Q(√(2 d ρ γ)) with ρ = 2400/2148, underestimates the pairwise error probability by
Jensen's inequality, and is shown too). The bound is tight where errors are single low-weight events (high SNR)
and loose below. Writes validation/viterbi_union_bound.csv.

    python validation/viterbi_union_bound.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from tcpfade import wcdma

HERE = Path(__file__).resolve().parent
G = (0o561, 0o753)


def spectrum(max_weight: int) -> dict[int, int]:
    """A_d: error events leaving state 0 and first returning to it, by output weight, up to ``max_weight``."""
    def out(reg):
        return sum(bin(reg & g).count("1") % 2 for g in G)

    counts: dict[int, int] = {}
    stack = [((1 << 8) >> 1, out(1 << 8))]
    while stack:
        state, w = stack.pop()
        for u in (0, 1):
            reg = (u << 8) | state
            nw = w + out(reg)
            if nw > max_weight:
                continue
            if reg >> 1 == 0:
                counts[nw] = counts.get(nw, 0) + 1
            else:
                stack.append((reg >> 1, nw))
    return counts


def main() -> None:
    a = spectrum(22)
    rho, info = 2400 / 2148, 1066
    rows = []
    for i, sir_db in enumerate((-0.5, 0.0, 0.5, 1.0)):
        gamma = 10 ** (sir_db / 10)
        average = info * sum(n * stats.norm.sf(np.sqrt(2 * d * rho * gamma)) for d, n in a.items())
        r_rep = 252 / 2148
        bound = info * sum(n * sum(stats.binom.pmf(x, d, r_rep) * stats.norm.sf(np.sqrt(2 * gamma * (d + x)))
                                   for x in range(d + 1)) for d, n in a.items())
        blocks = 20_000 if sir_db < 0.75 else 60_000
        r = wcdma.block_error_rate(sir_db, blocks=blocks, seed=100 + i)
        rows.append({"sir_db": sir_db, "blocks": blocks, "errors": r.errors, "bler": r.rate, "bler_low": r.low,
                     "bler_high": r.high, "union_bound": bound, "average_energy_estimate": average})
    table = pd.DataFrame(rows)
    table.to_csv(HERE / "viterbi_union_bound.csv", index=False)
    print("A_d:", dict(sorted(a.items())))
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
