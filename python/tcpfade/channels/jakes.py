"""Rayleigh fading simulated by sums of sinusoids, and the packet errors it causes.

Two simulators (the Rust core's ``channel::jakes``; equations in docs/models.md):
``"jakes"``, Jakes' model with N0 = 8 oscillators as in the papers (decision D6 of docs/models.md), and ``"cisoids"``,
a stationary circular sum of M random-angle cisoids whose two-sample law approaches the exact
Rayleigh one as M grows. Time is counted in packet durations T, so the Doppler enters as fD·T.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from .. import _validate as v
from .._watch import reporting
from .base import SlotChannel
from .fading import ERROR_RATE, FADING_MARGIN, FADING_MARGIN_DB, resolve_fading_margin

if TYPE_CHECKING:
    import pandas as pd

#: Modulations of the bit-level model (bit error probability vs instantaneous SNR per bit).
MODULATIONS = ("bpsk", "coherent-fsk", "dpsk", "noncoherent-fsk")

#: Fading simulators.
FADING_MODELS = ("jakes", "cisoids")

#: Default oscillators: N0 = 8 for Jakes (decision D6 of docs/models.md, as in the papers), M = 64 cisoids.
DEFAULT_OSCILLATORS = {"jakes": 8, "cisoids": 64}


#: The rules every fading simulator's parameters follow.
FADING_MODEL = v.Choice(FADING_MODELS)
OSCILLATORS = v.Optional(v.Integer(1, 4096))
#: fD·T of a simulated fading process: up to 1000 (a Doppler a thousand times the packet rate).
SIM_FDT = v.Real(0.0, 1000.0, low_open=True, words="must be a finite number in (0, 1000]")
#: Average SNR per bit [dB].
SNR_DB = v.Real(-200.0, 200.0)
PACKET_BITS = v.Integer(1, 1 << 32)
SAMPLES_PER_PACKET = v.Optional(v.Integer(1))


def _fading(fading_model: str, oscillators: int | None) -> tuple[str, int]:
    model = FADING_MODEL.check("fading_model", fading_model)
    n = DEFAULT_OSCILLATORS[model] if oscillators is None else OSCILLATORS.check("oscillators", oscillators)
    return model, n


def _samples_per_packet(fdt: float, bits: int, samples_per_packet: int | None) -> int:
    if samples_per_packet is None:
        return default_samples_per_packet(fdt, bits)
    if samples_per_packet > bits:
        raise v.fail("samples_per_packet", samples_per_packet, f"must be <= packet_bits (= {bits})")
    return samples_per_packet

#: Largest fD·Δ between two fading samples inside a packet when the count is chosen for the user:
#: the fastest oscillator then turns by at most 2π·0.005 ≈ 0.03 rad between samples.
MAX_DOPPLER_STEP = 0.005


def default_samples_per_packet(fdt: float, packet_bits: int) -> int:
    """Fading samples per packet chosen so that fD·Δ <= 0.005 (at least 1, at most one per bit)."""
    return int(min(max(1, math.ceil(fdt / MAX_DOPPLER_STEP)), packet_bits))


@v.checked(fdt=SIM_FDT, samples=v.Integer(0), seed=v.SEED, fading_model=FADING_MODEL, oscillators=OSCILLATORS,
           samples_per_packet=v.Integer(1))
def fading_gain(fdt: float, samples: int, *, seed: int, fading_model: str = "jakes",
                oscillators: int | None = None, samples_per_packet: int = 1) -> np.ndarray:
    """Complex fading gain g (E|g|² = 1) at ``samples`` instants spaced T / samples_per_packet.

    ``fdt`` is fD·T; ``fading_model`` one of :data:`FADING_MODELS`; ``oscillators`` N0 (Jakes) or M (cisoids),
    defaults in :data:`DEFAULT_OSCILLATORS`.

    Parameters
    ----------
    fdt : fD·T.
    samples : how many samples (a request that would not fit in memory is refused).
    seed : seed of the oscillators' random phases (and angles, for cisoids).
    fading_model : "jakes" or "cisoids".
    oscillators : N0 for Jakes, M for cisoids (default 8 and 64).
    samples_per_packet : samples per packet time T.

    Returns
    -------
    numpy.ndarray of complex128, one gain per sample.

    Raises
    ------
    ParameterError
        fdt or samples out of range, an unknown fading_model, a request that would not fit in memory.

    Examples
    --------
    >>> g = tcpfade.fading_gain(0.01, 100_000, seed=1)
    >>> 0.9 < float((abs(g) ** 2).mean()) < 1.1            # E|g|^2 = 1
    True
    """
    model, n = _fading(fading_model, oscillators)
    v.memory("samples", samples, 32.0 * samples, f"{samples} fading samples")
    v.work("samples", samples, samples * n, "samples", f"{samples} fading samples of {n} oscillators")
    re, im = _core.fading_gain(model, fdt, n, samples, samples_per_packet, seed)
    return re + 1j * im


@v.checked(fdt=SIM_FDT, lag=v.Array(), fading_model=FADING_MODEL, oscillators=OSCILLATORS)
def fading_autocorrelation(fdt: float, lag: np.ndarray | float, *, fading_model: str = "jakes",
                           oscillators: int | None = None) -> np.ndarray:
    """Exact autocorrelation E[g*(t) g(t+τ)] of a simulator, τ = ``lag`` in packet times.

    Jakes: (2 Σ_{n=1..N0} cos(ω_n τ) + cos(ω_m τ)) / (2 N0 + 1) with ω_n = 2π fD cos(2πn/(4N0+2)),
    the discrete counterpart of J0(2π fD τ). Cisoids: J0(2π fD τ) itself (averaged over the random
    angles). See docs/models.md.

    Parameters
    ----------
    fdt : fD·T.
    lag : lags in packet times (a number or an array).
    fading_model, oscillators : as for :func:`fading_gain`.

    Returns
    -------
    numpy.ndarray of the lags' shape (one element for a scalar lag), the autocorrelation at each lag.

    Raises
    ------
    ParameterError
        fdt out of range, lags not finite, an unknown fading_model.

    Examples
    --------
    >>> tcpfade.fading_autocorrelation(0.01, [0.0, 25.0]).round(3).tolist()     # J0(2π · 0.25) ≈ 0.472
    [1.0, 0.472]
    """
    from scipy import special
    model, n0 = _fading(fading_model, oscillators)
    v.memory("lag", f"an array of {lag.size}", 8.0 * lag.size * (n0 + 2), f"{lag.size} lags")
    if lag.size and float(np.max(np.abs(lag))) * fdt > 1e12:
        raise v.fail("lag", f"an array reaching {float(np.max(np.abs(lag))):.3g}",
                     "|lag| · fdt must be at most 1e12 (beyond, the cosines have no correct digit)")
    x = 2 * np.pi * fdt * lag
    if model == "cisoids":
        return special.j0(x)
    n = 4 * n0 + 2
    k = np.arange(1, n0 + 1)
    total = 2 * np.cos(np.multiply.outer(x, np.cos(2 * np.pi * k / n))).sum(axis=-1) + np.cos(x)
    return total / (2 * n0 + 1)


@dataclass(frozen=True, init=False)
class ThresholdFading(SlotChannel):
    """Jakes fading sampled once per slot; a packet is lost when ``|g|² < 1/F`` (zorzi-rao §3.1).

    Give ``fdt`` = fD·T and one of ``fading_margin_db``, ``fading_margin`` (linear) or
    ``error_rate`` (which sets F by eq. (2)).

    Parameters
    ----------
    fdt : fD·T.
    fading_margin_db, fading_margin, error_rate : one of them sets F.
    fading_model : "jakes" (8 oscillators by default) or "cisoids" (64).
    oscillators : N0 or M.

    Raises
    ------
    ParameterError
        fdt not in (0, 1e6], both or neither of error_rate and a fading margin, an unknown fading_model.

    Examples
    --------
    >>> ch = tcpfade.ThresholdFading(0.01, error_rate=0.1)
    >>> bool(0.08 < ch.trace(200_000, seed=1).mean() < 0.12)
    True
    """

    fdt: float
    fading_margin: float
    fading_model: str
    oscillators: int

    @v.checked(fdt=SIM_FDT, fading_margin_db=v.Optional(FADING_MARGIN_DB), fading_margin=v.Optional(FADING_MARGIN),
               error_rate=v.Optional(ERROR_RATE), fading_model=FADING_MODEL, oscillators=OSCILLATORS)
    def __init__(self, fdt: float, *, fading_margin_db: float | None = None, fading_margin: float | None = None,
                 error_rate: float | None = None, fading_model: str = "jakes", oscillators: int | None = None) -> None:
        model, n = _fading(fading_model, oscillators)
        object.__setattr__(self, "fdt", fdt)
        object.__setattr__(self, "fading_margin", resolve_fading_margin(error_rate, fading_margin_db, fading_margin))
        object.__setattr__(self, "fading_model", model)
        object.__setattr__(self, "oscillators", n)
        self._check()

    @property
    def fading_margin_db(self) -> float:
        """F in dB."""
        return v.linear_to_db(self.fading_margin)

    @property
    def transmit_energy(self) -> float:
        """F (linear): the transmit power the fading margin stands for (decision D5 of docs/models.md)."""
        return self.fading_margin

    @property
    def rayleigh_error_rate(self) -> float:
        """1 - exp(-1/F): the error rate for an exactly Rayleigh envelope (eq. (2))."""
        return -math.expm1(-1.0 / self.fading_margin)

    def _spec(self) -> dict[str, Any]:
        return {"kind": "threshold", "fdt": self.fdt, "fading_margin": self.fading_margin,
                "fading_model": self.fading_model, "oscillators": self.oscillators}

    def link_spec(self, rate: float, clock: str = "time") -> dict[str, Any]:
        """In real time, at fD = fD·T × ``rate`` Hz (T = 1/rate, one packet time); with ``clock="packets"`` one
        step per packet (its slotted model). See :meth:`SlotChannel.link_spec`."""
        if clock == "time":
            return {"kind": "timed", "slot": {**self._spec(), "fdt": self.fdt * rate}}
        return {"kind": "per-packet", "slot": self._spec()}

    def describe(self) -> dict[str, Any]:
        return {**self._spec(), "fading_margin_db": self.fading_margin_db,
                "rayleigh_error_rate": self.rayleigh_error_rate}

    def _slot_cost(self) -> float:
        # One fading sample of ``oscillators`` sinusoids per slot. Measured (bench of a 10⁷-slot trace and an
        # OldTahoe run at fD·T = 0.5): Jakes' 8 at 47 M slots/s, 64 cisoids at 6-8 M slots/s, about 2.5 ns an
        # oscillator; in units of the slotted driver's 10 ns a slot, 0.3 an oscillator (issue 34: 10⁹ slots of 64
        # cisoids were estimated at 10 s and took 300 s).
        return max(1.0, 0.3 * self.oscillators)


@dataclass(frozen=True, init=False)
class BitLevelFading(SlotChannel):
    """Jakes fading sampled inside each packet; a packet is lost when any bit is wrong (decision D6 of docs/models.md).

    ``snr_db`` is the average SNR per bit (Eb/N0 averaged over the fading), ``packet_bits`` the
    packet length (8192 = 1024 bytes), ``modulation`` one of :data:`MODULATIONS` (BPSK default, no
    coding). ``samples_per_packet`` defaults to :func:`default_samples_per_packet`.

    Parameters
    ----------
    fdt : fD·T.
    snr_db : average SNR per bit [dB].
    packet_bits : bits per packet.
    modulation : one of :data:`MODULATIONS`.
    samples_per_packet : fading samples per packet.
    fading_model, oscillators : the fading simulator.

    Raises
    ------
    ParameterError
        fdt, snr_db, packet_bits or samples_per_packet out of range, an unknown modulation or fading_model.

    Examples
    --------
    >>> ch = tcpfade.BitLevelFading(0.01, 20.0, packet_bits=1024)
    >>> bool(0.0 < ch.trace(20_000, seed=1).mean() < 0.2)
    True
    """

    fdt: float
    snr_db: float
    packet_bits: int
    modulation: str
    samples_per_packet: int
    fading_model: str
    oscillators: int

    @v.checked(fdt=SIM_FDT, snr_db=SNR_DB, packet_bits=PACKET_BITS, modulation=v.Choice(MODULATIONS),
               samples_per_packet=SAMPLES_PER_PACKET, fading_model=FADING_MODEL, oscillators=OSCILLATORS)
    def __init__(self, fdt: float, snr_db: float, *, packet_bits: int = 8192, modulation: str = "bpsk",
                 samples_per_packet: int | None = None, fading_model: str = "jakes",
                 oscillators: int | None = None) -> None:
        model, n = _fading(fading_model, oscillators)
        bits = packet_bits
        spp = _samples_per_packet(fdt, bits, samples_per_packet)
        object.__setattr__(self, "fdt", fdt)
        object.__setattr__(self, "snr_db", snr_db)
        object.__setattr__(self, "packet_bits", bits)
        object.__setattr__(self, "modulation", modulation)
        object.__setattr__(self, "samples_per_packet", spp)
        object.__setattr__(self, "fading_model", model)
        object.__setattr__(self, "oscillators", n)
        self._check()

    def _slot_cost(self) -> float:
        return float(self.samples_per_packet * self.oscillators)

    @property
    def snr(self) -> float:
        """Average SNR per bit, linear."""
        return v.db_to_linear(self.snr_db)

    @property
    def transmit_energy(self) -> float:
        """The average SNR (linear), proportional to the transmit power (decision D5 of docs/models.md)."""
        return self.snr

    def _spec(self) -> dict[str, Any]:
        return {"kind": "bit-level", "fdt": self.fdt, "snr": self.snr, "packet_bits": self.packet_bits,
                "modulation": self.modulation, "samples_per_packet": self.samples_per_packet,
                "fading_model": self.fading_model, "oscillators": self.oscillators}

    def link_spec(self, rate: float, clock: str = "time") -> dict[str, Any]:
        """In real time, at fD = fD·T × ``rate`` Hz (T = 1/rate, one packet time); with ``clock="packets"`` one
        step per packet (its slotted model). See :meth:`SlotChannel.link_spec`."""
        if clock == "time":
            return {"kind": "timed", "slot": {**self._spec(), "fdt": self.fdt * rate}}
        return {"kind": "per-packet", "slot": self._spec()}

    def describe(self) -> dict[str, Any]:
        return {**self._spec(), "snr_db": self.snr_db}


@v.checked(fdt=SIM_FDT, snr_db=v.Array(low=-200.0, high=200.0, min_size=1), packet_bits=PACKET_BITS,
           modulation=v.Choice(MODULATIONS), samples_per_packet=SAMPLES_PER_PACKET, fading_model=FADING_MODEL,
           oscillators=OSCILLATORS, packets=v.Integer(2), batches=v.Integer(2), seed=v.SEED,
           confidence=v.CONFIDENCE, progress=v.PROGRESS)
def bit_level_error_rate(fdt: float, snr_db, *, packet_bits: int = 8192, modulation: str = "bpsk",
                         samples_per_packet: int | None = None, fading_model: str = "jakes",
                         oscillators: int | None = None, packets: int = 200_000, batches: int = 50, seed: int = 1,
                         confidence: float = 0.95, progress: bool | Callable[[float], object] | None = None
                         ) -> pd.DataFrame:
    """Average packet error rate of the bit-level model against average SNR (zorzi-rao Fig. 7).

    Each packet's error probability given its fading is averaged over ``packets`` packets of one
    fading realization, shared by all SNRs. The confidence interval comes from batch means over
    ``batches`` batches (Student t). ``progress``: True for a progress bar, or a callable that gets the fraction
    of the packets done about every 0.1 s (an exception it raises stops the run and is raised here); Ctrl-C stops
    a run at once.

    Parameters
    ----------
    fdt : fD·T.
    snr_db : average SNR per bit [dB], a number or a list.
    packet_bits : bits per packet.
    modulation : "bpsk", "coherent-fsk", "dpsk" or "noncoherent-fsk".
    samples_per_packet : fading samples per packet (default: enough for the Doppler).
    fading_model, oscillators : as for :func:`fading_gain`.
    packets : packets simulated (one fading realization for every SNR).
    batches, confidence : the batch-means interval.
    seed : seed of the fading.
    progress : True for a progress bar, or a callable that gets the fraction done.

    Returns
    -------
    pandas.DataFrame, one row per SNR: ``fdt`` (the same in every row, so that tables of several fD·T concatenate
    into what :func:`tcpfade.plots.plot_error_vs_snr` draws), ``snr_db``, ``error_rate``, ``error_rate_low``,
    ``error_rate_high``.

    Raises
    ------
    ParameterError
        fdt, packet_bits, packets or batches out of range, an SNR not finite, an unknown modulation.

    Examples
    --------
    >>> t = tcpfade.bit_level_error_rate(0.05, [10.0, 30.0], packet_bits=256, packets=20_000, seed=1)
    >>> bool(t.error_rate.iloc[0] > t.error_rate.iloc[1])
    True
    """
    import pandas as pd
    bits = packet_bits
    spp = _samples_per_packet(fdt, bits, samples_per_packet)
    n_batches = batches
    if packets < n_batches:
        raise v.fail("packets", packets, f"must be >= batches (= {n_batches})")
    model, n = _fading(fading_model, oscillators)
    v.work("packets", packets, float(packets) * spp * (n + snr_db.size), "samples",
           f"{packets} packets of {spp} fading samples at {snr_db.size} SNRs")
    with reporting(progress, "packets") as report:
        rows = _core.bit_level_error_rates(
            model, fdt, n, [v.db_to_linear(s) for s in snr_db], bits, modulation,
            spp, packets, n_batches, seed, report)
    from .._stats import batch_interval

    mean = rows.mean(axis=1)
    # the simulators' batch-means interval, truncated to [0, 1] where an error rate lies
    low, high = zip(*(batch_interval(float(m), row, confidence, (0.0, 1.0)) for m, row in zip(mean, rows)))
    return pd.DataFrame({"fdt": fdt, "snr_db": snr_db, "error_rate": mean, "error_rate_low": low,
                         "error_rate_high": high})


@v.checked(error_rate=ERROR_RATE, fdt=SIM_FDT)
def snr_for_error_rate(error_rate: float, fdt: float, **kwargs: Any) -> float:
    """Average SNR per bit (dB) at which the bit-level model's mean packet error rate is ``error_rate``.

    Solved by Brent's method on :func:`bit_level_error_rate` (keyword arguments pass through), whose
    common random numbers make it a smooth, monotone function of the SNR.

    Parameters
    ----------
    error_rate : the target average packet error rate, in (0, 1).
    fdt : fD·T.
    **kwargs : passed to :func:`bit_level_error_rate` (packet_bits, modulation, packets, seed, ...).

    Returns
    -------
    float, the average SNR per bit [dB].

    Raises
    ------
    ParameterError
        error_rate outside (0, 1), or not reachable in the searched SNR range; and what
        :func:`bit_level_error_rate` raises for its keyword arguments.

    Examples
    --------
    >>> snr = tcpfade.snr_for_error_rate(0.1, 0.05, packet_bits=256, packets=20_000, seed=1)
    >>> 10 < snr < 30
    True
    """
    from scipy import optimize
    target = error_rate

    def gap(snr_db: float) -> float:
        rate = bit_level_error_rate(fdt, [snr_db], **kwargs)["error_rate"].iloc[0]
        return math.log(max(rate, 1e-300)) - math.log(target)

    low, high = -10.0, 80.0
    if gap(low) < 0 or gap(high) > 0:
        raise v.fail("error_rate", error_rate, "not reachable for average SNR between -10 and 80 dB")
    return float(optimize.brentq(gap, low, high, xtol=1e-4))
