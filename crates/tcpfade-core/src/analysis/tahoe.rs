//! Phase 2 of TCP Tahoe and OldTahoe over a two-state Markov channel (zorzi-rao §4.2, eqs. (20)-(24)),
//! with the timer of BRIEF D2, per window class, for the cycle model of [`super::cycle`].
//!
//! Phase 2 runs from the first loss (slot 0, window Y) to its detection. The ⌊Y⌋ − 1 slots after the
//! loss carry new packets; the K-th correct one among them triggers a fast retransmit (Tahoe only),
//! whose retransmission in the next slot either gets through (the next cycle has one ACK in: W = 2,
//! Wth = ⌈Y/2⌉) or is lost, and then the timer set at slot 0 fires (W = 1, Wth = 1: D2 does not
//! restart it at the fast retransmit). If the window is used up with fewer than K correct slots, the
//! sender stalls until the timer fires T0 slots after the loss (W = 1, Wth = ⌈Y/2⌉).
//!
//! One forward recursion over the slots after the loss serves every window class: its state at slot
//! x is (channel state, correct slots j < K, a new loss seen?), and it carries besides probability
//! E\[j\] and the pessimistic count ℓ1 − 1 of eqs. (23)-(24), the correct slots before the first new
//! loss (the φ probabilities of §4.2.1, for both channel states of the loss slot at once). The class
//! of ⌊Y⌋ = m reads the recursion at slot m − 1 and the fast retransmits at slots up to m − 1
//! (prefix sums), so a class costs O(1) once the recursion, O(Wmax·K), is done. docs/models.md
//! ("Tahoe and OldTahoe") has the derivation line by line.
use super::classes::{ClassPhase2, WindowClasses};
use super::fast_recovery::{
    Ending, Rewards, CWND_AT_LOSS, DELIVERED, FAST_RETRANSMITS, LOSSES_AT_Y, LOSSES_OTHER, PROBABILITY, SLOTS,
    SUCCESSES, TRANSMISSIONS,
};
use super::{mat_mul, mat_pow, powers, row_times, SlotMatrices, M2};
use crate::error::{Error, Result};

type V2 = [f64; 2];

/// One count bucket of the recursion, per channel state s0 of the loss slot: [P(no new loss),
/// P(a new loss), E[j 1{.}], E[(ℓ1 − 1) 1{a new loss}]], each a row over the current channel state.
type Cell = [[V2; 4]; 2];

const CLEAN: usize = 0;
const SEEN: usize = 1;
const COUNT: usize = 2;
const FIRST_RUN: usize = 3;

/// The recursion at slot x after the loss, where a class of ⌊Y⌋ = x + 1 has used up its window.
#[derive(Clone, Copy, Default)]
struct Stall {
    /// [s0][s]: fewer than K correct slots so far, channel state s.
    prob: M2,
    /// [s0]: E[j 1{fewer than K}].
    count: V2,
}

/// Fast retransmits at slots 1 ≤ i < n, summed (entry n of a prefix table), per s0.
#[derive(Clone, Copy, Default)]
struct Retransmits {
    prob: V2,
    /// [s0][s']: the retransmission lost, then idle to the timer: Σ P_i F M^(T0 − i − 2).
    refail: M2,
    /// [s0][s']: the retransmission correct: Σ P_i A.
    resume: M2,
    /// Σ (i + 1) P(fast retransmit at i): its transmissions.
    transmissions: V2,
    /// Σ (i + 1) P(fast retransmit at i, retransmission correct): its slots.
    resume_slots: V2,
    /// Σ E[(ℓ1 − 1) 1{fast retransmit at i}].
    first_run: V2,
    /// Σ (i − K) P(fast retransmit at i): the new packets lost before it.
    lost: V2,
}

/// Phase 2 of Tahoe (`dupthresh` Some(K)) or OldTahoe (None) for every window class of one channel.
pub struct TahoePhase2 {
    /// K (at most Wmax), 0 for OldTahoe.
    dupthresh: u32,
    wmax: u32,
    rto: u32,
    /// M^(T0 − Wmax − 1 + t), t = 0..=Wmax: the idle stretches before the timer fires (eq. (21)).
    idle: Vec<M2>,
    /// Indexed by x = m − 1.
    stalls: Vec<Stall>,
    /// Indexed by m: fast retransmits at slots i ≤ m − 1.
    retransmits: Vec<Retransmits>,
}

fn axpy(y: &mut V2, by: f64, x: &V2) {
    y[0] += by * x[0];
    y[1] += by * x[1];
}

fn total(v: &V2) -> f64 {
    v[0] + v[1]
}

impl TahoePhase2 {
    /// The recursion over the Wmax − 1 slots after a loss, for a timer of `rto` > `wmax` slots.
    pub fn new(ch: SlotMatrices, wmax: u32, dupthresh: Option<u32>, rto: u32) -> Result<Self> {
        if wmax == 0 {
            return Err(Error::invalid("wmax", wmax, "must be >= 1"));
        }
        if rto <= wmax {
            return Err(Error::invalid("rto", rto, "must be > wmax"));
        }
        if dupthresh == Some(0) {
            return Err(Error::invalid("dupthresh", 0, "must be >= 1"));
        }
        // K ≥ Wmax never triggers (at most Wmax − 1 slots follow the loss): K = Wmax buckets will do.
        let k = dupthresh.map_or(0, |k| k.min(wmax));
        let buckets = k.max(1) as usize;
        let (a, f) = (ch.success, ch.failure);
        let step = ch.step();
        let base = mat_pow(&step, u64::from(rto - wmax - 1));
        let idle: Vec<M2> = powers(&step, wmax as usize).iter().map(|p| mat_mul(&base, p)).collect();
        // The retransmission at slot i + 1 lost: idle from slot i + 2 to the timer, M^(T0 − i − 2).
        let f_then_idle = |i: usize| mat_mul(&f, &idle[wmax as usize - 1 - i]);
        let mut st: Vec<Cell> = vec![[[[0.0; 2]; 4]; 2]; buckets];
        st[0][0][CLEAN][0] = 1.0;
        st[0][1][CLEAN][1] = 1.0;
        let mut next = st.clone();
        let mut stalls = Vec::with_capacity(wmax as usize);
        let mut retransmits = vec![Retransmits::default(); 2];
        for x in 0..wmax as usize {
            stalls.push(Self::read(&st));
            if x + 1 == wmax as usize {
                break;
            }
            // Slot i = x + 1: correct (j + 1; the K-th is a fast retransmit) or lost (j stays, a new
            // loss seen, and ℓ1 − 1 freezes at j if it was the first).
            let i = x + 1;
            let mut fired = Retransmits::default();
            for cell in next.iter_mut() {
                *cell = [[[0.0; 2]; 4]; 2];
            }
            for (j, cell) in st.iter().enumerate() {
                for s0 in 0..2 {
                    let c = &cell[s0];
                    let mut moved = [[0.0; 2]; 4];
                    for (m, v) in moved.iter_mut().zip(c) {
                        *m = row_times(*v, &a);
                    }
                    let (clean, seen) = (moved[CLEAN], moved[SEEN]);
                    axpy(&mut moved[COUNT], 1.0, &clean);
                    axpy(&mut moved[COUNT], 1.0, &seen);
                    let lost = &mut next[j][s0];
                    axpy(&mut lost[SEEN], 1.0, &row_times([c[CLEAN][0] + c[SEEN][0], c[CLEAN][1] + c[SEEN][1]], &f));
                    axpy(&mut lost[COUNT], 1.0, &row_times(c[COUNT], &f));
                    if k > 0 {
                        let mut frozen = c[FIRST_RUN];
                        axpy(&mut frozen, j as f64, &c[CLEAN]);
                        axpy(&mut lost[FIRST_RUN], 1.0, &row_times(frozen, &f));
                    }
                    if k == 0 {
                        // OldTahoe: one bucket, no ℓ1 bookkeeping (a timeout counts N_s ≥ 0, eq. (20)).
                        for what in [CLEAN, SEEN, COUNT] {
                            axpy(&mut next[0][s0][what], 1.0, &moved[what]);
                        }
                    } else if j + 1 < buckets {
                        for (n, m) in next[j + 1][s0].iter_mut().zip(&moved) {
                            axpy(n, 1.0, m);
                        }
                    } else {
                        let p_i = [clean[0] + seen[0], clean[1] + seen[1]];
                        let p = total(&p_i);
                        let ok = row_times(p_i, &a);
                        let r = &mut fired;
                        r.prob[s0] += p;
                        axpy(&mut r.refail[s0], 1.0, &row_times(p_i, &f_then_idle(i)));
                        axpy(&mut r.resume[s0], 1.0, &ok);
                        r.transmissions[s0] += (i + 1) as f64 * p;
                        r.resume_slots[s0] += (i + 1) as f64 * total(&ok);
                        r.first_run[s0] += f64::from(k) * total(&clean) + total(&moved[FIRST_RUN]);
                        r.lost[s0] += (i as f64 - f64::from(k)) * p;
                    }
                }
            }
            std::mem::swap(&mut st, &mut next);
            let mut sum = *retransmits.last().expect("two entries to start");
            sum.add(&fired);
            retransmits.push(sum);
        }
        Ok(TahoePhase2 { dupthresh: k, wmax, rto, idle, stalls, retransmits })
    }

    #[allow(clippy::needless_range_loop)] // s0 indexes the cell and the stall alike
    fn read(st: &[Cell]) -> Stall {
        let mut out = Stall::default();
        for cell in st {
            for s0 in 0..2 {
                axpy(&mut out.prob[s0], 1.0, &cell[s0][CLEAN]);
                axpy(&mut out.prob[s0], 1.0, &cell[s0][SEEN]);
                out.count[s0] += total(&cell[s0][COUNT]);
            }
        }
        out
    }
}

impl Retransmits {
    fn add(&mut self, o: &Retransmits) {
        for s0 in 0..2 {
            self.prob[s0] += o.prob[s0];
            axpy(&mut self.refail[s0], 1.0, &o.refail[s0]);
            axpy(&mut self.resume[s0], 1.0, &o.resume[s0]);
            self.transmissions[s0] += o.transmissions[s0];
            self.resume_slots[s0] += o.resume_slots[s0];
            self.first_run[s0] += o.first_run[s0];
            self.lost[s0] += o.lost[s0];
        }
    }
}

impl WindowClasses for TahoePhase2 {
    /// The class (⌊Y⌋, ⌈Y/2⌉) = (`window`, `next_ssthresh`): zorzi-rao eqs. (20)-(24) with the timer of D2.
    #[allow(clippy::needless_range_loop)] // s0 and s index several tables at once
    fn class(&mut self, window: u32, next_ssthresh: u32) -> Result<ClassPhase2> {
        if window == 0 || window > self.wmax {
            return Err(Error::invalid("window", window, "must be in 1..=wmax"));
        }
        let m = window as usize;
        let stall = &self.stalls[m - 1];
        let r = &self.retransmits[m];
        let idle = &self.idle[(self.wmax + 1 - window) as usize];
        let timeout = [row_times(stall.prob[0], idle), row_times(stall.prob[1], idle)];
        let mut endings = Vec::with_capacity(6);
        let one_ack_in = f64::min(2.0, f64::from(self.wmax));
        let kinds = [
            (Ending::Timeout { ssthresh: next_ssthresh }, timeout),
            (Ending::Timeout { ssthresh: 1 }, r.refail),
            (Ending::Clean { ssthresh: next_ssthresh, cwnd_bits: one_ack_in.to_bits() }, r.resume),
        ];
        for (ending, prob) in kinds {
            for s in 0..2 {
                let p = [prob[0][s], prob[1][s]];
                if p != [0.0, 0.0] {
                    endings.push((ending, s, p));
                }
            }
        }
        let mut sums: Rewards = [[0.0; 2]; super::fast_recovery::REWARDS];
        let k = f64::from(self.dupthresh);
        for s0 in 0..2 {
            let p_to = total(&stall.prob[s0]);
            let p_fail = total(&r.refail[s0]);
            let p_resume = total(&r.resume[s0]);
            sums[PROBABILITY][s0] = p_to + p_fail + p_resume;
            sums[SLOTS][s0] = f64::from(self.rto - 1) * (p_to + p_fail) + r.resume_slots[s0];
            sums[TRANSMISSIONS][s0] = (window - 1) as f64 * p_to + r.transmissions[s0];
            sums[SUCCESSES][s0] = stall.count[s0] + k * r.prob[s0] + p_resume;
            sums[DELIVERED][s0] = r.first_run[s0] + p_resume;
            sums[FAST_RETRANSMITS][s0] = r.prob[s0];
            sums[LOSSES_AT_Y][s0] = (window - 1) as f64 * p_to - stall.count[s0] + r.lost[s0];
            // The lost retransmission is sent at W = 1.
            sums[LOSSES_OTHER][s0] = p_fail;
            sums[CWND_AT_LOSS][s0] = p_fail;
        }
        Ok(ClassPhase2 { endings, sums })
    }
}
