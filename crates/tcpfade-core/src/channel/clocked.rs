//! Channels asked about intervals of time: the one interface of the event-driven link driver and of the link
//! emulator.
//!
//! A packet on the link occupies [t, t + d) (d its transmission time) and the channel says whether it survives.
//! Two kinds of channel answer, and both behind [`LinkChannel`]:
//!
//! - clocked by packets ([`PerPacket`]): any [`SlotChannel`] (Bernoulli, Gilbert-Elliott, a recorded
//!   per-packet trace) takes one step per packet sent, whenever it is sent and however long it lasts;
//! - clocked by time: the continuous-time two-state channel (abouzeid §III, VDELDROP), Jakes fading at a
//!   Doppler frequency in Hz under the threshold or the bit-level error model ([`TimedThreshold`],
//!   [`TimedBitLevel`]), a block error trace with its own interval such as a radio TTI ([`BlockTrace`]). They
//!   evolve whether the link is busy or idle.
//!
//! [`LinkChannelSpec`] describes every one of them by its parameters; `build(seed)` validates and builds it, so
//! the simulator and the emulator build the same channel from the same description and seed.

use super::continuous::{ContinuousLossRule, ContinuousTwoState};
use super::fading_errors::{TimedBitLevel, TimedThreshold};
use super::{SlotChannel, SlotChannelSpec};
use crate::error::{Error, Result};
use std::sync::Arc;

/// Whether a packet on the link in [start, start + duration) is lost. Queries come in order of `start`.
pub trait LinkChannel {
    /// Decide the packet's fate.
    fn lost(&mut self, start: f64, duration: f64) -> Result<bool>;

    /// The channel sojourn containing `t` (start, end, state: 0 good, 1 bad), for channels that have
    /// sojourns; the driver then records each bad visit's outcome (abouzeid §IV-I, J).
    fn sojourn_at(&mut self, _t: f64) -> Result<Option<(f64, f64, u8)>> {
        Ok(None)
    }
}

/// A borrowed channel, so that the caller keeps it (and what it recorded) after the run.
impl<C: LinkChannel + ?Sized> LinkChannel for &mut C {
    fn lost(&mut self, start: f64, duration: f64) -> Result<bool> {
        (**self).lost(start, duration)
    }

    fn sojourn_at(&mut self, t: f64) -> Result<Option<(f64, f64, u8)>> {
        (**self).sojourn_at(t)
    }
}

/// A channel built from a [`LinkChannelSpec`].
impl<C: LinkChannel + ?Sized> LinkChannel for Box<C> {
    fn lost(&mut self, start: f64, duration: f64) -> Result<bool> {
        (**self).lost(start, duration)
    }

    fn sojourn_at(&mut self, t: f64) -> Result<Option<(f64, f64, u8)>> {
        (**self).sojourn_at(t)
    }
}

/// A channel that never loses a packet (the ideal link of Lakshman and Madhow, abouzeid §II-B).
#[derive(Debug, Clone, Copy, Default)]
pub struct PerfectChannel;

impl LinkChannel for PerfectChannel {
    #[inline]
    fn lost(&mut self, _start: f64, _duration: f64) -> Result<bool> {
        Ok(false)
    }
}

impl LinkChannel for ContinuousTwoState {
    #[inline]
    fn lost(&mut self, start: f64, duration: f64) -> Result<bool> {
        self.packet_lost(start, duration)
    }

    fn sojourn_at(&mut self, t: f64) -> Result<Option<(f64, f64, u8)>> {
        self.segment_at(t).map(Some)
    }
}

/// A channel clocked by packets, as ns-2's original two-state error model is (abouzeid §I-A, §V-A): the
/// underlying continuous-time channel advances only by each packet's transmission time, so it is frozen while
/// the link is idle (during timeouts, for instance). The loss sequence is then the continuous channel sampled
/// at back-to-back packet slots, whatever TCP does. Its sojourns are in virtual time, so bad visits are not
/// tracked.
#[derive(Debug, Clone)]
pub struct PacketClocked<C> {
    inner: C,
    clock: f64,
}

impl<C> PacketClocked<C> {
    /// Clock `inner` by packets, from virtual time 0.
    pub fn new(inner: C) -> Self {
        PacketClocked { inner, clock: 0.0 }
    }
}

impl<C: LinkChannel> LinkChannel for PacketClocked<C> {
    fn lost(&mut self, _start: f64, duration: f64) -> Result<bool> {
        let lost = self.inner.lost(self.clock, duration)?;
        self.clock += duration;
        Ok(lost)
    }
}

/// A slot channel taking one step per packet sent: the packet's time and length do not matter (Bernoulli,
/// Gilbert-Elliott per packet, a per-packet trace). Idle time does not move it.
pub struct PerPacket(pub Box<dyn SlotChannel>);

impl LinkChannel for PerPacket {
    #[inline]
    fn lost(&mut self, _start: f64, _duration: f64) -> Result<bool> {
        self.0.next_slot()
    }
}

/// A block error sequence in time: block k covers [k·interval, (k + 1)·interval) and a packet is lost when any
/// block it overlaps is wrong (zorzi-rossi-mazzini §2.3: "the BES ... specifies the channel status in each
/// TTI"). With `wrap` the sequence repeats; without, a packet beyond its end is an error.
#[derive(Debug, Clone)]
pub struct BlockTrace {
    errors: Arc<[u8]>,
    interval: f64,
    wrap: bool,
}

impl BlockTrace {
    /// `errors[k]` (0 or 1) for the block of [k·interval, (k + 1)·interval).
    pub fn new(errors: Arc<[u8]>, interval: f64, wrap: bool) -> Result<Self> {
        super::trace::validate_losses(&errors)?;
        crate::check::positive("interval", interval)?;
        Ok(BlockTrace { errors, interval, wrap })
    }

    /// Time the sequence covers \[s\].
    pub fn span(&self) -> f64 {
        self.errors.len() as f64 * self.interval
    }
}

impl LinkChannel for BlockTrace {
    fn lost(&mut self, start: f64, duration: f64) -> Result<bool> {
        let end = start + duration;
        // Blocks [first, last) the packet overlaps; a packet starting or ending on a boundary (to rounding) does
        // not reach into the block beyond it.
        let first = (start / self.interval + 1e-9).floor() as usize;
        let last = ((end / self.interval - 1e-9).ceil() as usize).max(first + 1);
        let n = self.errors.len();
        if last > n && !self.wrap {
            return Err(Error::TraceExhausted { length: n });
        }
        Ok((first..last).any(|k| self.errors[k % n] == 1))
    }
}

/// Every channel the link driver and the emulator take, by its parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkChannelSpec {
    /// No losses.
    Perfect,
    /// The continuous-time two-state channel, in real time or (`packet_clock`) advanced only by packets.
    Continuous {
        /// E\[X\] \[s\].
        mean_good: f64,
        /// E\[Y\] \[s\].
        mean_bad: f64,
        /// How a state met corrupts a packet.
        rule: ContinuousLossRule,
        /// ns-2's original clock: the channel frozen while the link idles.
        packet_clock: bool,
    },
    /// A slot channel stepped once per packet sent.
    PerPacket(SlotChannelSpec),
    /// A fading slot channel (threshold or bit-level) run in real time, its `fading.fdt` read as the Doppler
    /// frequency fD in Hz ([`TimedThreshold`], [`TimedBitLevel`]); other slot channels have no time clock.
    Timed(SlotChannelSpec),
    /// A block error sequence with its own interval \[s\].
    Blocks {
        /// 0/1 per block.
        errors: Arc<[u8]>,
        /// Block duration \[s\].
        interval: f64,
        /// Start again at the beginning when exhausted.
        wrap: bool,
    },
}

impl LinkChannelSpec {
    /// Validate the parameters and build the channel, seeded.
    pub fn build(&self, seed: u64) -> Result<Box<dyn LinkChannel + Send>> {
        Ok(match self {
            LinkChannelSpec::Perfect => Box::new(PerfectChannel),
            LinkChannelSpec::Continuous { mean_good, mean_bad, rule, packet_clock } => {
                let channel = ContinuousTwoState::new(*mean_good, *mean_bad, *rule, seed)?;
                if *packet_clock {
                    Box::new(PacketClocked::new(channel))
                } else {
                    Box::new(channel)
                }
            }
            LinkChannelSpec::PerPacket(spec) => Box::new(PerPacket(spec.build(seed)?)),
            LinkChannelSpec::Timed(SlotChannelSpec::Threshold { fading, fading_margin }) => {
                Box::new(TimedThreshold::new(*fading, *fading_margin, seed)?)
            }
            LinkChannelSpec::Timed(SlotChannelSpec::BitLevel {
                fading,
                snr,
                packet_bits,
                modulation,
                samples_per_packet,
            }) => Box::new(TimedBitLevel::new(*fading, *snr, *packet_bits, *modulation, *samples_per_packet, seed)?),
            LinkChannelSpec::Timed(other) => {
                return Err(Error::invalid(
                    "channel",
                    format!("{other:?}"),
                    "has no time clock: only the threshold and bit-level fading channels run in real time",
                ))
            }
            LinkChannelSpec::Blocks { errors, interval, wrap } => {
                Box::new(BlockTrace::new(errors.clone(), *interval, *wrap)?)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{FadingModel, FadingSpec, Modulation};

    #[test]
    fn a_packet_is_lost_when_any_block_it_overlaps_is() {
        // Blocks of 10 ms, the third wrong.
        let mut blocks = BlockTrace::new(Arc::from(vec![0u8, 0, 1, 0, 0].as_slice()), 0.01, false).unwrap();
        assert!(!blocks.lost(0.0, 0.01).unwrap()); // exactly block 0
        assert!(blocks.lost(0.015, 0.01).unwrap()); // blocks 1 and 2
        assert!(blocks.lost(0.02, 0.001).unwrap()); // inside block 2
        assert!(!blocks.lost(0.03, 0.02).unwrap()); // blocks 3 and 4, ending on the sequence's end
        assert!(matches!(blocks.lost(0.045, 0.01), Err(Error::TraceExhausted { length: 5 })));
        let mut wrapped = BlockTrace::new(Arc::from(vec![0u8, 0, 1, 0, 0].as_slice()), 0.01, true).unwrap();
        assert!(wrapped.lost(0.07, 0.001).unwrap()); // block 7 is block 2 again
    }

    #[test]
    fn per_packet_channels_step_once_per_packet_whatever_the_time() {
        let spec = SlotChannelSpec::GilbertElliott { p: 0.9, q: 0.6, loss_good: 0.0, loss_bad: 1.0 };
        let mut slotted = spec.build(7).unwrap();
        let mut link = LinkChannelSpec::PerPacket(spec).build(7).unwrap();
        let mut t = 0.0;
        for k in 0..10_000 {
            // Irregular times and lengths: only the order matters.
            t += 0.001 * (1 + k % 7) as f64;
            assert_eq!(link.lost(t, 0.0001 * (1 + k % 3) as f64).unwrap(), slotted.next_slot().unwrap());
        }
    }

    #[test]
    fn timed_fading_on_a_saturated_link_is_the_slotted_channel() {
        // Packets back to back at μ = 250/s: the time-clocked channel at fD [Hz] is the slotted one at
        // fD·T = fD/μ, sample for sample (the same oscillator phases from the same seed).
        let rate = 250.0;
        for model in [FadingModel::Jakes, FadingModel::Cisoids] {
            let timed = FadingSpec { model, fdt: 4.0, oscillators: 8 };
            let slotted = FadingSpec { model, fdt: 4.0 / rate, oscillators: 8 };
            let threshold = |fading| SlotChannelSpec::Threshold { fading, fading_margin: 10.0 };
            let bit_level = |fading| SlotChannelSpec::BitLevel {
                fading,
                snr: 100.0,
                packet_bits: 4000,
                modulation: Modulation::Bpsk,
                samples_per_packet: 4,
            };
            let cases = [(threshold(timed), threshold(slotted)), (bit_level(timed), bit_level(slotted))];
            for (link_spec, slot_spec) in cases {
                let link_spec = LinkChannelSpec::Timed(link_spec);
                let (mut link, mut slot) = (link_spec.build(3).unwrap(), slot_spec.build(3).unwrap());
                let mut losses = 0;
                for k in 0..20_000 {
                    let lost = link.lost(k as f64 / rate, 1.0 / rate).unwrap();
                    assert_eq!(lost, slot.next_slot().unwrap(), "packet {k}");
                    losses += u32::from(lost);
                }
                assert!(losses > 200, "the case must lose packets to test anything: {losses}");
            }
        }
    }

    #[test]
    fn only_fading_channels_run_in_real_time() {
        let spec = LinkChannelSpec::Timed(SlotChannelSpec::Bernoulli { error_rate: 0.1 });
        assert!(matches!(spec.build(1), Err(Error::InvalidParameter { name, .. }) if name == "channel"));
    }

    #[test]
    fn timed_fading_evolves_while_the_link_idles() {
        // Asked at t and at t + 10 s, the channel is where the fading is at those times: the threshold channel
        // asked only every 10 s gives the stepped channel's samples 0, 2500, 5000, ... at μ = 250.
        let timed = FadingSpec { model: FadingModel::Jakes, fdt: 4.0, oscillators: 8 };
        let slotted = FadingSpec { model: FadingModel::Jakes, fdt: 4.0 / 250.0, oscillators: 8 };
        let mut link =
            LinkChannelSpec::Timed(SlotChannelSpec::Threshold { fading: timed, fading_margin: 3.0 }).build(5).unwrap();
        let mut slot = SlotChannelSpec::Threshold { fading: slotted, fading_margin: 3.0 }.build(5).unwrap();
        for k in 0..200 {
            let expected = slot.next_slot().unwrap();
            slot.skip_slots(2499).unwrap();
            assert_eq!(link.lost(10.0 * k as f64, 0.004).unwrap(), expected, "at {} s", 10 * k);
        }
    }
}
