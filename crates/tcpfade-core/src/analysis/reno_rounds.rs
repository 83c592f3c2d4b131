//! Reno after a partial ACK that leaves room for new packets, a round at a time.
//!
//! Reno leaves recovery on the first partial ACK with W = Wth, una on the next hole and the packets after it
//! partly held (a "round start": no duplicate ACK yet, the timer just restarted). Until the next fast
//! retransmit no ACK of new data can come, so W stays put and the sender sends new packets, one a slot,
//! while fewer than W are outstanding; each correct one is a duplicate ACK. Whatever the held set, the round
//! then goes one of three ways (docs/models.md, "Reno after a partial ACK, round by round"):
//!
//! 1. fewer than K of the W − o new packets get through: the sender stalls until the timer;
//! 2. the K-th gets through at the n-th new packet: fast retransmit, and the retransmission of una is lost:
//!    doomed to the timer;
//! 3. the same, and the retransmission gets through: its ACK moves una to the next hole, Reno leaves recovery
//!    with W = ⌈W/2⌉, and the next round starts (or, with too little room for K duplicate ACKs, the sender
//!    sends what W allows and waits for the timer).
//!
//! The new packets' outcomes over n slots are sums over loss patterns ([`WordSums`]), so 1 and 2 read the
//! held set only through the run after una, and take one step per window, not one per slot. Only 3 needs
//! which new packets were lost, and only as far as the next round can read them ([`readable`]): the new
//! packets are enumerated until enough holes are known, and the rest summed. The slot-by-slot explorer
//! ([`super::fast_recovery`]) is the reference: the test of [`super::phase2`] compares the two class by
//! class.
use super::fast_recovery::{
    add_rewards, ceil_half, credit, holes_after_una, readable, run_after_una, scaled, Active, Doomed, Ending, Explorer,
    Frontier, Rewards, CWND_AT_LOSS, DELIVERED, FAST_RETRANSMITS, LOSSES_OTHER, PROBABILITY, REWARDS, SLOTS,
    SUCCESSES, TRANSMISSIONS,
};
use super::{row_times, WordSums};
use rustc_hash::FxHashMap as HashMap;

/// `acc` carried along paths of weight `w` (per unit of its probability), with `fixed` rewards per path.
fn extend(acc: &Rewards, w: f64, fixed: &[(usize, f64)]) -> Rewards {
    let mut a = scaled(acc, w);
    let prob = a[PROBABILITY];
    for &(what, by) in fixed {
        credit(&mut a, what, prob, by);
    }
    a
}

/// The packets freed for paths of weight `weight` from round starts bundled with Σ probability × run `runs`, and,
/// when every packet after una is held, the new packets' leading run `lead` (already weighted).
fn credit_runs(a: &mut Rewards, acc: &Rewards, runs: [f64; 2], weight: f64, lead: f64) {
    credit(a, DELIVERED, runs, weight);
    credit(a, DELIVERED, acc[PROBABILITY], lead);
}

/// The rewards of every path of a round whose K-th duplicate ACK comes with new packet n, up to the
/// retransmission of una in slot n + 1: through, or lost (`lost_at`: W then, in recovery).
fn detected_at(n: u32, k: u32, w0: f64, lost_at: Option<f64>) -> [(usize, f64); 5] {
    let lost = u32::from(lost_at.is_some());
    [
        (TRANSMISSIONS, f64::from(n + 1)),
        (SUCCESSES, f64::from(k + 1 - lost)),
        (LOSSES_OTHER, f64::from(n - k + lost)),
        (CWND_AT_LOSS, w0 * f64::from(n - k) + lost_at.unwrap_or(0.0)),
        (FAST_RETRANSMITS, 1.0),
    ]
}

/// Round starts summed where their outcomes agree but for a run of held packets that the ACKs free: the sum of
/// their rewards, and Σ probability × that run (per channel state of slot 0).
type Bundle = (Rewards, [f64; 2]);

fn gather<K: std::hash::Hash + Eq>(bundles: &mut HashMap<K, Bundle>, key: K, acc: &Rewards, run: u32) {
    let (sum, runs) = bundles.entry(key).or_insert(([[0.0; 2]; REWARDS], [0.0; 2]));
    add_rewards(sum, acc);
    runs[0] += acc[PROBABILITY][0] * f64::from(run);
    runs[1] += acc[PROBABILITY][1] * f64::from(run);
}

/// Play the rounds from the round starts in `live` until every path has ended.
pub(super) fn continue_reno_rounds(ex: &mut Explorer<'_>, sums: &WordSums, mut live: Frontier) {
    let k = ex.q.dupthresh;
    while !live.states.is_empty() {
        let mut next = Frontier::default();
        // Outcomes 1 and 2 read only the run after una, and whether it reaches the last packet sent:
        // by (channel state, packets outstanding, all held, W).
        let mut stalls: HashMap<(u8, u32, bool, u64), Bundle> = HashMap::default();
        // Outcome 3 with too little room left for the next round, una moving to a hole of the round start:
        // by (channel state, packets outstanding, the hole, all held after it, W); the run is the ACK's jump
        // plus the run after the hole.
        let mut short: HashMap<(u8, u32, u32, bool, u64), Bundle> = HashMap::default();
        for (st, acc) in live.states.iter().zip(&live.rewards) {
            let w = usable(ex, st);
            let o = st.high;
            if o + k > w {
                // Too little room for K duplicate ACKs: send what W allows, then the timer.
                ex.doom_counting(0, st, false, *acc, acc[PROBABILITY]);
                continue;
            }
            let holes = holes_after_una(st);
            gather(&mut stalls, (st.channel, o, holes == 0, st.cwnd), acc, run_after_una(st.held));
            // The new packets matter for the next round's room only up to n = `enumerated`; beyond it, and
            // with a hole to move to, outcome 3 reads the run after that hole.
            let enumerated = if holes == 0 {
                w - o
            } else {
                let hole = holes.trailing_zeros();
                let after = (holes >> hole) & !1;
                let run = if after == 0 { o - 1 - hole } else { after.trailing_zeros() - 1 };
                gather(&mut short, (st.channel, o, hole, after == 0, st.cwnd), acc, hole + run);
                (ceil_half(f64::from_bits(st.cwnd)) + hole).saturating_sub(o + k).min(w - o)
            };
            for n in k..=enumerated {
                let mut walk = Walk { ex: &mut *ex, sums, st, holes, acc, n, next: &mut next };
                walk.new_packets(0, 0, 0, if st.channel == 0 { [1.0, 0.0] } else { [0.0, 1.0] });
            }
        }
        for (&(channel, outstanding, all_held, cwnd), (acc, runs)) in &stalls {
            stall_or_lose_the_retransmission(ex, sums, channel, outstanding, all_held, cwnd, acc, runs);
        }
        for (&(channel, outstanding, hole, all_held, cwnd), (acc, runs)) in &short {
            move_and_stall(ex, sums, (channel, outstanding, hole, all_held, cwnd), acc, runs);
        }
        live = next;
    }
}

/// The new packets' probability from channel state `s` to the state after the n-th, which is the K-th held,
/// and the same weighted by their leading run of held packets.
fn detection(ex: &Explorer<'_>, sums: &WordSums, s: usize, n: u32) -> ([f64; 2], [f64; 2]) {
    let k = ex.q.dupthresh;
    let i = WordSums::at((n - 1) as usize, (k - 1) as usize);
    let mut lead = sums.leading_run[i][s];
    if n == k {
        // All held: the run is all n.
        lead = [lead[0] + sums.words[i][s][0], lead[1] + sums.words[i][s][1]];
    }
    (row_times(sums.words[i][s], &ex.ch.success), row_times(lead, &ex.ch.success))
}

/// Outcome 3 for the round starts of one `short` bundle and every n past the last enumerated: the ACK moves
/// una to the hole, W = ⌈W/2⌉ leaves too little room for K duplicate ACKs, so the sender sends what W allows
/// and waits for the timer (a doomed state outside recovery).
fn move_and_stall(
    ex: &mut Explorer<'_>,
    sums: &WordSums,
    (channel, outstanding, hole, all_held, cwnd): (u8, u32, u32, bool, u64),
    acc: &Rewards,
    runs: &[f64; 2],
) {
    let (k, rto) = (ex.q.dupthresh, ex.q.rto);
    let w0 = f64::from_bits(cwnd);
    let w = (w0 as u32).min(ex.q.wmax);
    let wth = ceil_half(w0);
    let first = (wth + hole).saturating_sub(outstanding + k) + 1;
    for n in first.max(k)..=w - outstanding {
        let (weight, lead) = detection(ex, sums, channel as usize, n);
        let (weight, lead) = (row_times(weight, &ex.ch.success), row_times(lead, &ex.ch.success));
        for e in 0..2 {
            if weight[e] == 0.0 {
                continue;
            }
            let mut a = extend(acc, weight[e], &detected_at(n, k, w0, None));
            // All held after the hole: the new packets' leading run extends the run.
            credit_runs(&mut a, acc, *runs, weight[e], if all_held { lead[e] } else { 0.0 });
            let state = Doomed {
                channel: e as u8,
                recovering: false,
                cwnd: f64::from(wth).to_bits(),
                outstanding: outstanding + n - hole,
                unbroken: all_held && n == k,
                deadline: rto as i32 - 1,
            };
            ex.doom(n + 1, state, &a);
        }
    }
}

fn usable(ex: &Explorer<'_>, st: &Active) -> u32 {
    (f64::from_bits(st.cwnd) as u32).min(ex.q.wmax)
}

/// Outcomes 1 and 2 for the round starts in channel state `channel` with `outstanding` packets and W from
/// `cwnd`, summed in `acc`; `runs`: Σ probability × the run after una; `all_held`: that run reaches the last
/// packet sent (so the new packets' own leading run extends it).
#[allow(clippy::too_many_arguments)]
fn stall_or_lose_the_retransmission(
    ex: &mut Explorer<'_>,
    sums: &WordSums,
    channel: u8,
    outstanding: u32,
    all_held: bool,
    cwnd: u64,
    acc: &Rewards,
    runs: &[f64; 2],
) {
    let (k, rto) = (ex.q.dupthresh, ex.q.rto);
    let w0 = f64::from_bits(cwnd);
    let w = (w0 as u32).min(ex.q.wmax);
    let s = channel as usize;
    let avail = w - outstanding;
    let delivered = |a: &mut Rewards, weight: f64, lead: f64| {
        credit_runs(a, acc, *runs, weight, if all_held { lead } else { 0.0 });
    };
    // 1. Fewer than K correct among the `avail` new packets; then idle until the timer fires at the end of
    // slot T0 of the round, freeing the run after una.
    let (mut weight, mut correct, mut run) = ([0.0; 2], [0.0; 2], [0.0; 2]);
    for c in 0..k.min(avail + 1) {
        let i = WordSums::at(avail as usize, c as usize);
        for e in 0..2 {
            weight[e] += sums.words[i][s][e];
            correct[e] += f64::from(c) * sums.words[i][s][e];
            run[e] += sums.leading_run[i][s][e];
        }
    }
    let idle = &ex.step_powers[(rto - avail) as usize];
    let [weight, correct, run] = [weight, correct, run].map(|r| row_times(r, idle));
    for e in 0..2 {
        if weight[e] == 0.0 {
            continue;
        }
        let lost = f64::from(avail) * weight[e] - correct[e];
        let mut a = extend(acc, weight[e], &[(TRANSMISSIONS, f64::from(avail)), (SLOTS, f64::from(rto))]);
        credit(&mut a, SUCCESSES, acc[PROBABILITY], correct[e]);
        credit(&mut a, LOSSES_OTHER, acc[PROBABILITY], lost);
        credit(&mut a, CWND_AT_LOSS, acc[PROBABILITY], w0 * lost);
        delivered(&mut a, weight[e], run[e]);
        ex.finish(Ending::Timeout { ssthresh: ceil_half(w0) }, e, &a);
    }
    // 2. The K-th correct at new packet n (its last), then the retransmission of una lost: in recovery with
    // W = ⌈W/2⌉ + K and o + n outstanding, doomed to the timer.
    let recovery_cwnd = f64::from(ceil_half(w0) + k);
    for n in k..=avail {
        let (weight, run) = detection(ex, sums, s, n);
        let (weight, run) = (row_times(weight, &ex.ch.failure), row_times(run, &ex.ch.failure));
        for e in 0..2 {
            if weight[e] == 0.0 {
                continue;
            }
            let mut a = extend(acc, weight[e], &detected_at(n, k, w0, Some(recovery_cwnd)));
            delivered(&mut a, weight[e], run[e]);
            let state = Doomed {
                channel: e as u8,
                recovering: true,
                cwnd: recovery_cwnd.to_bits(),
                outstanding: outstanding + n,
                unbroken: all_held && n == k,
                deadline: rto as i32 - 2 - n as i32,
            };
            ex.doom(n + 1, state, &a);
        }
    }
}

/// Outcome 3 of one round start for the K-th correct at new packet `n`: the new packets' outcomes
/// enumerated only as far as the next round can read them.
struct Walk<'w, 'e> {
    ex: &'w mut Explorer<'e>,
    sums: &'w WordSums,
    st: &'w Active,
    /// The round start's holes after una.
    holes: u128,
    acc: &'w Rewards,
    n: u32,
    next: &'w mut Frontier,
}

impl Walk<'_, '_> {
    /// The state after the retransmission's ACK, the new packets `bits` (bit b: new packet b held) known up to
    /// `known` and the rest taken as held; and how far the ACK moved una (None: not known yet).
    fn after_ack(&self, bits: u128, known: u32) -> Option<(Active, u32)> {
        let st = self.st;
        let o = st.high;
        let rest = if known >= self.n { 0 } else { ((1u128 << (self.n - known)) - 1) << known };
        let held = st.held | (bits | rest) << o;
        let acked = if self.holes != 0 {
            self.holes.trailing_zeros()
        } else {
            // Every old packet held: una moves to the first lost new packet, if one is known.
            let first_lost = (!bits).trailing_zeros();
            if first_lost >= known && known < self.n {
                return None;
            }
            o + first_lost.min(self.n)
        };
        let wth = ceil_half(f64::from_bits(st.cwnd));
        let held = held.checked_shr(acked).unwrap_or(0);
        Some((Active::round_start(st.channel, wth, self.ex.q.rto, o + self.n - acked, held), acked))
    }

    /// Whether the new packets after the first `known` can matter: the next round reads the holes after una up
    /// to one more than its fast retransmits, at most as many as with the unknown packets all held.
    fn known_enough(&self, bits: u128, known: u32) -> bool {
        if known >= self.n {
            return true;
        }
        let Some((optimistic, acked)) = self.after_ack(bits, known) else { return false };
        if optimistic.high == 0 {
            return false;
        }
        let holes = holes_after_una(&optimistic);
        let most = self.ex.fast_retransmits_left(&optimistic, holes);
        let known_span = (self.st.high + known).saturating_sub(acked);
        let known_holes = if known_span >= 128 { holes } else { holes & ((1u128 << known_span) - 1) };
        known_holes.count_ones() > most
    }

    /// Depth-first over the new packets from `known` on (`correct` of those before held, bits in `bits`), with
    /// `row` the probability from the round start's channel state to the channel state after packet `known`.
    fn new_packets(&mut self, known: u32, correct: u32, bits: u128, row: [f64; 2]) {
        let k = self.ex.q.dupthresh;
        if self.known_enough(bits, known) {
            // The rest: n − known packets with K − correct of them held, the last held.
            let (rest, missing) = (self.n - known, k - correct);
            let tail = if rest == 0 {
                row
            } else {
                let m = self.sums.words[WordSums::at((rest - 1) as usize, (missing - 1) as usize)];
                row_times(row_times(row, &m), &self.ex.ch.success)
            };
            self.leaf(bits, known, tail);
            return;
        }
        // The n-th new packet is the K-th held; before it, K − 1 of n − 1.
        let last = known + 1 == self.n;
        if (last && correct + 1 == k) || (!last && correct + 1 < k) {
            let row = row_times(row, &self.ex.ch.success);
            self.new_packets(known + 1, correct + 1, bits | 1u128 << known, row);
        }
        if !last && self.n - known > k - correct {
            let row = row_times(row, &self.ex.ch.failure);
            self.new_packets(known + 1, correct, bits, row);
        }
    }

    /// The paths whose new packets are `bits` up to `known` (the rest summed), in `row` after the n-th:
    /// the retransmission of una gets through and the next round starts.
    fn leaf(&mut self, bits: u128, known: u32, row: [f64; 2]) {
        let (k, n) = (self.ex.q.dupthresh, self.n);
        let w0 = f64::from_bits(self.st.cwnd);
        let (mut state, acked) = self.after_ack(bits, known).expect("una's next hole is known");
        if known < n {
            // Unknown packets count as lost: beyond the holes the next round reads, they are dropped below.
            let unknown = ((1u128 << (n - known)) - 1) << known;
            state.held &= !((unknown << self.st.high).checked_shr(acked).unwrap_or(0));
        }
        let through = row_times(row, &self.ex.ch.success);
        let fixed = detected_at(n, k, w0, None);
        for (e, &p) in through.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            let mut a = extend(self.acc, p, &fixed);
            credit(&mut a, DELIVERED, self.acc[PROBABILITY], p * f64::from(acked));
            let state = Active { channel: e as u8, ..state };
            if state.high == 0 {
                // A full ACK: clean with W = Wth.
                let prob = a[PROBABILITY];
                a[SLOTS][0] += prob[0] * f64::from(n + 1);
                a[SLOTS][1] += prob[1] * f64::from(n + 1);
                let ending = Ending::Clean { ssthresh: f64::from_bits(state.ssthresh) as u32, cwnd_bits: state.cwnd };
                self.ex.finish(ending, e, &a);
                continue;
            }
            let holes = holes_after_una(&state);
            let left = self.ex.fast_retransmits_left(&state, holes);
            if left == 0 {
                let prob = a[PROBABILITY];
                self.ex.doom_counting(n + 1, &state, false, a, prob);
            } else {
                let prob = a[PROBABILITY];
                a[SLOTS][0] += prob[0] * f64::from(n + 1);
                a[SLOTS][1] += prob[1] * f64::from(n + 1);
                self.next.add(Active { held: readable(&state, holes, left), ..state }, a);
            }
        }
    }
}
