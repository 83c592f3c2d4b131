r"""From a Rayleigh fading channel to a two-state Markov packet-error model.

zorzi-rao §3.1, eqs. (2)-(5) (the model of their ref. [25]; chockalingam eqs. (2)-(4)). A packet
is lost when the received power of the fading sample taken at its start falls below the level set
by the fading margin :math:`F` (linear), so with a Rayleigh envelope of unit mean power

.. math::

   \varepsilon = 1 - e^{-1/F}                                            \quad (2)

   p_{BB} = q = 1 - \frac{Q(\theta, \rho\theta) - Q(\rho\theta, \theta)}{e^{1/F} - 1},
   \qquad \theta = \sqrt{\frac{2/F}{1 - \rho^2}},
   \qquad \rho = J_0(2\pi f_D T)                                         \quad (3), (4)

with :math:`Q` the first-order Marcum Q function, eq. (5). zorzi-rao print the left side of (3)
as :math:`p_{GB}`; the right side is the probability of staying bad (chockalingam eq. (4) calls it
*q*, and only that reading reproduces chockalingam Table 1). Since
:math:`\varepsilon / (1 - \varepsilon) = e^{1/F} - 1`, the same quantities give
:math:`p_{GB} = 1 - p = Q(\theta, \rho\theta) - Q(\rho\theta, \theta)` directly, which is how we
compute it (no division by a small number).

The joint law of two Rayleigh envelopes depends on the correlation only through :math:`|\rho|`;
for :math:`f_D T` beyond the first zero of :math:`J_0` (0.383), :math:`\rho < 0` and :math:`|\rho|`
is used.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as v

#: Fading margins F accepted everywhere (linear; 10^-30..10^30 is -300..300 dB): beyond, ε rounds to 0 or 1 and the
#: chain stops being a two-state chain.
FADING_MARGIN = v.Real(1e-30, 1e30)
FADING_MARGIN_DB = v.Real(-300.0, 300.0)
ERROR_RATE = v.Probability(open_low=True, open_high=True)
#: fD·T accepted by the Markov mapping: below 1e-12 the chain's p_GB is below 1e-12 · F^(-1/2) and the model is a
#: channel that never changes state within any run one could simulate.
FDT = v.Real(1e-12, 1e3, words="must be a finite number in [1e-12, 1000]")



#: |a − b| beyond which Marcum Q is 0 or 1 to double precision, and the largest a, b :func:`marcum_q` takes
#: within that band (scipy's ncx2 is exact to 1e-12 at 1e5 and wrong at 3e5).
MARCUM_CERTAIN = 39.0
MARCUM_LARGEST = 1e5


@v.checked()
def marcum_q(a, b):
    r"""First-order Marcum Q function, zorzi-rao eq. (5):
    :math:`Q(a, b) = \int_b^\infty w\, e^{-(a^2 + w^2)/2} I_0(a w)\, dw`.

    Computed as the survival function of a noncentral chi-square with 2 degrees of freedom and
    noncentrality :math:`a^2` at :math:`b^2` (scipy.stats.ncx2), checked against an independent
    high-precision quadrature in the tests; exactly 0 or 1 where ``|a − b| > 39`` (see below). Accepts scalars or
    arrays (a, b >= 0; within 39 of each other, at most 1e5).

    Parameters
    ----------
    a, b : non-negative numbers or arrays (broadcast together).

    Returns
    -------
    float or numpy.ndarray, Q1(a, b) (the shape of a and b broadcast).

    Raises
    ------
    ParameterError
        a or b negative, not finite, or beyond the range where Q is computed.

    Examples
    --------
    >>> round(float(tcpfade.marcum_q(0.0, 1.0)), 6)      # exp(-1/2)
    0.606531
    """
    from scipy import special, stats
    arrays = []
    for name, value in (("a", a), ("b", b)):
        try:
            if v.not_numbers(np.asarray(value)):
                raise TypeError("text or True/False is not a number")
            x = np.asarray(value, dtype=float)
        except (TypeError, ValueError, OverflowError):
            raise v.fail(name, value, "must be a finite number >= 0 or an array of them",
                         kind=v.ParameterTypeError) from None
        if np.any(~np.isfinite(x)) or np.any(x < 0):
            raise v.fail(name, value, "must be a finite number >= 0 or an array of them")
        arrays.append(x)
    a, b = np.broadcast_arrays(*arrays)
    # Where |a − b| > 39, Q is 0 or 1 exactly in double precision: Q(a, b) <= e^{-(b-a)²/2} for b > a and
    # 1 − Q(a, b) <= e^{-(a-b)²/2} for a > b (Simon & Alouini's bounds), and e^{-39²/2} < 5e-324.
    # scipy's ncx2 is slow and wrong there for large arguments (Q(1e9, 1e9) took 17 s and gave 0.37).
    out = np.where(a - b > MARCUM_CERTAIN, 1.0, 0.0)
    rest = np.abs(a - b) <= MARCUM_CERTAIN
    if np.any(rest & (np.maximum(a, b) > MARCUM_LARGEST)):
        name = "a" if np.any(rest & (a > MARCUM_LARGEST)) else "b"
        raise v.fail(name, float((a if name == "a" else b)[rest].max()),
                     f"a and b within {MARCUM_CERTAIN:g} of each other must be at most {MARCUM_LARGEST:g} "
                     "(beyond, scipy's noncentral chi-square loses its digits; markov_from_fading does not use it)")
    ar, br = a[rest], b[rest]
    with np.errstate(all="ignore"):
        central = stats.chi2.sf(br * br, 2)  # a = 0: Q(0, b) = exp(-b^2/2)
        try:
            noncentral = stats.ncx2.sf(br * br, 2, np.where(ar > 0, ar * ar, 1.0))
        except OverflowError:
            # Boost's ncx2 overflows for b tiny against a (where Q is 1 to double precision): cdflib's chndtr
            # holds there, at the cost of the far tail's digits (ncx2 keeps them wherever it does not overflow).
            noncentral = 1.0 - special.chndtr(br * br, 2, np.where(ar > 0, ar * ar, 1.0))
    out[rest] = np.where(ar > 0, noncentral, central)
    return out.item() if out.ndim == 0 else out


def one_minus_j0(x: float) -> float:
    """1 - J0(x), accurate also for small x where J0(x) is close to 1.

    For x < 0.5 the alternating series 1 - J0(x) = sum_{k>=1} (-1)^(k+1) (x^2/4)^k / (k!)^2 is summed
    (12 terms are far below double precision there); otherwise scipy.special.j0 is used.
    """
    from scipy import special
    if abs(x) >= 0.5:
        return 1.0 - float(special.j0(x))
    y = x * x / 4.0
    total, term = 0.0, 1.0
    for k in range(1, 13):
        term *= -y / (k * k)
        total -= term
    return total


@v.checked()
def fading_margin_from_error_rate(error_rate: float) -> float:
    """Fading margin F (linear) giving the packet error rate ε of eq. (2): F = -1 / ln(1 - ε)."""
    e = ERROR_RATE.check("error_rate", error_rate)
    f = -1.0 / math.log1p(-e)
    if not FADING_MARGIN.low <= f <= FADING_MARGIN.high:
        raise v.fail("error_rate", error_rate, "must give a fading margin F within -300..300 dB "
                                               "(error rates in about [1e-30, 1 - 1e-16])")
    return f


@v.checked()
def error_rate_from_fading_margin(fading_margin: float) -> float:
    """Packet error rate ε = 1 - exp(-1/F) of eq. (2), F linear."""
    f = FADING_MARGIN.check("fading_margin", fading_margin)
    return -math.expm1(-1.0 / f)


def resolve_fading_margin(error_rate: float | None = None, fading_margin_db: float | None = None,
                          fading_margin: float | None = None) -> float:
    """The fading margin F (linear) from exactly one of ε (by eq. (2)), F in dB, or F linear."""
    given = {"error_rate": error_rate, "fading_margin_db": fading_margin_db, "fading_margin": fading_margin}
    named = [k for k, val in given.items() if val is not None]
    if len(named) != 1:
        raise v.fail("error_rate/fading_margin_db/fading_margin", ", ".join(named) or "none given",
                     "give exactly one of error_rate, fading_margin_db, fading_margin")
    if error_rate is not None:
        return fading_margin_from_error_rate(error_rate)
    if fading_margin_db is not None:
        return v.db_to_linear(FADING_MARGIN_DB.check("fading_margin_db", fading_margin_db))
    return FADING_MARGIN.check("fading_margin", fading_margin)


#: Above this z = ρθ² the series of :func:`_leave_good` (about 12√z terms) is replaced by its Gaussian limit, whose
#: relative error is about 1/(12 z): below 1e-10 here (scipy's ive returns NaN for z above about 2e9).
_SERIES_LIMIT = 1e9


def _leave_good(theta: float, rho: float, one_minus_rho: float) -> float:
    r"""p_GB = Q(θ, ρθ) − Q(ρθ, θ), summed as positive terms (no cancellation when ρ → 1 and θ is large).

    From Q(a, b) = 1 − e^{−(a²+b²)/2} Σ_{k≥1} (b/a)^k I_k(ab) (a > b) and Q(b, a) = e^{−(a²+b²)/2} Σ_{k≥0}
    (b/a)^k I_k(ab), with z = ρθ², d = (1 − ρ)θ and Σ_{k∈ℤ} e^{−z} I_k(z) = 1:

    .. math:: p_{GB} = (1 − e^{−d²/2}) + e^{−d²/2} \sum_{k∈ℤ} (1 − ρ^{|k|})\, e^{−z} I_k(z)

    For z above 10⁹ the Bessel weights are a Gaussian of variance z and the sum is 1 − erfcx(c √(z/2)), c = −ln ρ.
    """
    from scipy import special
    d = one_minus_rho * theta
    head = -math.expm1(-d * d / 2.0)
    z = rho * theta * theta
    if z == 0.0:
        return head
    c = -math.log1p(-one_minus_rho)  # −ln ρ, exact for ρ close to 1
    if z > _SERIES_LIMIT:
        tail = -math.expm1(math.log(special.erfcx(c * math.sqrt(z / 2.0))))
    else:
        k = np.arange(1, int(12.0 * math.sqrt(z) + 60.0))
        tail = 2.0 * float(np.sum(-np.expm1(-c * k) * special.ive(k, z)))
    return head + math.exp(-d * d / 2.0) * tail


@v.checked()
def markov_from_fading(fading_margin: float, fdt: float) -> tuple[float, float]:
    """Transition probabilities (p, q) = (P(good->good), P(bad->bad)) of zorzi-rao eqs. (2)-(4).

    ``fading_margin`` is F (linear, 1e-30..1e30), ``fdt`` the normalized Doppler frequency fD·T (T = packet
    time, at least 1e-12). Holds at the edges: as fD·T -> 0 (ρ -> 1) the chain becomes ever more persistent,
    with p_GB computed as a sum of positive terms (:func:`_leave_good`), so p and q keep their digits; very small
    or large F give ε close to 1 or 0.

    Parameters
    ----------
    fading_margin : F, linear (the mean SNR over the loss threshold).
    fdt : fD·T, the maximum Doppler frequency times the packet time.

    Returns
    -------
    (p, q): the probabilities of staying good and of staying bad from one packet to the next.

    Raises
    ------
    ParameterError
        fading_margin not positive and finite, fdt not in (0, 1e6].

    Examples
    --------
    >>> p, q = tcpfade.markov_from_fading(10 ** (9.77322 / 10), 0.01)     # chockalingam Table 1, P_E = 0.1
    >>> round(p, 6), round(q, 6)
    (0.991872, 0.926851)
    """
    f = FADING_MARGIN.check("fading_margin", fading_margin)
    x = 2.0 * math.pi * FDT.check("fdt", fdt)
    one_minus_rho = one_minus_j0(x)
    if one_minus_rho > 1.0:  # ρ < 0 beyond J0's first zero: the law depends on |ρ| only
        one_minus_rho = 2.0 - one_minus_rho
    rho = 1.0 - one_minus_rho
    # 1 - ρ² from 1 - ρ to keep its digits when ρ is close to 1 (slow fading).
    one_minus_rho2 = one_minus_rho * (2.0 - one_minus_rho)
    theta = math.sqrt((2.0 / f) / one_minus_rho2)
    p_gb = min(max(_leave_good(theta, rho, one_minus_rho), 0.0), 1.0)
    eps = -math.expm1(-1.0 / f)
    # p_BG = p_GB (1 - ε) / ε from the stationary balance ε = p_GB / (p_GB + p_BG).
    p_bg = min(p_gb * math.exp(-1.0 / f) / eps, 1.0)
    return 1.0 - p_gb, 1.0 - p_bg
