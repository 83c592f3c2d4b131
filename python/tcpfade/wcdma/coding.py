"""The UMTS channel code and its block errors (zorzi-rossi-mazzini §2.2-2.3; 3GPP TS 25.212), from the Rust
core's ``coding`` module: the rate-1/2 convolutional code of constraint length 9 (generators 561 and 753
octal), its soft-decision Viterbi decoder, repetition rate matching and the first and second interleavers.

:func:`block_error_rate` sends random transport blocks through the whole chain, each 0.667-ms slot of the TTI at
its own SIR (the per-symbol SNR after despreading), and counts the blocks decoded wrong: the Monte-Carlo
reference the WCDMA block-error mapping is calibrated against.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from functools import lru_cache

import numpy as np
import pandas as pd

from .. import _core
from .. import _validate as v
from .._record import Record
from .._stats import Interval
from .._watch import reporting

#: The paper's transport format (§2.3): a 1050-bit transport block (1034 at the IP level and 16 of RLC/MAC) per
#: 10-ms frame, a 16-bit CRC, 2400 coded bits per frame (240 kb/s), 15 slots per frame.
FORMAT = {"block_bits": 1050, "crc_bits": 16, "bits_per_frame": 2400, "slots_per_frame": 15}
TTI_FRAMES = (1, 2, 4, 8)
#: Decoder time per frame of a block on this project's machines (about 0.15 ms), for the up-front work check.
SECONDS_PER_BLOCK_FRAME = 3e-4


@dataclass(frozen=True, repr=False)
class BlockErrorRate(Record):
    """Blocks in error out of blocks sent, the rate and its Wilson interval at ``confidence``.

    Attributes
    ----------
    errors, blocks : int
        Blocks the decoder got wrong, and blocks sent.
    rate : float
        errors/blocks, the block error rate (BLER).
    low, high : float
        Its Wilson score interval.
    interval : tcpfade.Interval
        The same, as the one interval type (docs/glossary.md).
    confidence : float
        The interval's level.

    Examples
    --------
    >>> r = wcdma.block_error_rate(-8.0, blocks=40, seed=1)    # far below the waterfall: every block lost
    >>> r.errors, r.rate, round(r.low, 4)                      # Wilson's lower end: 40 / (40 + 1.96²)
    (40, 1.0, 0.9124)
    """

    errors: int
    blocks: int
    rate: float
    low: float
    high: float
    confidence: float

    _headline = ("rate", "errors", "blocks")
    _undefined = {}   # every metric is finite (the entry refuses what would not be)

    @property
    def interval(self) -> Interval:
        """The Wilson interval as a :class:`tcpfade.Interval`."""
        return Interval(self.low, self.high)

    def _row(self) -> dict[str, Any]:
        """Errors, blocks, the rate and its Wilson interval (``rate_low``, ``rate_high``), the confidence."""
        return {"errors": self.errors, "blocks": self.blocks, "rate": self.rate, "rate_low": self.low,
                "rate_high": self.high, "confidence": self.confidence}


def _wilson(errors: int, n: int, confidence: float) -> tuple[float, float]:
    """Wilson's score interval for errors/n (Wilson 1927; the same as scipy's ``binomtest(...).proportion_ci(
    method="wilson")``), written out because scipy inverts the normal at 1 − α/2, which rounds to 1 for
    confidences within 1e-16 of 1 and gives an upper end of NaN: z is taken here from α/2 itself, exact there."""
    from scipy import special

    z2 = special.ndtri((1.0 - confidence) / 2.0) ** 2
    rate = errors / n
    center = (errors + z2 / 2.0) / (n + z2)
    half = math.sqrt(z2) / (n + z2) * math.sqrt(errors * (n - errors) / n + z2 / 4.0)
    # Round-off must not leave the rate outside its own interval (at 0 errors the lower end is 0 exactly).
    return float(min(max(center - half, 0.0), rate)), float(max(min(center + half, 1.0), rate))


def check_tti_frames(tti_frames: int) -> int:
    """``tti_frames`` if it is one of :data:`TTI_FRAMES` (the interleaving depths TS 25.212 allows), else a
    ParameterError naming it; shared by every function that takes a TTI."""
    if tti_frames not in TTI_FRAMES:
        raise v.fail("tti_frames", tti_frames, "must be 1, 2, 4 or 8 (a TTI of 10, 20, 40 or 80 ms)")
    return tti_frames


@v.checked(bits=v.Array(low=0, high=1, bools=True))
def conv_encode(bits) -> np.ndarray:
    """Encode 0/1 bits with the rate-1/2, K = 9 code (generators 561, 753 octal) and its 8 tail bits.

    Parameters
    ----------
    bits : array-like of 0/1, the information bits.

    Returns
    -------
    numpy.ndarray of uint8, 2·(n + 8) coded bits: output 0 then output 1 of each step.

    Raises
    ------
    ParameterError
        values other than 0 and 1.

    Examples
    --------
    >>> wcdma.conv_encode([1, 0, 0, 0])[:4].tolist()        # the generators' first taps
    [1, 1, 0, 1]
    """
    b = np.asarray(bits, dtype=float)
    if not np.all((b == 0) | (b == 1)):
        raise v.fail("bits", bits, "must hold only 0s and 1s")
    return _core.conv_encode(b.astype(np.uint8))


# The decoder works in float32 (as a receiver's soft bits are): an LLR beyond float32's range would become inf.
@v.checked(llr=v.Array(low=-3.4e38, high=3.4e38), info_bits=v.Integer(1, 1 << 20))
def viterbi_decode(llr, info_bits: int) -> np.ndarray:
    """Maximum-likelihood decoding of one terminated block: ``llr`` holds 2·(info_bits + 8) log-likelihood
    ratios ln P(0)/P(1), output 0 then output 1 of each step.

    Parameters
    ----------
    llr : 2·(info_bits + 8) log-likelihood ratios ln P(0)/P(1).
    info_bits : the block's information bits.

    Returns
    -------
    numpy.ndarray of uint8, the ``info_bits`` decoded bits.

    Raises
    ------
    ParameterError
        an LLR array of the wrong length, not finite or beyond float32's range (±3.4e38), ``info_bits`` out
        of range.

    Examples
    --------
    >>> import numpy as np
    >>> bits = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    >>> llr = 4.0 * (1 - 2 * wcdma.conv_encode(bits).astype(float))   # noiseless: +4 for a 0, -4 for a 1
    >>> wcdma.viterbi_decode(llr, 8).tolist()
    [1, 0, 1, 1, 0, 0, 1, 0]
    """
    values = np.asarray(llr)
    if values.dtype.kind in "fiu" and values.size and np.all(np.isfinite(values)):
        # The correlation metric's decision is the same at any positive scale of the LLRs, but its path sums are
        # float32 and overflowed from about 1e36 on (42 of 100 bits wrong at 1e37): decode them scaled to 1.
        top = float(np.max(np.abs(values)))
        if top > 0.0:
            values = values / top
    return _core.viterbi_decode(np.ascontiguousarray(values, dtype=np.float32), info_bits)


@v.checked(sir_db=v.Array(low=-150.0, high=150.0), tti_frames=v.Integer(1, 8), blocks=v.Integer(1, 1 << 40),
           seed=v.SEED, confidence=v.CONFIDENCE, progress=v.PROGRESS)
def block_error_rate(sir_db, *, tti_frames: int = 1, blocks: int = 1000, seed: int, confidence: float = 0.95,
                     progress: bool | Callable[[float], object] | None = None) -> BlockErrorRate:
    """Monte-Carlo block error rate of the paper's transport format over ``tti_frames`` frames (1, 2, 4 or 8: the
    inter-frame interleaving depth) when slot s of the TTI has SIR ``sir_db[s]`` dB (one value: every slot).

    The TTI carries one transport block of 1050·``tti_frames`` bits with a 16-bit CRC, encoded as one code block
    and repeated to 2400 bits per frame (docs/models.md, "UMTS channel coding").

    Parameters
    ----------
    sir_db : SIR [dB] of every slot, or one per slot of the TTI (15 per frame).
    tti_frames : 1, 2, 4 or 8.
    blocks : blocks sent through the decoder.
    seed : seed of the data and the noise.
    confidence : level of the Wilson interval.
    progress : True for a progress bar, or a callable.

    Returns
    -------
    BlockErrorRate: errors, blocks, the rate and its Wilson interval (``low``, ``high``).

    Raises
    ------
    ParameterError
        a SIR not finite or of the wrong length, an unsupported TTI, a number of blocks that would take too long.

    Examples
    --------
    >>> r = wcdma.block_error_rate(5.0, blocks=50, seed=1)     # 5 dB: every block decodes
    >>> r.errors, r.blocks
    (0, 50)
    """
    tti_frames = check_tti_frames(tti_frames)
    sir = np.atleast_1d(np.asarray(sir_db, dtype=float))
    slots = FORMAT["slots_per_frame"] * tti_frames
    if sir.size == 1:
        sir = np.full(slots, float(sir[0]))
    if sir.size != slots:
        raise v.fail("sir_db", f"an array of {sir.size} values", f"must hold one value, or one per slot of the TTI "
                                                                   f"({slots} for {tti_frames} frame(s))")
    info = FORMAT["block_bits"] * tti_frames + FORMAT["crc_bits"]
    v.work("blocks", blocks, blocks * tti_frames * SECONDS_PER_BLOCK_FRAME * v.SPEED["events"], "events",
           f"{blocks} blocks through the decoder")
    with reporting(progress, "blocks") as report:
        errors = _core.block_errors(list(10 ** (sir / 10)), tti_frames, info, FORMAT["bits_per_frame"], blocks,
                                    seed, report)
    low, high = _wilson(errors, blocks, confidence)
    return BlockErrorRate(errors, blocks, errors / blocks, low, high, confidence)


#: A_d: the error events of the code (561, 753 octal) that leave the zero path and first return to it with output
#: weight d (d_free = 12), from a depth-first search of the trellis (validation/viterbi_union_bound.py; the
#: information weights B_d = 33, 281, 2179, 15035, 105166 for d = 12-20 are the published ones).
DISTANCE_SPECTRUM = {12: 11, 14: 50, 16: 286, 18: 1630, 20: 9639, 22: 55152}


@v.checked(sir_db=v.Array(low=-150.0, high=150.0), tti_frames=v.Integer(1, 8))
def union_bound(sir_db, *, tti_frames: int = 1) -> np.ndarray:
    """The union bound on the block error probability of the paper's transport format on the AWGN channel at SIR
    ``sir_db`` (per coded symbol),

        P_B ≲ L · Σ_d A_d · Σ_x Binomial(x; d, r) · Q(√(2 γ (d + x))),

    L the block's information bits, x the coded bits of an event that rate matching sends twice (each with
    probability r, the share of repeated bits). Tight where errors are single low-weight events (from about
    0 dB: within 25% of the decoder), loose below; the terms stop at d = 22.

    Returns
    -------
    numpy.ndarray, the bound at each SIR.

    Raises
    ------
    ParameterError
        a SIR not finite or beyond ±150 dB, an unsupported TTI.

    Examples
    --------
    >>> float(wcdma.coding.union_bound([1.0])[0]) < 2e-4       # the decoder gives 1.0e-4 at 1 dB
    True
    """
    return _union_bound(np.asarray(sir_db, dtype=float), check_tti_frames(tti_frames))


def _union_bound(sir_db: np.ndarray, tti_frames: int) -> np.ndarray:
    from scipy import stats

    gamma = 10 ** (sir_db / 10)
    info = FORMAT["block_bits"] * tti_frames + FORMAT["crc_bits"]
    coded = 2 * (info + 8)
    r = FORMAT["bits_per_frame"] * tti_frames / coded - 1.0
    total = np.zeros_like(gamma)
    for d, count in DISTANCE_SPECTRUM.items():
        x = np.arange(d + 1)
        pmf = stats.binom.pmf(x, d, r)
        total += count * (pmf * stats.norm.sf(np.sqrt(2 * np.multiply.outer(gamma, d + x)))).sum(axis=-1)
    return info * total


@lru_cache(maxsize=None)
def _log_union_bound_table(tti_frames: int) -> tuple[np.ndarray, np.ndarray]:
    grid = np.linspace(-10.0, 30.0, 20_001)
    return grid, np.log(np.maximum(_union_bound(grid, tti_frames), 1e-300))


def union_bound_fast(sir_db: np.ndarray, tti_frames: int) -> np.ndarray:
    """:func:`union_bound` for whole traces: the logarithm of the bound interpolated on a 0.002-dB grid from -10
    to 30 dB (relative error below 2e-5, tested; beyond 30 dB the bound is under 1e-300, taken as 0)."""
    grid, log_ub = _log_union_bound_table(tti_frames)
    x = np.asarray(sir_db, dtype=float)
    out = np.exp(np.interp(x, grid, log_ub))
    return np.where(x > grid[-1], 0.0, out)


@v.checked(sir_db=v.Array(low=-150.0, high=150.0, min_size=1), tti_frames=v.Integer(1, 8),
           blocks=v.Integer(1, 1 << 40), seed=v.SEED, confidence=v.CONFIDENCE)
def awgn_curve(sir_db, *, tti_frames: int = 1, blocks: int = 1000, seed: int, confidence: float = 0.95) -> pd.DataFrame:
    """The block error rate at a constant SIR (every slot alike: the AWGN channel), one row per SIR.

    Parameters
    ----------
    sir_db : SIRs [dB], one point each.
    tti_frames : 1, 2, 4 or 8.
    blocks : blocks per point.
    seed : seed of the first point (point i uses seed + i).
    confidence : level of the Wilson intervals.

    Returns
    -------
    pandas.DataFrame, one row per SIR: sir_db, bler, bler_low, bler_high, errors, blocks.

    Raises
    ------
    ParameterError
        as :func:`block_error_rate`.

    Examples
    --------
    >>> wcdma.awgn_curve([-8.0, 5.0], blocks=40, seed=1).errors.tolist()
    [40, 0]
    """
    points = np.asarray(sir_db, dtype=float).ravel()
    # The whole curve's cost, before any point runs (each point's own check sees only its blocks).
    v.work("sir_db", f"an array of {points.size} SIRs", float(points.size) * blocks * tti_frames
           * SECONDS_PER_BLOCK_FRAME * v.SPEED["events"], "events",
           f"{points.size} points of {blocks} blocks through the decoder")
    rows = []
    for i, s in enumerate(points):
        r = block_error_rate(float(s), tti_frames=tti_frames, blocks=blocks, seed=seed + i if seed + i < 2**64 else i,
                             confidence=confidence)
        rows.append({"sir_db": s, "bler": r.rate, "bler_low": r.low, "bler_high": r.high, "errors": r.errors,
                     "blocks": r.blocks})
    return pd.DataFrame(rows)
