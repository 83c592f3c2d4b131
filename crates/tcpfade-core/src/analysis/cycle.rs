//! The embedded chain of TCP cycles and its expected rewards (zorzi-rao §4, eq. (13)), for every
//! analysed variant: the variants differ only in their phase 2 ([`WindowClasses`]).
//!
//! A cycle starts when the sender is clean (nothing outstanding, no recovery) or right after a
//! timeout, in state X = (channel state of the previous slot, Wth, W): W = 1 after a timeout, the
//! window recovery left otherwise. Phase 1 is the error-free stretch up to the first loss: after k
//! correct slots the window is w_k (slow start below Wth, then congestion avoidance, capped at Wmax),
//! so the loss falls in the window class (⌊w_k⌋, ⌈w_k/2⌉) with matrix weight A^k F. Phase 2 is the
//! class's: [`Phase2`] for Reno and NewReno, [`TahoePhase2`] for Tahoe and OldTahoe. This module
//! assembles P and the rewards for `tcpfade.analysis`, which solves for the stationary law;
//! docs/models.md ("Tahoe and OldTahoe", "Reno and NewReno") has the derivation.
use super::fast_recovery::{
    Ending, FastRecovery, CWND_AT_LOSS, DELIVERED, FAST_RETRANSMITS, LOSSES_AT_Y, LOSSES_OTHER, REWARDS, SLOTS,
    SUCCESSES, TRANSMISSIONS,
};
use super::phase2::Phase2;
use super::tahoe::TahoePhase2;
use super::{add_scaled, mat_mul, SlotMatrices, M2};
use crate::error::{Error, Result};
use crate::watch::Watch;
use rustc_hash::FxHashMap as HashMap;
use std::collections::hash_map::Entry;

/// The shared vocabulary lives in [`super::classes`] (so that the phases need not import this module).
pub use super::classes::{ClassPhase2, WindowClasses};

/// Rewards per cycle, in the order of `tcpfade.analysis.cycle.REWARDS`.
pub const CYCLE_REWARDS: [&str; 8] = [
    "slots",
    "transmissions",
    "successes_low",
    "successes_high",
    "timeouts",
    "fast_retransmits",
    "losses",
    "cwnd_at_loss_sum",
];

/// A cycle-start state: channel state of the previous slot, Wth, W.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CycleStart {
    /// Channel state (0 good, 1 bad) of the slot before the cycle.
    pub channel: usize,
    /// Slow-start threshold Wth.
    pub ssthresh: f64,
    /// Congestion window W.
    pub cwnd: f64,
}

/// The reachable cycle-start states, the transition probabilities between them (sparse rows) and
/// the expected rewards of a cycle out of each ([`CYCLE_REWARDS`] order).
#[derive(Debug, Clone)]
pub struct CycleModel {
    /// Cycle-start states, the first being (good, 1, 1).
    pub states: Vec<CycleStart>,
    /// Row i: (next state, probability) pairs, each target once.
    pub transitions: Vec<Vec<(usize, f64)>>,
    /// `rewards[i][r]`: expected reward r of a cycle from state i.
    pub rewards: Vec<[f64; 8]>,
}

/// The window after one ACK of new data (BRIEF D3): +1 below Wth, +1/W above, at most Wmax.
fn grow(cwnd: f64, ssthresh: f64, wmax: f64) -> f64 {
    let next = if cwnd < ssthresh { cwnd + 1.0 } else { cwnd + 1.0 / cwnd };
    next.min(wmax)
}

fn class_of(cwnd: f64) -> (u32, u32) {
    (cwnd.floor() as u32, (cwnd / 2.0).ceil() as u32)
}

/// Phase 1 from one (Wth, W), per window class at the loss: Σ A^k F, Σ (k + 1) A^k F and Σ w_k A^k F
/// over the k in the class (row: channel state before the cycle, column: of the loss slot).
struct Phase1Class {
    class: (u32, u32),
    loss: M2,
    slots: M2,
    cwnd_sum: M2,
}

impl Phase1Class {
    fn new(class: (u32, u32)) -> Self {
        Phase1Class { class, loss: [[0.0; 2]; 2], slots: [[0.0; 2]; 2], cwnd_sum: [[0.0; 2]; 2] }
    }
}

/// What phase 1 needs of the channel: A^k F for k up to where any window reaches Wmax, and the
/// geometric tails Σ_{k≥n} A^k F = A^n R F, Σ_{k≥n} (k + 1) A^k F = A^n ((n + 1) R + A R²) F
/// with R = (I - A)^-1.
struct Phase1Tables {
    fail_after: Vec<M2>,
    success_powers: Vec<M2>,
    tail_rf: M2,
    tail_arrf: M2,
}

impl Phase1Tables {
    fn new(ch: &SlotMatrices, kmax: usize) -> Result<Self> {
        let a = ch.success;
        let det = (1.0 - a[0][0]) * (1.0 - a[1][1]) - a[0][1] * a[1][0];
        if det == 0.0 || det.is_nan() {
            return Err(Error::invalid("channel", "error rate 0", "needs some loss for a renewal cycle"));
        }
        let r = [[(1.0 - a[1][1]) / det, a[0][1] / det], [a[1][0] / det, (1.0 - a[0][0]) / det]];
        let success_powers = super::powers(&a, kmax + 1);
        let fail_after = success_powers.iter().map(|p| mat_mul(p, &ch.failure)).collect();
        let rf = mat_mul(&r, &ch.failure);
        let arrf = mat_mul(&mat_mul(&a, &r), &rf);
        Ok(Phase1Tables { fail_after, success_powers, tail_rf: rf, tail_arrf: arrf })
    }

    /// The classes of a phase 1 from W = `cwnd` with Wth = `ssthresh`, for both channel states before
    /// the cycle at once.
    fn classes(&self, ssthresh: f64, cwnd: f64, wmax: u32) -> Vec<Phase1Class> {
        let wmax_f = f64::from(wmax);
        let mut out = Vec::new();
        let mut w = cwnd.min(wmax_f);
        let mut k = 0usize;
        // The class holds on the open interval (n, n + 1) between integers, and at an integer for that
        // value alone: it is worked out again only when W leaves the interval (a ceil per slot was a
        // tenth of a Reno point's time).
        let mut until = f64::NEG_INFINITY;
        let mut run = Phase1Class::new(class_of(w));
        while w < wmax_f {
            if w >= until {
                let class = class_of(w);
                until = if w.fract() == 0.0 { w } else { w.floor() + 1.0 };
                if class != run.class {
                    out.push(std::mem::replace(&mut run, Phase1Class::new(class)));
                }
            }
            let f = &self.fail_after[k];
            add_scaled(&mut run.loss, f, 1.0);
            add_scaled(&mut run.slots, f, (k + 1) as f64);
            add_scaled(&mut run.cwnd_sum, f, w);
            w = grow(w, ssthresh, wmax_f);
            k += 1;
        }
        let p = &self.success_powers[k];
        let tail0 = mat_mul(p, &self.tail_rf);
        let mut inner = self.tail_rf;
        for row in inner.iter_mut() {
            for v in row.iter_mut() {
                *v *= (k + 1) as f64;
            }
        }
        add_scaled(&mut inner, &self.tail_arrf, 1.0);
        let tail1 = mat_mul(p, &inner);
        let class = class_of(wmax_f);
        if class != run.class {
            out.push(std::mem::replace(&mut run, Phase1Class::new(class)));
        }
        add_scaled(&mut run.loss, &tail0, 1.0);
        add_scaled(&mut run.slots, &tail1, 1.0);
        add_scaled(&mut run.cwnd_sum, &tail0, wmax_f);
        out.push(run);
        out
    }
}

/// Longest phase 1 before the window reaches Wmax (from W = 1, Wth = 1, the slowest start).
fn longest_phase1(wmax: u32) -> usize {
    let mut w = 1.0;
    let mut k = 0;
    while w < f64::from(wmax) {
        w = grow(w, 1.0, f64::from(wmax));
        k += 1;
    }
    k
}

fn dot(a: &[f64; 2], b: &[f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// A class's endings as indices of cycle-start states, and its rewards with the timeouts'
/// probability appended.
struct Resolved {
    targets: Vec<usize>,
    probabilities: Vec<[f64; 2]>,
    sums: [[f64; 2]; REWARDS + 1],
}

const TIMEOUTS: usize = REWARDS;

impl Resolved {
    fn new(class: ClassPhase2, mut state: impl FnMut(CycleStart) -> usize) -> Self {
        let mut sums = [[0.0; 2]; REWARDS + 1];
        sums[..REWARDS].copy_from_slice(&class.sums);
        let mut targets = Vec::with_capacity(class.endings.len());
        let mut probabilities = Vec::with_capacity(class.endings.len());
        for (ending, channel, p) in class.endings {
            let (ssthresh, cwnd) = match ending {
                Ending::Timeout { ssthresh } => {
                    sums[TIMEOUTS][0] += p[0];
                    sums[TIMEOUTS][1] += p[1];
                    (f64::from(ssthresh), 1.0)
                }
                Ending::Clean { ssthresh, cwnd_bits } => (f64::from(ssthresh), f64::from_bits(cwnd_bits)),
            };
            targets.push(state(CycleStart { channel, ssthresh, cwnd }));
            probabilities.push(p);
        }
        Resolved { targets, probabilities, sums }
    }
}

/// The cycle model of Reno or NewReno ([`Phase2`] per window class).
pub fn fast_recovery_cycle_model(
    ch: &SlotMatrices,
    recovery: FastRecovery,
    wmax: u32,
    dupthresh: u32,
    rto: u32,
    watch: &mut Watch<'_>,
) -> Result<CycleModel> {
    let mut phase2 = Phase2::new(recovery, *ch, wmax, dupthresh, rto)?;
    cycle_model(ch, &mut phase2, wmax, watch)
}

/// The cycle model of Tahoe (`dupthresh` Some(K)) or OldTahoe (None) ([`TahoePhase2`] per window
/// class), zorzi-rao eqs. (6)-(13) and (19)-(24).
pub fn tahoe_cycle_model(
    ch: &SlotMatrices,
    dupthresh: Option<u32>,
    wmax: u32,
    rto: u32,
    watch: &mut Watch<'_>,
) -> Result<CycleModel> {
    let mut phase2 = TahoePhase2::new(*ch, wmax, dupthresh, rto)?;
    cycle_model(ch, &mut phase2, wmax, watch)
}

/// The cycle model over the reachable cycle-start states (zorzi-rao eq. (13)), phase 2 per window
/// class from `phase2`. The watch looks at the clock after each window class's phase 2 (for Reno at
/// Wmax = 128 one takes tens of milliseconds); the fraction done is the share of the (at most
/// 2·Wmax) classes computed.
pub fn cycle_model(
    ch: &SlotMatrices,
    phase2: &mut impl WindowClasses,
    wmax: u32,
    watch: &mut Watch<'_>,
) -> Result<CycleModel> {
    let tables = Phase1Tables::new(ch, longest_phase1(wmax) + 1)?;
    let mut classes: HashMap<(u32, u32), Resolved> = HashMap::default();
    let mut index: HashMap<(usize, u64, u64), usize> = HashMap::default();
    let mut states: Vec<CycleStart> = Vec::new();
    let mut state = |st: CycleStart, states: &mut Vec<CycleStart>| -> usize {
        *index.entry((st.channel, st.ssthresh.to_bits(), st.cwnd.to_bits())).or_insert_with(|| {
            states.push(st);
            states.len() - 1
        })
    };
    // Any reachable state will do as the first: a timeout leaves (C, 1, 1) sooner or later.
    state(CycleStart { channel: 0, ssthresh: 1.0, cwnd: 1.0 }, &mut states);
    let mut transitions = Vec::new();
    let mut rewards = Vec::new();
    // Phase 1 depends on the start's (Wth, W), its channel state only picking a row: walked once for both.
    let mut phase1: HashMap<(u64, u64), Vec<Phase1Class>> = HashMap::default();
    let mut done = 0;
    let mut computed = 0u32;
    // A row's probabilities summed by target: each class reaches the same few targets from many phase-1
    // classes (at Wmax = 64 about 600,000 pairs for 127 states), so they are added here, not listed.
    let (mut by_target, mut listed, mut targets): (Vec<f64>, Vec<bool>, Vec<usize>) = Default::default();
    while done < states.len() {
        let start = states[done];
        done += 1;
        let classes_from = (phase1.entry((start.ssthresh.to_bits(), start.cwnd.to_bits())))
            .or_insert_with(|| tables.classes(start.ssthresh, start.cwnd, wmax));
        let s = start.channel;
        let mut r = [0.0; 8];
        for ph1 in classes_from.iter() {
            let class = match classes.entry(ph1.class) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => {
                    let class = phase2.class(ph1.class.0, ph1.class.1)?;
                    computed += 1;
                    watch.look_now(|| f64::from(computed) / (2.0 * f64::from(wmax)))?;
                    e.insert(Resolved::new(class, |st| state(st, &mut states)))
                }
            };
            let mass = ph1.loss[s];
            for (&t, p) in class.targets.iter().zip(&class.probabilities) {
                if t >= listed.len() {
                    listed.resize(t + 1, false);
                    by_target.resize(t + 1, 0.0);
                }
                if !listed[t] {
                    listed[t] = true;
                    targets.push(t);
                }
                by_target[t] += dot(p, &mass);
            }
            let sum = |what: usize| dot(&class.sums[what], &mass);
            let lost = mass[0] + mass[1];
            let slots = ph1.slots[s][0] + ph1.slots[s][1];
            // Phase 1: k + 1 slots and transmissions, k correct ones (all delivered), one loss at
            // W = Y; losses before the detection also happen at W = Y (weighted by cwnd_sum).
            r[0] += slots + sum(SLOTS);
            r[1] += slots + sum(TRANSMISSIONS);
            r[2] += slots - lost + sum(DELIVERED);
            r[3] += slots - lost + sum(SUCCESSES);
            r[4] += sum(TIMEOUTS);
            r[5] += sum(FAST_RETRANSMITS);
            r[6] += lost + sum(LOSSES_AT_Y) + sum(LOSSES_OTHER);
            r[7] +=
                ph1.cwnd_sum[s][0] + ph1.cwnd_sum[s][1] + dot(&class.sums[LOSSES_AT_Y], &ph1.cwnd_sum[s]) + sum(CWND_AT_LOSS);
        }
        let row: Vec<(usize, f64)> = targets.iter().map(|&t| (t, std::mem::take(&mut by_target[t]))).collect();
        for &t in &targets {
            listed[t] = false;
        }
        targets.clear();
        transitions.push(row);
        rewards.push(r);
    }
    Ok(CycleModel { states, transitions, rewards })
}
