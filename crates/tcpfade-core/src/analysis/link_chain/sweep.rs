//! The stationary law of the link chain's expanded chain (abouzeid §IV) in one sweep over the windows, from
//! the top level down (the method is in the doc of [`super`]): [`stationary_by_levels`], and the state the
//! sweep keeps from one level to the next.

use super::reduction::{reduce, BLOCK_LIMIT};
use super::runs::{Runs, Triplets};
use crate::error::{Error, Result};
use crate::watch::Watch;

/// The sweep's unnormalized masses grow by 1/p(P_u → P_{u+1}) a level when good states are short: past this
/// they are scaled down (and what was computed before is scaled at the end), so that nothing overflows.
const RESCALE_ABOVE: f64 = 1e200;

/// Levels per block of the landed-mass prefix sums.
const LANDING_BLOCK: usize = 64;

/// The stationary law π of a chain, and how well it solves π P = π: Σ_y |(π P)_y − π_y|.
#[derive(Debug, Clone)]
pub struct Stationary {
    /// π, summing to 1.
    pub pi: Vec<f64>,
    /// The residual ‖π P − π‖₁.
    pub residual: f64,
}

/// The stationary law of a chain whose only moves up a level are its gates' (see the doc of [`link_chain`](super)):
/// `level[x]` is state x's level (0-based), `gate[ℓ]` the state through which level ℓ moves up to
/// `gate[ℓ + 1]` (for the top level: the state whose mass starts the sweep). Other moves up are allowed
/// from the lowest levels only (they are solved as one block); None if that block would pass
/// [`BLOCK_LIMIT`] states, or a state is never left: the caller then needs a general solver. The watch is
/// told the share of the levels done.
pub fn stationary_by_levels(
    blocks: &[Triplets<'_>],
    level: &[u32],
    gate: &[i64],
    watch: &mut Watch<'_>,
) -> Result<Option<Stationary>> {
    let n = level.len();
    let levels = gate.len();
    if n == 0 || levels == 0 {
        return Err(Error::invalid("states", n, "at least one state and one level"));
    }
    if let Some(&bad) = level.iter().find(|&&l| l as usize >= levels) {
        return Err(Error::invalid("level", bad, "below the number of gates"));
    }
    let Some(mut runs) = Runs::new(blocks, level)? else {
        // Not in runs: sorted by level once (a counting sort, the highest level first), then one block.
        let mut first = vec![0usize; levels + 1];
        for t in blocks {
            for &r in t.rows {
                first[levels - level[r as usize] as usize] += 1;
            }
        }
        for l in 0..levels {
            first[l + 1] += first[l];
        }
        let m = first[levels];
        let (mut rows, mut cols, mut vals) = (vec![0i64; m], vec![0i64; m], vec![0.0; m]);
        for t in blocks {
            for ((&r, &c), &v) in t.rows.iter().zip(t.cols).zip(t.vals) {
                let slot = &mut first[levels - 1 - level[r as usize] as usize];
                (rows[*slot], cols[*slot], vals[*slot]) = (r, c, v);
                *slot += 1;
            }
        }
        return stationary_by_levels(&[Triplets { rows: &rows, cols: &cols, vals: &vals }], level, gate, watch);
    };
    let gate: Vec<usize> = gate
        .iter()
        .enumerate()
        .map(|(l, &g)| {
            usize::try_from(g)
                .ok()
                .filter(|&g| g < n && level[g] as usize == l)
                .ok_or_else(|| Error::invalid("gate", g, "a state of its level"))
        })
        .collect::<Result<_>>()?;
    // Each level's states, and its gate's chance of moving up.
    let mut first = vec![0usize; levels + 1];
    for &l in level {
        first[l as usize + 1] += 1;
    }
    for l in 0..levels {
        first[l + 1] += first[l];
    }
    let mut members = vec![0usize; n];
    let mut fill = first.clone();
    for (x, &l) in level.iter().enumerate() {
        members[fill[l as usize]] = x;
        fill[l as usize] += 1;
    }
    let mut up = vec![0.0; levels];
    let mut block_top = 0usize; // the lowest block: levels 0..=block_top
    for (x, y, p) in runs.all() {
        let (lx, ly) = (level[x] as usize, level[y] as usize);
        if ly > lx && p > 0.0 {
            if x == gate[lx] && ly == lx + 1 && y == gate[ly] {
                up[lx] += p;
            } else {
                block_top = block_top.max(ly);
            }
        }
    }
    // A gate that never moves up cuts the levels above it off: they hold no mass.
    let top = (block_top..levels - 1).find(|&l| up[l] == 0.0).unwrap_or(levels - 1);
    if first[block_top + 1] > BLOCK_LIMIT {
        return Ok(None);
    }

    let mut sweep = Sweep {
        level,
        acc: vec![0.0; n],
        pi: vec![0.0; n],
        landed: vec![0.0; levels],
        landed_blocks: vec![0.0; levels / LANDING_BLOCK + 1],
        slot: vec![usize::MAX; n],
        epoch: vec![0u32; levels],
        rescales: 0,
    };
    let mut ranges = Vec::new();
    runs.take_down_to(top as u32 + 1, &mut ranges); // the levels cut off
    let mut states = Vec::new();
    let mut l = top;
    loop {
        let bottom = if l > block_top { l } else { 0 };
        let g = gate[l];
        sweep.pi[g] = if l == top { 1.0 } else { sweep.landed_up_to(l) / up[l] };
        if sweep.pi[g] > RESCALE_ABOVE {
            sweep.rescale(g);
        }
        for e in &mut sweep.epoch[bottom..=l] {
            *e = sweep.rescales;
        }
        states.clear();
        states.extend(members[first[bottom]..first[l + 1]].iter().copied().filter(|&x| x != g));
        runs.take_down_to(bottom as u32, &mut ranges);
        if !sweep.solve_segment(&runs, &ranges, g, &states, bottom) {
            return Ok(None);
        }
        if bottom == 0 {
            break;
        }
        l -= 1;
        watch.tick(|| (top - l) as f64 / (top + 1) as f64)?;
    }
    let scale: Vec<f64> =
        (0..levels).map(|l| RESCALE_ABOVE.powi(-((sweep.rescales - sweep.epoch[l]) as i32))).collect();
    let mut pi = sweep.pi;
    for (x, v) in pi.iter_mut().enumerate() {
        *v *= scale[level[x] as usize];
    }
    let total: f64 = pi.iter().sum();
    if !(total.is_finite() && total > 0.0) {
        return Ok(None);
    }
    for v in &mut pi {
        *v /= total;
    }
    let mut image = vec![0.0; n];
    for (x, y, p) in runs.all() {
        image[y] += pi[x] * p;
    }
    let residual = image.iter().zip(&pi).map(|(a, b)| (a - b).abs()).sum();
    Ok(Some(Stationary { pi, residual }))
}

/// The sweep's state: the inflow each state has received from the levels done, and the landed mass by
/// level (and by block of levels) for the cuts.
struct Sweep<'a> {
    level: &'a [u32],
    acc: Vec<f64>,
    pi: Vec<f64>,
    landed: Vec<f64>,
    landed_blocks: Vec<f64>,
    /// A state's place among the unknowns of the segment being solved (usize::MAX elsewhere).
    slot: Vec<usize>,
    /// How many rescales had been done when each level was solved.
    epoch: Vec<u32>,
    rescales: u32,
}

impl Sweep<'_> {
    /// Σ of the mass landed at levels 0..=l from the levels above l (all that has landed so far).
    fn landed_up_to(&self, l: usize) -> f64 {
        let whole = (l + 1) / LANDING_BLOCK;
        self.landed_blocks[..whole].iter().sum::<f64>() + self.landed[whole * LANDING_BLOCK..=l].iter().sum::<f64>()
    }

    /// Scale what is still to be used (the inflows, the landed mass and the gate just found) down.
    fn rescale(&mut self, gate: usize) {
        let by = 1.0 / RESCALE_ABOVE;
        for v in self.acc.iter_mut().chain(&mut self.landed).chain(&mut self.landed_blocks) {
            *v *= by;
        }
        self.pi[gate] *= by;
        self.rescales += 1;
    }

    /// The segment of levels bottom..=(the gate's level), whose transitions are `ranges` and whose gate is
    /// known: its other states from their balance (state reduction), then everything they and the gate send
    /// below the segment is landed.
    fn solve_segment(&mut self, runs: &Runs<'_>, ranges: &[(usize, usize, usize)], gate: usize, states: &[usize],
                     bottom: usize) -> bool {
        let m = states.len();
        for (i, &x) in states.iter().enumerate() {
            self.slot[x] = i;
        }
        let mut q = vec![0.0; m * m];
        let mut exit = vec![0.0; m];
        let mut b: Vec<f64> = states.iter().map(|&x| self.acc[x]).collect();
        let pg = self.pi[gate];
        for &range in ranges {
            let (from, to, prob) = runs.slices(range);
            // A run holds a state's transitions one after the other: its exits are summed in a register (summed
            // in memory, each addition would wait for the one before).
            let (mut current, mut leaving) = (usize::MAX, 0.0);
            for ((&x, &y), &p) in from.iter().zip(to).zip(prob) {
                let j = self.slot[y as usize];
                if x as usize == gate {
                    if j != usize::MAX {
                        b[j] += pg * p;
                    }
                    continue;
                }
                let i = self.slot[x as usize];
                if j == usize::MAX {
                    if i != current {
                        if current != usize::MAX {
                            exit[current] += leaving;
                        }
                        (current, leaving) = (i, 0.0);
                    }
                    leaving += p;
                } else if j != i {
                    q[i * m + j] += p;
                }
            }
            if current != usize::MAX {
                exit[current] += leaving;
            }
        }
        let solved = reduce(m, &mut q, &mut exit, &mut b);
        for &x in states {
            self.slot[x] = usize::MAX;
        }
        let Some(x) = solved else { return false };
        for (&s, &v) in states.iter().zip(&x) {
            self.pi[s] = v;
        }
        for &range in ranges {
            let (from, to, prob) = runs.slices(range);
            // Consecutive landings often fall in one block of levels: summed in a register, as above.
            let (mut current, mut landing) = (usize::MAX, 0.0);
            for ((&x, &y), &p) in from.iter().zip(to).zip(prob) {
                let ly = self.level[y as usize] as usize;
                if ly < bottom {
                    let f = self.pi[x as usize] * p;
                    self.acc[y as usize] += f;
                    self.landed[ly] += f;
                    let block = ly / LANDING_BLOCK;
                    if block != current {
                        if current != usize::MAX {
                            self.landed_blocks[current] += landing;
                        }
                        (current, landing) = (block, 0.0);
                    }
                    landing += f;
                }
            }
            if current != usize::MAX {
                self.landed_blocks[current] += landing;
            }
        }
        true
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // the references index as the equations do
mod tests {
    use super::*;
    use super::super::dense::dense_stationary;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A random chain with `levels` levels of `width` states (state 0 of each level its gate), moves up
    /// from the gates only, plus `jumps` moves up from the lowest levels.
    fn random_chain(seed: u64, levels: usize, width: usize, jumps: usize) -> (Vec<Vec<f64>>, Vec<u32>, Vec<i64>) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let n = levels * width;
        let mut p = vec![vec![0.0; n]; n];
        for x in 0..n {
            let (l, k) = (x / width, x % width);
            for _ in 0..3 {
                let to = rng.random_range(0..=l) * width + rng.random_range(0..width);
                p[x][to] += rng.random::<f64>();
            }
            if k == 0 && l + 1 < levels {
                p[x][(l + 1) * width] += 2.0 * rng.random::<f64>();
            }
        }
        for _ in 0..jumps {
            let from = rng.random_range(0..width);
            p[from][2 * width + rng.random_range(0..width)] += rng.random::<f64>();
        }
        for row in &mut p {
            let total: f64 = row.iter().sum();
            row.iter_mut().for_each(|v| *v /= total);
        }
        let level = (0..n).map(|x| (x / width) as u32).collect();
        let gate = (0..levels).map(|l| (l * width) as i64).collect();
        (p, level, gate)
    }

    type Owned = (Vec<i64>, Vec<i64>, Vec<f64>);

    /// The triplets of `p`, the last state's first (one run: levels never increase).
    fn triplets(p: &[Vec<f64>]) -> Owned {
        let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
        for (i, row) in p.iter().enumerate().rev() {
            for (j, &x) in row.iter().enumerate() {
                if x > 0.0 {
                    // Split each transition in two triplets: duplicates must add up.
                    r.extend([i as i64, i as i64]);
                    c.extend([j as i64, j as i64]);
                    v.extend([0.25 * x, 0.75 * x]);
                }
            }
        }
        (r, c, v)
    }

    /// The triplets in another order: `order(k, count)` is the place of the k-th.
    fn reorder(t: &Owned, order: impl Fn(usize) -> usize) -> Owned {
        let mut keyed: Vec<usize> = (0..t.0.len()).collect();
        keyed.sort_by_key(|&k| order(k));
        (keyed.iter().map(|&k| t.0[k]).collect(), keyed.iter().map(|&k| t.1[k]).collect(),
         keyed.iter().map(|&k| t.2[k]).collect())
    }

    fn check_against_dense(p: &[Vec<f64>], level: &[u32], gate: &[i64], blocks: &[Owned], what: &str) {
        let blocks: Vec<Triplets> = blocks.iter().map(|t| Triplets { rows: &t.0, cols: &t.1, vals: &t.2 }).collect();
        let got = stationary_by_levels(&blocks, level, gate, &mut Watch::quiet()).unwrap().unwrap();
        let want = dense_stationary(p);
        for (a, b) in got.pi.iter().zip(&want) {
            // The dense solve's own rounding: ~1e-16 absolute (transient states: 0 against 1e-16).
            assert!((a - b).abs() < 1e-14 + 1e-12 * b, "{what}: {a} vs {b}");
        }
        assert!(got.residual < 1e-14, "{what}: residual {}", got.residual);
    }

    #[test]
    fn the_sweep_equals_a_dense_solve() {
        for (seed, jumps) in [(1, 0), (2, 0), (3, 2), (4, 5)] {
            let (p, level, gate) = random_chain(seed, 12, 4, jumps);
            let t = triplets(&p);
            check_against_dense(&p, &level, &gate, std::slice::from_ref(&t), &format!("seed {seed}, by source"));
            // Two runs: the even triplets, then the odd ones.
            let two = reorder(&t, |k| (k % 2) * t.0.len() + k);
            check_against_dense(&p, &level, &gate, &[two], &format!("seed {seed}, two runs"));
            // Three blocks, the middle one going up.
            let third = t.0.len() / 3;
            let part = |a: usize, b: usize| (t.0[a..b].to_vec(), t.1[a..b].to_vec(), t.2[a..b].to_vec());
            let mut middle = part(third, 2 * third);
            middle.0.reverse();
            middle.1.reverse();
            middle.2.reverse();
            let blocks = [part(0, third), middle, part(2 * third, t.0.len())];
            check_against_dense(&p, &level, &gate, &blocks, &format!("seed {seed}, three blocks"));
        }
    }

    #[test]
    fn the_sweep_sorts_triplets_that_come_in_no_order() {
        // 150 levels, the triplets shuffled: more runs than MOST_RUNS.
        let (p, level, gate) = random_chain(5, 150, 3, 3);
        let t = triplets(&p);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        let keys: Vec<u64> = (0..t.0.len()).map(|_| rng.random()).collect();
        let shuffled = reorder(&t, |k| keys[k] as usize);
        let block = [Triplets { rows: &shuffled.0, cols: &shuffled.1, vals: &shuffled.2 }];
        assert!(Runs::new(&block, &level).unwrap().is_none(), "not more than MOST_RUNS runs");
        check_against_dense(&p, &level, &gate, &[shuffled], "shuffled");
    }

    #[test]
    fn the_sweep_keeps_every_digit_where_the_climb_is_unlikely() {
        // A birth chain whose gates move up with chance 1e-30 (P_u → P_{u+1}) and drop to level 0 otherwise:
        // π(u) ∝ 1e-30^u exactly; 40 levels span 1e-1170, past double precision, and need the rescales
        // (from the top, the masses grow by 1e30 a level).
        let levels = 40;
        let up = 1e-30;
        let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
        for l in (0..levels).rev() {
            let stay_up = if l + 1 < levels { up } else { 0.0 };
            r.extend([l as i64, l as i64]);
            c.extend([(l + 1).min(levels - 1) as i64, 0]);
            v.extend([stay_up, 1.0 - stay_up]);
        }
        let level: Vec<u32> = (0..levels as u32).collect();
        let gate: Vec<i64> = (0..levels as i64).collect();
        let t = Triplets { rows: &r, cols: &c, vals: &v };
        let got = stationary_by_levels(&[t], &level, &gate, &mut Watch::quiet()).unwrap().unwrap();
        let norm = 1.0 / (1.0 + up);
        for (l, &x) in got.pi.iter().enumerate() {
            let want = norm * up.powi(l as i32);
            if l <= 10 {
                assert!((x - want).abs() <= 1e-14 * want, "level {l}: {x} vs {want}");
            } else {
                assert!(x < 1e-300, "level {l}: {x}, below double precision"); // 1e-330 and less
            }
        }
    }

    #[test]
    fn a_state_never_left_is_refused() {
        let (r, c, v) = (vec![0i64, 1, 1], vec![1i64, 1, 0], vec![1.0, 1.0, 0.0]);
        let t = Triplets { rows: &r, cols: &c, vals: &v };
        // Both states at level 0: the block; state 1 keeps all its mass.
        let got = stationary_by_levels(&[t], &[0, 0], &[0], &mut Watch::quiet()).unwrap();
        assert!(got.is_none());
    }
}
