//! The state of one path of phase 2 (BRIEF D1-D4, docs/models.md "Reno and NewReno"): the protocol state relative
//! to the first unacknowledged packet, or a doomed path's counts; what the held set can still reveal; and the
//! arithmetic of a path's rewards.

use super::query::{Rewards, PROBABILITY, TRANSMISSIONS};
use crate::analysis::SlotMatrices;

pub(super) const NONE: u32 = u32::MAX;

/// Protocol state with positions relative to the first unacknowledged packet (una = 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::analysis) struct Active {
    pub(in crate::analysis) channel: u8,
    /// W is still the Y of the loss (only ⌊Y⌋ and ⌈Y/2⌉ matter until a detection).
    pub(in crate::analysis) pre: bool,
    pub(in crate::analysis) cwnd: u64,
    pub(in crate::analysis) ssthresh: u64,
    pub(in crate::analysis) dupacks: u32,
    /// Recovery point relative to una, or NONE.
    pub(in crate::analysis) recover: u32,
    /// A retransmission of una is pending.
    pub(in crate::analysis) retransmit: bool,
    /// Slots from now to the end of the slot at which the timer fires (-1: no timer).
    pub(in crate::analysis) deadline: i32,
    /// high - una.
    pub(in crate::analysis) high: u32,
    /// Bit b: the receiver holds una + b.
    pub(in crate::analysis) held: u128,
}

impl Active {
    /// Reno right after a partial ACK ended recovery: W = Wth, no duplicate ACK yet, the timer restarted at the
    /// end of this slot (it fires T0 slots on), `high` packets outstanding and `held` of them held.
    pub(in crate::analysis) fn round_start(channel: u8, ssthresh: u32, rto: u32, high: u32, held: u128) -> Self {
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
pub(in crate::analysis) struct Doomed {
    pub(in crate::analysis) channel: u8,
    /// In recovery: each duplicate ACK inflates W by one. Outside it W stays put.
    pub(in crate::analysis) recovering: bool,
    pub(in crate::analysis) cwnd: u64,
    pub(in crate::analysis) outstanding: u32,
    /// Every packet after una is held so far (a correct new one extends the freed run).
    pub(in crate::analysis) unbroken: bool,
    pub(in crate::analysis) deadline: i32,
}

/// The rewards of a path times the probability `p` of its next step.
pub(in crate::analysis) fn scaled(acc: &Rewards, p: f64) -> Rewards {
    let mut a = *acc;
    for row in a.iter_mut() {
        row[0] *= p;
        row[1] *= p;
    }
    a
}

pub(in crate::analysis) fn add_rewards(dst: &mut Rewards, src: &Rewards) {
    for (d, s) in dst.iter_mut().zip(src) {
        d[0] += s[0];
        d[1] += s[1];
    }
}

/// Add `by` to reward `what` of a path whose probability (per start state) is `prob`.
pub(in crate::analysis) fn credit(a: &mut Rewards, what: usize, prob: [f64; 2], by: f64) {
    a[what][0] += prob[0] * by;
    a[what][1] += prob[1] * by;
}

/// The (correct?, next state, probability) branches of one slot from channel state `s`.
pub(super) fn branches(ch: &SlotMatrices, s: usize) -> impl Iterator<Item = (bool, usize, f64)> {
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
pub(super) fn sends(
    ch: &SlotMatrices,
    from: u8,
    acc: &Rewards,
) -> impl Iterator<Item = (bool, usize, Rewards, [f64; 2])> {
    let acc = *acc;
    branches(ch, from as usize).map(move |(ok, to, p)| {
        let mut a = scaled(&acc, p);
        let prob = a[PROBABILITY];
        credit(&mut a, TRANSMISSIONS, prob, 1.0);
        (ok, to, a, prob)
    })
}

pub(in crate::analysis) fn run_after_una(held: u128) -> u32 {
    (held >> 1).trailing_ones()
}

/// The holes after una (bit b: una + b), up to high.
pub(in crate::analysis) fn holes_after_una(st: &Active) -> u128 {
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
pub(in crate::analysis) fn readable(st: &Active, holes: u128, fast_retransmits_left: u32) -> u128 {
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

pub(in crate::analysis) fn ceil_half(cwnd: f64) -> u32 {
    (cwnd / 2.0).ceil() as u32
}
