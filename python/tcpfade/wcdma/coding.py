"""The UMTS channel code and its block errors (zorzi-rossi-mazzini §2.2-2.3; 3GPP TS 25.212), from the Rust
core's ``coding`` module: the rate-1/2 convolutional code of constraint length 9 (generators 561 and 753
octal), its soft-decision Viterbi decoder, repetition rate matching and the first and second interleavers.

:func:`block_error_rate` sends random transport blocks through the whole chain, each 0.667-ms slot of the TTI at
its own SIR (the per-symbol SNR after despreading), and counts the blocks decoded wrong: the Monte-Carlo
reference the WCDMA block-error mapping is calibrated against.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import _core
from .. import _validate as v
from .._watch import reporting

#: The paper's transport format (§2.3): a 1050-bit transport block (1034 at the IP level and 16 of RLC/MAC) per
#: 10-ms frame, a 16-bit CRC, 2400 coded bits per frame (240 kb/s), 15 slots per frame.
FORMAT = {"block_bits": 1050, "crc_bits": 16, "bits_per_frame": 2400, "slots_per_frame": 15}
TTI_FRAMES = (1, 2, 4, 8)
#: Decoder time per frame of a block on this project's machines (about 0.15 ms), for the up-front work check.
SECONDS_PER_BLOCK_FRAME = 3e-4


@dataclass(frozen=True)
class BlockErrorRate:
    """Blocks in error out of blocks sent, the rate and its Wilson interval at ``confidence``."""

    errors: int
    blocks: int
    rate: float
    low: float
    high: float
    confidence: float


def _wilson(errors: int, n: int, confidence: float) -> tuple[float, float]:
    from scipy import stats

    ci = stats.binomtest(errors, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def _tti(tti_frames: int) -> int:
    if tti_frames not in TTI_FRAMES:
        raise v.fail("tti_frames", tti_frames, "must be 1, 2, 4 or 8 (a TTI of 10, 20, 40 or 80 ms)")
    return tti_frames


@v.checked(bits=v.Array(low=0, high=1))
def conv_encode(bits) -> np.ndarray:
    """Encode 0/1 bits with the rate-1/2, K = 9 code (generators 561, 753 octal) and its 8 tail bits."""
    b = np.asarray(bits, dtype=float)
    if not np.all((b == 0) | (b == 1)):
        raise v.fail("bits", bits, "must hold only 0s and 1s")
    return _core.conv_encode(b.astype(np.uint8))


@v.checked(llr=v.Array(), info_bits=v.Integer(1, 1 << 20))
def viterbi_decode(llr, info_bits: int) -> np.ndarray:
    """Maximum-likelihood decoding of one terminated block: ``llr`` holds 2·(info_bits + 8) log-likelihood
    ratios ln P(0)/P(1), output 0 then output 1 of each step."""
    return _core.viterbi_decode(np.ascontiguousarray(llr, dtype=np.float32), info_bits)


@v.checked(sir_db=v.Array(low=-150.0, high=150.0), tti_frames=v.Integer(1, 8), blocks=v.Integer(1, 1 << 40),
           seed=v.SEED, confidence=v.CONFIDENCE, progress=v.PROGRESS)
def block_error_rate(sir_db, *, tti_frames: int = 1, blocks: int = 1000, seed: int, confidence: float = 0.95,
                     progress: bool | Callable[[float], object] | None = None) -> BlockErrorRate:
    """Monte-Carlo block error rate of the paper's transport format over ``tti_frames`` frames (1, 2, 4 or 8: the
    inter-frame interleaving depth) when slot s of the TTI has SIR ``sir_db[s]`` dB (one value: every slot).

    The TTI carries one transport block of 1050·``tti_frames`` bits with a 16-bit CRC, encoded as one code block
    and repeated to 2400 bits per frame (docs/models.md, "UMTS channel coding")."""
    tti_frames = _tti(tti_frames)
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


@v.checked(sir_db=v.Array(low=-150.0, high=150.0, min_size=1), tti_frames=v.Integer(1, 8),
           blocks=v.Integer(1, 1 << 40), seed=v.SEED, confidence=v.CONFIDENCE)
def awgn_curve(sir_db, *, tti_frames: int = 1, blocks: int = 1000, seed: int, confidence: float = 0.95) -> pd.DataFrame:
    """The block error rate at a constant SIR (every slot alike: the AWGN channel), one row per SIR."""
    rows = []
    for i, s in enumerate(np.asarray(sir_db, dtype=float)):
        r = block_error_rate(float(s), tti_frames=tti_frames, blocks=blocks, seed=seed + i if seed + i < 2**64 else i,
                             confidence=confidence)
        rows.append({"sir_db": s, "bler": r.rate, "bler_low": r.low, "bler_high": r.high, "errors": r.errors,
                     "blocks": r.blocks})
    return pd.DataFrame(rows)
