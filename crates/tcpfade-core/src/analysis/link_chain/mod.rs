//! Kernels of the link analysis (abouzeid §IV; the chain itself is built by the Python package,
//! `tcpfade.analysis.link.chain`): the stationary law of its expanded chain in one sweep over the
//! windows, and the split of the backed-off starts' mass by backoff level.
//!
//! # The sweep
//!
//! Every state of the expanded chain belongs to a window, its *level*: S_w, P_w, V_w, R_w and the
//! hub H_w to w, B_h and its copies to h. The chain moves up only through its passing states, P_u → P_{u+1} (the
//! window grows while the good state lasts); every other move keeps the level or goes down (a
//! halving, a timeout, the climb after a timeout starting again from W = 1). Across the cut between
//! levels u and u + 1 the mass therefore flows up through P_u alone, and the balance of the cut gives
//! it:
//!
//! π(P_u) · p(P_u → P_{u+1}) = Σ_{x above u} π(x) · p(x → a level ≤ u).
//!
//! Swept from the top level down with π(P_top) = 1, the right side is known when level u is reached,
//! and the other states of level u follow from their own balance, whose inflows come from level u and
//! above. That solves the chain directly in O(transitions), with no iteration, and each step adds,
//! multiplies or divides non-negative numbers, as the state reduction of Grassmann, Taksar and Heyman
//! does (Oper. Res. 33(5), 1985): no result loses digits to cancellation. The cut's right side is a
//! prefix sum, over levels, of the mass landed below: kept per level and per block of levels, so that
//! it too is a sum of non-negative terms (a running total with the level's own landings subtracted
//! would cancel). The lowest levels may break the rule (a backed-off start B_1 whose climb reaches
//! P_2): the levels up to the highest such jump are solved last, as one dense block.
//!
//! # Where
//!
//! The sweep, [`stationary_by_levels`], is in `sweep.rs`, reading the transitions in runs by level
//! (`runs.rs`); the split by backoff level, [`split_backoff_levels`] and [`persistence_sums`], in
//! `backoff.rs`; the state reduction that both solve their blocks of states with, [`reduce`], in
//! `reduction.rs`.

mod backoff;
#[cfg(test)]
mod dense;
mod reduction;
mod runs;
mod sweep;

pub use backoff::{persistence_sums, split_backoff_levels, Persistence};
pub use reduction::{reduce, BLOCK_LIMIT};
pub use runs::Triplets;
pub use sweep::{stationary_by_levels, Stationary};
