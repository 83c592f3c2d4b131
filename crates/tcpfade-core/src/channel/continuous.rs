//! Continuous-time two-state channel (abouzeid §III; VDELDROP of tsaoussidis §4).
//!
//! An alternating good (0) / bad (1) process with exponential sojourns of means E\[X\] (good) and
//! E\[Y\] (bad), started in its stationary distribution (bad with probability
//! f = E\[Y\] / (E\[X\] + E\[Y\]), abouzeid eq. (1)). It evolves in time whatever the sender does: the
//! sojourns come from their own random stream, so the sample path is fixed by the seed and the
//! packets asked about do not change it.
//!
//! A packet occupying `[t, t + d)` is judged by a [`ContinuousLossRule`]:
//! - `AnyInstant` (abouzeid §III, item 4): each state the packet meets may corrupt it, with
//!   probability p0 (good) or p1 (bad), independently; with the defaults p0 = 0, p1 = 1 the
//!   packet is lost when the channel is bad at any instant of it.
//! - `StateAtStart` (VDELDROP): the packet is dropped with the drop rate r_i of the state it meets
//!   when its transmission starts.

use crate::check;
use crate::error::{Error, Result};
use crate::rng::{stream, Rng, Stream};
use rand::Rng as _;
use std::collections::VecDeque;

/// How a packet is judged by the continuous-time channel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContinuousLossRule {
    /// Loss probability per state met during the packet: [good, bad] (abouzeid p0, p1).
    AnyInstant([f64; 2]),
    /// Drop rate of the state at the start of the packet: [good, bad] (VDELDROP r_i).
    StateAtStart([f64; 2]),
}

/// A continuous-time alternating two-state channel.
#[derive(Debug, Clone)]
pub struct ContinuousTwoState {
    mean: [f64; 2],
    rule: ContinuousLossRule,
    /// Sojourns (start time, state) covering [segments[0].0, horizon), in order.
    segments: VecDeque<(f64, u8)>,
    /// A packet's chance to survive each state (1 − its loss probability), and that of the state of `segments[0]`,
    /// read for every packet ([`ContinuousTwoState::packet_lost`]).
    survive: [f64; 2],
    first_survive: f64,
    horizon: f64,
    latest_query: f64,
    state_rng: Rng,
    loss_rng: Rng,
}

impl ContinuousTwoState {
    /// Channel with mean good duration `mean_good` = E\[X\] and mean bad duration `mean_bad` = E\[Y\]
    /// (any time unit, used consistently), judging packets by `rule`.
    pub fn new(mean_good: f64, mean_bad: f64, rule: ContinuousLossRule, seed: u64) -> Result<Self> {
        check::positive("mean_good", mean_good)?;
        check::positive("mean_bad", mean_bad)?;
        let loss = match rule {
            ContinuousLossRule::AnyInstant(l) | ContinuousLossRule::StateAtStart(l) => l,
        };
        check::probability("loss_good", loss[0])?;
        check::probability("loss_bad", loss[1])?;
        let mut state_rng = stream(seed, Stream::ChannelState);
        let bad_fraction = mean_bad / (mean_good + mean_bad);
        let first = u8::from(state_rng.random::<f64>() < bad_fraction);
        let mut channel = ContinuousTwoState {
            mean: [mean_good, mean_bad],
            rule,
            segments: VecDeque::from([(0.0, first)]),
            survive: [1.0 - loss[0], 1.0 - loss[1]],
            first_survive: 1.0 - loss[usize::from(first)],
            horizon: 0.0,
            latest_query: 0.0,
            state_rng,
            loss_rng: stream(seed, Stream::ChannelLoss),
        };
        // Memoryless: the residual first sojourn has the law of a whole one.
        channel.horizon = channel.sojourn(first);
        Ok(channel)
    }

    /// Fraction of time in the bad state, f = E\[Y\] / (E\[X\] + E\[Y\]) (abouzeid eq. (1)).
    pub fn bad_fraction(&self) -> f64 {
        self.mean[1] / (self.mean[0] + self.mean[1])
    }

    fn sojourn(&mut self, state: u8) -> f64 {
        let u = 1.0 - self.state_rng.random::<f64>();
        -self.mean[state as usize] * u.ln()
    }

    /// The next sojourn, after the last one generated.
    #[inline]
    fn push_next(&mut self) {
        let next = 1 - self.segments.back().expect("never empty").1;
        let start = self.horizon;
        self.horizon = start + self.sojourn(next);
        self.segments.push_back((start, next));
    }

    /// Generate sojourns until the path covers [.., until].
    fn extend_to(&mut self, until: f64) {
        while self.horizon <= until {
            self.push_next();
        }
    }

    /// Move the query clock to `t`, forgetting sojourns that ended before it. The path is extended to `t` (which may
    /// lie beyond every sojourn generated so far) one sojourn at a time, each forgotten as soon as a later one
    /// begins at or before `t`: a query far ahead keeps one sojourn, not every one on the way (a first query at
    /// t = 4·10⁹ s with sojourns of 30 s had asked for 4 GiB).
    fn advance_to(&mut self, t: f64) -> Result<()> {
        if !t.is_finite() || t < self.latest_query {
            return Err(Error::TimeWentBackwards { requested: t, current: self.latest_query });
        }
        self.latest_query = t;
        loop {
            while self.segments.len() > 1 && self.segments[1].0 <= t {
                self.segments.pop_front();
                self.first_survive = self.survive[usize::from(self.segments[0].1)];
            }
            if self.horizon > t {
                return Ok(());
            }
            self.push_next();
        }
    }

    /// States met during [t, t + d): (met good, met bad). Requires t >= every earlier query.
    fn states_met(&mut self, t: f64, d: f64) -> Result<[bool; 2]> {
        self.advance_to(t)?;
        let end = t + d;
        self.extend_to(end);
        let mut met = [false; 2];
        for (i, &(start, state)) in self.segments.iter().enumerate() {
            if start >= end && i > 0 {
                break;
            }
            met[state as usize] = true;
        }
        Ok(met)
    }

    /// State at time `t` (non-decreasing over calls).
    pub fn state_at(&mut self, t: f64) -> Result<u8> {
        self.advance_to(t)?;
        self.extend_to(t);
        Ok(self.segments[0].1)
    }

    /// The sojourn containing time `t` (non-decreasing over calls): its start, end and state.
    pub fn segment_at(&mut self, t: f64) -> Result<(f64, f64, u8)> {
        self.advance_to(t)?;
        self.extend_to(t);
        let (start, state) = self.segments[0];
        let end = if self.segments.len() > 1 { self.segments[1].0 } else { self.horizon };
        Ok((start, end, state))
    }

    /// Whether a packet occupying `[start, start + duration)` is lost. Start times must be
    /// non-decreasing over calls; packets may overlap.
    #[inline]
    pub fn packet_lost(&mut self, start: f64, duration: f64) -> Result<bool> {
        // The common case, a packet inside the one sojourn kept: the general path below would find the same single
        // state and draw the same number, at several times the cost per packet (NaN and infinities fail a test here).
        // Inline in the driver's loop, the rest out of line.
        if self.segments.len() == 1 && start >= self.latest_query && duration >= 0.0 && start + duration < self.horizon {
            self.latest_query = start;
            let survive = self.first_survive;
            return Ok(survive < 1.0 && self.loss_rng.random::<f64>() >= survive);
        }
        self.packet_lost_across(start, duration)
    }

    /// [`ContinuousTwoState::packet_lost`] of a packet that may meet more than one sojourn.
    #[inline(never)]
    fn packet_lost_across(&mut self, start: f64, duration: f64) -> Result<bool> {
        check::non_negative("duration", duration)?;
        let survive = match self.rule {
            ContinuousLossRule::AnyInstant(loss) => {
                let met = self.states_met(start, duration)?;
                (0..2).filter(|&s| met[s]).map(|s| 1.0 - loss[s]).product::<f64>()
            }
            ContinuousLossRule::StateAtStart(loss) => 1.0 - loss[self.state_at(start)? as usize],
        };
        Ok(survive < 1.0 && self.loss_rng.random::<f64>() >= survive)
    }

    /// Time spent in the bad state during [t0, t1) (t0 non-decreasing over calls).
    pub fn bad_time(&mut self, t0: f64, t1: f64) -> Result<f64> {
        self.advance_to(t0)?;
        self.extend_to(t1);
        let mut bad = 0.0;
        let n = self.segments.len();
        for i in 0..n {
            let (start, state) = self.segments[i];
            let stop = if i + 1 < n { self.segments[i + 1].0 } else { self.horizon };
            let (a, b) = (start.max(t0), stop.min(t1));
            if state == 1 && b > a {
                bad += b - a;
            }
        }
        Ok(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_query_far_ahead_keeps_one_sojourn_and_the_same_path() {
        let rule = ContinuousLossRule::AnyInstant([0.0, 1.0]);
        let mut far = ContinuousTwoState::new(0.01, 0.01, rule, 4).unwrap();
        let mut stepped = far.clone();
        // About 10⁵ sojourns lie before t = 1000: none of them is kept once the query has passed them.
        let state = far.state_at(1000.0).unwrap();
        assert!(far.segments.len() <= 2, "{} sojourns kept", far.segments.len());
        for i in 1..=1000 {
            stepped.state_at(f64::from(i)).unwrap();
        }
        assert_eq!(stepped.state_at(1000.0).unwrap(), state);
    }

    #[test]
    fn sample_path_does_not_depend_on_queries() {
        let rule = ContinuousLossRule::AnyInstant([0.0, 1.0]);
        let mut a = ContinuousTwoState::new(0.1, 0.01, rule, 9).unwrap();
        let mut b = a.clone();
        // Ask `a` about many packets first; its states at later times must equal b's.
        for i in 0..1000 {
            a.packet_lost(i as f64 * 0.003, 0.001).unwrap();
        }
        for i in 0..200 {
            let t = 3.0 + i as f64 * 0.05;
            assert_eq!(a.state_at(t).unwrap(), b.state_at(t).unwrap());
        }
    }

    #[test]
    fn a_query_far_beyond_the_generated_path_sees_the_state_at_that_time() {
        // Regression: the front sojourn must be the one covering t, not a stale earlier one.
        // Queries every 0.5 s (many sojourns apart) must agree with a reference queried every ms.
        let rule = ContinuousLossRule::AnyInstant([0.0, 1.0]);
        let mut jumped = ContinuousTwoState::new(0.1, 0.01, rule, 4).unwrap();
        let mut fine = jumped.clone();
        for i in 0..2000 {
            let t = i as f64 * 0.5;
            if i > 0 {
                for k in 1..500 {
                    fine.state_at(t - 0.5 + k as f64 * 0.001).unwrap();
                }
            }
            assert_eq!(jumped.state_at(t).unwrap(), fine.state_at(t).unwrap(), "t = {t}");
        }
    }

    #[test]
    fn going_back_in_time_is_an_error() {
        let rule = ContinuousLossRule::StateAtStart([0.0, 0.5]);
        let mut c = ContinuousTwoState::new(1.0, 1.0, rule, 1).unwrap();
        c.packet_lost(5.0, 0.1).unwrap();
        assert!(matches!(c.packet_lost(4.0, 0.1), Err(Error::TimeWentBackwards { .. })));
    }
}
