//! The slotted driver: TCP over a link whose bandwidth-delay product is zero (zorzi-rao §3,
//! chockalingam §III; BRIEF D1-D4).
//!
//! Slot i occupies [i, i+1). At its start the sender may send one packet (a pending
//! retransmission first, else the next in order if the window allows). The channel moves one step
//! every slot, idle or not. A correct packet is ACKed by the receiver and the ACK reaches the
//! sender at the end of the slot, i + 1 (or `ack_delay` slots later; lost with probability
//! `ack_loss`). At that instant ACKs are handled first, then the timer if it has expired.
//!
//! Fast paths, both exact (a proptest compares them with slot-by-slot stepping):
//! - while the sender is clean (nothing outstanding, nothing pending) and ACKs are instant and
//!   lossless, every error-free slot sends one new packet that is ACKed in the same slot; the
//!   driver asks the channel for the next loss and moves sender and receiver through the
//!   error-free stretch in one step;
//! - while the sender cannot send and no ACK is on its way, nothing happens until the timer fires;
//!   the driver advances the channel to that slot in one step.
//!
//! So the cost follows loss events rather than slots.
//!
//! With SACK ([`SenderConfig::sack`]) each ACK carries the receiver's SACK blocks (RFC 2018), queued beside it
//! when ACKs are delayed or lossy; the fast paths are unchanged (a clean sender has nothing SACKed).

use super::common::counters;
use crate::channel::SlotChannel;
use crate::check;
use crate::error::{Error, Result};
use crate::rng::{stream, Stream};
use crate::tcp::{Receiver, SackBlocks, Sender, SenderConfig, Variant};
use crate::watch::Watch;
use rand::Rng as _;
use std::collections::VecDeque;

/// Parameters of a slotted run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlottedConfig {
    /// The sender (variant, Wmax, K, T0 in slots, initial ssthresh).
    pub sender: SenderConfig,
    /// Slots to simulate.
    pub slots: u64,
    /// Probability that an ACK is lost (zorzi-rao footnote 2).
    pub ack_loss: f64,
    /// Extra slots before an ACK reaches the sender (zorzi-rao footnote 1).
    pub ack_delay: u64,
    /// Number of equal batches for batch-means confidence intervals.
    pub batches: u64,
    /// Record a per-slot trace of the first `trace_slots` slots.
    pub trace_slots: u64,
}

/// Why the slotted model refuses RACK-TLP.
pub const RACK_IN_SLOTS: &str = "the slotted model's timer is a fixed T0 in slots with no SRTT (BRIEF D2) and every ACK \
    returns within its slot, while RACK-TLP's timers come from RTT estimates (reo_wnd = min_RTT/4, PTO = 2·SRTT, RFC \
    8985 §6.2 and §7.2); simulate it with simulate_link or simulate_transfer";

/// Why the slotted model refuses HyStart++.
pub const HYSTART_IN_SLOTS: &str = "the slotted model's clock counts slots and every ACK returns within its slot, \
    while HyStart++ judges rises in the round-trip time against thresholds in milliseconds (4-16 ms, RFC 9406 \
    §4.3); simulate it with simulate_link or simulate_transfer";

/// Why the slotted model has no `cwnd_limited` (the message Python gives too).
pub const CWND_LIMITED_IN_SLOTS: &str = "the slotted sender always fills its window (its receiver advertises Wmax and     it has data without end) and it skips error-free stretches a round at a time, so a rule for a sender that does not     fill cwnd has nothing to act on there; simulate it with simulate_link or simulate_transfer";

impl SlottedConfig {
    /// Validate the driver's own parameters.
    pub fn validate(&self) -> Result<()> {
        if self.sender.variant == Variant::Probing {
            return Err(Error::invalid("variant", "probing", "the slotted model has one packet size and no round-trip \
                time to measure (every ACK returns within its slot), so TCP-Probing's header-only probes and its \
                RTT-based decision do not exist in it; simulate it with simulate_transfer"));
        }
        if self.sender.variant.needs_seconds() {
            return Err(Error::invalid("variant", self.sender.variant.name(), "the slotted model's clock counts slots, \
                not seconds, and CUBIC's window function is in seconds (C = 0.4 segments/s³, RFC 9438 §4.2); \
                simulate it with simulate_link or simulate_transfer"));
        }
        if self.sender.rack {
            return Err(Error::invalid("rack", "True", RACK_IN_SLOTS));
        }
        if self.sender.hystart {
            return Err(Error::invalid("hystart", "True", HYSTART_IN_SLOTS));
        }
        if self.sender.cwnd_limited {
            return Err(Error::invalid("cwnd_limited", "True", CWND_LIMITED_IN_SLOTS));
        }
        check::int_in("slots", self.slots, 1, u64::MAX / 2)?;
        check::probability("ack_loss", self.ack_loss)?;
        if self.ack_loss >= 1.0 {
            return Err(Error::invalid("ack_loss", self.ack_loss, "must be < 1 (no ACK would ever arrive)"));
        }
        check::int_in("ack_delay", self.ack_delay, 0, 1 << 20)?;
        check::int_in("batches", self.batches, 1, self.slots.min(1 << 20))?;
        check::int_in("trace_slots", self.trace_slots, 0, 1 << 28)?;
        Ok(())
    }
}

counters! {
    /// Cumulative counts of a run (or, as differences, of one batch).
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub struct Counts {
        /// Slots elapsed.
        pub slots: u64,
        /// Packets put on the link (retransmissions included).
        pub transmissions: u64,
        /// Retransmissions among them.
        pub retransmissions: u64,
        /// Transmissions that arrived correctly.
        pub successes: u64,
        /// Packets delivered in order to the receiving user, each once (BRIEF D4).
        pub delivered: u64,
        /// Timer expirations.
        pub timeouts: u64,
        /// Fast retransmits.
        pub fast_retransmits: u64,
        /// Transmissions lost by the channel.
        pub losses: u64,
        /// Sum of W over the lost transmissions (mean window at loss instants, chockalingam Fig. 6).
        pub cwnd_at_loss_sum: f64,
    }
}

/// One slot of the trace (values at the start of the slot, when the send decision is taken).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlotRecord {
    /// Slot index.
    pub slot: u64,
    /// Sequence number sent, or None when idle.
    pub seq: Option<u64>,
    /// Whether the packet sent was a retransmission.
    pub retransmission: bool,
    /// Whether the channel lost this slot (whether or not a packet was sent).
    pub lost: bool,
    /// Congestion window W.
    pub cwnd: f64,
    /// Slow-start threshold Wth.
    pub ssthresh: f64,
    /// First unacknowledged sequence number.
    pub una: u64,
    /// Channel state of the slot.
    pub channel_state: u8,
}

/// Result of a slotted run: totals, per-batch counts and the optional trace.
#[derive(Debug, Clone, PartialEq)]
pub struct SlottedOutcome {
    /// Counts over the whole run.
    pub totals: Counts,
    /// Counts of each batch, in order.
    pub batches: Vec<Counts>,
    /// The first `trace_slots` slots.
    pub trace: Vec<SlotRecord>,
}

struct Run<'a, C: SlotChannel + ?Sized> {
    sender: Sender,
    receiver: Receiver,
    channel: &'a mut C,
    acks: VecDeque<(u64, u64)>,
    /// The queued ACKs' SACK blocks, in the same order, when SACK is on (empty otherwise).
    sacks: VecDeque<SackBlocks>,
    sack: bool,
    ack_loss: f64,
    ack_delay: u64,
    ack_rng: crate::rng::Rng,
    /// Driver-side counts (the sender's counters are merged in by `totals`).
    successes: u64,
    losses: u64,
    cwnd_at_loss_sum: f64,
}

impl<C: SlotChannel + ?Sized> Run<'_, C> {
    fn totals(&self, slots: u64) -> Counts {
        let c = self.sender.counters();
        Counts {
            slots,
            transmissions: c.transmissions,
            retransmissions: c.retransmissions,
            successes: self.successes,
            delivered: self.receiver.delivered(),
            timeouts: c.timeouts,
            fast_retransmits: c.fast_retransmits,
            losses: self.losses,
            cwnd_at_loss_sum: self.cwnd_at_loss_sum,
        }
    }

    /// Slot `i` with channel outcome `lost`; returns the trace record when `record` is set.
    #[inline]
    fn slot(&mut self, i: u64, lost: bool, record: bool) -> Option<SlotRecord> {
        let now = i as f64;
        let end = i + 1;
        let (cwnd, ssthresh, una) = (self.sender.cwnd(), self.sender.ssthresh(), self.sender.una());
        let segment = self.sender.poll_transmit(now);
        if let Some(seg) = segment {
            if lost {
                self.losses += 1;
                self.cwnd_at_loss_sum += cwnd;
            } else {
                self.successes += 1;
                let ack = self.receiver.on_segment(seg.seq);
                if self.ack_loss == 0.0 || self.ack_rng.random::<f64>() >= self.ack_loss {
                    if self.ack_delay == 0 && self.acks.is_empty() {
                        // Arrives at the end of this slot, before any timer check: no queue needed.
                        match self.sack {
                            false => self.sender.on_ack(end as f64, ack),
                            true => self.sender.on_sack_ack(end as f64, ack, self.receiver.sack_blocks().as_slice()),
                        }
                    } else {
                        self.acks.push_back((end + self.ack_delay, ack));
                        if self.sack {
                            self.sacks.push_back(self.receiver.sack_blocks());
                        }
                    }
                }
            }
        }
        while let Some(&(due, ack)) = self.acks.front() {
            if due > end {
                break;
            }
            self.acks.pop_front();
            match self.sack {
                false => self.sender.on_ack(end as f64, ack),
                true => {
                    let blocks = self.sacks.pop_front().unwrap_or_default();
                    self.sender.on_sack_ack(end as f64, ack, blocks.as_slice());
                }
            }
        }
        if self.sender.timer_deadline().is_some_and(|deadline| deadline <= end as f64) {
            self.sender.on_timeout(end as f64);
        }
        record.then(|| SlotRecord {
            slot: i,
            seq: segment.map(|s| s.seq),
            retransmission: segment.is_some_and(|s| s.retransmission),
            lost,
            cwnd,
            ssthresh,
            una,
            channel_state: self.channel.state(),
        })
    }

    /// `n` error-free slots from `slot` on, for a clean sender with instant lossless ACKs (each at its slot's end).
    fn fast_forward(&mut self, slot: u64, n: u64) {
        self.sender.fast_forward(n, (slot + 1) as f64);
        self.receiver.advance_in_order(n);
        self.successes += n;
    }
}

/// Run TCP over `channel` for `cfg.slots` slots. `seed` drives the ACK-loss draws (the channel has
/// its own seed).
pub fn run_slotted<C: SlotChannel + ?Sized>(cfg: &SlottedConfig, channel: &mut C, seed: u64) -> Result<SlottedOutcome> {
    run_slotted_watched(cfg, channel, seed, &mut Watch::quiet())
}

/// [`run_slotted`], telling `watch` the fraction of the slots done; an error from it stops the run.
pub fn run_slotted_watched<C: SlotChannel + ?Sized>(
    cfg: &SlottedConfig,
    channel: &mut C,
    seed: u64,
    watch: &mut Watch<'_>,
) -> Result<SlottedOutcome> {
    cfg.validate()?;
    let mut run = Run {
        sender: Sender::new(cfg.sender),
        receiver: Receiver::new(cfg.sender.wmax).with_sack(cfg.sender.sack),
        channel,
        acks: VecDeque::new(),
        sacks: VecDeque::new(),
        sack: cfg.sender.sack,
        ack_loss: cfg.ack_loss,
        ack_delay: cfg.ack_delay,
        ack_rng: stream(seed, Stream::AckLoss),
        successes: 0,
        losses: 0,
        cwnd_at_loss_sum: 0.0,
    };
    let fast_path = cfg.ack_delay == 0 && cfg.ack_loss == 0.0;
    let batch_len = cfg.slots.div_ceil(cfg.batches);
    let mut trace = Vec::with_capacity(cfg.trace_slots.min(cfg.slots) as usize);
    let mut batches = Vec::with_capacity(cfg.batches as usize);
    let mut batch_start = Counts::default();
    let mut slot = 0u64;
    while slot < cfg.slots {
        let batch_end = ((slot / batch_len + 1) * batch_len).min(cfg.slots);
        while slot < batch_end {
            watch.tick(|| slot as f64 / cfg.slots as f64)?;
            let tracing = slot < cfg.trace_slots;
            if fast_path && !tracing && run.sender.is_clean() {
                match run.channel.next_loss_within(batch_end - slot)? {
                    None => {
                        run.fast_forward(slot, batch_end - slot);
                        slot = batch_end;
                    }
                    Some(k) => {
                        run.fast_forward(slot, k);
                        run.slot(slot + k, true, false);
                        slot += k + 1;
                    }
                }
                continue;
            }
            if !tracing && run.acks.is_empty() && !run.sender.can_send() {
                // Idle until the slot at whose end the timer expires: ceil(deadline) - 1.
                if let Some(deadline) = run.sender.timer_deadline() {
                    let fire_slot = (deadline.ceil() as u64).saturating_sub(1);
                    let idle = fire_slot.min(batch_end).saturating_sub(slot);
                    if idle > 0 {
                        run.channel.skip_slots(idle)?;
                        slot += idle;
                        continue;
                    }
                }
            }
            let lost = run.channel.next_slot()?;
            if let Some(record) = run.slot(slot, lost, tracing) {
                trace.push(record);
            }
            slot += 1;
        }
        let now = run.totals(slot);
        batches.push(now.minus(&batch_start));
        batch_start = now;
    }
    Ok(SlottedOutcome { totals: run.totals(slot), batches, trace })
}
