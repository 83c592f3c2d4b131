//! Phase 2 of Reno and NewReno, exactly: from a loss to its detection and recovery.
//!
//! Phase 2 starts with the loss of the first unacknowledged packet (slot 0) at window Y, with
//! nothing else outstanding and nothing held by the receiver beyond it (a "fresh" loss window;
//! docs/models.md says when that is exact). It ends at the first instant the sender is clean again
//! (everything sent acknowledged, no recovery in progress) or at a timeout. Unlike Tahoe, what
//! happens depends on *which* packets were lost, not only how many: the ACK of a retransmission
//! jumps to the next hole, Reno leaves recovery on it, NewReno deflates W by the jump. So this is a
//! forward recursion over slots whose state is the whole protocol state: the window, the
//! threshold, the duplicate-ACK count, the recovery point, a pending retransmission, the timer,
//! and the set of packets the receiver holds, all relative to the first unacknowledged packet.
//! States that agree are merged, carrying probability and expected rewards for both channel
//! states of slot 0 at once.
//!
//! One reduction keeps the state space small: once the retransmission of the first unacknowledged
//! packet is lost while in recovery, nothing can resend it before the timer fires (Reno resends
//! only on the K-th duplicate ACK, which recovery ignores; NewReno only on a partial ACK, which needs
//! that packet). From then on only counts matter, so such a "doomed" state forgets which packets
//! are held except whether the run right after the hole is still unbroken.
//!
//! Rules (BRIEF D1-D4, as in docs/models.md "TCP endpoints"): one packet per slot, a pending
//! retransmission first, else the next new packet if high < una + min(⌊W⌋, Wmax); a correct
//! packet's ACK is back at the end of its slot, then the timer is checked. New ACK outside
//! recovery: W += 1 below Wth, else 1/W, capped at Wmax. K-th duplicate ACK: Wth = ⌈W/2⌉,
//! W = Wth + K, retransmit, recover = high. Duplicate in recovery: W += 1. New ACK in recovery:
//! Reno exits (W = Wth); NewReno exits if it covers `recover`, else retransmits the new first
//! unacknowledged packet and sets W = max(W - acked + 1, 1). Timer: started by a send when none
//! runs (fires at the end of slot t + T0 - 1), restarted by a new ACK at the end of slot t (fires
//! at the end of slot t + T0), stopped when nothing is outstanding. Timeout: Wth = ⌈W/2⌉ and the
//! next cycle starts with W = 1.
use super::{powers, row_times, SlotMatrices, WordSums, IDENTITY};
use crate::check;
use crate::error::{Error, Result};
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

/// Largest receiver window the analysis takes: positions relative to una fit a 128-bit mask.
pub const MAX_WMAX: u32 = 128;

/// Which fast-recovery rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FastRecovery {
    /// The first ACK of new data ends recovery.
    Reno,
    /// Only an ACK covering the recovery point ends it; partial ACKs retransmit (RFC 6582).
    NewReno,
}

/// The question: phase 2 for a loss at window Y with ⌊Y⌋ = `window` and ⌈Y/2⌉ = `next_ssthresh`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Phase2Query {
    /// Reno or NewReno.
    pub recovery: FastRecovery,
    /// Receiver window Wmax (at most [`MAX_WMAX`]: the held set is a 128-bit mask).
    pub wmax: u32,
    /// Duplicate-ACK threshold K.
    pub dupthresh: u32,
    /// Timeout T0 in slots (> Wmax).
    pub rto: u32,
    /// ⌊Y⌋: the lost packet and ⌊Y⌋ - 1 more may be sent before recovery.
    pub window: u32,
    /// ⌈Y/2⌉: the threshold a detection sets.
    pub next_ssthresh: u32,
}

impl Phase2Query {
    pub(super) fn validate(&self) -> Result<()> {
        check::int_in("wmax", u64::from(self.wmax), 1, u64::from(MAX_WMAX))?;
        check::int_in("dupthresh", u64::from(self.dupthresh), 1, 1 << 20)?;
        check::int_in("window", u64::from(self.window), 1, u64::from(self.wmax))?;
        check::int_in("next_ssthresh", u64::from(self.next_ssthresh), 1, u64::from(self.wmax))?;
        if self.rto <= self.wmax {
            return Err(Error::invalid("rto", self.rto, &format!("must be > wmax (= {})", self.wmax)));
        }
        Ok(())
    }
}

/// How phase 2 ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// The timer fired; the next cycle starts with W = 1 and this threshold.
    Timeout {
        /// Wth for the next cycle.
        ssthresh: u32,
    },
    /// Everything acknowledged, recovery over; the next cycle starts clean with these.
    Clean {
        /// Wth for the next cycle.
        ssthresh: u32,
        /// W for the next cycle (bits of the f64).
        cwnd_bits: u64,
    },
}

/// Reward slots, per channel state of slot 0 (index 0 = good, 1 = bad).
pub const PROBABILITY: usize = 0;
/// Slots after the loss, up to the end of phase 2 (N_d).
pub const SLOTS: usize = 1;
/// Transmissions (N_t).
pub const TRANSMISSIONS: usize = 2;
/// Correct transmissions (the optimistic N_s).
pub const SUCCESSES: usize = 3;
/// Packets certainly delivered once (the pessimistic N_s): the ones acknowledged, plus at a
/// timeout the unbroken run held right after the hole, which the next good retransmission frees.
pub const DELIVERED: usize = 4;
/// Losses while W is still the window Y of the loss (weighted by Y by the caller).
pub const LOSSES_AT_Y: usize = 5;
/// Other losses.
pub const LOSSES_OTHER: usize = 6;
/// Sum of W over the other losses.
pub const CWND_AT_LOSS: usize = 7;
/// Fast retransmits.
pub const FAST_RETRANSMITS: usize = 8;
/// Number of reward slots.
pub const REWARDS: usize = 9;

/// Expected rewards, for each channel state of slot 0.
pub type Rewards = [[f64; 2]; REWARDS];

/// One way phase 2 ends: the ending, the channel state of its last slot, and the expected rewards
/// over the paths that end so (with their probability in `rewards[PROBABILITY]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// Channel state of the last slot of phase 2.
    pub channel_state: usize,
    /// Expected rewards times the indicator of this outcome.
    pub rewards: Rewards,
}

pub(super) const NONE: u32 = u32::MAX;

/// Protocol state with positions relative to the first unacknowledged packet (una = 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Active {
    pub(super) channel: u8,
    /// W is still the Y of the loss (only ⌊Y⌋ and ⌈Y/2⌉ matter until a detection).
    pub(super) pre: bool,
    pub(super) cwnd: u64,
    pub(super) ssthresh: u64,
    pub(super) dupacks: u32,
    /// Recovery point relative to una, or NONE.
    pub(super) recover: u32,
    /// A retransmission of una is pending.
    pub(super) retransmit: bool,
    /// Slots from now to the end of the slot at which the timer fires (-1: no timer).
    pub(super) deadline: i32,
    /// high - una.
    pub(super) high: u32,
    /// Bit b: the receiver holds una + b.
    pub(super) held: u128,
}

impl Active {
    /// Reno right after a partial ACK ended recovery: W = Wth, no duplicate ACK yet, the timer restarted at the
    /// end of this slot (it fires T0 slots on), `high` packets outstanding and `held` of them held.
    pub(super) fn round_start(channel: u8, ssthresh: u32, rto: u32, high: u32, held: u128) -> Self {
        let wth = f64::from(ssthresh).to_bits();
        Active {
            channel,
            pre: false,
            cwnd: wth,
            ssthresh: wth,
            dupacks: 0,
            recover: NONE,
            retransmit: false,
            deadline: rto as i32 - 1,
            high,
            held,
        }
    }
}

/// Nothing can resend una before the timer, so only counts matter until it fires: in recovery with
/// the retransmission of una lost, or (Reno, outside recovery) with too little room left for K
/// duplicate ACKs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Doomed {
    pub(super) channel: u8,
    /// In recovery: each duplicate ACK inflates W by one. Outside it W stays put.
    pub(super) recovering: bool,
    pub(super) cwnd: u64,
    pub(super) outstanding: u32,
    /// Every packet after una is held so far (a correct new one extends the freed run).
    pub(super) unbroken: bool,
    pub(super) deadline: i32,
}

/// The rewards of a path times the probability `p` of its next step.
pub(super) fn scaled(acc: &Rewards, p: f64) -> Rewards {
    let mut a = *acc;
    for row in a.iter_mut() {
        row[0] *= p;
        row[1] *= p;
    }
    a
}

pub(super) fn add_rewards(dst: &mut Rewards, src: &Rewards) {
    for (d, s) in dst.iter_mut().zip(src) {
        d[0] += s[0];
        d[1] += s[1];
    }
}

/// Add `by` to reward `what` of a path whose probability (per start state) is `prob`.
pub(super) fn credit(a: &mut Rewards, what: usize, prob: [f64; 2], by: f64) {
    a[what][0] += prob[0] * by;
    a[what][1] += prob[1] * by;
}

/// The (correct?, next state, probability) branches of one slot from channel state `s`.
fn branches(ch: &SlotMatrices, s: usize) -> impl Iterator<Item = (bool, usize, f64)> {
    [
        (true, 0, ch.success[s][0]),
        (true, 1, ch.success[s][1]),
        (false, 0, ch.failure[s][0]),
        (false, 1, ch.failure[s][1]),
    ]
    .into_iter()
    .filter(|b| b.2 != 0.0)
}

/// One packet sent from channel state `from`: the four (correct?, next state) branches with nonzero
/// probability, each with the path's rewards scaled and the transmission counted.
fn sends(ch: &SlotMatrices, from: u8, acc: &Rewards) -> impl Iterator<Item = (bool, usize, Rewards, [f64; 2])> {
    let acc = *acc;
    branches(ch, from as usize).map(move |(ok, to, p)| {
        let mut a = scaled(&acc, p);
        let prob = a[PROBABILITY];
        credit(&mut a, TRANSMISSIONS, prob, 1.0);
        (ok, to, a, prob)
    })
}

pub(super) fn run_after_una(held: u128) -> u32 {
    (held >> 1).trailing_ones()
}

/// Endings (ids in [`Shared::endings`]) of a doomed state for a unit of probability, with their
/// expected rewards (slots counted from the slot in which it became doomed).
pub(super) type UnitOutcomes = Vec<(usize, [f64; REWARDS])>;

/// What explorations of one channel and parameters share: the doomed states' outcomes (many paths,
/// and many window classes, reach the same one) and an id per (ending, channel state), so that
/// outcomes add up in dense arrays rather than through a hash per path.
#[derive(Default)]
pub(super) struct Shared {
    doomed: HashMap<Doomed, UnitOutcomes>,
    /// The loss-pattern sums the doomed stretches read, built on first use.
    word_sums: Option<Arc<WordSums>>,
    ids: HashMap<(Ending, usize), usize>,
    /// The ids of timeouts, at 2·Wth + channel state: most endings are timeouts, and a table is no hash.
    timeout_ids: Vec<usize>,
    endings: Vec<(Ending, usize)>,
}

impl Shared {
    pub(super) fn with_word_sums(sums: Arc<WordSums>) -> Self {
        Shared { word_sums: Some(sums), ..Shared::default() }
    }

    fn id(&mut self, key: (Ending, usize)) -> usize {
        let endings = &mut self.endings;
        if let Ending::Timeout { ssthresh } = key.0 {
            let slot = 2 * ssthresh as usize + key.1;
            if slot >= self.timeout_ids.len() {
                self.timeout_ids.resize(slot + 1, usize::MAX);
            }
            if self.timeout_ids[slot] == usize::MAX {
                endings.push(key);
                self.timeout_ids[slot] = endings.len() - 1;
            }
            return self.timeout_ids[slot];
        }
        *self.ids.entry(key).or_insert_with(|| {
            endings.push(key);
            endings.len() - 1
        })
    }
}

/// The outcomes of a doomed state: a sending stretch, then idle until the timer fires at the end of the slot
/// `deadline` + 1 slots on, with W grown by the stretch's successes when in recovery.
///
/// Until the timer the sender sends while fewer than min(⌊W⌋, Wmax) packets are outstanding; a correct
/// packet is a duplicate ACK (W += 1 in recovery) and frees one more if the run after una is unbroken; a
/// lost one breaks the run. With one packet a slot, outstanding grows by one a slot, so the stretch stops
/// after `cap` packets or, in recovery, at the loss that uses up the last of the room ⌊W⌋ − outstanding
/// (each correct packet adds as much room as it takes). So each way it stops is a set of loss patterns of
/// one length and one number of correct packets, and its rewards are the [`WordSums`] of that set: O(cap)
/// products per state rather than a recursion over (slot, losses).
#[inline(never)]
fn doomed_outcomes(
    q: &Phase2Query,
    ch: &SlotMatrices,
    step_powers: &[[[f64; 2]; 2]],
    st: &Doomed,
    shared: &mut Shared,
) -> UnitOutcomes {
    let w0 = f64::from_bits(st.cwnd);
    let last = st.deadline as u32 + 1;
    let room = (w0 as u32).saturating_sub(st.outstanding);
    let cap = q.wmax.saturating_sub(st.outstanding).min(last);
    let sums = shared.word_sums.get_or_insert_with(|| Arc::new(WordSums::new(ch, q.wmax as usize))).clone();
    let (s, unbroken) = (st.channel as usize, f64::from(u8::from(st.unbroken)));
    // (packets sent, W's growth: its successes in recovery, rewards per channel state after the last packet),
    // per unit of probability from channel state s: PROBABILITY, TRANSMISSIONS, SUCCESSES, DELIVERED,
    // LOSSES_OTHER, and in CWND_AT_LOSS the successes before each loss (W at a loss is w0 plus those).
    let mut stops: Vec<(u32, u32, [[f64; 2]; REWARDS])> = Vec::new();
    // `correct`: the successes per unit of probability times the probability, per end state.
    let mut stop = |sent: u32, grown: u32, words: [f64; 2], correct: [f64; 2], run: [f64; 2], before: [f64; 2]| {
        let mut a = [[0.0; 2]; REWARDS];
        for (e, p) in words.into_iter().enumerate() {
            a[PROBABILITY][e] = p;
            a[TRANSMISSIONS][e] = p * f64::from(sent);
            a[SUCCESSES][e] = correct[e];
            a[LOSSES_OTHER][e] = p * f64::from(sent) - correct[e];
            a[DELIVERED][e] = run[e] * unbroken;
            a[CWND_AT_LOSS][e] = before[e];
        }
        stops.push((sent, grown, a));
    };
    let times = |row: [f64; 2], by: u32| row.map(|v| v * f64::from(by));
    if st.recovering {
        let room = room.min(cap);
        if room == 0 {
            stop(0, 0, IDENTITY[s], [0.0; 2], [0.0; 2], [0.0; 2]);
        } else {
            // Stopped by the loss that uses up the room: n − 1 packets with room − 1 losses, then a loss.
            for n in room..=cap {
                let i = WordSums::at((n - 1) as usize, (n - room) as usize);
                let mut before = sums.successes_before_losses[i][s];
                for (b, w) in before.iter_mut().zip(sums.words[i][s]) {
                    *b += f64::from(n - room) * w;
                }
                let words = row_times(sums.words[i][s], &ch.failure);
                let run = row_times(sums.leading_run[i][s], &ch.failure);
                stop(n, n - room, words, times(words, n - room), run, row_times(before, &ch.failure));
            }
            // Stopped at the cap with room to spare.
            for losses in 0..room {
                let i = WordSums::at(cap as usize, (cap - losses) as usize);
                let (words, before) = (sums.words[i][s], sums.successes_before_losses[i][s]);
                stop(cap, cap - losses, words, times(words, cap - losses), sums.leading_run[i][s], before);
            }
        }
    } else {
        // W stays put: the stretch always sends min(cap, room) packets; its rewards sum over the correct count.
        let sent = cap.min(room);
        let (mut words, mut correct, mut run) = ([0.0; 2], [0.0; 2], [0.0; 2]);
        for c in 0..=sent {
            let i = WordSums::at(sent as usize, c as usize);
            for (e, (p, r)) in sums.words[i][s].iter().zip(sums.leading_run[i][s]).enumerate() {
                words[e] += p;
                correct[e] += p * f64::from(c);
                run[e] += r;
            }
        }
        stop(sent, 0, words, correct, run, [0.0; 2]);
    }
    // The endings by (ssthresh, end state), ssthresh from ⌈w0/2⌉ on: positions in `out`.
    let lowest = ceil_half(w0);
    let mut position = vec![usize::MAX; 2 * (ceil_half(w0 + f64::from(cap)) - lowest + 1) as usize];
    let mut out: UnitOutcomes = Vec::new();
    for (sent, grown, stop) in &stops {
        let ssthresh = ceil_half(w0 + f64::from(*grown));
        let idle = &step_powers[(last - sent) as usize];
        for (end, at) in position[2 * (ssthresh - lowest) as usize..][..2].iter_mut().enumerate() {
            let mut a = [0.0; REWARDS];
            for (what, row) in stop.iter().enumerate() {
                a[what] = row[0] * idle[0][end] + row[1] * idle[1][end];
            }
            if a[PROBABILITY] == 0.0 {
                continue;
            }
            a[SLOTS] = a[PROBABILITY] * f64::from(last);
            a[CWND_AT_LOSS] += w0 * a[LOSSES_OTHER];
            if *at == usize::MAX {
                *at = out.len();
                out.push((shared.id((Ending::Timeout { ssthresh }, end)), a));
            } else {
                out[*at].1.iter_mut().zip(&a).for_each(|(d, v)| *d += v);
            }
        }
    }
    out
}

/// Add `acc` to the ending with id `id` of `out` (rewards per ending id, and whether it was reached).
fn add_outcome(out: &mut Vec<(bool, Rewards)>, id: usize, acc: &Rewards) {
    if id >= out.len() {
        out.resize(id + 1, (false, [[0.0; 2]; REWARDS]));
    }
    let (reached, sum) = &mut out[id];
    *reached = true;
    add_rewards(sum, acc);
}

pub(super) struct Explorer<'a> {
    pub(super) q: &'a Phase2Query,
    pub(super) ch: &'a SlotMatrices,
    /// M^n for n = 0..=rto + 1.
    pub(super) step_powers: &'a [[[f64; 2]; 2]],
    /// Rewards per ending id, and whether the ending was reached.
    out: Vec<(bool, Rewards)>,
    shared: &'a mut Shared,
    /// Paths that became doomed, merged by doomed state (slots so far in their rewards): each
    /// state's endings are added once, not once per path.
    pending: HashMap<Doomed, Rewards>,
}

impl<'a> Explorer<'a> {
    pub(super) fn new(
        q: &'a Phase2Query,
        ch: &'a SlotMatrices,
        step_powers: &'a [[[f64; 2]; 2]],
        shared: &'a mut Shared,
    ) -> Self {
        Explorer { q, ch, step_powers, out: Vec::new(), shared, pending: HashMap::default() }
    }

    /// The endings reached, by id, with their rewards.
    pub(super) fn reached(&mut self) -> Vec<(usize, Rewards)> {
        self.resolve_pending();
        (self.out.iter().enumerate()).filter(|(_, (reached, _))| *reached).map(|(id, (_, r))| (id, *r)).collect()
    }

    /// Add `acc` to the ending with id `id`.
    pub(super) fn add_to(&mut self, id: usize, acc: &Rewards) {
        add_outcome(&mut self.out, id, acc);
    }
}

impl Explorer<'_> {
    /// Step the frontier slot by slot until every path has ended (slots counted from 1).
    pub(super) fn run(&mut self, mut live: Frontier) -> Result<()> {
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
    pub(super) fn doom_counting(&mut self, t: u32, st: &Active, recovering: bool, mut acc: Rewards, prob: [f64; 2]) {
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
    pub(super) fn doom(&mut self, t: u32, st: Doomed, acc: &Rewards) {
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
    pub(super) fn fast_retransmits_left(&self, st: &Active, mut holes: u128) -> u32 {
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

    pub(super) fn finish(&mut self, ending: Ending, channel: usize, acc: &Rewards) {
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

/// The holes after una (bit b: una + b), up to high.
pub(super) fn holes_after_una(st: &Active) -> u128 {
    let span = if st.high >= 128 { u128::MAX } else { (1u128 << st.high) - 1 };
    !st.held & span & !1
}

/// The part of a Reno sender's held set that can still matter, outside the first recovery, with
/// `fast_retransmits_left` more fast retransmits possible at most.
///
/// Una is a hole, and outside recovery only a fast retransmit resends it (no new ACK can come, so W
/// stays put). A successful retransmission moves una to the next hole; everything else that ends
/// phase 2 (the timer, a lost retransmission, a full ACK) reads only the run held after una. So
/// with f fast retransmits still possible, the first f + 1 holes after una are all that any ACK
/// can reveal: packets held beyond them are dropped, and the paths that differ only there merge.
/// This keeps the states polynomial in Wmax (docs/models.md, "Reno after a partial ACK"); the
/// outcomes are the explorer's, and a test checks them against it class by class.
pub(super) fn readable(st: &Active, holes: u128, fast_retransmits_left: u32) -> u128 {
    let mut keep = holes;
    for _ in 0..fast_retransmits_left {
        if keep == 0 {
            return st.held;
        }
        keep &= keep - 1;
    }
    if keep == 0 {
        return st.held;
    }
    st.held & ((1u128 << keep.trailing_zeros()) - 1)
}

pub(super) fn ceil_half(cwnd: f64) -> u32 {
    (cwnd / 2.0).ceil() as u32
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
    pub(super) fn into_outcomes(mut self) -> Vec<Outcome> {
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
pub(super) struct Frontier {
    index: HashMap<Active, u32>,
    pub(super) states: Vec<Active>,
    pub(super) rewards: Vec<Rewards>,
}

impl Frontier {
    pub(super) fn add(&mut self, state: Active, acc: Rewards) {
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

/// Sum of probabilities over outcomes, per channel state of slot 0 (1 when nothing leaked).
pub fn total_probability(outcomes: &[Outcome]) -> [f64; 2] {
    outcomes.iter().fold([0.0; 2], |t, o| [t[0] + o.rewards[PROBABILITY][0], t[1] + o.rewards[PROBABILITY][1]])
}

#[cfg(test)]
mod tests {
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

    /// A doomed sender followed slot by slot, straight from the rules: send while fewer than
    /// min(⌊W⌋, Wmax) are outstanding (W + 1 per correct packet when recovering), else idle; the timer
    /// fires at the end of slot `deadline` + 1. Returns (ssthresh, end channel) → unit rewards.
    fn doomed_by_slot(q: &Phase2Query, ch: &SlotMatrices, st: &Doomed) -> Vec<((u32, usize), [f64; REWARDS])> {
        let mut out: Vec<((u32, usize), [f64; REWARDS])> = Vec::new();
        let mut add = |key: (u32, usize), a: &[f64; REWARDS]| match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, acc)) => acc.iter_mut().zip(a).for_each(|(d, v)| *d += v),
            None => out.push((key, *a)),
        };
        // (cwnd, outstanding, unbroken, channel, rewards) at the start of slot t, equal states merged (the
        // 4^slots paths summed one by one would lose 1e-13 to rounding).
        type Live = Vec<(f64, u32, bool, usize, [f64; REWARDS])>;
        fn merge(live: &mut Live, w: f64, o: u32, u: bool, s: usize, a: [f64; REWARDS]) {
            match live.iter_mut().find(|x| (x.0, x.1, x.2, x.3) == (w, o, u, s)) {
                Some(x) => x.4.iter_mut().zip(&a).for_each(|(d, v)| *d += v),
                None => live.push((w, o, u, s, a)),
            }
        }
        let mut acc = [0.0; REWARDS];
        acc[PROBABILITY] = 1.0;
        let mut live: Live = vec![(f64::from_bits(st.cwnd), st.outstanding, st.unbroken, st.channel as usize, acc)];
        for t in 1..=st.deadline as u32 + 1 {
            let mut next = Vec::new();
            for (w, out_now, unbroken, s, acc) in live {
                if out_now >= (w as u32).min(q.wmax) {
                    // Idle for the rest: the channel moves, nothing else happens.
                    let m = powers(&ch.step(), (st.deadline as u32 + 2 - t) as usize);
                    for (end, &p) in m.last().unwrap()[s].iter().enumerate() {
                        let mut a = acc.map(|v| v * p);
                        a[SLOTS] = a[PROBABILITY] * f64::from(st.deadline as u32 + 1);
                        add((ceil_half(w), end), &a);
                    }
                    continue;
                }
                for (ok, to, p) in branches(ch, s) {
                    let mut a = acc.map(|v| v * p);
                    a[TRANSMISSIONS] += a[PROBABILITY];
                    let (mut w2, mut unbroken2) = (w, unbroken);
                    if ok {
                        a[SUCCESSES] += a[PROBABILITY];
                        a[DELIVERED] += a[PROBABILITY] * f64::from(u8::from(unbroken));
                        if st.recovering {
                            w2 += 1.0;
                        }
                    } else {
                        a[LOSSES_OTHER] += a[PROBABILITY];
                        a[CWND_AT_LOSS] += a[PROBABILITY] * w;
                        unbroken2 = false;
                    }
                    if t == st.deadline as u32 + 1 {
                        a[SLOTS] = a[PROBABILITY] * f64::from(t);
                        add((ceil_half(w2), to), &a);
                    } else {
                        merge(&mut next, w2, out_now + 1, unbroken2, to, a);
                    }
                }
            }
            live = next;
        }
        out
    }

    #[test]
    fn doomed_outcomes_equal_the_slot_by_slot_rules() {
        // Errors in both states; W below, at and above the outstanding count; timers that fire before,
        // at and after the window fills; in and out of recovery.
        let ch = SlotMatrices { success: [[0.85, 0.04], [0.2, 0.3]], failure: [[0.03, 0.08], [0.1, 0.4]] };
        let recovery = FastRecovery::Reno;
        let q = Phase2Query { recovery, wmax: 9, dupthresh: 3, rto: 20, window: 9, next_ssthresh: 5 };
        let step_powers = powers(&ch.step(), q.rto as usize + 1);
        let mut shared = Shared::default();
        for recovering in [true, false] {
            for (cwnd, outstanding) in [(5.0, 2), (4.0, 4), (7.0, 3), (12.0, 1), (3.0, 5)] {
                for deadline in [0, 1, 3, 8, 15] {
                    for (channel, unbroken) in [(0, true), (1, false), (1, true)] {
                        let cwnd = f64::to_bits(cwnd);
                        let st = Doomed { channel, recovering, cwnd, outstanding, unbroken, deadline };
                        let got = doomed_outcomes(&q, &ch, &step_powers, &st, &mut shared);
                        let want = doomed_by_slot(&q, &ch, &st);
                        assert_eq!(got.len(), want.len(), "{st:?}");
                        for (id, acc) in &got {
                            let (ending, end) = shared.endings[*id];
                            let Ending::Timeout { ssthresh } = ending else { panic!("{ending:?}") };
                            let (_, w) = want.iter().find(|(k, _)| *k == (ssthresh, end)).expect("same endings");
                            for (r, (x, y)) in acc.iter().zip(w).enumerate() {
                                let why = format!("{st:?} {ending:?} {end} reward {r}: {x} against {y}");
                                assert!((x - y).abs() <= 1e-13 * (1.0 + y.abs()), "{why}");
                            }
                        }
                    }
                }
            }
        }
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
