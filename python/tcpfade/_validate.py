"""Parameter checks used where input enters the Python API; the wording matches the Rust core's."""

from __future__ import annotations

import math
from numbers import Integral, Real

from .errors import ParameterError


def fail(name: str, value: object, allowed: str) -> ParameterError:
    """The error for ``name = value`` outside ``allowed`` (``parameter`` names the parameter)."""
    error = ParameterError(f"{name} = {value!r} is not allowed: {allowed}")
    error.parameter = name
    return error


def real(name: str, value: object) -> float:
    """A finite real number."""
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(float(value)):
        raise fail(name, value, "must be a finite number")
    return float(value)


def probability(name: str, value: object, *, open_low: bool = False, open_high: bool = False) -> float:
    """A probability in [0, 1] (or an open end when asked)."""
    v = real(name, value)
    low_ok = v > 0 if open_low else v >= 0
    high_ok = v < 1 if open_high else v <= 1
    if not (low_ok and high_ok):
        lo = "(0" if open_low else "[0"
        hi = "1)" if open_high else "1]"
        raise fail(name, value, f"must be a probability in {lo}, {hi}")
    return v


def positive(name: str, value: object) -> float:
    """A finite number > 0."""
    v = real(name, value)
    if v <= 0:
        raise fail(name, value, "must be a finite number > 0")
    return v


def at_least(name: str, value: object, low: float) -> float:
    """A finite number >= low."""
    v = real(name, value)
    if v < low:
        raise fail(name, value, f"must be a finite number >= {low:g}")
    return v


def integer(name: str, value: object, low: int, high: int | None = None) -> int:
    """An integer in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise fail(name, value, "must be an integer")
    v = int(value)
    if v < low or (high is not None and v > high):
        allowed = f"[{low}, {high}]" if high is not None else f">= {low}"
        raise fail(name, value, f"must be an integer {allowed}" if high is None else f"must be an integer in {allowed}")
    return v


def seed(value: object) -> int:
    """A seed: an integer in [0, 2**64)."""
    return integer("seed", value, 0, 2**64 - 1)


def choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    """One of a fixed set of names."""
    if value not in allowed:
        raise fail(name, value, "must be one of " + ", ".join(allowed))
    return str(value)


def db_to_linear(db: float) -> float:
    """10^(dB/10)."""
    return 10.0 ** (db / 10.0)


def linear_to_db(x: float) -> float:
    """10 log10(x)."""
    return 10.0 * math.log10(x)
