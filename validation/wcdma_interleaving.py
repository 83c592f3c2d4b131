"""Why deeper interleaving raises zorzi-rossi-mazzini's per-block P_e in our chain (Fig. 2, §3.2), measured: the
block-error mapping against a direct Viterbi decode of real SIR traces at TTI = 1 and 8 frames.

For ``--seeds`` placements (90 users, f_d = 6 Hz, target 5.5 dB in the ``--reference`` SIR, ``--duration`` s),
every TTI of up to ``--decoded`` users drawn at random among those whose mapped P_e exceeds 1e-4 at either depth
(the users that make the mean) is sent once through the decoder of the whole chain (``coding.block_error_rate`` with one block: rate matching, both
interleavers, soft combining, Viterbi) with its own slot SIRs. Printed per depth and seed:

- the mapping's mean block error probability over those TTIs and the decoder's block error rate, with the
  decoder's binomial 95% interval (one decode per TTI: the sum of independent Bernoulli(p_i) has variance
  Σ p_i(1 − p_i) if the mapping is right);
- at TTI 1, the probability that a block of 8 consecutive frames holds a wrong 10-ms block, 1 − Π(1 − p_i) from
  the mapping and the share of such 80-ms spans with a decoding error: what an 80-ms TTI must beat for
  interleaving to help the decoder.

    python validation/wcdma_interleaving.py [--seeds 10] [--duration 8] [--decoded 12] [--reference bit]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from scipy import stats

from tcpfade import _core, wcdma
from tcpfade.wcdma.coding import FORMAT


def decode_once(sir_db: np.ndarray, tti_frames: int, seed: int) -> int:
    """One block through the decoder at the TTI's slot SIRs [dB]: 1 if it is decoded wrong."""
    info = FORMAT["block_bits"] * tti_frames + FORMAT["crc_bits"]
    return int(_core.block_errors(list(10 ** (sir_db / 10)), tti_frames, info, FORMAT["bits_per_frame"], 1, seed,
                                  None))


def one_seed(seed: int, duration: float, reference: str, decoded_users: int, users: int = 90) -> list[dict]:
    s = wcdma.simulate_system(users=users, doppler_hz=6.0, target_sir_db=5.5, duration=duration, seed=seed,
                              sir_reference=reference)
    bep = {k: s.block_error_probability(k) for k in (1, 8)}
    active = np.flatnonzero((bep[1].mean(axis=1) > 1e-4) | (bep[8].mean(axis=1) > 1e-4))
    active = np.sort(np.random.default_rng(seed).permutation(active)[:decoded_users])
    rows = []
    for k in (1, 8):
        slots = 15 * k
        n = bep[k].shape[1]
        decoded = np.zeros((len(active), n), dtype=np.int8)
        for a, u in enumerate(active):
            strings = s.sir_db[u, :n * slots].astype(float).reshape(n, slots)
            for j in range(n):
                decoded[a, j] = decode_once(strings[j], k, seed * 10_000_000 + k * 1_000_000 + u * 10_000 + j)
        p = bep[k][active]
        row = {"seed": seed, "tti_frames": k, "users_decoded": len(active), "blocks": int(decoded.size),
               "mapping_pe": float(p.mean()), "decoder_pe": float(decoded.mean()),
               "decoder_errors": int(decoded.sum()),
               "z": float((decoded.sum() - p.sum()) / np.sqrt((p * (1 - p)).sum())),
               "all_users_mapping_pe": float(bep[k].mean())}
        if k == 1:
            spans = n // 8
            p8 = p[:, :spans * 8].reshape(len(active), spans, 8)
            d8 = decoded[:, :spans * 8].reshape(len(active), spans, 8)
            row["mapping_any_of_8"] = float((1 - np.prod(1 - p8, axis=2)).mean())
            row["decoder_any_of_8"] = float(d8.max(axis=2).mean())
        rows.append(row)
        print({k2: (round(v, 5) if isinstance(v, float) else v) for k2, v in row.items()}, flush=True)
    return rows


def interval(x: pd.Series) -> str:
    m, h = x.mean(), stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else np.nan
    return f"{m:.4f} ± {h:.4f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--duration", type=float, default=8.0)
    ap.add_argument("--decoded", type=int, default=12, help="users decoded per placement")
    ap.add_argument("--reference", choices=wcdma.SIR_REFERENCES, default=wcdma.DEFAULT_SIR_REFERENCE)
    a = ap.parse_args()
    t0 = time.time()
    rows = [r for seed in range(1, a.seeds + 1) for r in one_seed(seed, a.duration, a.reference, a.decoded)]
    d = pd.DataFrame(rows)
    print(f"\n{a.seeds} placements, {a.duration:g} s each, target 5.5 dB per {a.reference} "
          f"({time.time() - t0:.0f} s). Mean over placements ± Student-t 95% half-width:")
    for k, g in d.groupby("tti_frames"):
        print(f"TTI {k}: users decoded {g.users_decoded.mean():.1f}; mapping P_e {interval(g.mapping_pe)}, decoder "
              f"P_e {interval(g.decoder_pe)}, decoder/mapping {interval(g.decoder_pe / g.mapping_pe)}; "
              f"z pooled {g.z.sum() / np.sqrt(len(g)):+.2f}")
    one = d[d.tti_frames == 1]
    print(f"TTI 1, any of 8 consecutive blocks wrong: mapping {interval(one.mapping_any_of_8)}, decoder "
          f"{interval(one.decoder_any_of_8)}")


if __name__ == "__main__":
    main()
