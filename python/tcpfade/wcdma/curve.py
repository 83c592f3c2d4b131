"""The universal throughput curve of zorzi-rossi-mazzini §3.4, eqs. (3)-(6): TCP throughput S as a function of a
user's mean block error probability x = P_e, parameterized only by the Doppler frequency,

    f(x) = S(0) · z / (z + 1),   z = 10^(α · ln(1 / (x̃ − x_s) − 1)),   x̃ = 1 + log10(x) / 3,
    x_s = 1 / (A·f_d + B) − k,

with the paper's A = 1.39, B = 2.78, k = 0.03, α = 1.3; and a fit of the same form to our own points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _validate as v
from .._record import Record

#: The paper's parameters (§3.4).
PAPER = {"A": 1.39, "B": 2.78, "k": 0.03, "alpha": 1.3}
#: S(0), the throughput without errors: a share of the bearer's rate.
S0 = v.Real(0.0, 1.0, low_open=True)


def _parameters(A: float, B: float, k: float, alpha: float) -> tuple[float, float, float, float]:
    """A, B, k and α checked: any finite values (a least-squares fit explores them beyond the physical range)."""
    return tuple(v.Real().check(name, value) for name, value in (("A", A), ("B", B), ("k", k), ("alpha", alpha)))


@v.checked()
def universal_curve(pe, doppler_hz, *, s0: float = 472 / 512, A: float = PAPER["A"], B: float = PAPER["B"],
                    k: float = PAPER["k"], alpha: float = PAPER["alpha"]) -> np.ndarray | float:
    """Eqs. (3)-(6) at block error probabilities ``pe`` (in (0, 1]) and Doppler ``doppler_hz``. Where the
    logarithm of eq. (3) is undefined the curve takes its limits: S(0) below x̃ = x_s (errors too rare to
    matter), 0 where 1/(x̃ − x_s) − 1 ≤ 0.

    Parameters
    ----------
    pe : block error probabilities in [0, 1].
    doppler_hz : f_d [Hz].
    s0 : S(0), the throughput without errors (default the bearer's payload share 472/512).
    A, B, k, alpha : the curve's parameters (default the paper's).

    Returns
    -------
    float for a scalar P_e, else numpy.ndarray.

    Raises
    ------
    ParameterError
        a P_e outside [0, 1] or not a number, a Doppler outside [0, 1e4] Hz, S(0) outside (0, 1], a non-finite
        A, B, k or α.

    Examples
    --------
    >>> round(wcdma.universal_curve(0.01, 6.0) / (472 / 512), 4)      # 0.94911 worked by hand from eqs. (3)-(6)
    0.9491
    """
    if isinstance(pe, (str, bytes)):
        raise v.fail("pe", pe, "must be a number or an array of numbers in [0, 1]", kind=v.ParameterTypeError)
    x = np.atleast_1d(np.asarray(v.Array(low=0.0, high=1.0).check("pe", np.atleast_1d(pe)), dtype=float))
    fd = v.Real(0.0, 1e4).check("doppler_hz", doppler_hz)
    s0 = S0.check("s0", s0)
    out = _curve(x, fd, s0, *_parameters(A, B, k, alpha))
    return float(out.reshape(-1)[0]) if np.ndim(pe) == 0 else out


def _curve(x: np.ndarray, fd: float, s0: float, A: float, B: float, k: float, alpha: float) -> np.ndarray:
    """:func:`universal_curve` at points and parameters already checked (a fit evaluates it tens of thousands of times,
    where checking each call's arguments again took most of the fit's time)."""
    x_tilde = 1.0 + np.log10(np.maximum(x, 1e-300)) / 3.0
    if A * fd + B == 0.0:
        raise v.fail("B", B, f"A·doppler_hz + B must not be 0 (eq. (5): x_s = 1/(A f_d + B) − k; here A = {A:g}, "
                             f"doppler_hz = {fd:g})")
    x_s = 1.0 / (A * fd + B) - k
    gap = x_tilde - x_s
    # e^(−log z) may overflow to inf for a steep α: 1/(1 + inf) = 0 is the curve's limit there, not an error.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        y = 1.0 / gap - 1.0
        # 10^(α ln y) = y^(α ln 10); as z / (z + 1) = 1 / (1 + z^−1), computed without overflow.
        log_z = alpha * np.log(np.where(y > 0, y, 1.0)) * np.log(10.0)
        f = s0 / (1.0 + np.exp(-log_z))
    return np.where(gap <= 0, s0, np.where(y <= 0, 0.0, f))


@dataclass(frozen=True, repr=False)
class CurveFit(Record):
    """A fit of eqs. (3)-(6) to points: the parameters, their standard errors (0 for a parameter ``held`` at the
    paper's value), the residuals' RMS and the number of points.

    Attributes
    ----------
    A, B, k, alpha : float
        The parameters of eqs. (3)-(6).
    errors : dict[str, float]
        Each parameter's standard error (0 for one held at the paper's value, inf for one the points do not
        determine).
    rms_residual : float
        RMS of S fitted − S given.
    points : int
        Points fitted.
    held : tuple of str
        Parameters held at the paper's values.

    Examples
    --------
    >>> import numpy as np
    >>> pe = np.logspace(-3, -0.3, 20)
    >>> fit = wcdma.fit_universal_curve(pe, wcdma.universal_curve(pe, 6.0), 6.0)   # the paper's own curve back
    >>> round(fit.k, 3), fit.errors["A"], fit.rms_residual < 1e-9
    (0.03, 0.0, True)
    """

    A: float
    B: float
    k: float
    alpha: float
    errors: dict[str, float]
    rms_residual: float
    points: int
    held: tuple[str, ...] = ()

    _headline = ("A", "B", "k", "alpha", "rms_residual", "points")
    _undefined = {f"{n}_error": "infinite: the points do not determine this parameter (the fit's covariance is "
                                "singular)" for n in ("A", "B", "k", "alpha")}

    def _row(self) -> dict[str, Any]:
        """A, B, k, α, each with its standard error (``<name>_error``), the RMS residual, the number of points and
        the parameters held at the paper's values."""
        out: dict[str, Any] = {}
        for name in ("A", "B", "k", "alpha"):
            out[name], out[f"{name}_error"] = getattr(self, name), self.errors[name]
        return {**out, "rms_residual": self.rms_residual, "points": self.points, "held": ",".join(self.held)}


def fit_universal_curve(pe, throughput, doppler_hz, *, s0: float = 472 / 512) -> CurveFit:
    """Least-squares fit (scipy's ``curve_fit``) of A, B, k and α to points (P_e, S) at Dopplers ``doppler_hz``
    (one per point, or one for all), starting from the paper's values. Points of a single Doppler fix only
    x_s = 1/(A·f_d + B) − k: A and B are then held at the paper's values and k and α fitted.

    Parameters
    ----------
    pe : the points' block error probabilities.
    throughput : their throughputs S.
    doppler_hz : one Doppler for all points, or one per point [Hz].
    s0 : S(0), the throughput without errors.

    Returns
    -------
    CurveFit: A, B, k, α, their standard errors, the RMS residual, the number of points, the parameters held.

    Raises
    ------
    ParameterError
        fewer than 5 points, values outside [0, 1], arrays of different lengths; points that determine nothing
        (every throughput the same, or every point where the curve stays at S(0)).

    Examples
    --------
    >>> import numpy as np
    >>> pe = np.logspace(-3, -0.3, 20)
    >>> fit = wcdma.fit_universal_curve(pe, wcdma.universal_curve(pe, 6.0), 6.0)
    >>> round(fit.k, 3), fit.held
    (0.03, ('A', 'B'))
    """
    from scipy import optimize

    x = np.asarray(v.Array(low=0.0, high=1.0, min_size=5).check("pe", pe), dtype=float)
    s = np.asarray(v.Array(low=0.0, high=1.0).check("throughput", throughput), dtype=float)
    if s.shape != x.shape:
        raise v.fail("throughput", f"an array of {s.size} values", f"must match pe ({x.size} values)")
    if np.ndim(doppler_hz) == 0 and not isinstance(doppler_hz, (list, tuple)):
        fd = np.full(x.shape, v.Real(0.0, 1e4).check("doppler_hz", doppler_hz))
    else:
        fd = np.asarray(v.Array(low=0.0, high=1e4).check("doppler_hz", doppler_hz), dtype=float)
        if fd.shape != x.shape:
            raise v.fail("doppler_hz", f"an array of {fd.size} values", f"must be one number or match pe ({x.size} "
                                                                        "values)")
    keep = x > 0
    if keep.sum() < 5:
        # log10(P_e) is eq. (4)'s variable: a point at P_e = 0 lies at x̃ = −∞, on the flat part, and fixes nothing.
        raise v.fail("pe", f"{int(keep.sum())} points above 0", "must hold at least 5 points with P_e > 0 (a point "
                                                                 "at P_e = 0 lies where S stays at S(0))")
    x, s, fd = x[keep], s[keep], fd[keep]
    if np.ptp(s) == 0:
        # Every point at one throughput: no curve is determined, and the fit would return its starting values.
        raise v.fail("throughput", f"{x.size} points all at {s[0]:g}", "must vary across the points for a fit")
    if np.ptp(x) == 0:
        # Every point at one P_e: the curve's shape along P_e is not seen, whatever the throughputs.
        raise v.fail("pe", f"{x.size} points all at {x[0]:g}", "must vary across the points for a fit")

    # Points where eq. (3) is flat at S(0) (x̃ ≤ x_s at the starting values) move no parameter: the optimizer would
    # hand back its starting values, which would read as a fit that found the paper's curve.
    x_s = 1 / (PAPER["A"] * fd + PAPER["B"]) - PAPER["k"]
    if np.all(1 + np.log10(x) / 3 <= x_s):
        falls = float(np.min(10 ** (3 * (x_s - 1))))
        raise v.fail("pe", f"{x.size} points at P_e ≤ {x.max():.3g}",
                     f"must reach where the curve falls (P_e above {falls:.2g} at the paper's parameters): points "
                     "where S stays at S(0) determine no parameter of eqs. (3)-(6)")

    # S(0) last, where its first evaluation of the curve checked it before (a call with several faults names the same).
    s0 = S0.check("s0", s0)
    groups = [(f, fd == f) for f in np.unique(fd)]

    def model(_i, A, B, k, alpha):
        # One vectorized call per Doppler (a call per point made fits of a thousand users take a minute).
        # The points, Dopplers and S(0) were checked above; the parameters the optimizer tries as universal_curve
        # checks them.
        parameters = _parameters(A, B, k, alpha)
        out = np.empty_like(x)
        for f, at in groups:
            out[at] = _curve(x[at], float(f), s0, *parameters)
        return out

    names = ("A", "B", "k", "alpha")
    held = ("A", "B") if np.unique(fd).size == 1 else ()
    free = [n for n in names if n not in held]

    def partial(_i, *values):
        return model(_i, **{**{n: PAPER[n] for n in held}, **dict(zip(free, values))})

    p0 = [PAPER[n] for n in free]
    import warnings

    # A parameter the points do not determine has an infinite standard error (scipy says so with a warning:
    # the CurveFit's errors say it instead).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optimize.OptimizeWarning)
        try:
            fitted, cov = optimize.curve_fit(partial, np.arange(x.size), s, p0=p0, maxfev=20_000)
        except RuntimeError:
            # Points near the curve's top leave the parameters ill-determined and Levenberg-Marquardt may wander
            # off: then a fit within the bounds where eq. (6) is defined (A ≥ 0, B > 0, α > 0).
            bounds = {"A": (0.0, 1e3), "B": (1e-3, 1e3), "k": (-1.0, 1.0), "alpha": (1e-3, 100.0)}
            fitted, cov = optimize.curve_fit(partial, np.arange(x.size), s, p0=p0, max_nfev=20_000,
                                             bounds=tuple(zip(*(bounds[n] for n in free))))
    params = {**{n: PAPER[n] for n in held}, **dict(zip(free, map(float, fitted)))}
    residual = s - partial(None, *fitted)
    errors = {n: 0.0 for n in held} | {n: float(np.sqrt(cov[i, i])) if np.isfinite(cov[i, i]) and cov[i, i] >= 0
                                       else math.inf for i, n in enumerate(free)}
    return CurveFit(**params, errors={n: errors[n] for n in names},
                    rms_residual=float(np.sqrt(np.mean(residual ** 2))), points=int(x.size), held=held)
