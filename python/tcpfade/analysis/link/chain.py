"""The embedded chain of the link analysis (abouzeid §IV-C, with the refined model's timer states), built so that
its transitions are local in the window, and solved in one sweep over the windows.

The embedded chain's states are the starts of sampled good states: S_w (window w, fresh timer), B_{k,h} (after a
timeout, backoff 2^k, h segments outstanding; refined model) and R_w (after a TD at w, the variant's recovery
first; ``recovery="rounds"``). Its transition from a start is dense: the window climbs from w and the bad visit
may come at any window above. But the good state is memoryless, so the climb is a birth chain: *passing* states
P_u (the window has reached u), each left for P_{u+1} with the chance e_u that the good state outlasts window u,
or for a *visit* V_u (a bad visit at window u, with a fresh timer), and P_{w_p} → P_{⌊w_p/2⌋} for the typical
cycles. The visit's outcome (NL, TD, TO, eqs. (7)-(9)) then leads to the next start. That expanded chain has a
few transitions per state, and the embedded chain is it watched on the start states only (the censored chain),
whose stationary law is the expanded chain's restricted to the starts and renormalized (Kemeny-Snell, lumping by
censoring): one solve, O(w_p) states. The chain moves up a window only through its passing states, so the core
solves it in one sweep from the top window down (:meth:`LinkChain.solve`; tcpfade-core ``analysis::link_chain``).

A backed-off start B_{k,h} meets its own timer only until Karn's rule ends the backoff (see
``persistence.karn_persistence``): its visits at the first windows of the climb from W = 1 are written out (about
√(2h) of them, each with its outstanding count; those that end without a timeout go through a hub H_w per window),
and the rest of its climb joins the passing chain. The starts of every
level k with the same h leave for every other state alike, so one state B_h stands for them all (strong
lumpability), and its mass is split by level after the solve (``LinkChain._split_levels``). A recovery start
R_w goes on like the start the recovery leaves (its row is a mixture of those rows): through the passing chain
for an S start, through a copy of B_{1,h} that is not a start for a stall.

Per-step averages (E[N], E[U], the law of the window at visits, the backoff multiplier) are sums of the
expanded chain's stationary mass times what each state contributes, divided by the starts' mass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from ... import _core
from ..renewal import ReducibleChain, stationary_distribution

if TYPE_CHECKING:
    # scipy.sparse costs a few tenths of a second to import: it is imported where a large chain or a fallback
    # solver needs it, so that `import tcpfade` stays light.
    import scipy.sparse

    from .climb import Climb
    from .persistence import Persistence
    from .recovery import Recovery
    from .visits import TimeoutLaw

#: Where the sweep declines a chain, chains up to this size are solved densely (LAPACK), larger ones sparsely.
DENSE_BELOW = 400

#: Bytes per nonzero of the chain as it is built (triplets) and, should the sweep decline it, factored (CSR,
#: SuperLU's fill-in).
BYTES_PER_TRANSITION = 120

#: A stationary law is accepted when ‖πP − π‖₁ is below this.
RESIDUAL = 1e-10


def _by_window(values: np.ndarray, w: np.ndarray) -> np.ndarray:
    """values[w − 1] for 1-based windows w, without the array w − 1."""
    return np.concatenate(([0.0], values))[w]


@dataclass
class _Triplets:
    """COO entries of the expanded chain, appended in blocks (zeros included: every solver skips them)."""

    rows: list
    cols: list
    vals: list

    def add(self, rows, cols, vals) -> None:
        rows, cols, vals = np.asarray(rows), np.asarray(cols), np.asarray(vals, dtype=float)
        if not rows.shape == cols.shape == vals.shape:   # most blocks come whole: broadcasting costs more than they
            rows, cols, vals = np.broadcast_arrays(rows, cols, vals)
        self.rows.append(rows.ravel())
        self.cols.append(cols.ravel())
        self.vals.append(vals.ravel())

    def blocks(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The blocks as they were appended, each (rows, cols, vals) contiguous (int64, int64, float64)."""
        return [(np.ascontiguousarray(r, dtype=np.int64), np.ascontiguousarray(c, dtype=np.int64),
                 np.ascontiguousarray(v, dtype=np.float64)) for r, c, v in zip(self.rows, self.cols, self.vals)]

    def dense(self, n: int) -> np.ndarray:
        """The same matrix, dense (for the small chains solved densely: no sparse structure to build)."""
        flat = [r * n + c for r, c in zip(self.rows, self.cols)]
        index = np.concatenate(flat) if flat else np.zeros(0, dtype=int)
        vals = np.concatenate(self.vals) if self.vals else np.zeros(0)
        return np.bincount(index, vals, minlength=n * n).reshape(n, n)

    def matrix(self, n: int) -> scipy.sparse.csr_matrix:
        import scipy.sparse

        rows, cols, vals = (np.concatenate(part) if part else np.zeros(0, dtype=int)
                            for part in (self.rows, self.cols, self.vals))
        return scipy.sparse.csr_matrix((vals, (rows, cols)), shape=(n, n))   # duplicates are summed


class LinkChain:
    """The expanded chain of one analysis, its stationary law, and the per-step averages it gives.

    ``starts`` is the number of start states (they come first: S, then B_h, then R), ``matrix`` the expanded chain
    (scipy.sparse CSR, rows sum to 1), ``mass`` its stationary law scaled so that the starts' mass is 1 (the
    embedded chain's law is ``mass[:starts]``)."""

    def __init__(self, wp: int, climb: Climb, outcome: dict[str, np.ndarray], no_to_bad: np.ndarray,
                 laws: list[TimeoutLaw] | None, persistence: Persistence | None, levels: int,
                 recovery: Recovery | None = None, report: Callable[[float], None] | None = None,
                 share: tuple[float, float] = (0.0, 1.0)) -> None:
        """``report`` (if given) gets the fraction done, within ``share`` of the caller's whole, once the backed-off
        starts' rows are built: where a stop or a Ctrl-C is seen while the chain is built."""
        self.wp = wp
        self.backed_off = persistence is not None and levels > 0 and laws is not None
        # One state B_h per outstanding count for every backoff level at once (see _split_levels).
        self.core = 2 * wp if self.backed_off else wp
        self.starts = self.core + (wp if recovery is not None else 0)
        self.passing = self.starts                  # P_u at passing + u − 1
        self.visit = self.passing + wp              # V_w at visit + w − 1, w < w_p (none at w_p: it overflows)
        self.twin = self.visit + wp - 1             # copies of B_{1,h} (recovery stalls) at twin + h − 1
        self.hub = self.twin + (wp if recovery is not None and self.backed_off else 0)   # H_w at hub + w − 1
        self.n = n = self.hub + (wp if self.backed_off else 0)
        self._t = _Triplets([], [], [])
        self._outcome, self._no_to_bad, self._levels = outcome, no_to_bad, levels
        self._recovering = recovery is not None
        # Row quantities: base reward (starts only), E[U], backoff multiplier, and the visits a row makes
        # directly (rows, windows, weights) besides those through the V states.
        self.base = np.zeros(n)
        self.effective_bad = np.zeros(n)
        self.backoff = np.zeros(n)
        self._direct: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        law0 = laws[0] if laws is not None else None
        self._laws, self._persistence = laws, persistence
        # Timeouts into B from states whose backoff level is known (visits, recoveries, stalls' copies): (rows,
        # outstanding counts, mass × P(level j), j = 1..levels), for the split of B's mass by level after the solve.
        self._into_levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        t = self._t
        windows = np.arange(1, wp + 1)
        # S_w → P_w.
        t.add(windows - 1, self.passing + windows - 1, 1.0)
        self.base[:wp] = climb.reward
        # P_u → V_u or P_{u+1}; P_{w_p} → P_low.
        u = np.arange(1, wp)
        t.add(self.passing + u - 1, self.visit + u - 1, climb.ends[:wp - 1])
        t.add(self.passing + u - 1, self.passing + u, climb.survive)
        t.add(self.passing + wp - 1, self.passing + climb.low - 1, 1.0)
        # V_w: a visit with a fresh timer.
        v_rows = self.visit + u - 1
        timeout = outcome["timeout"]
        self._no_timeout(v_rows, u, np.ones(wp - 1))
        self._timeout(v_rows, u, timeout[:-1], law0.exit[:-1] if law0 is not None else None)
        self.effective_bad[v_rows] = (no_to_bad + timeout * (law0.mean if law0 is not None else 0.0))[:-1]
        self.backoff[v_rows] = 1.0
        if self.backed_off:
            self._hub_rows()
            rows = wp + windows - 1
            self._backed_off_rows(rows, rows, None, persistence, None)
            self.base[rows] = climb.reward[0]
            if report is not None:
                report(share[0] + (share[1] - share[0]) * 0.5)
        if recovery is not None:
            self._recovery_rows(recovery, climb, law0, persistence, laws)

    @cached_property
    def matrix(self) -> scipy.sparse.csr_matrix:
        """The expanded chain (CSR, rows sum to 1), built on first use: a small chain is solved from its dense form
        (building the sparse one had been a fifth of a point's time at w_p = 10)."""
        return self._t.matrix(self.n)

    def _no_timeout(self, rows, w, mass) -> None:
        """An NL keeps the window; a TD halves it (eq. (10)) or opens the recovery."""
        self._t.add(rows, w - 1, mass * self._outcome["no_loss"][w - 1])
        self._t.add(rows, self._halving(w), mass * self._outcome["triple_duplicate"][w - 1])

    def _halving(self, w):
        """The state a TD at window w leads to: the window halved (eq. (10)), or the recovery R_w."""
        return (self.core + w - 1) if self._recovering else np.maximum(w // 2, 1) - 1

    def _hub_rows(self) -> None:
        """H_w: a visit of a backed-off climb at window w that ends without a timeout. It leads where a visit with a
        fresh timer would (an NL keeps the window, a TD halves it or opens the recovery), so the visits of every B_h
        at w go through it: one transition each for the NL and the TD, where each would take two (a third of the
        chain's transitions). An NL at W' = 1 keeps the start instead (see :meth:`_backed_off_rows`)."""
        wp = self.wp
        w = np.arange(1, wp + 1)
        no_loss = np.where(w == 1, 0.0, self._outcome["no_loss"])
        through = no_loss + self._outcome["triple_duplicate"]
        self._hub_share = through
        seen = through > 0.0   # H_w is never entered otherwise: it is kept stochastic
        scale = np.where(seen, 1.0 / np.where(seen, through, 1.0), 0.0)
        rows = self.hub + w - 1
        self._t.add(rows, w - 1, no_loss * scale)
        self._t.add(rows, self._halving(w), self._outcome["triple_duplicate"] * scale)
        self._t.add(rows[~seen], w[~seen] - 1, 1.0)

    def _timeout(self, rows, w, mass, exit_rows, outstanding=None) -> None:
        """A timeout leads to B_{h'} (h' = w unless given), or to S_1. ``exit_rows`` is the law of the backoff level
        it leaves (None from the B states themselves, whose level is split off after the solve)."""
        if not self.backed_off:
            self._t.add(rows, 0, mass)
            return
        h = np.asarray(w if outstanding is None else outstanding)
        mass = np.broadcast_to(mass, h.shape)
        self._t.add(rows, h + (self.wp - 1), mass)
        if exit_rows is not None:
            self._into_levels.append((np.broadcast_to(rows, h.shape), h, mass[..., None] * exit_rows[..., 1:]))

    def _direct_visits(self, rows, windows, weights) -> None:
        """Visits a row makes itself (not through a V state), for the law of the window at a visit: (rows,
        window − 1, weights), kept in blocks."""
        self._direct.append(tuple(np.broadcast_to(values, np.shape(rows)) for values in (rows, windows, weights)))

    def _backed_off_rows(self, rows, starts, k, persistence, law) -> None:
        """B_h, h = 1..w_p (in ``rows``; ``starts`` are the start states B_h themselves, which an NL at W' = 1
        keeps): the visits that meet the backed-off timer (written out, one per window the persistence reaches,
        with the outstanding count then; those without a timeout through the hubs H_w), and the rest of the climb
        from W = 1. ``k`` and ``law``: the backoff level and its timeout law when the rows have one (the stalls'
        copies of level 1); None for the B states, which stand for every level at once and get their level's
        rewards after the solve."""
        # A million entries at w_p = 10⁴: indices are offsets from 1-based h and w', values read through arrays
        # padded at 0, so that each line makes one array (they had been two or three, a fifth of the analysis).
        h_of, w_of, mass = persistence.entries
        b_rows = h_of + (rows[0] - 1)                     # the rows are one range, h = 1..w_p
        at_one = w_of == 1
        self._t.add(b_rows[at_one], starts[h_of[at_one] - 1], (mass * self._outcome["no_loss"][0])[at_one])
        through = _by_window(self._hub_share, w_of)
        through *= mass
        self._t.add(b_rows, w_of + (self.hub - 1), through)
        timeout = _by_window(self._outcome["timeout"], w_of)
        timed_out = timeout * mass
        self._timeout(b_rows, w_of, timed_out, law.exit[w_of - 1] if law is not None else None,
                      persistence.outstanding)
        if law is not None:
            # An NL at W' = 1 keeps the start, so this row's level: B_{k,h} gets it.
            levels = np.zeros((int(at_one.sum()), self._levels))
            levels[:, k - 1] = (mass * self._outcome["no_loss"][0])[at_one]
            self._into_levels.append((b_rows[at_one], h_of[at_one], levels))
            # Summed in the rows' order (np.bincount, as np.add.at would, and much faster).
            self.effective_bad += np.bincount(b_rows, mass * (self._no_to_bad[w_of - 1]
                                                              + timeout * law.mean[w_of - 1]), minlength=self.n)
            self.backoff += np.bincount(b_rows, mass * 2.0 ** k, minlength=self.n)
            # (The B states' visits are summed with their split, see _split_levels.)
            self._direct_visits(b_rows, w_of - 1, mass)
        # The rest of the climb from W = 1: a visit with a fresh timer in the window Karn's rule ends in (after
        # that instant), then on from the next window.
        partial, after, into = persistence.rest
        has = partial > 0
        self._t.add(rows[has], self.visit + persistence.boundary[has] - 1, partial[has])
        self._t.add(rows, self.passing + after - 1, into)

    def _recovery_rows(self, recovery, climb, law0, persistence, laws) -> None:
        """R_w: the recovery's prelude, then the start it leaves (an S start through the passing chain, a stall's
        B_{1,h} through a copy that is not a start), or a visit during the prelude."""
        wp, core, t = self.wp, self.core, self._t
        windows = np.arange(1, wp + 1)
        rows = core + windows - 1
        weights = recovery.target[:, :core]
        r_idx, s_idx = np.nonzero(weights)
        w_val = weights[r_idx, s_idx]
        to_s = s_idx < wp
        t.add(rows[r_idx[to_s]], self.passing + s_idx[to_s], w_val[to_s])
        if self.backed_off:
            h = s_idx[~to_s] - wp + 1          # stalls lead to level 1 only
            t.add(rows[r_idx[~to_s]], self.twin + h - 1, w_val[~to_s])
            self._backed_off_rows(self.twin + windows - 1, wp + windows - 1, 1, persistence, laws[1])
        base_core = np.concatenate([climb.reward] + [np.full(wp, climb.reward[0])] * (core // wp - 1))
        self.base[rows] = recovery.reward + weights @ base_core
        s1 = recovery.start
        # A timeout that destroys a retransmission (fresh timer), a visit that destroys only new packets (an
        # ordinary visit at s1), a timeout while the stalled sender waits (the idle law, by row).
        self._timeout(rows, s1, recovery.broken_timeout, law0.exit[s1 - 1] if law0 is not None else None)
        t.add(rows, self.visit + s1 - 1, recovery.broken_visit)
        idle = recovery.idle_law
        self._timeout(rows, s1, recovery.broken_idle, idle.exit if law0 is not None else None)
        mean0 = law0.mean[s1 - 1] if law0 is not None else np.zeros(wp)
        self.effective_bad[rows] += recovery.broken_timeout * mean0 + recovery.broken_idle * idle.mean
        self.backoff[rows] += recovery.broken_timeout + recovery.broken_idle
        self._direct_visits(rows, s1 - 1, recovery.broken_timeout)
        self._direct_visits(rows, s1 - 1, recovery.broken_idle)

    # -- the solve and what it gives -----------------------------------------------------------------------------

    def solve(self, report: Callable[[float], None] | None = None, share: tuple[float, float] = (0.0, 1.0)) -> None:
        """The stationary law, scaled so that the starts' mass is 1; ``report`` gets the fraction done, within
        ``share`` of the caller's whole.

        The chain moves up a window only through its passing states (P_u → P_{u+1}); every other move keeps the
        window or goes down. So the mass that crosses from window u to u + 1 is π(P_u) times that chance, and it
        equals what the windows above send below (the cut's balance): swept from the top window down, each
        window's states follow from what the windows above have sent, in O(transitions) with no iteration and
        no cancellation (tcpfade-core ``analysis::link_chain``). Should that fail (a chain the sweep cannot take,
        or a residual ‖πP − π‖₁ above :data:`RESIDUAL`), the general solvers take over: dense up to
        :data:`DENSE_BELOW` states, :func:`sparse_stationary` above."""
        self.mass = self._sweep(report, share)
        if self.mass is None:
            self.mass = (stationary_distribution(self._t.dense(self.n)) if self.n <= DENSE_BELOW
                         else sparse_stationary(self.matrix, report, share))
        total = self.mass[:self.starts].sum()
        if not total > 0:
            raise ReducibleChain("no stationary mass on the start states")
        self.mass = self.mass / total
        if self.backed_off:
            self._split_levels()

    def _sweep(self, report: Callable[[float], None] | None, share: tuple[float, float]) -> np.ndarray | None:
        """The stationary law by the core's sweep over the windows, or None (see :meth:`solve`)."""
        wp = self.wp
        window = np.arange(wp, dtype=np.uint32)
        # Each state's level is its window (0-based): S, B, R by their window or h, then P, V, the stalls' copies and
        # the hubs.
        level = np.concatenate([window] * (self.starts // wp) + [window, window[:-1]]
                               + [window] * ((self.n - self.twin) // wp))
        gate = (self.passing + np.arange(wp)).astype(np.int64)
        progress = None if report is None else (lambda done: report(share[0] + (share[1] - share[0]) * done))
        solved = _core.link_chain_stationary(self._t.blocks(), level, gate, progress)
        if solved is None:
            return None
        pi, residual = solved
        return pi if residual < RESIDUAL else None

    def _split_levels(self) -> None:
        """The B states' mass by backoff level, and their rewards that depend on it (E[U], the backoff in force).

        B_h stands for the starts B_{k,h} of every level k: they leave for every other state alike (their climbs,
        visits and outcomes are the same, and a timeout always leads to some B_{j,h'}), so the chain of the B_h is
        the chain of the B_{k,h} lumped by level, and its stationary law is theirs summed (Kemeny-Snell, strong
        lumpability). The split by level follows from the inflows: from the states whose level is known, and from
        B itself, where a timeout from level k leads to a level above k (or stays at the last), and an NL at W' = 1
        keeps the start as it is. So levels 1 .. L − 1 are one division each, in order, and level L is solved from
        the largest h down (a timeout leaves fewer segments outstanding, or as many at W' = 1, except from the
        lowest h, solved as one block): tcpfade-core ``analysis::link_chain``, by sums of non-negative terms."""
        wp, levels = self.wp, self._levels
        persistence = self._persistence
        h_of, w_of, mass = persistence.entries
        partial, _, into_rest = persistence.rest
        into = np.zeros((levels, wp))
        for rows, h, weights in self._into_levels:
            source = self.mass[rows].ravel()
            weights = weights.reshape(-1, levels)
            for j in range(levels):
                into[j] += np.bincount(h.ravel() - 1, source * weights[:, j], minlength=wp)
        width = int(w_of.max())
        exits = np.stack([law.exit[:width, 1:] for law in self._laws[1:levels]]) if levels > 1 else np.zeros(0)
        outcome = tuple(np.ascontiguousarray(self._outcome[k], dtype=float)
                        for k in ("no_loss", "triple_duplicate", "timeout"))
        by_level = np.zeros((levels + 1, wp))
        h_of, w_of, o_of = (a.astype(np.int64, copy=False) for a in (h_of, w_of, persistence.outstanding))
        by_level[1:] = _core.link_chain_split_levels(
            wp, levels, (h_of, w_of, mass), o_of, partial + into_rest, outcome, into.ravel(),
            np.ascontiguousarray(exits, dtype=float).ravel()).reshape(levels, wp)
        # E[U] and the backoff in force, per B_h: Σ_k (its level-k share) × (level k's), the windows summed first
        # (with the window law of the B states' visits, in one pass over the entries).
        total = by_level[1:].sum(axis=0)
        share = np.divide(by_level, total, out=np.zeros_like(by_level), where=total > 0)[1:]
        no_to_bad, outcome_timeout = self._no_to_bad[:width], self._outcome["timeout"][:width]
        means = np.stack([law.mean[:width] for law in self._laws[1:]], axis=1)       # width × levels
        columns = np.column_stack([no_to_bad, outcome_timeout[:, None] * means, np.ones(width)])
        sums, visits = _core.link_chain_persistence_sums(wp, (h_of, w_of, mass), self.mass[wp:2 * wp],
                                                         np.ascontiguousarray(columns).ravel(), levels + 2)
        sums = sums.reshape(wp, levels + 2)
        b = slice(wp, 2 * wp)
        self.effective_bad[b] = sums[:, 0] + (sums[:, 1:-1] * share.T).sum(axis=1)
        self.backoff[b] = sums[:, -1] * (share.T @ 2.0 ** np.arange(1, levels + 1))
        self._backed_off_visits = visits
        #: The B states' stationary mass by backoff level (row k = 1..L; row 0 unused), from the split above.
        self.by_level = by_level

    def visits(self) -> np.ndarray:
        """Law of the window when a bad visit begins, per step of the embedded chain."""
        out = np.zeros(self.wp)
        for rows, cols, weights in self._direct:
            out += np.bincount(cols, weights * self.mass[rows], minlength=self.wp)
        if self.backed_off:
            out[:len(self._backed_off_visits)] += self._backed_off_visits
        out[:-1] += self.mass[self.visit:self.visit + self.wp - 1]
        return out

    def average(self, per_state: np.ndarray) -> float:
        """Σ mass × per-state value: the per-step average of a quantity the states contribute."""
        return float(self.mass @ per_state)

    def passing_mass(self) -> np.ndarray:
        """Expected rounds held at each window u = 1..w_p − 1 per step (visits to P_u)."""
        return self.mass[self.passing:self.passing + self.wp - 1]

    def embedded(self) -> np.ndarray:
        """The embedded chain itself (dense, starts × starts): the expanded chain censored to the starts,
        P = P_SS + P_SX (I − P_XX)⁻¹ P_XS."""
        import scipy.sparse
        import scipy.sparse.linalg

        m = self.matrix.tocsc()
        s = self.starts
        p_ss, p_sx = m[:s, :s].toarray(), m[:s, s:]
        p_xs, p_xx = m[s:, :s], m[s:, s:]
        eye = scipy.sparse.identity(p_xx.shape[0], format="csc")
        through = scipy.sparse.linalg.splu((eye - p_xx).tocsc()).solve(p_xs.toarray())
        return p_ss + p_sx @ through


def sparse_stationary(matrix: scipy.sparse.csr_matrix, report: Callable[[float], None] | None = None,
                      share: tuple[float, float] = (0.0, 1.0)) -> np.ndarray:
    """π with π P = π, Σ π = 1, for a sparse chain with one recurrent class (up to :data:`DENSE_BELOW` states,
    densely).

    Solves (P^T − I) π = 0 with the last equation replaced by the normalization. A direct sparse LU fills in
    almost completely here (the climb's passing states make every start reach every window above it), so the
    system is solved by GMRES preconditioned with its lower triangle: one preconditioner application is a
    Gauss-Seidel sweep in the chain's order (starts, passing states, visits), which carries the mass through a
    whole good state and its visit, and a few tens of iterations reach a residual of 1e-13. If GMRES does not
    get there, sparse LU; and for a nearly reducible chain (LU cancels transitions of 1e-40), state reduction
    (:func:`~tcpfade.analysis.renewal.stationary_distribution`) when the chain is small enough to be dense.
    ``report`` (if given) is called at each GMRES iteration with the share of ``share`` done (iterations out of a
    typical 50): it is where a stop or a Ctrl-C is seen."""
    n = matrix.shape[0]
    if n <= DENSE_BELOW:
        return stationary_distribution(matrix.toarray())
    import scipy.sparse
    import scipy.sparse.linalg

    balance = (matrix.T - scipy.sparse.identity(n, format="csr")).tocsr()
    system = scipy.sparse.vstack([balance[:n - 1], scipy.sparse.csr_matrix(np.ones((1, n)))], format="csr")
    rhs = np.zeros(n)
    rhs[-1] = 1.0
    lower = scipy.sparse.tril(system, format="csc")

    def accept(pi: np.ndarray | None) -> np.ndarray | None:
        if pi is None or not np.all(np.isfinite(pi)):
            return None
        pi = np.clip(pi, 0.0, None)
        total = pi.sum()
        if not total > 0:
            return None
        pi = pi / total
        return pi if np.abs(matrix.T @ pi - pi).sum() < RESIDUAL else None

    with np.errstate(all="ignore"):
        try:
            # A triangular matrix factors with no fill when SuperLU keeps the diagonal pivots: its solves are
            # forward substitutions (scipy's spsolve_triangular re-checks the matrix at every call: 20× slower).
            # A zero on the diagonal (a state that keeps all its mass in double precision: the chain falls apart)
            # is no pivot, and SuperLU told to keep it writes out of bounds: such a chain goes to the fallbacks.
            if not np.all(lower.diagonal() != 0.0):
                raise ValueError("a zero diagonal pivot")
            sweep = scipy.sparse.linalg.splu(lower, permc_spec="NATURAL", diag_pivot_thresh=0.0,
                                             options={"SymmetricMode": True})
            iterations = [0]

            def step(_residual: float) -> None:
                iterations[0] += 1
                if report is not None:
                    report(share[0] + (share[1] - share[0]) * min(iterations[0] / 50.0, 1.0))

            preconditioner = scipy.sparse.linalg.LinearOperator((n, n), matvec=sweep.solve, dtype=float)
            guess, _ = scipy.sparse.linalg.gmres(system, rhs, M=preconditioner, rtol=1e-14, atol=0.0, restart=200,
                                                 maxiter=10, callback=step, callback_type="pr_norm")
        except (RuntimeError, ValueError, np.linalg.LinAlgError):
            guess = None
        pi = accept(guess)
        if pi is None:
            try:
                pi = accept(scipy.sparse.linalg.splu(system.tocsc(), permc_spec="MMD_AT_PLUS_A").solve(rhs))
            except (RuntimeError, ValueError, np.linalg.LinAlgError):
                pi = None
    if pi is not None:
        return pi
    if n <= 4096:
        return stationary_distribution(matrix.toarray())
    raise ReducibleChain("the sparse solve's residual is not small and the chain is too large for state reduction")
