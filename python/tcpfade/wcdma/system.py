"""The multicell WCDMA uplink (zorzi-rossi-mazzini §2.1, Table 1), simulated slot by slot in the Rust core
(``crates/tcpfade-core/src/wcdma``): 25 hexagonal cells on a torus, users uniform over them, path loss A·r^−β
and log-normal shadowing fixed per run, each user served by its best station, Jakes Rayleigh fading on each
ray of its own link combined by a RAKE, and closed-loop power control every 0.667-ms slot.

:func:`simulate_system` returns each user's SIR, transmit power and fading traces and a per-user summary;
:meth:`SystemResult.block_error_probability` turns the SIR traces into block error probabilities with the
calibrated mapping (:mod:`.mapping`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .. import _core
from .. import _validate as v
from .._record import Record
from .._watch import reporting
from .coding import TTI_FRAMES

#: Slot = power-control period [s] (15 a 10-ms frame).
SLOT = 0.01 / 15
#: Named ray profiles (ITU-R M.1225; the default is Vehicular A without its weakest tap: docs/models.md).
RAY_PROFILES = ("vehicular-a-5", "vehicular-a", "pedestrian-a", "pedestrian-b")
#: Bytes a user-slot of traces takes (three float32 traces).
TRACE_BYTES = 12
#: The SIRs the power control can compare with its target (decision D13, docs/models.md "The SIR reference"):
#: per coded symbol after despreading (SF·S/(I + N), what the decoder sees) or per information bit (W/R·S/(I + N)).
SIR_REFERENCES = ("symbol", "bit")
#: The default reference (docs/models.md gives the evidence: the paper's optimum threshold, §4, and Fig. 1).
DEFAULT_SIR_REFERENCE = "bit"
#: Chip rate W [chip/s] and the information bit rate R of the paper's bearer [bit/s]: 1050 bits per 10 ms (§2.3).
CHIP_RATE = 3.84e6
BIT_RATE = 105_000.0


class Rays(v.Rule):
    """A multipath profile: a name of :data:`RAY_PROFILES`, or 1 to 32 ray powers in dB (a list, a tuple, a 1-d
    array, or on the command line a string of numbers separated by commas, such as "0,-3")."""

    def describe(self) -> str:
        return (f"must be one of {', '.join(RAY_PROFILES)} or 1 to 32 powers in dB (a list, or numbers separated "
                "by commas such as \"0,-3\")")

    def check(self, name: str, value: Any) -> str | list[float]:
        if isinstance(value, str):
            if value in RAY_PROFILES:
                return value
            parts = value.replace(",", " ").split()
            try:
                powers: Any = [float(p) for p in parts]
            except ValueError:
                raise v.fail(name, value, self.describe()) from None
        elif isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim == 1):
            powers = list(value)
        else:
            raise v.fail(name, value, self.describe(), kind=v.ParameterTypeError)
        out = [float(v.Real(-100.0, 100.0).check(name, x)) for x in powers]
        if not 1 <= len(out) <= 32:
            raise v.fail(name, value, self.describe())
        return out


#: The rule of ``rays`` (simulate_system, wcdma.simulate).
RAYS = Rays()

@v.checked()
def sir_reference_offset_db(sir_reference: str = DEFAULT_SIR_REFERENCE, spreading_factor: float = 16.0) -> float:
    """dB to add to the SIR per coded symbol to get the SIR in ``sir_reference``: 0 for "symbol",
    10·log10(W/(SF·R)) for "bit" (3.590 dB at SF = 16: each of the 1050 information bits of a frame is carried
    by 2400/1050 coded symbols, the 2·(1050 + 16 + 8) = 2148 coded bits being repeated to 2400).

    Parameters
    ----------
    sir_reference : "symbol" or "bit".
    spreading_factor : SF (16 in Table 1).

    Returns
    -------
    float, the offset [dB].

    Raises
    ------
    ParameterError
        an unknown reference, a spreading factor outside [1, 1e6].

    Examples
    --------
    >>> round(wcdma.sir_reference_offset_db("bit"), 4), wcdma.sir_reference_offset_db("symbol")
    (3.5902, 0.0)
    """
    sir_reference = v.Choice(SIR_REFERENCES).check("sir_reference", sir_reference)
    spreading_factor = v.Real(1.0, 1e6).check("spreading_factor", spreading_factor)
    return 0.0 if sir_reference == "symbol" else float(10 * np.log10(CHIP_RATE / (spreading_factor * BIT_RATE)))


@dataclass(frozen=True, repr=False)
class SystemResult(Record):
    """Result of :func:`simulate_system`: traces are arrays of users × slots; summaries one value per user.

    Attributes
    ----------
    users, doppler_hz, target_sir_db, step_db, duration, seed, rays, sir_reference
        The call's parameters.
    sir_db, power_dbw, fading_db : numpy.ndarray
        Per user and power-control slot (1/1500 s): the SIR per coded symbol at the serving cell [dB] (what the
        decoder sees, whatever the power control's reference), the transmit power [dBW], the fast fading gain
        [dB].
    max_power_seconds : numpy.ndarray
        Per user, the time spent at the maximum power [s].
    serving, serving_gain_db : numpy.ndarray
        Per user, the serving cell and the mean path gain to it [dB].
    position : numpy.ndarray
        Per user, (x, y) [m].

    Examples
    --------
    >>> s = wcdma.simulate_system(users=4, duration=0.2, seed=1)
    >>> s.sir_db.shape, s.position.shape                    # 0.2 s of 1500 slots per second
    ((4, 300), (4, 2))
    >>> len(s.to_frame())
    4
    """

    users: int
    doppler_hz: float
    target_sir_db: float
    step_db: float
    duration: float
    seed: int
    rays: Any
    sir_reference: str
    sir_db: np.ndarray = field(repr=False)
    power_dbw: np.ndarray = field(repr=False)
    fading_db: np.ndarray = field(repr=False)
    max_power_seconds: np.ndarray = field(repr=False)
    serving: np.ndarray = field(repr=False)
    serving_gain_db: np.ndarray = field(repr=False)
    position: np.ndarray = field(repr=False)

    _headline = ("users", "doppler_hz", "target_sir_db", "duration", "mean_sir_db", "share_at_max_power")
    _undefined = {}   # every metric is finite (the entry refuses what would not be)

    def _row(self) -> dict[str, Any]:
        """The run's parameters and its users summarized: mean SIR [dB], mean share of time at maximum power,
        users at maximum power more than half the time."""
        share = self.max_power_seconds / self.duration
        return {"users": self.users, "doppler_hz": self.doppler_hz, "target_sir_db": self.target_sir_db,
                "step_db": self.step_db, "duration": self.duration, "seed": self.seed, "rays": str(self.rays),
                "sir_reference": self.sir_reference,
                "mean_sir_db": float(self.sir_db.mean()), "share_at_max_power": float(share.mean()),
                "users_mostly_at_max_power": int((share > 0.5).sum())}

    def to_frame(self) -> pd.DataFrame:
        """One row per user: serving cell, mean path gain to it, position, SIR (mean and spread), mean transmit
        power, and the time spent at the maximum power."""
        return pd.DataFrame({
            "user": np.arange(self.users), "serving_cell": self.serving, "serving_gain_db": self.serving_gain_db,
            "x_m": self.position[:, 0], "y_m": self.position[:, 1],
            "mean_sir_db": self.sir_db.mean(axis=1), "sir_std_db": self.sir_db.std(axis=1),
            "mean_power_dbw": self.power_dbw.mean(axis=1),
            "mean_power_w": (10 ** (self.power_dbw.astype(float) / 10)).mean(axis=1),
            "max_power_seconds": self.max_power_seconds,
            "share_at_max_power": self.max_power_seconds / self.duration,
        })

    def block_error_probability(self, tti_frames: int = 1) -> np.ndarray:
        """Each user's block error probability per TTI (users × TTIs) from its SIR trace, by the calibrated
        effective-SINR mapping; a last incomplete TTI is dropped."""
        from .mapping import mapping_for

        m = mapping_for(tti_frames)
        slots = 15 * m.tti_frames
        n = self.sir_db.shape[1] // slots
        if n == 0:
            raise v.fail("tti_frames", tti_frames, f"needs at least {slots} slots; the run has "
                                                   f"{self.sir_db.shape[1]}")
        strings = self.sir_db[:, :n * slots].astype(float).reshape(self.users, n, slots)
        return m.block_error_probability(strings)


@v.checked(users=v.Integer(1, 100_000), doppler_hz=v.Real(1e-6, 1e4, words="must be a finite number in [1e-6, "
                                                                         "1e4] (Hz)"),
           target_sir_db=v.Real(-50.0, 50.0), step_db=v.Real(0.0, 20.0), duration=v.POSITIVE, seed=v.SEED,
           rays=RAYS,
           cells_per_side=v.Integer(1, 50), cell_side=v.Real(1.0, 1e6), path_loss_db=v.Real(-300.0, 300.0),
           path_loss_exponent=v.Real(0.1, 10.0), shadowing_db=v.Real(0.0, 30.0), spreading_factor=v.Real(1.0, 1e6),
           noise_dbw=v.Real(-300.0, 100.0), max_power_dbw=v.Real(-300.0, 100.0), power_range_db=v.Real(0.0, 300.0),
           oscillators=v.Integer(1, 64), fading=v.Flag(), sir_reference=v.Choice(SIR_REFERENCES),
           progress=v.PROGRESS)
def simulate_system(*, users: int = 90, doppler_hz: float = 6.0, target_sir_db: float = 5.5, step_db: float = 0.5,
                    duration: float = 10.0, seed: int, rays: str | list[float] = "vehicular-a-5",
                    cells_per_side: int = 5, cell_side: float = 200.0, path_loss_db: float = -30.0,
                    path_loss_exponent: float = 3.5, shadowing_db: float = 4.0, spreading_factor: float = 16.0,
                    noise_dbw: float = -132.0, max_power_dbw: float = -16.0, power_range_db: float = 80.0,
                    oscillators: int = 8, fading: bool = True, sir_reference: str = DEFAULT_SIR_REFERENCE,
                    progress: bool | Callable[[float], object] | None = None) -> SystemResult:
    """Simulate the uplink for ``duration`` seconds (Table 1's parameters by default).

    Parameters
    ----------
    users : N_u, placed uniformly over the 25 cells.
    doppler_hz : f_d of every user's Rayleigh fading [Hz].
    target_sir_db, step_db : the power control's target t (in the SIR of ``sir_reference``) and step Δ (the
        paper's "SIR_th = t + Δ dB").
    duration : simulated time [s] (1500 slots a second).
    seed : seed of the placement, the shadowing and the fading.
    rays : "vehicular-a-5" (default), "vehicular-a", "pedestrian-a", "pedestrian-b", or powers in dB.
    cells_per_side, cell_side, path_loss_db, path_loss_exponent, shadowing_db : the layout (5, 200 m, A = −30 dB,
        β = 3.5, σ = 4 dB).
    spreading_factor, noise_dbw : the SIR after despreading is SF times the received C/I (16; −132 dBW).
    max_power_dbw, power_range_db : the transmit power within [max − range, max] (−16 dBW, 80 dB).
    oscillators : Jakes oscillators N0 (8).
    fading : False for no fast fading (every ray at its mean power).
    sir_reference : the SIR the power control compares with the target (decision D13): "bit" (default, per
        information bit, W/R = 3.84e6/105e3) or "symbol" (per coded symbol, SF); "bit" is "symbol" with the
        target lowered by :func:`sir_reference_offset_db` (3.59 dB). The traces are per coded symbol either way.
    progress : True for a progress bar, or a callable that gets the fraction done.

    Returns
    -------
    SystemResult: per-user traces (users × slots: SIR, power, RAKE gain), serving cells, positions, time at maximum
    power; ``to_frame()`` one row per user.

    Raises
    ------
    ParameterError
        a bad count, Doppler, ray profile or layout parameter (named with its value), traces that would not fit in
        memory.

    Examples
    --------
    >>> s = wcdma.simulate_system(users=10, duration=1.0, seed=1)
    >>> s.sir_db.shape
    (10, 1500)
    """
    count = float(np.rint(duration / SLOT))     # inf for 1e308 s: checked before it becomes an integer
    if count < 1:
        raise v.fail("duration", duration, f"must last one slot at least ({SLOT * 1e3:.3f} ms)")
    v.memory("duration", duration, float(users) * count * TRACE_BYTES, f"traces of {users} users over {count:.6g} slots")
    v.work("duration", duration, float(users) * count, "events", f"{count:.6g} slots of {users} users")
    slots = int(count)
    with reporting(progress, "slots") as report:
        args = {"users": users, "doppler_hz": doppler_hz, "target_sir_db": target_sir_db, "step_db": step_db,
                "slots": slots, "fading": fading, "cells_per_side": cells_per_side, "cell_side": cell_side,
                "path_loss_db": path_loss_db, "path_loss_exponent": path_loss_exponent, "shadowing_db": shadowing_db,
                "spreading_factor": spreading_factor, "noise_dbw": noise_dbw, "max_power_dbw": max_power_dbw,
                "power_range_db": power_range_db, "oscillators": oscillators, "rays": rays,
                "sir_reference": sir_reference, "seed": seed}
        raw = _core.simulate_system(args, report)
    return SystemResult(
        users=users, doppler_hz=doppler_hz, target_sir_db=target_sir_db, step_db=step_db, duration=slots * SLOT,
        seed=seed, rays=rays, sir_reference=sir_reference, sir_db=raw["sir_db"], power_dbw=raw["power_dbw"], fading_db=raw["fading_db"],
        max_power_seconds=raw["max_power_slots"] * SLOT, serving=raw["serving"],
        serving_gain_db=raw["serving_gain_db"], position=np.column_stack([raw["x"], raw["y"]]))


__all__ = ["SystemResult", "simulate_system", "sir_reference_offset_db", "RAY_PROFILES", "SIR_REFERENCES",
           "DEFAULT_SIR_REFERENCE", "SLOT", "TTI_FRAMES"]
