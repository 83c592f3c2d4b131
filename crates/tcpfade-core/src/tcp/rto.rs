//! The retransmission timeout: fixed (the slotted model, BRIEF D2) or estimated from RTT samples as in
//! RFC 6298 with binary exponential backoff (the event-driven model).
//!
//! RFC 6298 §2: before the first sample RTO = the initial value; the first sample R sets SRTT = R,
//! RTTVAR = R/2; each later sample R' sets RTTVAR = (1 − β) RTTVAR + β |SRTT − R'| (β = 1/4), then
//! SRTT = (1 − α) SRTT + α R' (α = 1/8); RTO = SRTT + max(G, 4 RTTVAR), clamped to [min, max]. §3
//! (Karn): no sample from a retransmitted segment, and the backed-off RTO stays until a valid sample
//! arrives. §5.5: each expiry doubles the RTO; here the multiplier stops at `max_backoff` (64 in ns-2,
//! the simulator abouzeid validate against).

use crate::check;
use crate::error::Result;

/// Parameters of the RFC 6298 estimator. [`Rfc6298::ns2`] has ns-2's defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rfc6298 {
    /// RTO before the first RTT sample [s].
    pub initial: f64,
    /// Lower bound of the RTO [s].
    pub min: f64,
    /// Upper bound of the RTO [s], backoff included.
    pub max: f64,
    /// Clock granularity G [s] (ns-2's tcpTick).
    pub granularity: f64,
    /// Largest backoff multiplier (a power of two).
    pub max_backoff: u32,
}

impl Rfc6298 {
    /// ns-2's TCP defaults of abouzeid's time (2001-2002) with the fine-grained clock of §V: initial RTO
    /// (rtxcur_init_) 3 s, no minimum (minrto_ 0 until 2004; ns-2 floors the RTO at two ticks, 0.02 s),
    /// maximum (maxrto_) 64 s, tcpTick 0.01 s, backoff up to 64×. docs/models.md has why this matters:
    /// with today's 0.2-1 s minimum, abouzeid's fast-fading row loses 60% of its goodput.
    pub fn ns2() -> Self {
        Rfc6298 { initial: 3.0, min: 0.02, max: 64.0, granularity: 0.01, max_backoff: 64 }
    }

    /// RFC 6298's own values: initial 1 s, minimum 1 s, maximum 60 s (§2.4-2.5), a 10 ms clock.
    pub fn rfc() -> Self {
        Rfc6298 { initial: 1.0, min: 1.0, max: 60.0, granularity: 0.01, max_backoff: 64 }
    }

    /// Checked parameters.
    pub fn validate(&self) -> Result<()> {
        check::positive("initial_rto", self.initial)?;
        check::positive("min_rto", self.min)?;
        check::positive("max_rto", self.max)?;
        if self.max < self.min {
            return Err(crate::error::Error::invalid(
                "max_rto",
                self.max,
                &format!("must be >= min_rto (= {})", self.min),
            ));
        }
        check::non_negative("clock_granularity", self.granularity)?;
        check::int_in("max_backoff", u64::from(self.max_backoff), 1, 1 << 20)?;
        if !self.max_backoff.is_power_of_two() {
            return Err(crate::error::Error::invalid("max_backoff", self.max_backoff, "must be a power of two"));
        }
        Ok(())
    }
}

/// How the sender's timer gets its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RtoPolicy {
    /// Always this value, no backoff (the slotted model: T0).
    Fixed(f64),
    /// Estimated from RTT samples (RFC 6298) with backoff.
    Rfc6298(Rfc6298),
}

/// The estimator's state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RtoEstimator {
    policy: RtoPolicy,
    srtt: Option<f64>,
    rttvar: f64,
    /// RTO before backoff.
    base: f64,
    backoff: u32,
    samples: u64,
    sample_sum: f64,
}

impl RtoEstimator {
    /// A fresh estimator.
    pub fn new(policy: RtoPolicy) -> Self {
        let base = match policy {
            RtoPolicy::Fixed(rto) => rto,
            RtoPolicy::Rfc6298(p) => p.initial.clamp(p.min, p.max),
        };
        RtoEstimator { policy, srtt: None, rttvar: 0.0, base, backoff: 1, samples: 0, sample_sum: 0.0 }
    }

    /// The timeout to arm now (backoff included).
    #[inline]
    pub fn rto(&self) -> f64 {
        match self.policy {
            RtoPolicy::Fixed(rto) => rto,
            RtoPolicy::Rfc6298(p) => (self.base * f64::from(self.backoff)).min(p.max),
        }
    }

    /// A valid RTT sample (Karn: of a segment sent once): update SRTT, RTTVAR and the RTO, and end any
    /// backoff.
    pub fn on_sample(&mut self, rtt: f64) {
        self.samples += 1;
        self.sample_sum += rtt;
        let RtoPolicy::Rfc6298(p) = self.policy else { return };
        let (alpha, beta) = (1.0 / 8.0, 1.0 / 4.0);
        match self.srtt {
            None => {
                self.srtt = Some(rtt);
                self.rttvar = rtt / 2.0;
            }
            Some(srtt) => {
                self.rttvar = (1.0 - beta) * self.rttvar + beta * (srtt - rtt).abs();
                self.srtt = Some((1.0 - alpha) * srtt + alpha * rtt);
            }
        }
        let srtt = self.srtt.expect("just set");
        self.base = (srtt + p.granularity.max(4.0 * self.rttvar)).clamp(p.min, p.max);
        self.backoff = 1;
    }

    /// The timer expired: double the RTO (up to the largest multiplier).
    pub fn on_timeout(&mut self) {
        if let RtoPolicy::Rfc6298(p) = self.policy {
            self.backoff = (self.backoff * 2).min(p.max_backoff);
        }
    }

    /// End any backoff without a sample: for a round trip that was unambiguous but not a data segment's
    /// (a TCP-Probing exchange), which shows the path works but must not enter SRTT.
    pub fn end_backoff(&mut self) {
        self.backoff = 1;
    }

    /// Smoothed RTT, once there is a sample.
    pub fn srtt(&self) -> Option<f64> {
        self.srtt
    }

    /// RTT variation.
    pub fn rttvar(&self) -> f64 {
        self.rttvar
    }

    /// RTO before backoff [s] (the initial RTO until the first sample).
    pub fn base(&self) -> f64 {
        self.base
    }

    /// Current backoff multiplier.
    pub fn backoff(&self) -> u32 {
        self.backoff
    }

    /// Number of valid RTT samples and their sum.
    pub fn sample_totals(&self) -> (u64, f64) {
        (self.samples, self.sample_sum)
    }

    /// The policy.
    pub fn policy(&self) -> RtoPolicy {
        self.policy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rfc(min: f64) -> RtoEstimator {
        RtoEstimator::new(RtoPolicy::Rfc6298(Rfc6298 {
            initial: 1.0,
            min,
            max: 60.0,
            granularity: 0.01,
            max_backoff: 64,
        }))
    }

    #[test]
    fn first_and_later_samples_follow_rfc6298_by_hand() {
        let mut e = rfc(0.0001);
        assert_eq!(e.rto(), 1.0);
        // R = 0.1: SRTT = 0.1, RTTVAR = 0.05, RTO = 0.1 + max(0.01, 0.2) = 0.3.
        e.on_sample(0.1);
        assert!((e.rto() - 0.3).abs() < 1e-12);
        // R' = 0.2: RTTVAR = 0.75 * 0.05 + 0.25 * 0.1 = 0.0625; SRTT = 0.875 * 0.1 + 0.125 * 0.2 = 0.1125;
        // RTO = 0.1125 + 4 * 0.0625 = 0.3625.
        e.on_sample(0.2);
        assert!((e.srtt().unwrap() - 0.1125).abs() < 1e-12 && (e.rttvar() - 0.0625).abs() < 1e-12);
        assert!((e.rto() - 0.3625).abs() < 1e-12);
    }

    #[test]
    fn granularity_minimum_and_maximum_bound_the_rto() {
        let mut e = rfc(0.0001);
        for _ in 0..200 {
            e.on_sample(0.05); // RTTVAR decays toward 0: RTO -> SRTT + G
        }
        assert!((e.rto() - 0.06).abs() < 1e-9, "{}", e.rto());
        let mut e = rfc(0.2);
        e.on_sample(0.01);
        assert_eq!(e.rto(), 0.2);
        e.on_sample(100.0);
        assert_eq!(e.rto(), 60.0);
    }

    #[test]
    fn backoff_doubles_to_64_times_and_a_valid_sample_ends_it() {
        let mut e = rfc(0.2);
        e.on_sample(0.1); // RTO 0.3
        let mut expected = 0.3;
        for _ in 0..10 {
            e.on_timeout();
            expected = (expected * 2.0_f64).min(0.3 * 64.0);
            assert!((e.rto() - expected).abs() < 1e-12, "{} {}", e.rto(), expected);
        }
        assert_eq!(e.backoff(), 64);
        e.on_sample(0.1);
        assert_eq!(e.backoff(), 1);
        assert!(e.rto() < 0.3);
    }

    #[test]
    fn a_fixed_rto_never_moves() {
        let mut e = RtoEstimator::new(RtoPolicy::Fixed(100.0));
        e.on_sample(3.0);
        e.on_timeout();
        assert_eq!(e.rto(), 100.0);
        assert_eq!(e.sample_totals(), (1, 3.0));
    }
}
