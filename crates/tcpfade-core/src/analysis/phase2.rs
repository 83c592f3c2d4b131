//! Phase 2 of Reno and NewReno from loss patterns, for every window class at once.
//!
//! The forward recursion of [`super::fast_recovery`] follows the set of held packets slot by slot;
//! its cost grows like ⌊Y⌋⁴. Most of that work is not needed, because in the slotted model (BRIEF
//! D1-D4) recovery has a fixed shape (docs/models.md, "Phase 2 from loss patterns"):
//!
//! - Before detection the sender sends packets 1, 2, ... of the window, one per slot. The loss is
//!   detected at the end of slot t, the K-th correct one; if ⌊Y⌋ - 1 packets go out with fewer
//!   than K correct, the sender stalls and times out. Call the holes among packets 0..t
//!   0 = h_0 < h_1 < ... < h_r (r = t - K).
//! - Slot t + 1 carries the retransmission of packet 0. If it is lost, only counts matter from then
//!   on until the timer (the explorer's "doomed" state); if it gets through with r = 0, the ACK is
//!   full: clean, W = Wth = ⌈Y/2⌉.
//! - NewReno: each partial ACK makes the next hole's retransmission pending, so recovery sends only
//!   retransmissions, back to back, and no new packet. Either all r + 1 get through (clean), or the
//!   c-th is the first lost (doomed). After the c-th partial ACK, W = Wth + K - (h_c - c): each
//!   partial ACK deflates W by the packets it acknowledges and adds one back; h_c - c, the correct
//!   packets before h_c, is at most K - 1, so W never reaches the clamp at 1.
//! - Reno: the partial ACK of the retransmission of packet 0 ends recovery with W = Wth, una = h_1 and
//!   t + 1 - h_1 packets outstanding. If that fills the window, the sender stalls until the timer;
//!   otherwise new packets go out and what follows depends on the held packets: it is played a round
//!   at a time from those states ("seeds", `super::reno_rounds`), which need t < ⌈Y/2⌉ + K - 1.
//!
//! So, except for Reno's seeds, a loss pattern matters only through t, the hole h_c at which things
//! change and the run of held packets right after it (what a later good retransmission frees). Their
//! joint law with the channel state is a sum of products of the one-slot matrices A (correct) and F
//! (lost), grouped by how many correct packets a stretch holds. None of it depends on the window class
//! except through t ≤ ⌊Y⌋ - 1 and W, so it is computed once per channel and reused by every class, as
//! are the doomed states' outcomes.
//!
//! The explorer remains the reference: a test checks this against it class by class.
use super::fast_recovery::{
    add_rewards, ceil_half, credit, holes_after_una, readable, Active, Doomed, Ending, Explorer, FastRecovery,
    Frontier, Outcome, Phase2Query, Rewards, Shared, CWND_AT_LOSS, DELIVERED, FAST_RETRANSMITS, LOSSES_AT_Y,
    LOSSES_OTHER, PROBABILITY, REWARDS, SLOTS, SUCCESSES, TRANSMISSIONS,
};
use super::reno_rounds::continue_reno_rounds;
use super::{add_scaled, mat_mul, powers, SlotMatrices, WordSums, IDENTITY, M2, ZERO};
use std::sync::Arc;
use crate::error::Result;
use rustc_hash::FxHashMap as HashMap;
use std::collections::hash_map::Entry;

fn chain(ms: &[&M2]) -> M2 {
    ms.iter().fold(IDENTITY, |acc, m| mat_mul(&acc, m))
}

/// The loss patterns detected at the end of slot t whose c-th hole is h_c, with `held_before`
/// correct packets before it; the run of held packets after h_c varies within the group.
struct HoleGroup {
    t: u32,
    c: u32,
    hole: u32,
    held_before: u32,
    last_hole: bool,
    /// Σ of the patterns' probabilities times what follows detection, from the channel state of slot 0
    /// (rows) to the channel state after it: the c retransmissions through and the next lost (then
    /// doomed), or for Reno's partial ACK (c = 1) the retransmission of packet 0 through and T0 idle slots.
    /// Class-independent, so computed once per point.
    next: M2,
    /// The same sum, each pattern weighted by its run of held packets after h_c.
    next_run: M2,
    /// The patterns with every retransmission through (a full ACK: clean), for the last hole.
    through: M2,
}

/// One Reno loss pattern whose partial ACK leaves room for new packets (t + 1 - h_1 < ⌈Wmax/2⌉).
struct Seed {
    t: u32,
    first_hole: u32,
    /// Bit b: packet h_1 + b is held.
    held: u128,
    /// The pattern's probability times the retransmission's getting through (to the state after t + 1).
    weight: M2,
}

/// Phase 2 over one channel, for any window class (⌊Y⌋, ⌈Y/2⌉).
pub struct Phase2 {
    recovery: FastRecovery,
    ch: SlotMatrices,
    wmax: u32,
    dupthresh: u32,
    rto: u32,
    step_powers: Vec<M2>,
    success_powers: Vec<M2>,
    /// Σ over the loss patterns of each length and number correct (shared with the doomed stretches).
    sums: Arc<WordSums>,
    /// The hole groups' rewards, summed over their detection slots, by what they lead to.
    lanes: Vec<(Lane, SummedOverT)>,
    seeds: Vec<Seed>,
    /// The seeds cover partial ACKs leaving fewer than this many packets outstanding (Reno).
    seeds_cover: u32,
    /// What the seeds' rounds lead to, by (⌈Y/2⌉, latest detection slot t among them): the
    /// classes ⌊Y⌋ = 2⌈Y/2⌉ - 1 and 2⌈Y/2⌉ share it when ⌈Y/2⌉ ≥ K.
    seed_runs: HashMap<(u32, u32), Vec<(usize, Rewards)>>,
    shared: Shared,
}

impl Phase2 {
    /// Precompute what every window class shares. `rto` must exceed `wmax` (see [`Phase2Query`]).
    pub fn new(recovery: FastRecovery, ch: SlotMatrices, wmax: u32, dupthresh: u32, rto: u32) -> Result<Self> {
        let probe = Phase2Query { recovery, wmax, dupthresh, rto, window: 1, next_ssthresh: 1 };
        probe.validate()?;
        let step_powers = powers(&ch.step(), rto as usize + 1);
        let success_powers = powers(&ch.success, wmax as usize + 1);
        let sums = Arc::new(WordSums::new(&ch, wmax as usize));
        let mut model = Phase2 {
            recovery,
            ch,
            wmax,
            dupthresh,
            rto,
            step_powers,
            success_powers,
            sums: sums.clone(),
            lanes: Vec::new(),
            seeds: Vec::new(),
            seeds_cover: 0,
            seed_runs: HashMap::default(),
            shared: Shared::with_word_sums(sums),
        };
        model.group_patterns();
        Ok(model)
    }

    /// Σ over patterns of `len` slots with `correct` correct ones.
    fn words(&self, len: u32, correct: u32) -> &M2 {
        self.sums.of(len, correct)
    }

    /// Σ over patterns of `len` slots with `correct` correct ones, the last of them correct.
    fn ending_correct(&self, len: u32, correct: u32) -> M2 {
        if len == 0 || correct == 0 || correct > len {
            return ZERO;
        }
        mat_mul(self.words(len - 1, correct - 1), &self.ch.success)
    }

    /// The hole groups of every detection slot t < Wmax (Reno uses only c ≤ 1).
    fn group_patterns(&mut self) {
        let k = self.dupthresh;
        let mut lanes: Vec<(Lane, SummedOverT)> = Vec::new();
        let mut lane_index: HashMap<Lane, usize> = HashMap::default();
        for t in k..self.wmax {
            let holes = t - k;
            let last_c = if self.recovery == FastRecovery::Reno { holes.min(1) } else { holes };
            for c in 0..=last_c {
                // Hole 0 is packet 0 itself; hole c ≥ 1 follows c - 1 holes and `held_before` correct.
                for held_before in if c == 0 { 0..=0 } else { 0..=k - 1 } {
                    let hole = c + held_before;
                    let lead = if c == 0 {
                        IDENTITY
                    } else {
                        mat_mul(self.words(hole - 1, held_before), &self.ch.failure)
                    };
                    let (mut weight, mut weight_run) = (ZERO, ZERO);
                    if c == holes {
                        // The run after the last hole reaches t: all the remaining correct packets.
                        let run = k - held_before;
                        let w = mat_mul(&lead, &self.success_powers[run as usize]);
                        add_scaled(&mut weight, &w, 1.0);
                        add_scaled(&mut weight_run, &w, f64::from(run));
                    } else {
                        for run in 0..k - held_before {
                            // Hole c + 1 right after the run, then the rest up to t ending correct.
                            let rest = t.saturating_sub(hole + run + 1);
                            let tail = self.ending_correct(rest, k - held_before - run);
                            let w = chain(&[&lead, &self.success_powers[run as usize], &self.ch.failure, &tail]);
                            add_scaled(&mut weight, &w, 1.0);
                            add_scaled(&mut weight_run, &w, f64::from(run));
                        }
                    }
                    let follow = if self.recovery == FastRecovery::Reno && c == 1 {
                        mat_mul(&self.ch.success, &self.step_powers[self.rto as usize])
                    } else {
                        mat_mul(&self.success_powers[c as usize], &self.ch.failure)
                    };
                    let group = HoleGroup {
                        t,
                        c,
                        hole,
                        held_before,
                        last_hole: c == holes,
                        next: mat_mul(&weight, &follow),
                        next_run: mat_mul(&weight_run, &follow),
                        through: mat_mul(&weight, &self.success_powers[c as usize + 1]),
                    };
                    for (lane, rewards) in group.lanes(self.recovery, self.dupthresh, self.rto) {
                        let i = *lane_index.entry(lane).or_insert_with(|| {
                            lanes.push((lane, SummedOverT::default()));
                            lanes.len() - 1
                        });
                        lanes[i].1.add(t, &rewards);
                    }
                }
            }
        }
        self.lanes = lanes;
    }

    /// Depth-first over Reno's loss patterns with at least one hole whose partial ACK leaves at most
    /// `most_outstanding` packets outstanding: `sent` packets after 0 so far, `correct` of them held
    /// (bit j of `held`: packet j).
    fn enumerate_seeds(&mut self, sent: u32, correct: u32, held: u128, weight: M2, most_outstanding: u32) {
        let k = self.dupthresh;
        let t = sent;
        if correct == k {
            let first_hole = (held >> 1).trailing_ones() + 1;
            if first_hole <= t {
                let weight = mat_mul(&weight, &self.ch.success);
                self.seeds.push(Seed { t, first_hole, held: held >> first_hole, weight });
            }
            return;
        }
        // Prune what cannot end as a seed: detection needs K - correct more correct packets by slot
        // Wmax - 1, and leaves t' + 1 - h_1 outstanding, where t' ≥ t + K - correct.
        let missing = k - correct;
        if t + missing >= self.wmax {
            return;
        }
        let first_hole = (held >> 1).trailing_ones() + 1;
        // Without a hole yet, the latest first hole (h_1 = K) leaves the fewest: itself and one more.
        let least_outstanding = if first_hole <= t { t + missing + 1 - first_hole } else { 2 };
        if least_outstanding > most_outstanding {
            return;
        }
        let next = t + 1;
        self.enumerate_seeds(next, correct + 1, held | 1 << next, mat_mul(&weight, &self.ch.success), most_outstanding);
        self.enumerate_seeds(next, correct, held, mat_mul(&weight, &self.ch.failure), most_outstanding);
    }

    /// Every way phase 2 ends for a loss at window Y with ⌊Y⌋ = `window`, ⌈Y/2⌉ = `next_ssthresh`:
    /// the same outcomes as [`super::fast_recovery::explore`].
    pub fn outcomes(&mut self, window: u32, next_ssthresh: u32) -> Result<Vec<Outcome>> {
        let q = Phase2Query {
            recovery: self.recovery,
            wmax: self.wmax,
            dupthresh: self.dupthresh,
            rto: self.rto,
            window,
            next_ssthresh,
        };
        q.validate()?;
        if q.recovery == FastRecovery::Reno && next_ssthresh > self.seeds_cover {
            // Usually one pass: ⌈Y/2⌉ ≤ ⌈Wmax/2⌉ for every reachable class.
            self.seeds.clear();
            self.seeds_cover = next_ssthresh.max(self.wmax.div_ceil(2));
            self.enumerate_seeds(0, 0, 0, IDENTITY, self.seeds_cover - 1);
        }
        let Phase2 { ch, step_powers, success_powers, sums, lanes, seeds, shared, seed_runs, .. } = self;
        let seeded = if q.recovery == FastRecovery::Reno {
            // A seed's t + 1 - h_1 < ⌈Y/2⌉ with h_1 ≤ K: t ≤ ⌈Y/2⌉ + K - 2.
            let key = (next_ssthresh, (window - 1).min(next_ssthresh + q.dupthresh - 2));
            match seed_runs.entry(key) {
                Entry::Occupied(e) => e.into_mut().as_slice(),
                Entry::Vacant(e) => {
                    let mut sub = Explorer::new(&q, ch, step_powers, shared);
                    continue_reno_seeds(&mut sub, sums, seeds, next_ssthresh);
                    e.insert(sub.reached()).as_slice()
                }
            }
        } else {
            &[]
        };
        let mut ex = Explorer::new(&q, ch, step_powers, shared);
        for (id, r) in seeded {
            ex.add_to(*id, r);
        }
        for (lane, summed) in lanes.iter() {
            if let Some(acc) = summed.before(window) {
                lane.finish(&mut ex, acc, next_ssthresh);
            }
        }
        stall_before_detection(&mut ex, sums, success_powers);
        Ok(ex.into_outcomes())
    }
}

/// The end channel states some path reaches (the explorer never records an impossible ending).
fn reached(weight: &M2) -> impl Iterator<Item = usize> + '_ {
    (0..2).filter(move |&s| weight[0][s] != 0.0 || weight[1][s] != 0.0)
}

/// The rewards of the paths in `weight` (rows: channel state of slot 0) that are in channel state `s`
/// at the end: `fixed` rewards per path, and `varying` ones as (reward, Σ path probability × value).
fn rewards(s: usize, weight: &M2, fixed: &[(usize, f64)], varying: &[(usize, &M2)]) -> Rewards {
    let mut a = [[0.0; 2]; REWARDS];
    for s0 in 0..2 {
        a[PROBABILITY][s0] = weight[s0][s];
        for &(what, by) in fixed {
            a[what][s0] += by * weight[s0][s];
        }
        for &(what, m) in varying {
            a[what][s0] += m[s0][s];
        }
    }
    a
}

/// Rewards common to every path detected at t whose c retransmissions got through: slots and
/// transmissions up to t + c, K + c correct, t - K lost at W = Y, one fast retransmit.
fn detected(t: u32, c: u32, k: u32) -> [(usize, f64); 5] {
    [
        (SLOTS, f64::from(t + c)),
        (TRANSMISSIONS, f64::from(t + c)),
        (SUCCESSES, f64::from(k + c)),
        (LOSSES_AT_Y, f64::from(t - k)),
        (FAST_RETRANSMITS, 1.0),
    ]
}

/// `common` and `more` in one array (these are built once per group and class: no heap allocation).
fn with<const M: usize, const N: usize>(common: [(usize, f64); 5], more: [(usize, f64); M]) -> [(usize, f64); N] {
    let mut out = [(PROBABILITY, 0.0); N];
    out[..5].copy_from_slice(&common);
    out[5..].copy_from_slice(&more);
    out
}

/// What a hole group leads to, with its rewards apart from the class: a class (⌊Y⌋, ⌈Y/2⌉) sums a lane's
/// rewards over the groups detected before slot ⌊Y⌋ and then reads ⌈Y/2⌉ only here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Lane {
    /// The c-th retransmission is the first lost, ending in channel state `channel`: doomed to the timer with
    /// W = ⌈Y/2⌉ + K − `held_before` (or, if the timer fires in that very slot, `deadline` = 0, a timeout now).
    /// The lane's [`CWND_AT_LOSS`] leaves out the ⌈Y/2⌉ of that W.
    Lost { channel: u8, held_before: u32, outstanding: u32, unbroken: bool, deadline: i32 },
    /// Every retransmission through (the last hole's included): a full ACK, clean with W = Wth.
    Through { channel: usize },
    /// Reno, partial ACK of the retransmission of packet 0 in slot t + 1: recovery ends with W = Wth and
    /// `outstanding` = t + 1 − h_1. If that fills W the sender idles until the timer, restarted by the ACK,
    /// fires T0 slots later, freeing the run after h_1 (otherwise the seeds' rounds follow).
    Stalled { channel: usize, outstanding: u32 },
}

impl HoleGroup {
    /// The lanes this group feeds, with its rewards in each.
    fn lanes(&self, recovery: FastRecovery, k: u32, rto: u32) -> Vec<(Lane, Rewards)> {
        let mut out = Vec::new();
        let mut delivered = self.next_run;
        add_scaled(&mut delivered, &self.next, f64::from(self.hole));
        if recovery == FastRecovery::Reno && self.c == 1 {
            let mut fixed = detected(self.t, 1, k);
            fixed[0].1 += f64::from(rto);
            let outstanding = self.t + 1 - self.hole;
            for s in reached(&self.next) {
                let r = rewards(s, &self.next, &fixed, &[(DELIVERED, &delivered)]);
                out.push((Lane::Stalled { channel: s, outstanding }, r));
            }
            return out;
        }
        let slot = self.t + 1 + self.c;
        // The timer runs from the original send at slot 0 (fires at the end of slot T0 - 1) until the first
        // partial ACK restarts it (fires T0 slots after that ACK's slot).
        let deadline = if self.c == 0 { rto as i32 - 1 - slot as i32 } else { rto as i32 - 1 };
        let growth = f64::from(k - self.held_before);
        let mut fixed: [_; 7] = with(detected(self.t, self.c + 1, k), [(LOSSES_OTHER, 1.0), (CWND_AT_LOSS, growth)]);
        fixed[2].1 -= 1.0; // the last retransmission was lost
        for s in reached(&self.next) {
            let lane = Lane::Lost {
                channel: s as u8,
                held_before: self.held_before,
                outstanding: self.t + 1 - self.hole,
                unbroken: self.last_hole,
                deadline,
            };
            out.push((lane, rewards(s, &self.next, &fixed, &[(DELIVERED, &delivered)])));
        }
        if self.last_hole {
            let fixed: [_; 6] = with(detected(self.t, self.c + 1, k), [(DELIVERED, f64::from(self.t + 1))]);
            for s in reached(&self.through) {
                out.push((Lane::Through { channel: s }, rewards(s, &self.through, &fixed, &[])));
            }
        }
        out
    }
}

impl Lane {
    /// Add the ending of the groups summed in `acc` for a class with ⌈Y/2⌉ = `next_ssthresh`.
    fn finish(&self, ex: &mut Explorer<'_>, acc: &Rewards, next_ssthresh: u32) {
        match *self {
            Lane::Lost { channel, held_before, outstanding, unbroken, deadline } => {
                let cwnd = f64::from(next_ssthresh + ex.q.dupthresh - held_before);
                let mut acc = *acc;
                let prob = acc[PROBABILITY];
                credit(&mut acc, CWND_AT_LOSS, prob, f64::from(next_ssthresh));
                if deadline == 0 {
                    ex.finish(Ending::Timeout { ssthresh: ceil_half(cwnd) }, channel as usize, &acc);
                } else {
                    let (cwnd, deadline) = (cwnd.to_bits(), deadline - 1);
                    let state = Doomed { channel, recovering: true, cwnd, outstanding, unbroken, deadline };
                    ex.doom(0, state, &acc);
                }
            }
            Lane::Through { channel } => {
                let ending = Ending::Clean { ssthresh: next_ssthresh, cwnd_bits: f64::from(next_ssthresh).to_bits() };
                ex.finish(ending, channel, acc);
            }
            Lane::Stalled { channel, outstanding } => {
                if outstanding >= next_ssthresh {
                    ex.finish(Ending::Timeout { ssthresh: ceil_half(f64::from(next_ssthresh)) }, channel, acc);
                }
            }
        }
    }
}

/// A lane's rewards summed over the detection slots up to each t that has any (t increasing).
#[derive(Default)]
struct SummedOverT {
    upto: Vec<(u32, Rewards)>,
}

impl SummedOverT {
    /// Add a group detected at slot `t`, no earlier than those before.
    fn add(&mut self, t: u32, r: &Rewards) {
        match self.upto.last_mut() {
            Some((last, sum)) if *last == t => add_rewards(sum, r),
            Some((last, sum)) => {
                debug_assert!(*last < t, "groups come by detection slot");
                let mut sum = *sum;
                add_rewards(&mut sum, r);
                self.upto.push((t, sum));
            }
            None => self.upto.push((t, *r)),
        }
    }

    /// The sum over the groups detected before slot `window`, if any.
    fn before(&self, window: u32) -> Option<&Rewards> {
        let n = self.upto.partition_point(|(t, _)| *t < window);
        n.checked_sub(1).map(|i| &self.upto[i].1)
    }
}

/// Reno after a partial ACK that leaves room for new packets: its rounds from the exact protocol state, the
/// timer restarted at the end of slot t + 1.
fn continue_reno_seeds(ex: &mut Explorer<'_>, sums: &WordSums, seeds: &[Seed], next_ssthresh: u32) {
    let k = ex.q.dupthresh;
    let mut live = Frontier::default();
    for seed in seeds.iter().filter(|s| s.t < ex.q.window && s.t + 1 - s.first_hole < next_ssthresh) {
        let fixed: [_; 6] = with(detected(seed.t, 1, k), [(DELIVERED, f64::from(seed.first_hole))]);
        for s in reached(&seed.weight) {
            let state = Active::round_start(s as u8, next_ssthresh, ex.q.rto, seed.t + 1 - seed.first_hole, seed.held);
            let holes = holes_after_una(&state);
            let state = Active { held: readable(&state, holes, ex.fast_retransmits_left(&state, holes)), ..state };
            live.add(state, rewards(s, &seed.weight, &fixed, &[]));
        }
    }
    continue_reno_rounds(ex, sums, live);
}

/// Fewer than K of the ⌊Y⌋ - 1 packets after the loss get through: the sender stalls and the timer
/// fires at the end of slot T0 - 1, freeing at most the run held right after packet 0.
fn stall_before_detection(ex: &mut Explorer<'_>, sums: &WordSums, success_powers: &[M2]) {
    let q = *ex.q;
    let sent = q.window - 1;
    let most_correct = sent.min(q.dupthresh - 1);
    let (mut weight, mut weight_correct, mut weight_run) = (ZERO, ZERO, ZERO);
    for correct in 0..=most_correct {
        for run in 0..=correct {
            let w = if run == sent {
                success_powers[run as usize]
            } else if run < sent && correct - run < sent - run {
                let rest = sums.of(sent - run - 1, correct - run);
                chain(&[&success_powers[run as usize], &ex.ch.failure, rest])
            } else {
                continue;
            };
            add_scaled(&mut weight, &w, 1.0);
            add_scaled(&mut weight_correct, &w, f64::from(correct));
            add_scaled(&mut weight_run, &w, f64::from(run));
        }
    }
    // Idle from slot ⌊Y⌋ to the end of slot T0 - 1.
    let idle = &ex.step_powers[(q.rto - q.window) as usize];
    let [weight, weight_correct, weight_run] = [weight, weight_correct, weight_run].map(|m| mat_mul(&m, idle));
    let mut lost = weight_correct;
    for (row, w) in lost.iter_mut().zip(&weight) {
        for (v, wv) in row.iter_mut().zip(w) {
            *v = wv * f64::from(sent) - *v;
        }
    }
    let fixed = [(SLOTS, f64::from(q.rto - 1)), (TRANSMISSIONS, f64::from(sent))];
    let varying = [(SUCCESSES, &weight_correct), (DELIVERED, &weight_run), (LOSSES_AT_Y, &lost)];
    for s in reached(&weight) {
        let acc = rewards(s, &weight, &fixed, &varying);
        ex.finish(Ending::Timeout { ssthresh: q.next_ssthresh }, s, &acc);
    }
}

#[cfg(test)]
mod tests {
    use super::super::fast_recovery::explore;
    use super::*;

    fn close(a: &[Outcome], b: &[Outcome]) -> std::result::Result<(), String> {
        if a.len() != b.len() {
            return Err(format!("{} outcomes against {}", a.len(), b.len()));
        }
        for (x, y) in a.iter().zip(b) {
            if (x.ending, x.channel_state) != (y.ending, y.channel_state) {
                return Err(format!("{:?} against {:?}", (x.ending, x.channel_state), (y.ending, y.channel_state)));
            }
            for (r, (rx, ry)) in x.rewards.iter().zip(&y.rewards).enumerate() {
                for s0 in 0..2 {
                    if (rx[s0] - ry[s0]).abs() > 1e-12 * (1.0 + ry[s0].abs()) {
                        return Err(format!("{:?} reward {r} s0 {s0}: {} against {}", x.ending, rx[s0], ry[s0]));
                    }
                }
            }
        }
        Ok(())
    }

    /// Errors in both states, correlated: every branch of both matrices is exercised.
    fn channel() -> SlotMatrices {
        SlotMatrices { success: [[0.85, 0.04], [0.2, 0.3]], failure: [[0.03, 0.08], [0.1, 0.4]] }
    }

    /// The papers' channel: the good state always delivers, the bad state always loses.
    fn papers_channel() -> SlotMatrices {
        SlotMatrices { success: [[0.9, 0.0], [0.3, 0.0]], failure: [[0.0, 0.1], [0.0, 0.7]] }
    }

    /// Every class (⌊Y⌋, ⌈Y/2⌉ or one more), both rules, K from 1 to beyond ⌊Y⌋, T0 down to Wmax + 1.
    fn check_against_explorer(ch: SlotMatrices) {
        for (wmax, k, rto) in [(12, 3, 13), (12, 1, 30), (10, 2, 40), (9, 5, 20), (6, 6, 10), (8, 3, 9)] {
            for recovery in [FastRecovery::Reno, FastRecovery::NewReno] {
                let mut model = Phase2::new(recovery, ch, wmax, k, rto).unwrap();
                for window in 1..=wmax {
                    for next_ssthresh in [window.div_ceil(2), window / 2 + 1] {
                        let q = Phase2Query { recovery, wmax, dupthresh: k, rto, window, next_ssthresh };
                        let reference = explore(&ch, &q).unwrap();
                        let fast = model.outcomes(window, next_ssthresh).unwrap();
                        if let Err(why) = close(&fast, &reference) {
                            panic!("{recovery:?} wmax {wmax} K {k} T0 {rto} class ({window}, {next_ssthresh}): {why}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn matches_the_explorer_on_a_channel_that_errs_in_both_states() {
        check_against_explorer(channel());
    }

    #[test]
    fn matches_the_explorer_on_the_papers_channel() {
        check_against_explorer(papers_channel());
    }

    #[test]
    fn rejects_what_the_explorer_rejects() {
        assert!(Phase2::new(FastRecovery::Reno, channel(), 12, 3, 12).is_err());
        let mut model = Phase2::new(FastRecovery::NewReno, channel(), 12, 3, 20).unwrap();
        assert!(model.outcomes(13, 6).is_err());
    }
}
