//! The doomed states of phase 2 (the reduction in the doc of [`super`]; docs/models.md, "Reno and NewReno"): once
//! nothing can resend the first unacknowledged packet before the timer only counts matter, and each doomed state's
//! endings are summed over its loss patterns at once. Also what explorations of one channel and parameters share,
//! the doomed states' outcomes among it.

use super::query::{
    Ending, Phase2Query, CWND_AT_LOSS, DELIVERED, LOSSES_OTHER, PROBABILITY, REWARDS, SLOTS, SUCCESSES, TRANSMISSIONS,
};
use super::state::{ceil_half, Doomed};
use crate::analysis::{row_times, SlotMatrices, WordSums, IDENTITY};
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

/// Endings (ids in [`Shared::endings`]) of a doomed state for a unit of probability, with their
/// expected rewards (slots counted from the slot in which it became doomed).
pub(super) type UnitOutcomes = Vec<(usize, [f64; REWARDS])>;

/// What explorations of one channel and parameters share: the doomed states' outcomes (many paths,
/// and many window classes, reach the same one) and an id per (ending, channel state), so that
/// outcomes add up in dense arrays rather than through a hash per path.
#[derive(Default)]
pub(in crate::analysis) struct Shared {
    pub(super) doomed: HashMap<Doomed, UnitOutcomes>,
    /// The loss-pattern sums the doomed stretches read, built on first use.
    word_sums: Option<Arc<WordSums>>,
    ids: HashMap<(Ending, usize), usize>,
    /// The ids of timeouts, at 2·Wth + channel state: most endings are timeouts, and a table is no hash.
    timeout_ids: Vec<usize>,
    pub(super) endings: Vec<(Ending, usize)>,
}

impl Shared {
    pub(in crate::analysis) fn with_word_sums(sums: Arc<WordSums>) -> Self {
        Shared { word_sums: Some(sums), ..Shared::default() }
    }

    pub(super) fn id(&mut self, key: (Ending, usize)) -> usize {
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
pub(super) fn doomed_outcomes(
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

#[cfg(test)]
mod tests {
    use super::super::query::FastRecovery;
    use super::super::state::branches;
    use super::*;
    use crate::analysis::powers;

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
}
