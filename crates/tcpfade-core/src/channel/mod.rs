//! Packet-error channels.
//!
//! Two families, because the papers need two clocks (BRIEF §3, "channels are clocks of their own"):
//!
//! - [`SlotChannel`]: one step per packet slot, idle or not (BRIEF D1). Bernoulli, two-state
//!   Markov (Gilbert-Elliott), Jakes fading with the threshold or the bit-level error model, and
//!   recorded traces. The slotted TCP driver uses it.
//! - [`LinkChannel`] ([`clocked`]): asked whether a packet occupying `[t, t + d)` survives. The
//!   continuous-time alternating good/bad process (abouzeid §III, VDELDROP of tsaoussidis §4), Jakes
//!   fading at a Doppler in Hz, a block error trace with its own interval, and any slot channel stepped
//!   once per packet. The event-driven driver and the link emulator use it.
//!
//! [`SlotChannelSpec`] describes any slot channel by its parameters; `build(seed)` validates them
//! and returns the channel, so every entry point (Python, CLI, Rust) validates the same way.

pub mod clocked;
pub mod continuous;
pub mod fading_errors;
pub mod jakes;
pub mod markov;
pub mod trace;

use crate::error::Result;
use rand::Rng as _;

pub use clocked::{BlockTrace, LinkChannel, LinkChannelSpec, PacketClocked, PerPacket, PerfectChannel};
pub use continuous::{ContinuousLossRule, ContinuousTwoState};
pub use fading_errors::{BitLevelChannel, Modulation, ThresholdChannel, TimedBitLevel, TimedThreshold};
pub use jakes::{FadingModel, FadingSpec, JakesBank, JakesFading};
pub use markov::GilbertElliott;
pub use trace::TraceChannel;

/// A channel that moves one step per packet slot, whether or not a packet is sent in it.
pub trait SlotChannel: Send {
    /// Advance one slot; `true` when a packet sent in that slot is lost.
    fn next_slot(&mut self) -> Result<bool>;

    /// Advance through the next `limit` slots, stopping at the first loss.
    ///
    /// Returns `Some(k)` when slot `k` (0-based, counted from the first slot advanced) is a loss;
    /// `k + 1` slots have then been consumed. Returns `None` when all `limit` slots are successes.
    /// Models whose state runs are geometric override this to skip error-free stretches in O(1),
    /// so a simulator's cost follows loss events rather than slots (BRIEF §6).
    fn next_loss_within(&mut self, limit: u64) -> Result<Option<u64>> {
        for k in 0..limit {
            if self.next_slot()? {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }

    /// Advance `n` slots whatever their outcomes (the sender is idle). Built on
    /// [`SlotChannel::next_loss_within`], so it is exact (the same sample path as stepping) and
    /// costs one step per loss event for models that skip.
    fn skip_slots(&mut self, n: u64) -> Result<()> {
        let mut left = n;
        while left > 0 {
            match self.next_loss_within(left)? {
                Some(k) => left -= k + 1,
                None => left = 0,
            }
        }
        Ok(())
    }

    /// State of the slot consumed last: 0 good, 1 bad (for models without states, 1 when that
    /// slot was lost).
    fn state(&self) -> u8;
}

/// Every slot-clocked channel, by its parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum SlotChannelSpec {
    /// Independent losses with probability `error_rate` per slot.
    Bernoulli {
        /// Loss probability per slot.
        error_rate: f64,
    },
    /// Two-state Markov chain (chockalingam eq. (1)).
    GilbertElliott {
        /// P(good -> good).
        p: f64,
        /// P(bad -> bad).
        q: f64,
        /// Loss probability in the good state.
        loss_good: f64,
        /// Loss probability in the bad state.
        loss_bad: f64,
    },
    /// Jakes fading sampled once per slot; loss when the power is below 1/F (zorzi-rao §3.1).
    Threshold {
        /// The fading process.
        fading: FadingSpec,
        /// Fading margin F (linear).
        fading_margin: f64,
    },
    /// Jakes fading sampled within each packet; loss when any bit is wrong (BRIEF D6).
    BitLevel {
        /// The fading process.
        fading: FadingSpec,
        /// Average SNR per bit (linear).
        snr: f64,
        /// Packet size in bits.
        packet_bits: u64,
        /// Modulation giving the bit error probability.
        modulation: Modulation,
        /// Fading samples per packet.
        samples_per_packet: u64,
    },
    /// A recorded loss sequence.
    Trace {
        /// 0/1 per slot.
        losses: std::sync::Arc<[u8]>,
        /// Start again at the beginning when exhausted.
        wrap: bool,
    },
}

impl SlotChannelSpec {
    /// Validate the parameters and build the channel, seeded.
    pub fn build(&self, seed: u64) -> Result<Box<dyn SlotChannel>> {
        Ok(match self {
            SlotChannelSpec::Bernoulli { error_rate } => {
                Box::new(GilbertElliott::bernoulli(*error_rate, seed)?)
            }
            SlotChannelSpec::GilbertElliott { p, q, loss_good, loss_bad } => {
                Box::new(GilbertElliott::new(*p, *q, *loss_good, *loss_bad, seed)?)
            }
            SlotChannelSpec::Threshold { fading, fading_margin } => {
                Box::new(ThresholdChannel::new(*fading, *fading_margin, seed)?)
            }
            SlotChannelSpec::BitLevel { fading, snr, packet_bits, modulation, samples_per_packet } => {
                Box::new(BitLevelChannel::new(*fading, *snr, *packet_bits, *modulation, *samples_per_packet, seed)?)
            }
            SlotChannelSpec::Trace { losses, wrap } => {
                Box::new(TraceChannel::new(losses.clone(), *wrap)?)
            }
        })
    }
}

/// Number of failures before the first success of independent trials with success probability
/// `p`, with ln(1 - p) worked out once (the Gilbert-Elliott channel draws one per run, and the
/// logarithm was a third of the simulator's time). `u64::MAX` stands for "never" (p = 0).
///
/// Written here rather than taken from rand_distr::Geometric because we need p = 0 mapped to
/// "never" and exactly one uniform per draw (so streams stay aligned across platforms).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Geometric {
    /// ln(1 - p); 0 when p = 0 ("never"), -inf when p = 1 ("at once").
    log_fail: f64,
}

impl Geometric {
    pub(crate) fn new(p: f64) -> Self {
        Geometric { log_fail: if p >= 1.0 { f64::NEG_INFINITY } else { (-p).ln_1p() } }
    }

    /// Failures before the first success.
    #[inline]
    pub(crate) fn failures(&self, rng: &mut crate::rng::Rng) -> u64 {
        if self.log_fail == f64::NEG_INFINITY {
            return 0;
        }
        if self.log_fail >= 0.0 {
            return u64::MAX;
        }
        // U in (0, 1]: P(floor(ln U / ln(1-p)) >= k) = (1-p)^k. The ratio is >= 0, so the
        // saturating cast is the floor (and maps overflow to "never").
        let u = 1.0 - rng.random::<f64>();
        (u.ln() / self.log_fail) as u64
    }

    /// Run length of a state kept with probability 1 - p per step: geometric on {1, 2, ...}.
    #[inline]
    pub(crate) fn run_length(&self, rng: &mut crate::rng::Rng) -> u64 {
        1u64.saturating_add(self.failures(rng))
    }
}
