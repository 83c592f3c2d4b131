//! Kernels of the link analysis (abouzeid §IV; the chain itself is built by the Python package,
//! `tcpfade.analysis.link_chain`): the stationary law of its expanded chain in one sweep over the
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

use crate::error::{Error, Result};
use crate::watch::Watch;

/// Largest block of states solved densely (O(m³)). The link chain's lowest block has about a dozen.
pub const BLOCK_LIMIT: usize = 256;

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

/// A chain's transitions as triplets (from, to, probability); triplets with the same (from, to) add up.
#[derive(Debug, Clone, Copy)]
pub struct Triplets<'a> {
    /// Source states.
    pub rows: &'a [i64],
    /// Target states.
    pub cols: &'a [i64],
    /// Probabilities.
    pub vals: &'a [f64],
}

/// Input with more runs than this is sorted by level first (see [`Runs`]).
const MOST_RUNS: usize = 1024;

/// The transitions as the chain's builder hands them over: in blocks (one per kind of state and outcome) whose
/// sources' levels run one way, up or down, so that as the sweep goes down a level's transitions are one slice
/// of each. Read in place (and forward, for the large blocks that come down) they stream through memory, where
/// sorting millions of them by source would scatter as many writes: that had cost three fifths of the sweep.
/// Input in more than [`MOST_RUNS`] runs is sorted by level once.
struct Runs<'a> {
    blocks: &'a [Triplets<'a>],
    /// Every run's pieces of one source level, (level, block, first, end), highest level first.
    pieces: Vec<Vec<(u32, usize, usize, usize)>>,
    /// Each run's next piece not yet taken.
    next: Vec<usize>,
}

impl<'a> Runs<'a> {
    /// The runs of `blocks` (checked: states within 0..n, probabilities finite and ≥ 0), or None if there are
    /// too many of them.
    fn new(blocks: &'a [Triplets<'a>], level: &'a [u32]) -> Result<Option<Runs<'a>>> {
        let n = level.len() as i64;
        let mut pieces = Vec::new();
        for (b, t) in blocks.iter().enumerate() {
            if t.rows.len() != t.cols.len() || t.rows.len() != t.vals.len() {
                return Err(Error::invalid("transitions", t.rows.len(), "rows, cols and vals of one length"));
            }
            if let Some(k) = (0..t.rows.len()).find(|&k| {
                let (r, c, v) = (t.rows[k], t.cols[k], t.vals[k]);
                !((0..n).contains(&r) && (0..n).contains(&c) && v.is_finite() && v >= 0.0)
            }) {
                let (r, c, v) = (t.rows[k], t.cols[k], t.vals[k]);
                return Err(Error::invalid("transition", format!("{r} → {c} with probability {v}"),
                                   "states 0..n, a probability finite and >= 0"));
            }
            // Where each piece of one level starts, and where the runs start among them (the levels' direction
            // turns). A state's transitions mostly come together: its level is looked up once for them.
            let (mut starts, mut turns): (Vec<(u32, usize)>, Vec<usize>) = (Vec::new(), vec![0]);
            let (mut previous_row, mut rising) = (-1, None::<bool>);
            for (k, &r) in t.rows.iter().enumerate() {
                if r == previous_row {
                    continue;
                }
                previous_row = r;
                let l = level[r as usize];
                match starts.last() {
                    Some(&(last, _)) if l == last => continue,
                    Some(&(last, _)) if rising.is_some_and(|up| up != (l > last)) => {
                        if turns.len() == MOST_RUNS {
                            return Ok(None);
                        }
                        turns.push(starts.len());
                        rising = None;
                    }
                    Some(&(last, _)) => rising = Some(l > last),
                    None => {}
                }
                starts.push((l, k));
            }
            turns.push(starts.len());
            for run in turns.windows(2) {
                let mut pieces_of_run: Vec<(u32, usize, usize, usize)> = (run[0]..run[1])
                    .map(|i| (starts[i].0, b, starts[i].1, starts.get(i + 1).map_or(t.rows.len(), |&(_, k)| k)))
                    .collect();
                if pieces_of_run.first().map(|p| p.0) < pieces_of_run.last().map(|p| p.0) {
                    pieces_of_run.reverse(); // a run going up is taken from its end
                }
                if !pieces_of_run.is_empty() {
                    pieces.push(pieces_of_run);
                }
            }
            if pieces.len() > MOST_RUNS {
                return Ok(None);
            }
        }
        let next = vec![0; pieces.len()];
        Ok(Some(Runs { blocks, pieces, next }))
    }

    /// The transitions out of levels ≥ `l` not yet taken, as (block, first, end).
    fn take_down_to(&mut self, l: u32, ranges: &mut Vec<(usize, usize, usize)>) {
        ranges.clear();
        for (run, next) in self.pieces.iter().zip(&mut self.next) {
            while let Some(&(level, b, first, end)) = run.get(*next) {
                if level < l {
                    break;
                }
                ranges.push((b, first, end));
                *next += 1;
            }
        }
    }

    /// Every transition (from, to, probability).
    fn all(&self) -> impl Iterator<Item = (usize, usize, f64)> + 'a {
        self.blocks.iter().flat_map(|t| {
            t.rows.iter().zip(t.cols).zip(t.vals).map(|((&r, &c), &v)| (r as usize, c as usize, v))
        })
    }

    /// The transitions in one range: (from, to, probability) slices of one length.
    fn slices(&self, (b, first, end): (usize, usize, usize)) -> (&'a [i64], &'a [i64], &'a [f64]) {
        let t = &self.blocks[b];
        (&t.rows[first..end], &t.cols[first..end], &t.vals[first..end])
    }
}

/// x = b + x Q for a small block, by state reduction (GTH): `q` is m × m (row-major, from → to; its
/// diagonal is ignored), `exit[i]` the chance of leaving state i for outside the block. Each state
/// is censored out in turn, its inflow and transitions passed on to the states left; a state's total
/// out of itself is always a sum (exit + the transitions to the states left), never 1 − a self-loop.
/// None if a state never leaves itself (its total is 0) while mass comes in.
pub fn reduce(m: usize, q: &mut [f64], exit: &mut [f64], b: &mut [f64]) -> Option<Vec<f64>> {
    let mut total = vec![0.0; m];
    for k in 0..m {
        let t = exit[k] + (k + 1..m).map(|j| q[k * m + j]).sum::<f64>();
        total[k] = t;
        if t <= 0.0 {
            if b[k] > 0.0 || (k + 1..m).any(|i| q[i * m + k] > 0.0) {
                return None;
            }
            continue;
        }
        for i in k + 1..m {
            let via = q[i * m + k] / t;
            if via == 0.0 {
                continue;
            }
            for j in k + 1..m {
                if j != i {
                    q[i * m + j] += via * q[k * m + j];
                }
            }
            exit[i] += via * exit[k];
        }
        let bk = b[k] / t;
        if bk != 0.0 {
            for j in k + 1..m {
                b[j] += bk * q[k * m + j];
            }
        }
    }
    let mut x = vec![0.0; m];
    for k in (0..m).rev() {
        if total[k] > 0.0 {
            let inflow = b[k] + (k + 1..m).map(|i| x[i] * q[i * m + k]).sum::<f64>();
            x[k] = inflow / total[k];
        }
    }
    Some(x)
}

/// The stationary law of a chain whose only moves up a level are its gates' (see the module's doc):
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

/// The persistence of the backed-off timer, as the Python chain writes it (`LinkChain._backed_off_rows`):
/// for each entry, a backed-off start B_h meets its timer in a bad visit at window w with chance `mass`
/// (1-based h, w), and a timeout then leaves o segments outstanding (B_h → B_o). `rest[h − 1]` is the
/// chance B_h's climb passes Karn's point first.
#[derive(Debug, Clone, Copy)]
pub struct Persistence<'a> {
    /// h of each entry.
    pub h: &'a [i64],
    /// w of each entry.
    pub w: &'a [i64],
    /// o of each entry.
    pub o: &'a [i64],
    /// P(visit at w before Karn's point | B_h).
    pub mass: &'a [f64],
    /// P(Karn's point first | B_h), per h.
    pub rest: &'a [f64],
}

/// The mass of the backed-off starts by backoff level (abouzeid §IV-I's timer doubling, with the refined
/// model's Karn rule): the lumped chain's B_h stands for B_{k,h}, k = 1..levels (see
/// `LinkChain._split_levels`), and this splits it from the inflows.
///
/// `into[(k − 1)·w_p + h − 1]`: what B_{k,h} receives from states whose level is known (visits, recoveries).
/// `outcome`: P(no loss), P(TD), P(timeout) of a bad visit, by window. `exits`, (levels − 1) × width × levels
/// in that order: the chance that the timeouts of level k after a visit at window w end at level j (k < levels;
/// those of the last level stay there). The entries come in order of h, from the largest down.
///
/// A start of level k keeps itself only by a visit without loss at W' = 1, and its timeouts lead to levels
/// above k; the last level keeps its own. A timeout leaves at most as many segments outstanding (as many only
/// at W' = 1), except from the few lowest h. So from the largest h down, each B_{k,h} is its inflow divided
/// by its chance of leaving itself, the levels in order (a timeout at W' = 1 feeds the levels above at the same
/// h); the lowest h are solved last, as one block. Returns levels × w_p values.
pub fn split_backoff_levels(
    wp: usize,
    levels: usize,
    persistence: &Persistence<'_>,
    outcome: [&[f64]; 3],
    into: &[f64],
    exits: &[f64],
) -> Result<Vec<f64>> {
    let Persistence { h, w, o, mass, rest } = *persistence;
    let count = h.len();
    if [w.len(), o.len(), mass.len()].iter().any(|&len| len != count) || rest.len() != wp {
        return Err(Error::invalid("persistence", count, "h, w, o and mass of one length, rest of w_p"));
    }
    if levels == 0 || Some(into.len()) != levels.checked_mul(wp) || outcome.iter().any(|a| a.len() < wp) {
        return Err(Error::invalid("into", into.len(), "levels × w_p values, and outcomes by window"));
    }
    // One pass to check the entries and find each h's: (first, end).
    let mut span = vec![(0usize, 0usize); wp];
    let (mut width, mut block) = (0usize, 0usize);
    for e in 0..count {
        let (he, we, oe) = (h[e], w[e], o[e]);
        if [he, we, oe].iter().any(|&v| !(1..=wp as i64).contains(&v)) {
            return Err(Error::invalid("persistence", format!("(h, w, o) = ({he}, {we}, {oe})"), "1..w_p each"));
        }
        if e > 0 && he > h[e - 1] {
            return Err(Error::invalid("h", he, "entries in order of h, from the largest down"));
        }
        let hi = he as usize - 1;
        if span[hi].1 == 0 {
            span[hi].0 = e;
        }
        span[hi].1 = e + 1;
        width = width.max(we as usize);
        if oe > he {
            block = block.max(oe as usize); // a timeout to a larger h: the lowest h up to there are one block
        }
    }
    if (levels - 1).checked_mul(width).and_then(|c| c.checked_mul(levels)).map_or(true, |c| exits.len() < c) {
        return Err(Error::invalid("exits", exits.len(), "(levels − 1) × width × levels values"));
    }
    if block > BLOCK_LIMIT {
        return Err(Error::invalid("persistence", block, "timeouts to more segments outstanding only at the lowest h"));
    }
    let cell = |e: usize| (w[e] as usize - 1, o[e] as usize - 1);
    // into_level[(w·levels + j)·levels + k]: level k's timeouts at w end at level j (the last level stays there);
    // by j, then k, so that a push's sum over k runs along memory.
    let mut into_level = vec![0.0; width * levels * levels];
    for wi in 0..width {
        for k in 0..levels {
            for j in k + 1..levels {
                into_level[(wi * levels + j) * levels + k] = exits[(k * width + wi) * levels + j];
            }
        }
        into_level[(wi * levels + levels - 1) * levels + levels - 1] = 1.0;
    }
    let [no_loss, triple, timeout] = outcome;
    // What leaves B_h: for the states other than the B's (S, V, P, the hubs), by a timeout to another h, by a
    // timeout that keeps h (at W' = 1). A start of level k < levels leaves itself by all three, one of the last
    // level by the first two.
    let leaving = |hi: usize| {
        let (mut other, mut away, mut here) = (rest[hi], 0.0, 0.0);
        for (e, &m) in mass.iter().enumerate().take(span[hi].1).skip(span[hi].0) {
            let (wi, oi) = cell(e);
            other += m * (if wi == 0 { 0.0 } else { no_loss[wi] } + triple[wi]);
            if oi != hi {
                away += m * timeout[wi];
            } else {
                here += m * timeout[wi];
            }
        }
        (other, away, here)
    };
    let divide = |inflow: f64, out: f64| if out > 0.0 { inflow / out } else { 0.0 };
    // inflow[h·levels + k], by h so that an entry's pushes are contiguous.
    let mut inflow = vec![0.0; wp * levels];
    for k in 0..levels {
        for hi in 0..wp {
            inflow[hi * levels + k] = into[k * wp + hi];
        }
    }
    let mut out = vec![0.0; levels * wp];
    let mut x = vec![0.0; levels];
    // One timeout's entry, a million times: unrolled for the usual numbers of levels (2^6 = 64 by default).
    let push: fn(&mut [f64], &[f64], &[f64], f64) = match levels {
        1 => push_levels::<1>,
        2 => push_levels::<2>,
        3 => push_levels::<3>,
        4 => push_levels::<4>,
        5 => push_levels::<5>,
        6 => push_levels::<6>,
        7 => push_levels::<7>,
        8 => push_levels::<8>,
        _ => push_any_levels,
    };
    for hi in (block..wp).rev() {
        let entries = span[hi].0..span[hi].1;
        let (other, away, here) = leaving(hi);
        let (leave_lower, leave_last) = (other + away + here, other + away);
        for k in 0..levels {
            let last = k + 1 == levels;
            x[k] = divide(inflow[hi * levels + k], if last { leave_last } else { leave_lower });
            out[k * wp + hi] = x[k];
            if last || x[k] == 0.0 {
                continue;
            }
            // Timeouts at W' = 1 leave h outstanding: they feed the levels above at this h.
            for e in entries.clone().filter(|&e| cell(e).1 == hi) {
                let wi = cell(e).0;
                feed_above(&mut inflow[hi * levels..][..levels], k, &into_level[wi * levels * levels..],
                           mass[e] * timeout[wi] * x[k]);
            }
        }
        for e in entries.filter(|&e| cell(e).1 != hi) {
            let (wi, oi) = cell(e);
            push(&mut inflow[oi * levels..][..levels], &x, &into_level[wi * levels * levels..][..levels * levels],
                 mass[e] * timeout[wi]);
        }
    }
    if block > 0 {
        // The lowest h: level by level over the block (their timeouts may go to a larger h within it), the last
        // level by state reduction.
        let entries: Vec<usize> = (0..count).filter(|&e| ((h[e] - 1) as usize) < block).collect();
        let leave: Vec<(f64, f64, f64)> = (0..block).map(leaving).collect();
        for k in 0..levels - 1 {
            for hi in 0..block {
                let (other, away, here) = leave[hi];
                out[k * wp + hi] = divide(inflow[hi * levels + k], other + away + here);
            }
            for &e in &entries {
                let (wi, oi) = cell(e);
                feed_above(&mut inflow[oi * levels..][..levels], k, &into_level[wi * levels * levels..],
                           mass[e] * timeout[wi] * out[k * wp + (h[e] - 1) as usize]);
            }
        }
        let last = levels - 1;
        let mut q = vec![0.0; block * block];
        // Leaving the block: for the states other than the B's (its timeouts all stay in it).
        let mut exit: Vec<f64> = leave.iter().map(|&(other, _, _)| other).collect();
        for &e in &entries {
            let (hi, (wi, oi)) = ((h[e] - 1) as usize, cell(e));
            if oi != hi {
                q[hi * block + oi] += mass[e] * timeout[wi];
            }
        }
        let mut b: Vec<f64> = (0..block).map(|hi| inflow[hi * levels + last]).collect();
        let x = reduce(block, &mut q, &mut exit, &mut b)
            .ok_or_else(|| Error::invalid("persistence", block, "backed-off starts that leave themselves"))?;
        out[last * wp..last * wp + block].copy_from_slice(&x);
    }
    Ok(out)
}

/// Sums over each backed-off start's entries (h, w, mass; the visits before Karn's point, see [`Persistence`]):
/// per h, Σ_w mass · `columns[w]` (`columns`: width × `ncol`, by window from 1; rewards by the window of the
/// visit), and per window w − 1, Σ_h weight[h − 1] · mass (the law of the window at those visits when B_h's mass
/// is `weight`). Returns (w_p × ncol sums, the by-window sums up to the widest entry).
pub fn persistence_sums(
    wp: usize,
    (h, w, mass): (&[i64], &[i64], &[f64]),
    weight: &[f64],
    columns: &[f64],
    ncol: usize,
) -> Result<(Vec<f64>, Vec<f64>)> {
    if w.len() != h.len() || mass.len() != h.len() || weight.len() != wp {
        return Err(Error::invalid("persistence", h.len(), "h, w and mass of one length, a weight per h"));
    }
    let mut width = 0;
    for (&he, &we) in h.iter().zip(w) {
        if !(1..=wp as i64).contains(&he) || !(1..=wp as i64).contains(&we) {
            return Err(Error::invalid("persistence", format!("(h, w) = ({he}, {we})"), "1..w_p each"));
        }
        width = width.max(we as usize);
    }
    // ncol is at most the columns' length, so the w_p × ncol sums are no larger than weight × columns.
    if ncol > columns.len() || width.checked_mul(ncol).map_or(true, |c| columns.len() < c) {
        return Err(Error::invalid("columns", columns.len(), "width × ncol values"));
    }
    let (mut by_h, mut by_w) = (vec![0.0; wp * ncol], vec![0.0; width]);
    for ((&he, &we), &m) in h.iter().zip(w).zip(mass) {
        let (hi, wi) = (he as usize - 1, we as usize - 1);
        for (sum, &c) in by_h[hi * ncol..][..ncol].iter_mut().zip(&columns[wi * ncol..][..ncol]) {
            *sum += m * c;
        }
        by_w[wi] += weight[hi] * m;
    }
    Ok((by_h, by_w))
}

/// target_j += f · Σ_k x_k · law[j][k] (`law` by j then k, zero for k > j: a timeout of level k ends above k),
/// for N levels.
fn push_levels<const N: usize>(target: &mut [f64], x: &[f64], law: &[f64], f: f64) {
    let (target, x): (&mut [f64; N], &[f64; N]) = (target.try_into().expect("N"), x.try_into().expect("N"));
    for (j, t) in target.iter_mut().enumerate() {
        let row: &[f64; N] = law[j * N..][..N].try_into().expect("N");
        let reaching: f64 = x.iter().zip(row).map(|(a, b)| a * b).sum();
        *t += f * reaching;
    }
}

/// target_j += f · law[j][k] for the levels j above k: one level's timeouts (`law` as in [`push_levels`]).
fn feed_above(target: &mut [f64], k: usize, law: &[f64], f: f64) {
    let n = target.len();
    for (j, t) in target.iter_mut().enumerate().skip(k + 1) {
        *t += f * law[j * n + k];
    }
}

/// [`push_levels`] for any number of levels.
fn push_any_levels(target: &mut [f64], x: &[f64], law: &[f64], f: f64) {
    let n = x.len();
    for (j, t) in target.iter_mut().enumerate() {
        let reaching: f64 = x[..=j].iter().zip(&law[j * n..][..=j]).map(|(a, b)| a * b).sum();
        *t += f * reaching;
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // the references index as the equations do
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// π of a small irreducible chain by Gaussian elimination on (P^T − I) with a row of ones: an
    /// independent solver.
    fn dense_stationary(p: &[Vec<f64>]) -> Vec<f64> {
        let n = p.len();
        let mut a: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                let mut row: Vec<f64> = (0..n).map(|j| p[j][i] - if i == j { 1.0 } else { 0.0 }).collect();
                row.push(0.0);
                row
            })
            .collect();
        a[n - 1] = vec![1.0; n + 1];
        gauss_jordan(a)
    }

    /// The solution of the augmented system `a` (n × (n + 1)), by Gauss-Jordan elimination with partial pivoting.
    fn gauss_jordan(mut a: Vec<Vec<f64>>) -> Vec<f64> {
        let n = a.len();
        for c in 0..n {
            let pivot = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs())).unwrap();
            a.swap(c, pivot);
            for r in 0..n {
                if r != c {
                    let f = a[r][c] / a[c][c];
                    for k in c..=n {
                        a[r][k] -= f * a[c][k];
                    }
                }
            }
        }
        (0..n).map(|i| a[i][n] / a[i][i]).collect()
    }

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

    /// x (I − M) = b by Gaussian elimination with partial pivoting (an independent solver).
    fn dense_solve(m: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
        let n = b.len();
        gauss_jordan(
            (0..n)
                .map(|i| {
                    let mut row: Vec<f64> = (0..n).map(|j| if i == j { 1.0 } else { 0.0 } - m[j][i]).collect();
                    row.push(b[i]);
                    row
                })
                .collect(),
        )
    }

    #[test]
    fn the_split_by_level_equals_the_chain_of_every_level_solved_densely() {
        // Random backed-off starts of w_p = 9 with 3 and 10 levels (the unrolled and the general kernel), their
        // entries shaped like the link chain's (o = max(w, h − w(w − 1)/2), so h = 1, 2 time out to a larger h),
        // against the unlumped chain of the B_{k,h}: x = into + x M, M holding the NL at W' = 1 (kept) and the
        // timeouts by the exit laws.
        for levels in [3usize, 10] {
            split_against_dense(levels);
        }
    }

    fn split_against_dense(levels: usize) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11 + levels as u64);
        let wp = 9usize;
        let (mut h, mut w, mut o, mut mass) = (vec![], vec![], vec![], vec![]);
        let mut rest = vec![0.0; wp];
        for hh in (1..=wp).rev() {
            let reach = (((2 * hh + 3) as f64).sqrt() as usize).min(wp);
            let shares: Vec<f64> = (0..=reach).map(|_| rng.random::<f64>() + 0.05).collect();
            let total: f64 = shares.iter().sum();
            for ww in 1..=reach {
                h.push(hh as i64);
                w.push(ww as i64);
                o.push(ww.max(hh.saturating_sub(ww * (ww - 1) / 2)) as i64);
                mass.push(shares[ww] / total);
            }
            rest[hh - 1] = shares[0] / total;
        }
        let (mut no_loss, mut triple, mut timeout) = (vec![0.0; wp], vec![0.0; wp], vec![0.0; wp]);
        for i in 0..wp {
            let (a, b, c) = (rng.random::<f64>(), if i < 3 { 0.0 } else { rng.random::<f64>() }, rng.random::<f64>());
            let t = a + b + c;
            (no_loss[i], triple[i], timeout[i]) = (a / t, b / t, c / t);
        }
        let into: Vec<f64> = (0..levels * wp).map(|_| rng.random::<f64>()).collect();
        let width = *w.iter().max().unwrap() as usize;
        let mut exits = vec![0.0; (levels - 1) * width * levels];
        for k in 1..levels {
            for ww in 0..width {
                let law = &mut exits[((k - 1) * width + ww) * levels..][..levels];
                for v in law.iter_mut().skip(k) {
                    *v = rng.random::<f64>();
                }
                let t: f64 = law.iter().sum();
                law.iter_mut().for_each(|v| *v /= t);
            }
        }
        let p = Persistence { h: &h, w: &w, o: &o, mass: &mass, rest: &rest };
        let got = split_backoff_levels(wp, levels, &p, [&no_loss, &triple, &timeout], &into, &exits).unwrap();

        let n = levels * wp;
        let mut m = vec![vec![0.0; n]; n];
        for e in 0..h.len() {
            let (hi, wi, oi) = (h[e] as usize - 1, w[e] as usize - 1, o[e] as usize - 1);
            for k in 0..levels {
                if wi == 0 {
                    m[k * wp + hi][k * wp + hi] += mass[e] * no_loss[0];
                }
                let flow = mass[e] * timeout[wi];
                if k + 1 < levels {
                    for j in 0..levels {
                        m[k * wp + hi][j * wp + oi] += flow * exits[(k * width + wi) * levels + j];
                    }
                } else {
                    m[k * wp + hi][k * wp + oi] += flow;
                }
            }
        }
        let want = dense_solve(&m, &into);
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!((a - b).abs() < 1e-13 * b.abs().max(1.0), "B_(k = {}, h = {}): {a} vs {b}", i / wp + 1, i % wp + 1);
        }
    }

    #[test]
    fn persistence_sums_add_up_the_entries() {
        // Two h with entries at windows 1, 2 and 1: hand-summed.
        let (h, w, mass) = ([2i64, 2, 1], [1i64, 2, 1], [0.25, 0.5, 0.75]);
        let columns = [1.0, 10.0, 2.0, 20.0]; // window 1: (1, 10), window 2: (2, 20)
        let (by_h, by_w) = persistence_sums(2, (&h, &w, &mass), &[3.0, 5.0], &columns, 2).unwrap();
        assert_eq!(by_h, vec![0.75, 7.5, 0.25 + 1.0, 2.5 + 10.0]);
        assert_eq!(by_w, vec![5.0 * 0.25 + 3.0 * 0.75, 5.0 * 0.5]);
    }

    #[test]
    fn reduce_solves_a_small_system() {
        // x = b + xQ against Gaussian elimination of x (I − Q) = b with the diagonal from the row sums.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let m = 6;
        let q: Vec<f64> = (0..m * m).map(|_| rng.random::<f64>() / m as f64).collect();
        let exit: Vec<f64> = (0..m).map(|_| rng.random::<f64>()).collect();
        let b: Vec<f64> = (0..m).map(|_| rng.random::<f64>()).collect();
        let x = reduce(m, &mut q.clone(), &mut exit.clone(), &mut b.clone()).unwrap();
        for j in 0..m {
            let total = exit[j] + (0..m).filter(|&k| k != j).map(|k| q[j * m + k]).sum::<f64>();
            let inflow = b[j] + (0..m).filter(|&i| i != j).map(|i| x[i] * q[i * m + j]).sum::<f64>();
            assert!((x[j] * total - inflow).abs() < 1e-14, "state {j}");
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
