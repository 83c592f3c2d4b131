"""Long-run averages of a Markov renewal-reward process (zorzi-rao eq. (13)).

With π the stationary distribution of the embedded chain P and r_i the expected reward of a
transition out of state i, the long-run ratio of two cumulated rewards is
Σ π_i r_i(A) / Σ π_i r_i(B) with probability one.
"""

from __future__ import annotations

import numpy as np

from .._watch import interruptible


class ReducibleChain(ArithmeticError):
    """The chain has more than one recurrent class in double precision (transitions between them underflow), so
    its stationary law is not defined by the numbers at hand. Callers turn it into a ParameterError naming the
    parameters that made the chain so."""


def _gth(transition: np.ndarray) -> np.ndarray:
    """Stationary law by Grassmann-Taksar-Heyman state reduction: no subtraction anywhere, so it keeps the
    relative accuracy of transition probabilities as small as 1e-300, where LU cancels (Stewart, *Introduction
    to the Numerical Solution of Markov Chains*, §2.7). In the core (``analysis/gth.rs``), which skips the zeros
    the reduction keeps: used only when LU fails."""
    from .. import _core

    solved = _core.gth_stationary(np.ascontiguousarray(transition, dtype=float))
    if isinstance(solved, int):
        raise ReducibleChain(f"state {solved} cannot reach the states before it")
    return solved


#: Chains at least this large are solved on a helper thread, so that Ctrl-C ends the wait at once (a dense solve
#: of 2000 states takes about 0.3 s, and grows as the cube).
INTERRUPTIBLE_SIZE = 2000


#: Below this many states numpy's solve is used: scipy's checks cost more than the LAPACK call itself there (30 against
#: 10 µs at 47 states, a Reno point at Wmax = 24); above, scipy's solve of the transpose in place saves a copy.
SMALL_SOLVE = 400


def _solve(system: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    import scipy.linalg

    with np.errstate(all="ignore"):   # per thread: this may run on a helper thread
        if system.shape[0] < SMALL_SOLVE:
            return np.linalg.solve(system.T, rhs)
        return scipy.linalg.solve(system, rhs, transposed=True, overwrite_a=True)


def stationary_distribution(transition: np.ndarray) -> np.ndarray:
    """π with π P = π, Σ π = 1, for a chain with one recurrent class (transient states get 0).

    Solves (P^T - I) π = 0 with one equation replaced by the normalization; when that solve is singular or its
    residual is not small (a nearly reducible chain), falls back on :func:`_gth`, and raises
    :class:`ReducibleChain` when even that finds the chain reducible in double precision. The system is built untransposed
    (P - I with its last column set to 1) and handed to LAPACK as its transpose, in the one copy of P the solve
    overwrites: a transposed copy, then the solver's own, had cost a quarter of the time at 4000 states.
    """
    n = transition.shape[0]
    system = np.array(transition, dtype=float, order="C", copy=True)
    system.flat[::n + 1] -= 1.0
    system[:, -1] = 1.0
    rhs = np.zeros(n)
    rhs[-1] = 1.0
    try:
        with np.errstate(all="ignore"):
            pi = _solve(system, rhs) if n < INTERRUPTIBLE_SIZE else interruptible(_solve, system, rhs)
    except (np.linalg.LinAlgError, ValueError):
        pi = None
    if pi is not None:
        pi = np.clip(pi, 0.0, None)  # round-off can leave transient states a tiny negative mass
        total = pi.sum()
        if np.all(np.isfinite(pi)) and total > 0:
            pi /= total
            if np.abs(pi @ transition - pi).sum() < 1e-9:
                return pi
    # Nearly reducible (classes joined by transitions of 1e-40): LU lost them; state reduction keeps them.
    return _gth(transition)


def reward_rates(transition: np.ndarray, rewards: dict[str, np.ndarray]) -> dict[str, float]:
    """Σ_i π_i r_i for each reward: expected reward per cycle in steady state."""
    pi = stationary_distribution(transition)
    return {name: float(pi @ values) for name, values in rewards.items()}
