//! The backed-off starts of the link chain split by backoff level (abouzeid §IV-I's timer doubling, with the
//! refined model's Karn rule), and sums over their persistence entries.

use super::reduction::{reduce, BLOCK_LIMIT};
use crate::error::{Error, Result};

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
    use super::super::dense::dense_solve;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

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
}
