//! The forward recursion of phase 2 of Reno and NewReno over slots, by the rules in the doc of [`super`] (BRIEF
//! D1-D4, docs/models.md "Reno and NewReno"): the explorer steps every live path one slot at a time, merges the
//! paths that agree, and adds up the endings; [`explore`] runs it from the loss.

use super::doomed::{doomed_outcomes, Shared};
use super::query::{
    Ending, FastRecovery, Outcome, Phase2Query, Rewards, CWND_AT_LOSS, DELIVERED, FAST_RETRANSMITS, LOSSES_AT_Y,
    LOSSES_OTHER, PROBABILITY, REWARDS, SLOTS, SUCCESSES,
};
use super::state::{add_rewards, ceil_half, credit, run_after_una, scaled, sends, Active, Doomed, NONE};
use crate::analysis::{powers, SlotMatrices};
use crate::error::{Error, Result};
use rustc_hash::FxHashMap as HashMap;

/// Add `acc` to the ending with id `id` of `out` (rewards per ending id, and whether it was reached).
fn add_outcome(out: &mut Vec<(bool, Rewards)>, id: usize, acc: &Rewards) {
    if id >= out.len() {
        out.resize(id + 1, (false, [[0.0; 2]; REWARDS]));
    }
    let (reached, sum) = &mut out[id];
    *reached = true;
    add_rewards(sum, acc);
}

pub(in crate::analysis) struct Explorer<'a> {
    pub(in crate::analysis) q: &'a Phase2Query,
    pub(in crate::analysis) ch: &'a SlotMatrices,
    /// M^n for n = 0..=rto + 1.
    pub(in crate::analysis) step_powers: &'a [[[f64; 2]; 2]],
    /// Rewards per ending id, and whether the ending was reached.
    out: Vec<(bool, Rewards)>,
    shared: &'a mut Shared,
    /// Paths that became doomed, merged by doomed state (slots so far in their rewards): each
    /// state's endings are added once, not once per path.
    pending: HashMap<Doomed, Rewards>,
}

impl<'a> Explorer<'a> {
    pub(in crate::analysis) fn new(
        q: &'a Phase2Query,
        ch: &'a SlotMatrices,
        step_powers: &'a [[[f64; 2]; 2]],
        shared: &'a mut Shared,
    ) -> Self {
        Explorer { q, ch, step_powers, out: Vec::new(), shared, pending: HashMap::default() }
    }

    /// The endings reached, by id, with their rewards.
    pub(in crate::analysis) fn reached(&mut self) -> Vec<(usize, Rewards)> {
        self.resolve_pending();
        (self.out.iter().enumerate()).filter(|(_, (reached, _))| *reached).map(|(id, (_, r))| (id, *r)).collect()
    }

    /// Add `acc` to the ending with id `id`.
    pub(in crate::analysis) fn add_to(&mut self, id: usize, acc: &Rewards) {
        add_outcome(&mut self.out, id, acc);
    }
}

impl Explorer<'_> {
    /// Step the frontier slot by slot until every path has ended (slots counted from 1).
    pub(in crate::analysis) fn run(&mut self, mut live: Frontier) -> Result<()> {
        let mut next = Frontier::default();
        let mut t = 0u32;
        while !live.states.is_empty() {
            t += 1;
            next.clear();
            for (&state, acc) in live.states.iter().zip(&live.rewards) {
                self.step_active(t, state, acc, &mut next);
            }
            std::mem::swap(&mut live, &mut next);
            if t > 64 * (self.q.rto + self.q.wmax) {
                return Err(Error::invalid("rto", self.q.rto, "phase 2 did not end (internal limit reached)"));
            }
        }
        Ok(())
    }

    /// The path in state `st` can no longer resend una before the timer: it becomes a doomed state
    /// (`recovering`: in recovery, so duplicate ACKs inflate W). The run held right after una is freed
    /// by the next good retransmission: it is counted now.
    pub(in crate::analysis) fn doom_counting(&mut self, t: u32, st: &Active, recovering: bool, mut acc: Rewards,
                                                   prob: [f64; 2]) {
        let run = run_after_una(st.held);
        credit(&mut acc, DELIVERED, prob, f64::from(run));
        let doomed = Doomed {
            channel: st.channel,
            recovering,
            cwnd: st.cwnd,
            outstanding: st.high,
            unbroken: run + 1 == st.high,
            deadline: st.deadline,
        };
        self.doom(t, doomed, &acc);
    }

    /// A path that became doomed in slot `t` with rewards `acc` (slots not yet counted): its endings
    /// are added by [`Self::resolve_pending`].
    pub(in crate::analysis) fn doom(&mut self, t: u32, st: Doomed, acc: &Rewards) {
        let mut a = *acc;
        let prob = a[PROBABILITY];
        credit(&mut a, SLOTS, prob, f64::from(t));
        add_rewards(self.pending.entry(st).or_insert([[0.0; 2]; REWARDS]), &a);
    }

    /// Add the endings of every pending doomed state, from its unit outcomes (computed the first
    /// time that state is met).
    #[inline(never)]
    fn resolve_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        // Out of `shared` while in use, so that a state's outcomes are looked up once.
        let mut doomed = std::mem::take(&mut self.shared.doomed);
        for (st, acc) in &pending {
            let unit = doomed
                .entry(*st)
                .or_insert_with(|| doomed_outcomes(self.q, self.ch, self.step_powers, st, self.shared));
            let prob = acc[PROBABILITY];
            for (id, u) in unit.iter() {
                let mut a = scaled(acc, u[PROBABILITY]);
                for (what, &by) in u.iter().enumerate().skip(1) {
                    credit(&mut a, what, prob, by);
                }
                add_outcome(&mut self.out, *id, &a);
            }
        }
        self.shared.doomed = doomed;
    }

    /// At most how many more fast retransmits a Reno sender at a round start (outside recovery, its first
    /// one over) can make, `holes` being its holes after una (bit b: una + b). Each needs K - dupacks more new
    /// packets to get through while fewer than W are outstanding; its retransmission's ACK moves una to the
    /// next hole (at best, for more rounds, one packet before the new high when no known hole is left), and
    /// Reno then leaves recovery with W = ⌈W/2⌉. Every shortcut here errs towards more.
    pub(in crate::analysis) fn fast_retransmits_left(&self, st: &Active, mut holes: u128) -> u32 {
        debug_assert!(st.recover == NONE && !st.retransmit, "only at a round start");
        let k = self.q.dupthresh;
        let mut window = self.usable(f64::from_bits(st.cwnd));
        let (mut high, mut dupacks, mut count) = (st.high, st.dupacks, 0);
        while dupacks < k && high + (k - dupacks) <= window {
            count += 1;
            let fast_retransmit_high = high + (k - dupacks);
            high = if holes == 0 {
                1
            } else {
                let jump = holes.trailing_zeros();
                holes = (holes >> jump) & !1;
                fast_retransmit_high - jump
            };
            window = window.div_ceil(2);
            dupacks = 0;
        }
        count
    }

    fn usable(&self, cwnd: f64) -> u32 {
        // W >= 1 always; truncation is the floor.
        (cwnd as u32).min(self.q.wmax)
    }

    pub(in crate::analysis) fn finish(&mut self, ending: Ending, channel: usize, acc: &Rewards) {
        let id = self.shared.id((ending, channel));
        self.add_to(id, acc);
    }

    /// Nothing can be sent and no ACK can come: idle until the timer fires `deadline` slots on.
    fn idle_to_timeout(&mut self, t: u32, channel: u8, deadline: i32, ssthresh: u32, freed: u32, acc: &Rewards) {
        debug_assert!(deadline >= 0, "a stalled sender always has a timer");
        let last = t + deadline as u32; // the slot at whose end the timer fires
        let power = self.step_powers[deadline as usize + 1];
        for (end, &p) in power[channel as usize].iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            let mut a = scaled(acc, p);
            let prob = a[PROBABILITY];
            credit(&mut a, SLOTS, prob, f64::from(last));
            credit(&mut a, DELIVERED, prob, f64::from(freed));
            self.finish(Ending::Timeout { ssthresh }, end, &a);
        }
    }
}

/// Phase 2 for both channel states of the loss slot: every way it can end, with its rewards.
pub fn explore(ch: &SlotMatrices, q: &Phase2Query) -> Result<Vec<Outcome>> {
    q.validate()?;
    let step_powers = powers(&ch.step(), q.rto as usize + 1);
    let mut shared = Shared::default();
    let mut ex = Explorer::new(q, ch, &step_powers, &mut shared);
    let rto = q.rto as i32;
    let mut live = Frontier::default();
    for s0 in 0..2u8 {
        let mut acc = [[0.0; 2]; REWARDS];
        acc[PROBABILITY][s0 as usize] = 1.0;
        let start = Active {
            channel: s0,
            pre: true,
            cwnd: 0,
            ssthresh: 0,
            dupacks: 0,
            recover: NONE,
            retransmit: false,
            // Sent at slot 0, the timer fires at the end of slot T0 - 1: T0 - 2 slots after slot 1.
            deadline: rto - 2,
            high: 1,
            held: 0,
        };
        live.add(start, acc);
    }
    ex.run(live)?;
    Ok(ex.into_outcomes())
}

impl Explorer<'_> {
    /// The endings reached, in a fixed order.
    pub(in crate::analysis) fn into_outcomes(mut self) -> Vec<Outcome> {
        let reached = self.reached();
        let endings = &self.shared.endings;
        let mut outcomes: Vec<Outcome> = (reached.into_iter())
            .map(|(id, rewards)| Outcome { ending: endings[id].0, channel_state: endings[id].1, rewards })
            .collect();
        outcomes.sort_by_key(|o| (o.ending, o.channel_state));
        outcomes
    }
}

/// The live states of one slot: merged by state, rewards kept apart from the index so that growing
/// the hash table moves 4-byte slots, not 144-byte reward blocks.
#[derive(Default)]
pub(in crate::analysis) struct Frontier {
    index: HashMap<Active, u32>,
    pub(in crate::analysis) states: Vec<Active>,
    pub(in crate::analysis) rewards: Vec<Rewards>,
}

impl Frontier {
    pub(in crate::analysis) fn add(&mut self, state: Active, acc: Rewards) {
        match self.index.get(&state) {
            Some(&i) => add_rewards(&mut self.rewards[i as usize], &acc),
            None => {
                self.index.insert(state, self.states.len() as u32);
                self.states.push(state);
                self.rewards.push(acc);
            }
        }
    }

    fn clear(&mut self) {
        self.index.clear();
        self.states.clear();
        self.rewards.clear();
    }
}

impl Explorer<'_> {
    fn step_active(&mut self, t: u32, st: Active, acc: &Rewards, next: &mut Frontier) {
        let k = self.q.dupthresh;
        let q = *self.q;
        let cwnd = f64::from_bits(st.cwnd);
        let usable = if st.pre { q.window } else { self.usable(cwnd) };
        let halve = |pre: bool, w: f64| if pre { q.next_ssthresh } else { ceil_half(w) };
        let seq = if st.retransmit {
            0
        } else if st.high < usable {
            st.high
        } else {
            let freed = run_after_una(st.held);
            self.idle_to_timeout(t, st.channel, st.deadline, halve(st.pre, cwnd), freed, acc);
            return;
        };
        for (ok, to, mut a, prob) in sends(self.ch, st.channel, acc) {
            let mut s = st;
            s.channel = to as u8;
            if seq == 0 && s.retransmit {
                s.retransmit = false;
            }
            s.high = s.high.max(seq + 1);
            if s.deadline < 0 {
                s.deadline = q.rto as i32 - 1;
            }
            if ok {
                credit(&mut a, SUCCESSES, prob, 1.0);
                let acked = if seq == 0 { 1 + run_after_una(s.held) } else { 0 };
                if acked == 0 {
                    s.held |= 1u128 << seq;
                    if s.high > 0 {
                        s.dupacks += 1;
                        if s.recover != NONE {
                            s.cwnd = (f64::from_bits(s.cwnd) + 1.0).to_bits();
                        } else if s.dupacks == k {
                            credit(&mut a, FAST_RETRANSMITS, prob, 1.0);
                            let ssthresh = f64::from(halve(s.pre, f64::from_bits(s.cwnd)));
                            s.pre = false;
                            s.ssthresh = ssthresh.to_bits();
                            s.cwnd = (ssthresh + f64::from(k)).to_bits();
                            s.retransmit = true;
                            s.recover = s.high;
                        }
                    }
                } else {
                    credit(&mut a, DELIVERED, prob, f64::from(acked));
                    let full_ack = s.recover != NONE && acked >= s.recover;
                    s.held = s.held.checked_shr(acked).unwrap_or(0);
                    s.high -= acked;
                    if s.recover == NONE {
                        debug_assert!(!s.pre, "no new ACK can come before the loss is detected");
                        s.dupacks = 0;
                        let w = f64::from_bits(s.cwnd);
                        let ssthresh = f64::from_bits(s.ssthresh);
                        let grown = if w < ssthresh { w + 1.0 } else { w + 1.0 / w };
                        s.cwnd = grown.min(f64::from(q.wmax)).to_bits();
                    } else if q.recovery == FastRecovery::Reno || full_ack {
                        s.cwnd = s.ssthresh;
                        s.recover = NONE;
                        s.dupacks = 0;
                    } else {
                        s.recover -= acked;
                        s.retransmit = true;
                        s.cwnd = (f64::from_bits(s.cwnd) - f64::from(acked) + 1.0).max(1.0).to_bits();
                    }
                    // Restarted at the end of this slot: fires at the end of slot t + T0.
                    s.deadline = if s.high > 0 { q.rto as i32 } else { -1 };
                }
            } else if st.pre {
                credit(&mut a, LOSSES_AT_Y, prob, 1.0);
            } else {
                credit(&mut a, LOSSES_OTHER, prob, 1.0);
                credit(&mut a, CWND_AT_LOSS, prob, cwnd);
            }
            if s.deadline == 0 {
                // The timer fires at the end of this slot.
                credit(&mut a, SLOTS, prob, f64::from(t));
                credit(&mut a, DELIVERED, prob, f64::from(run_after_una(s.held)));
                self.finish(Ending::Timeout { ssthresh: halve(s.pre, f64::from_bits(s.cwnd)) }, to, &a);
                continue;
            }
            if s.high == 0 && s.recover == NONE && !s.retransmit {
                credit(&mut a, SLOTS, prob, f64::from(t));
                let ending = Ending::Clean { ssthresh: f64::from_bits(s.ssthresh) as u32, cwnd_bits: s.cwnd };
                self.finish(ending, to, &a);
                continue;
            }
            if s.deadline > 0 {
                s.deadline -= 1;
            }
            if s.recover != NONE && !s.retransmit {
                // The retransmission of una was lost: doomed to the timer.
                self.doom_counting(t, &s, true, a, prob);
            } else {
                next.add(s, a);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::query::{total_probability, TRANSMISSIONS};
    use super::*;

    fn markov(p: f64, q: f64) -> SlotMatrices {
        // Papers' losses: good always gets through, bad always loses.
        SlotMatrices { success: [[p, 0.0], [1.0 - q, 0.0]], failure: [[0.0, 1.0 - p], [0.0, q]] }
    }

    fn query(recovery: FastRecovery, window: u32, next_ssthresh: u32) -> Phase2Query {
        Phase2Query { recovery, wmax: 24, dupthresh: 3, rto: 100, window, next_ssthresh }
    }

    #[test]
    fn outcomes_are_a_distribution_for_both_start_states() {
        let ch = markov(0.9, 0.3);
        for recovery in [FastRecovery::Reno, FastRecovery::NewReno] {
            for (m, h) in [(1, 1), (4, 2), (5, 3), (12, 6), (24, 12)] {
                let total = total_probability(&explore(&ch, &query(recovery, m, h)).unwrap());
                assert!((total[0] - 1.0).abs() < 1e-12 && (total[1] - 1.0).abs() < 1e-12, "{total:?}");
            }
        }
    }

    #[test]
    fn a_window_too_small_for_k_duplicates_always_times_out_after_t0_minus_1_slots() {
        // ⌊Y⌋ - 1 = 3 packets after the loss, K = 3: fast retransmit only if all three get through.
        let ch = markov(0.8, 0.5);
        let out = explore(&ch, &query(FastRecovery::Reno, 3, 2)).unwrap();
        for o in out.iter().filter(|o| matches!(o.ending, Ending::Timeout { .. })) {
            assert_eq!(o.ending, Ending::Timeout { ssthresh: 2 });
            for s0 in 0..2 {
                assert!((o.rewards[SLOTS][s0] - 99.0 * o.rewards[PROBABILITY][s0]).abs() < 1e-9);
                assert!((o.rewards[TRANSMISSIONS][s0] - 2.0 * o.rewards[PROBABILITY][s0]).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn a_single_loss_then_k_successes_recovers_cleanly() {
        // p = 1, q = 0: after the loss (bad state) every slot is good.
        let ch = markov(1.0, 0.0);
        let out = explore(&ch, &query(FastRecovery::Reno, 10, 5)).unwrap();
        let clean: Vec<_> = out.iter().filter(|o| o.rewards[PROBABILITY][1] > 0.0).collect();
        assert_eq!(clean.len(), 1);
        let o = clean[0];
        assert_eq!(o.ending, Ending::Clean { ssthresh: 5, cwnd_bits: 5.0f64.to_bits() });
        // Slots 1-3 carry new packets (3 duplicate ACKs: fast retransmit at the end of slot 3, Wth = 5,
        // W = 8), slot 4 the retransmission, whose ACK covers packets 0-3: clean, W = Wth = 5.
        assert_eq!(o.rewards[SLOTS][1], 4.0);
        assert_eq!(o.rewards[TRANSMISSIONS][1], 4.0);
        assert_eq!(o.rewards[SUCCESSES][1], 4.0);
        assert_eq!(o.rewards[DELIVERED][1], 4.0);
        assert_eq!(o.rewards[FAST_RETRANSMITS][1], 1.0);
    }

    #[test]
    fn rejects_bad_queries() {
        let ch = markov(0.9, 0.3);
        let mut q = query(FastRecovery::NewReno, 4, 2);
        q.rto = 24;
        assert!(explore(&ch, &q).is_err());
        let mut q = query(FastRecovery::NewReno, 25, 2);
        q.wmax = 24;
        assert!(explore(&ch, &q).is_err());
    }
}
