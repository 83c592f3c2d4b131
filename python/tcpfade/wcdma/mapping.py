"""From a string of SIR values to the probability that the transport block is wrong (zorzi-rossi-mazzini §2.2:
"an analytical approximation has been used to relate a string of SIR values ... to the probability that the
corresponding block ... is in error"; the paper does not give it).

Ours is the exponential effective-SINR mapping (EESM): the block's slots, each carrying the same number of coded
symbols at SIR γ_s (linear), are worth one AWGN SIR

    γ_eff = −β · ln( mean_s exp(−γ_s / β) ),

and the block error probability is the code's AWGN curve at γ_eff. Both parts are calibrated against the
project's own Monte-Carlo Viterbi decoder (:mod:`.coding`), per TTI length: the AWGN curve as
logit(BLER) = a cubic in γ_dB, fitted by binomial maximum likelihood to decoder counts on a grid from -3.5 to
1 dB, and above :data:`TAIL_FROM_DB` the code's union bound scaled to meet the cubic there (a cubic carried
beyond its data falls far too fast: 1e-5 at 1 dB where the decoder gives 1e-4, 1e-53 at 5.5 dB); β by weighted
least squares of logit(BLER) over fading SIR strings (Rayleigh, Jakes at several Dopplers, log-normal
fluctuations). :func:`calibrate` recomputes the table (``tcpfade wcdma calibrate``); the package ships the table
in ``calibration.json``, with the data it was fitted on and the mapping's own error δ (in logit units, beyond the
Monte-Carlo noise).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .. import _validate as v
from .coding import FORMAT, TTI_FRAMES, check_tti_frames, block_error_rate, union_bound_fast

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")
#: Above this effective SIR [dB] the AWGN curve follows the union bound (scaled to be continuous): from here
#: up the bound is within 25% of the decoder, and the calibration grid has few errors.
TAIL_FROM_DB = 0.0

#: Slot duration [s] (UTRA: 15 slots a 10-ms frame; one power-control period).
SLOT_SECONDS = 0.01 / 15


@dataclass(frozen=True)
class Mapping:
    """The calibrated EESM of one TTI length: β, the AWGN curve's cubic (highest power first, in dB) and the
    mapping's error δ in logit units (beyond the Monte-Carlo noise of the strings it was fitted on).

    Attributes
    ----------
    tti_frames : int
        The TTI in 10-ms frames (15 slots each).
    beta : float
        The EESM's β.
    awgn : tuple of 4 floats
        log10 of the AWGN block error rate as a cubic in the effective SIR [dB], highest power first.
    delta : float
        The mapping's error in logit units.

    Examples
    --------
    >>> import numpy as np
    >>> m = wcdma.mapping_for(1)
    >>> m.effective_sir_db(np.full((1, 15), 2.0)).round(9).tolist()     # a constant SIR is its own effective SIR
    [2.0]
    """

    tti_frames: int
    beta: float
    awgn: tuple[float, float, float, float]
    delta: float

    def effective_sir_db(self, sir_db: np.ndarray) -> np.ndarray:
        """γ_eff [dB] of each row of ``sir_db`` (slots along the last axis)."""
        g = 10.0 ** (np.asarray(sir_db, dtype=float) / 10.0)
        # −β ln mean e^{−γ/β}, computed stably: factor out the smallest γ.
        low = g.min(axis=-1, keepdims=True)
        mean = np.exp(-(g - low) / self.beta).mean(axis=-1)
        eff = low[..., 0] - self.beta * np.log(mean)
        return 10.0 * np.log10(np.maximum(eff, 1e-30))

    def awgn_bler(self, sir_db: np.ndarray) -> np.ndarray:
        """The AWGN curve at ``sir_db``: the fitted cubic up to :data:`TAIL_FROM_DB`, the scaled union bound
        above."""
        from scipy import special

        x = np.asarray(sir_db, dtype=float)
        out = special.expit(np.polyval(self.awgn, x))
        high = x > TAIL_FROM_DB
        if np.any(high):
            at = float(special.expit(np.polyval(self.awgn, TAIL_FROM_DB)))
            scale = at / union_bound_fast(np.array(TAIL_FROM_DB), self.tti_frames)
            out = np.where(high, scale * union_bound_fast(np.where(high, x, TAIL_FROM_DB), self.tti_frames), out)
        return out

    def block_error_probability(self, sir_db: np.ndarray) -> np.ndarray:
        """BLER of each TTI (a row of per-slot SIRs [dB])."""
        return self.awgn_bler(self.effective_sir_db(sir_db))


#: A calibration table is a few kilobytes of JSON; a file far larger is not one (and /dev/zero never ends).
MAX_TABLE_BYTES = 1 << 24


@lru_cache(maxsize=None)
def _table(path: str) -> dict[str, Any]:
    file = Path(path)
    if file.exists() and not file.is_file():   # a directory, or a device such as /dev/full that never ends
        raise v.fail("path", path, "is not a regular file (a calibration table is a JSON file)")
    if file.is_file() and file.stat().st_size > MAX_TABLE_BYTES:
        raise v.fail("path", path, f"holds {file.stat().st_size} bytes: a calibration table is JSON of at most "
                                   f"{MAX_TABLE_BYTES} bytes")
    try:
        table = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise v.fail("path", path, f"cannot be read as a calibration table ({exc}); run `tcpfade wcdma calibrate`") \
            from None
    if not isinstance(table, dict) or not isinstance(table.get("tti"), dict):
        raise v.fail("path", path, "is not a calibration table: it has no 'tti' object (`tcpfade wcdma calibrate` "
                                   "writes one)")
    return table


@v.checked()
def mapping_for(tti_frames: int = 1, *, path: str | Path | None = None) -> Mapping:
    """The calibrated mapping for a TTI of ``tti_frames`` frames (from ``path``, default the shipped table).

    Parameters
    ----------
    tti_frames : 1, 2, 4 or 8.
    path : a calibration table (default: the one shipped, ``tcpfade wcdma calibrate`` writes others).

    Returns
    -------
    Mapping: β, the AWGN curve's coefficients and δ for that TTI.

    Raises
    ------
    ParameterError
        an unsupported TTI, a calibration file that cannot be read.

    Examples
    --------
    >>> 0.9 < wcdma.mapping_for(1).beta < 1.2
    True
    """
    tti_frames = check_tti_frames(v.integer("tti_frames", tti_frames, 1, 8))
    path = None if path is None else v.path("path", path)    # path=False or [] is not "the shipped table"
    table = _table(str(path or CALIBRATION_FILE))
    entry = table["tti"].get(str(tti_frames))
    if entry is None:
        raise v.fail("tti_frames", tti_frames, f"has no calibration in {path or CALIBRATION_FILE}")
    try:
        beta, awgn, delta = float(entry["beta"]), tuple(float(c) for c in entry["awgn"]), float(entry["delta"])
    except (TypeError, KeyError, ValueError) as exc:
        raise v.fail("path", str(path or CALIBRATION_FILE), f"has a malformed entry for TTI {tti_frames} ({exc!r}): "
                     "it needs numbers beta and delta and a list awgn") from None
    if not (math.isfinite(beta) and beta > 0 and math.isfinite(delta) and awgn and all(map(math.isfinite, awgn))):
        raise v.fail("path", str(path or CALIBRATION_FILE), f"has non-finite or non-positive values for TTI "
                                                            f"{tti_frames}")
    return Mapping(tti_frames, beta, awgn, delta)


@v.checked(sir_db=v.Array(low=-150.0, high=150.0, min_size=1), tti_frames=v.Integer(1, 8))
def block_error_probability(sir_db, *, tti_frames: int = 1) -> np.ndarray:
    """The probability that each TTI's transport block is wrong, from its per-slot SIRs [dB]: a 1-D array is
    split into consecutive TTIs of 15·``tti_frames`` slots (its length a multiple of that).

    Parameters
    ----------
    sir_db : per-slot SIRs [dB], a whole number of TTIs.
    tti_frames : 1, 2, 4 or 8.

    Returns
    -------
    numpy.ndarray, one probability per TTI.

    Raises
    ------
    ParameterError
        SIRs not finite, a length that is not a whole number of TTIs, an unsupported TTI.

    Examples
    --------
    >>> import numpy as np
    >>> p = wcdma.block_error_probability(np.r_[np.full(15, -3.0), np.full(15, 6.0)])
    >>> bool(p[0] > 0.9 and p[1] < 1e-6)
    True
    """
    m = mapping_for(tti_frames)
    sir = np.asarray(sir_db, dtype=float)
    slots = FORMAT["slots_per_frame"] * m.tti_frames
    if sir.size % slots:
        raise v.fail("sir_db", f"an array of {sir.size} values", f"must hold whole TTIs of {slots} slots")
    return m.block_error_probability(sir.reshape(-1, slots))


# -- calibration ---------------------------------------------------------------------------------------------

def _fit_awgn(x: np.ndarray, errors: np.ndarray, blocks: int) -> np.ndarray:
    """logit BLER = cubic in x, by binomial maximum likelihood; checked decreasing everywhere."""
    from scipy import optimize, special

    def nll(p):
        eta = np.polyval(p, x)
        return -(errors * special.log_expit(eta) + (blocks - errors) * special.log_expit(-eta)).sum()

    start = np.polyfit(x, special.logit(np.clip((errors + 0.5) / (blocks + 1), 1e-6, 1 - 1e-6)), 3)
    p = optimize.minimize(nll, start, method="Nelder-Mead", options={"maxiter": 40_000, "xatol": 1e-10,
                                                                     "fatol": 1e-10}).x
    # d/dx of the cubic 3a x² + 2b x + c < 0 for every x: a < 0 and a negative discriminant.
    a, b, c = 3 * p[0], 2 * p[1], p[2]
    if not (a < 0 and b * b - 4 * a * c < 0):
        raise RuntimeError(f"the fitted AWGN curve {p} is not decreasing everywhere")
    return p


def _fading_strings(slots: int, count: int, rng: np.random.Generator, seed: int) -> np.ndarray:
    """SIR strings [dB] around 0 dB: Rayleigh per slot, Jakes at f_d·T_slot of 0.001-0.05, log-normal steps."""
    from ..channels.jakes import fading_gain

    out = []
    for i in range(count):
        kind = i % 3
        if kind == 0:
            x = 10 * np.log10(rng.exponential(1.0, slots))
        elif kind == 1:
            fdt = float(rng.choice([0.001, 0.004, 0.013, 0.05]))
            g = fading_gain(fdt, slots, seed=seed * 1000 + i)
            x = 10 * np.log10(np.maximum(np.abs(g) ** 2, 1e-6))
        else:
            x = rng.normal(0.0, float(rng.choice([1.0, 2.0, 4.0])), slots)
        out.append(x - x.mean())
    return np.array(out)


def calibrate(*, tti_frames: tuple[int, ...] = TTI_FRAMES, blocks: int = 2000, strings: int = 90,
              string_blocks: int = 300, seed: int = 1, path: str | Path | None = None,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Recompute the mapping's table from the decoder and write it to ``path`` (default: the shipped file).

    Per TTI length: the AWGN curve from ``blocks`` blocks at each SIR of a grid, then β from ``strings`` fading
    strings of ``string_blocks`` blocks each, their mean SIR chosen so that their block error rate is
    informative (the mapping's own prediction between 0.03 and 0.97, with the AWGN curve and β = 1 to start)."""
    from scipy import optimize, special

    # Everything checked before the first stage runs (a stage takes minutes).
    tti_frames = tuple(check_tti_frames(v.integer("tti_frames", k, 1, 8)) for k in tti_frames)
    blocks = v.integer("blocks", blocks, 1, 1 << 30)
    strings = v.integer("strings", strings, 1, 1 << 20)
    string_blocks = v.integer("string_blocks", string_blocks, 1, 1 << 30)
    seed = v.seed(seed)
    out = Path(path or CALIBRATION_FILE)
    if not out.parent.is_dir():
        raise v.fail("path", str(out), f"its directory {str(out.parent)!r} does not exist")
    note = progress or (lambda _m: None)
    rng = np.random.default_rng(seed)
    table: dict[str, Any] = {"seed": seed, "blocks": blocks, "strings": strings, "string_blocks": string_blocks,
                             "tti": {}}
    for k in tti_frames:
        slots = FORMAT["slots_per_frame"] * k
        grid = np.round(np.arange(-3.5, 1.01, 0.25), 2)
        errors = np.array([block_error_rate(float(x), tti_frames=k, blocks=blocks, seed=seed * 100 + j).errors
                           for j, x in enumerate(grid)])
        note(f"TTI {k}: AWGN curve at {grid.size} points")
        try:
            awgn = _fit_awgn(grid, errors, blocks)
        except RuntimeError as exc:   # too few blocks a point: the fit follows the noise
            raise v.fail("blocks", blocks, f"gives too few block errors a point for the AWGN curve of TTI {k} ({exc}); "
                                           "use more blocks (the shipped table has 2000)") from None
        shapes = _fading_strings(slots, strings, rng, seed + k)
        start = Mapping(k, 1.0, tuple(awgn), 0.0)
        means, counts = [], []
        for i, shape in enumerate(shapes):
            # The mean that puts the starting mapping's prediction at a target BLER in [0.03, 0.97].
            target = special.logit(rng.uniform(0.03, 0.97))
            mean = optimize.brentq(lambda m: special.logit(np.clip(start.block_error_probability(
                (shape + m)[None, :])[0], 1e-12, 1 - 1e-12)) - target, -30.0, 40.0)
            r = block_error_rate(shape + mean, tti_frames=k, blocks=string_blocks, seed=seed * 100_000 + k * 1000 + i)
            means.append(mean)
            counts.append(r.errors)
        note(f"TTI {k}: {strings} fading strings")
        sirs = shapes + np.array(means)[:, None]
        counts = np.array(counts)
        p_hat = (counts + 0.5) / (string_blocks + 1)
        var = 1.0 / (string_blocks * p_hat * (1 - p_hat))          # variance of logit(p̂)

        def loss(log_beta):
            m = Mapping(k, math.exp(log_beta), tuple(awgn), 0.0)
            pred = np.clip(m.block_error_probability(sirs), 1e-12, 1 - 1e-12)
            return (((special.logit(p_hat) - special.logit(pred)) ** 2) / var).sum()

        fit = optimize.minimize_scalar(loss, bounds=(math.log(0.05), math.log(50.0)), method="bounded")
        beta = math.exp(fit.x)
        m = Mapping(k, beta, tuple(awgn), 0.0)
        residual = special.logit(p_hat) - special.logit(np.clip(m.block_error_probability(sirs), 1e-12, 1 - 1e-12))
        delta = math.sqrt(max(float(np.mean(residual ** 2 - var)), 0.0))
        table["tti"][str(k)] = {"beta": beta, "awgn": [float(c) for c in awgn], "delta": delta,
                                "grid_db": grid.tolist(), "grid_errors": errors.tolist(),
                                "string_mean_db": [float(x) for x in means], "string_errors": counts.tolist(),
                                "rms_logit_residual": float(np.sqrt(np.mean(residual ** 2)))}
        _write(table, out)   # after each TTI length: a failure later loses nothing
    return table


def _write(table: dict[str, Any], out: Path) -> None:
    from .._io import write_text

    write_text(json.dumps(table, indent=1), out, "path")
    _table.cache_clear()
