//! Abouzeid's bad-visit statistics (abouzeid §IV-F, I, J) as an observer of the link driver
//! ([`super::link::LinkObserver`]): which sampled good states end in a bad visit that TCP passes without loss,
//! repairs by fast retransmit, or times out on, by the window W' at the end of the good state, and the
//! effective bad durations U between sampled good states. The generic driver knows nothing of them.
//!
//! A good state is *sampled* when a packet gets through during it (the channel's sojourns, asked for with
//! [`LinkChannel::sojourn_at`]); channels without sojourns give no statistics.

use super::observe::LinkObserver;
use crate::channel::clocked::LinkChannel;
use crate::error::Result;
use crate::tcp::Sender;
use std::collections::VecDeque;

/// Outcome of the bad visit that ends a sampled good state (abouzeid §IV-F): no loss, losses repaired by
/// fast retransmit (TD), or at least one timeout (TO).
pub const OUTCOMES: [&str; 3] = ["no_loss", "triple_duplicate", "timeout"];

/// Bad visits that end a sampled good state, by outcome and by the window W' at the end of the good state
/// (abouzeid §IV-F, I, J), and the effective bad durations U that follow them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VisitStats {
    /// counts\[w' − 1\]\[outcome\], the last row gathering every larger window.
    pub by_window: Vec<[u64; 3]>,
    /// Σ U per outcome \[s\].
    pub effective_bad_sum: [f64; 3],
    /// Number of U per outcome.
    pub effective_bad_count: [u64; 3],
    /// Σ of the base RTO (before backoff) in force when the good state ended, per outcome \[s\]: what the
    /// analysis' Δ(w') stands for (abouzeid §IV-B approximation 3).
    pub rto_sum: [f64; 3],
    /// Σ of the backoff multiplier in force when the good state ended, per outcome: above 1 when Karn's rule
    /// kept an earlier backoff because no segment sent once had been acknowledged since.
    pub backoff_sum: [f64; 3],
    /// Measured good states that had ended but whose outcome was not yet known when the run ended (the next
    /// sampled good state not begun, or its losses not yet detected): with the counts above, every measured
    /// sampled good state that ended is counted exactly once.
    pub unresolved: u64,
}

/// Windows tracked one by one in [`VisitStats::by_window`].
pub const VISIT_WINDOWS: usize = 256;

/// A sampled good state that has ended: waiting for the next one to start (U) and for its outcome.
#[derive(Debug, Clone, Copy)]
struct EndedGood {
    end: f64,
    window: usize,
    loss: bool,
    timeouts: u64,
    fast_retransmits: u64,
    /// U, once the next sampled good state has started.
    effective_bad: Option<f64>,
    measured: bool,
    /// Base RTO and backoff multiplier when the good state ended.
    rto: f64,
    backoff: u32,
}

/// The observer that gathers [`VisitStats`] (what [`super::run_link`] runs).
#[derive(Debug, Clone)]
pub struct VisitObserver {
    /// Good states that end before the warm-up does are not measured.
    warmup: f64,
    /// The sampled good state in progress (its sojourn's start and end; NaN for none, which every comparison below
    /// finds false, as an option's None: asked at every event, it costs less as two floats), and those that ended and
    /// wait for their outcome (several when bad visits come faster than TCP detects their losses).
    sampled: (f64, f64),
    ended: VecDeque<EndedGood>,
    visits: VisitStats,
    /// The sender's (timeouts, fast retransmits) at the last classification: an ended state that waited then waits
    /// until one of them moves.
    classified_at: (u64, u64),
}

/// No sampled good state in progress (`VisitObserver::sampled`).
const NONE_SAMPLED: (f64, f64) = (f64::NAN, f64::NAN);

impl Default for VisitObserver {
    /// [`VisitObserver::new`] with no warm-up.
    fn default() -> Self {
        Self::new(0.0)
    }
}

impl VisitObserver {
    /// An observer that measures good states ending at or after `warmup`.
    pub fn new(warmup: f64) -> Self {
        VisitObserver { warmup, sampled: NONE_SAMPLED, ended: VecDeque::new(), visits: VisitStats::default(),
                        classified_at: (0, 0) }
    }

    /// The statistics so far; good states still waiting for their outcome count as unresolved.
    pub fn stats(&self) -> VisitStats {
        VisitStats { unresolved: self.ended.iter().filter(|e| e.measured).count() as u64, ..self.visits.clone() }
    }

    /// Decide the outcome of each ended good state whose outcome is known: no loss in its bad visit; a
    /// timeout since it ended; else a fast retransmit since. The others wait (losses not yet detected).
    fn classify_ended(&mut self, sender: &Sender) {
        let sc = sender.counters();
        self.classified_at = (sc.timeouts, sc.fast_retransmits);
        let visits = &mut self.visits;
        self.ended.retain(|e| {
            let Some(u) = e.effective_bad else { return true };
            let outcome = if !e.loss {
                0
            } else if sc.timeouts > e.timeouts {
                2
            } else if sc.fast_retransmits > e.fast_retransmits {
                1
            } else {
                return true;
            };
            if e.measured {
                if visits.by_window.is_empty() {
                    visits.by_window = vec![[0; 3]; VISIT_WINDOWS];
                }
                visits.by_window[e.window - 1][outcome] += 1;
                visits.effective_bad_sum[outcome] += u;
                visits.effective_bad_count[outcome] += 1;
                visits.rto_sum[outcome] += e.rto;
                visits.backoff_sum[outcome] += f64::from(e.backoff);
            }
            false
        });
    }
}

impl LinkObserver for VisitObserver {
    /// A sampled good state whose sojourn ended by `now` has ended, at window W'.
    #[inline]
    fn before_event(&mut self, now: f64, sender: &Sender) {
        let (_, end) = self.sampled;
        if end <= now {
            let sc = sender.counters();
            self.sampled = NONE_SAMPLED;
            self.ended.push_back(EndedGood {
                end,
                window: (sender.cwnd() as usize).clamp(1, VISIT_WINDOWS),
                loss: false,
                timeouts: sc.timeouts,
                fast_retransmits: sc.fast_retransmits,
                effective_bad: None,
                measured: end >= self.warmup,
                rto: sender.rto_estimator().base(),
                backoff: sender.rto_estimator().backoff(),
            });
        }
    }

    /// A loss after the last good state ended falls in its bad visit.
    #[inline]
    fn on_channel_loss(&mut self, now: f64) {
        if let Some(e) = self.ended.back_mut().filter(|e| e.effective_bad.is_none() && now > e.end) {
            e.loss = true;
        }
    }

    /// A packet got through in [start, ...): its good sojourn is sampled; a new one ends the effective bad
    /// duration of the state before.
    #[inline]
    fn on_survived<C: LinkChannel + ?Sized>(&mut self, start: f64, channel: &mut C, sender: &Sender) -> Result<()> {
        if self.sampled.0 <= start && start < self.sampled.1 {
            return Ok(()); // the same good sojourn: no need to ask the channel (the common case)
        }
        let Some((good_start, good_end, _)) = channel.sojourn_at(start)? else { return Ok(()) };
        if self.sampled.0 == good_start {
            return Ok(());
        }
        self.sampled = (good_start, good_end);
        if let Some(e) = self.ended.back_mut().filter(|e| e.effective_bad.is_none()) {
            e.effective_bad = Some(start - e.end);
        }
        self.classify_ended(sender);
        Ok(())
    }

    /// The sender's counts move only when it takes an ACK or a timeout: an ended state waiting for them is looked at
    /// again then.
    #[inline]
    fn after_sends(&mut self, _now: f64, sender: &Sender) {
        if self.ended.front().is_some_and(|e| e.effective_bad.is_some()) {
            let sc = sender.counters();
            if (sc.timeouts, sc.fast_retransmits) != self.classified_at {
                self.classify_ended(sender);
            }
        }
    }
}
