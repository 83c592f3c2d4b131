//! The sweep's input (abouzeid §IV's expanded chain, as the Python package builds it): a chain's transitions
//! as blocks of triplets, and the runs by level in which the sweep reads them.

use crate::error::{Error, Result};

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
pub(super) struct Runs<'a> {
    blocks: &'a [Triplets<'a>],
    /// Every run's pieces of one source level, (level, block, first, end), highest level first.
    pieces: Vec<Vec<(u32, usize, usize, usize)>>,
    /// Each run's next piece not yet taken.
    next: Vec<usize>,
}

impl<'a> Runs<'a> {
    /// The runs of `blocks` (checked: states within 0..n, probabilities finite and ≥ 0), or None if there are
    /// too many of them.
    pub(super) fn new(blocks: &'a [Triplets<'a>], level: &'a [u32]) -> Result<Option<Runs<'a>>> {
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
    pub(super) fn take_down_to(&mut self, l: u32, ranges: &mut Vec<(usize, usize, usize)>) {
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
    pub(super) fn all(&self) -> impl Iterator<Item = (usize, usize, f64)> + 'a {
        self.blocks.iter().flat_map(|t| {
            t.rows.iter().zip(t.cols).zip(t.vals).map(|((&r, &c), &v)| (r as usize, c as usize, v))
        })
    }

    /// The transitions in one range: (from, to, probability) slices of one length.
    pub(super) fn slices(&self, (b, first, end): (usize, usize, usize)) -> (&'a [i64], &'a [i64], &'a [f64]) {
        let t = &self.blocks[b];
        (&t.rows[first..end], &t.cols[first..end], &t.vals[first..end])
    }
}
