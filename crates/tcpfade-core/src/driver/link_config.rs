//! What a link run takes and gives ([`super::link`]): its parameters, its counts and its outcome.

use super::common::counters;
use super::visits::VisitStats;
use crate::check;
use crate::error::{Error, Result};
use crate::tcp::SenderConfig;

/// Parameters of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkConfig {
    /// The sender (variant, receiver window, K, RTO policy, initial ssthresh).
    pub sender: SenderConfig,
    /// Link rate μ [packets/s].
    pub rate: f64,
    /// Round-trip propagation and processing delay τ \[s\], excluding the link's transmission time.
    pub tau: f64,
    /// Buffer B \[packets\], not counting the packet on the link.
    pub buffer: u64,
    /// Simulated time \[s\].
    pub duration: f64,
    /// Time at the start that is simulated but not measured \[s\].
    pub warmup: f64,
    /// Equal batches of the measured time (for batch-means intervals).
    pub batches: u64,
    /// Delayed-ACK timeout \[s\]; `None` ACKs every segment.
    pub delayed_ack: Option<f64>,
}

impl LinkConfig {
    /// Validate the driver's parameters.
    pub fn validate(&self) -> Result<()> {
        if self.sender.variant == crate::tcp::Variant::Probing {
            return Err(Error::invalid("variant", "probing", "the bulk link model carries data packets of one size \
                only, not TCP-Probing's header-only probes; simulate it with simulate_transfer"));
        }
        check::positive("rate", self.rate)?;
        if !(1.0 / self.rate).is_finite() {
            // The driver marks an idle link by an infinite end of transmission (and a packet that never ends is no link).
            return Err(Error::invalid("rate", self.rate, "must be large enough that a packet's transmission time 1/rate \
                is finite"));
        }
        check::non_negative("tau", self.tau)?;
        check::int_in("buffer", self.buffer, 0, 1 << 30)?;
        check::positive("duration", self.duration)?;
        check::non_negative("warmup", self.warmup)?;
        if self.warmup >= self.duration {
            return Err(Error::invalid("warmup", self.warmup, &format!("must be < duration (= {})", self.duration)));
        }
        check::int_in("batches", self.batches, 1, 1 << 20)?;
        if let Some(delay) = self.delayed_ack {
            check::positive("delayed_ack", delay)?;
        }
        Ok(())
    }

    /// T = τ + 1/μ, the round trip without queueing.
    pub fn round_trip(&self) -> f64 {
        self.tau + 1.0 / self.rate
    }
}

counters! {
    /// Cumulative counts (or, as differences, those of a batch).
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub struct LinkCounts {
        /// Time elapsed \[s\].
        pub time: f64,
        /// Packets delivered in order to the receiving user, each once. In a run's totals and batches, a packet is
        /// counted in the batch where the transmission that delivered it *started*, and only if it was delivered by
        /// the end of the run: then no measured window can count more packets than the link could send in it
        /// (goodput <= 1 exactly), whereas counting at the in-order delivery would credit a window with packets held
        /// out of order, or sent, before it began.
        pub delivered: u64,
        /// Packets the sender released (retransmissions included).
        pub sent: u64,
        /// Packets that crossed the link correctly (duplicates included). In a run's totals and batches, counted in
        /// the batch where their transmission started (as `delivered`), so that it never exceeds what the link could
        /// send in the measured time.
        pub received: u64,
        /// Packets that crossed the link correctly for the first time (a sequence number the receiver neither held
        /// nor had passed): `received` without duplicates, counted the same way. Delivered in order or not, so a
        /// packet held behind a hole counts when it crosses: what a measurement at the link sees (the emulator's
        /// goodput), where `delivered` waits for the hole.
        pub new_received: u64,
        /// Packets the channel lost.
        pub channel_losses: u64,
        /// Packets the full buffer dropped.
        pub buffer_losses: u64,
        /// Timer expirations.
        pub timeouts: u64,
        /// Fast retransmits.
        pub fast_retransmits: u64,
        /// Of the timer expirations, those F-RTO found spurious and undid (RFC 5682; Linux's TCPSpuriousRTOs). In a
        /// run's totals and batches, counted in the batch where the timeout fired, and only if undone by the end of the
        /// run: never more than the timeouts counted there.
        pub spurious_timeouts: u64,
        /// Valid RTT samples, and their sum \[s\].
        pub rtt_samples: u64,
        /// Sum of the RTT samples \[s\].
        pub rtt_sum: f64,
        /// Time the link spent sending \[s\].
        pub busy: f64,
        /// Segments sent again (after a timeout or a fast retransmit, and NewReno's partial ACKs).
        pub retransmissions: u64,
        /// ACKs the receiver sent.
        pub acks: u64,
        /// Of them, those the delayed-ACK timer sent: an in-order segment left alone for the whole delay (RFC 1122
        /// §4.2.3.2), the wait a kernel receiver's log shows or not.
        pub timer_acks: u64,
    }
}

/// Result of a run: the measured totals and each batch's.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkOutcome {
    /// Totals over the measured time (after the warm-up).
    pub totals: LinkCounts,
    /// Totals per batch.
    pub batches: Vec<LinkCounts>,
    /// Final congestion window and threshold (for inspection).
    pub final_cwnd: f64,
    /// Final slow-start threshold.
    pub final_ssthresh: f64,
    /// Bad visits ending sampled good states (empty for channels without sojourns).
    pub visits: VisitStats,
}
