//! The retransmission timeout: fixed (the slotted model, BRIEF D2) or estimated from RTT samples as in
//! RFC 6298 with binary exponential backoff (the event-driven model).
//!
//! RFC 6298 §2: before the first sample RTO = the initial value; the first sample R sets SRTT = R,
//! RTTVAR = R/2; each later sample R' sets RTTVAR = (1 − β) RTTVAR + β |SRTT − R'| (β = 1/4), then
//! SRTT = (1 − α) SRTT + α R' (α = 1/8); RTO = SRTT + max(G, 4 RTTVAR), clamped to [min, max]. §3
//! (Karn): no sample from a retransmitted segment, and the backed-off RTO stays until a valid sample
//! arrives. §5.5: each expiry doubles the RTO; here the multiplier stops at `max_backoff` (64 in ns-2,
//! the simulator abouzeid validate against).
//!
//! Linux's estimator ([`RtoPolicy::Linux`], `tcp_rtt_estimator()` and `__tcp_set_rto()` in net/ipv4/tcp_input.c
//! and include/net/tcp.h) differs in three ways that matter when timeouts do. Its variance term, `rttvar_us`, is
//! the largest `mdev` (4·RTTVAR in the RFC's terms) seen in the current round, floored at `tcp_rto_min`, and
//! decays toward it by a quarter per round (a round ends when the cumulative ACK passes what was the highest sent
//! at its start); RTO = SRTT + rttvar_us, so the minimum bounds the variance term and the RTO is at least SRTT +
//! 200 ms where RFC 6298's is at least 200 ms. A sample below SRTT moves `mdev` with an eighth of the usual gain
//! (the kernel's Eifel-like rule). The first sample gives SRTT = R, mdev = 2R, so RTO = R + max(2R, min).

use crate::check;
use crate::error::Result;

/// Parameters of the RFC 6298 estimator. [`Rfc6298::ns2`] has ns-2's defaults.
/// Whether an RTT sample is a time: finite and not negative (NaN, an infinity, or a caller's clock gone backwards is
/// none, and every entry that takes a sample ignores it).
#[inline(always)]
pub fn is_time(rtt: f64) -> bool {
    rtt.is_finite() && rtt >= 0.0
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rfc6298 {
    /// RTO before the first RTT sample \[s\].
    pub initial: f64,
    /// Lower bound of the RTO \[s\].
    pub min: f64,
    /// Upper bound of the RTO \[s\], backoff included.
    pub max: f64,
    /// Clock granularity G \[s\] (ns-2's tcpTick).
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
    /// Estimated as Linux does (module documentation), with the same parameters: `min` is `tcp_rto_min` and bounds
    /// the variance term; the RTO is rounded up to the clock tick (`usecs_to_jiffies()`).
    Linux(Rfc6298),
}

impl RtoPolicy {
    /// The estimator's parameters, unless the RTO is fixed.
    pub fn estimated(&self) -> Option<Rfc6298> {
        match *self {
            RtoPolicy::Fixed(_) => None,
            RtoPolicy::Rfc6298(p) | RtoPolicy::Linux(p) => Some(p),
        }
    }
}

/// Linux's variance state (`tcp_sock`'s mdev_us, mdev_max_us, rttvar_us and rtt_seq), in seconds and packets.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct LinuxVariance {
    /// 4 × the smoothed mean deviation.
    mdev: f64,
    /// The largest `mdev` of the current round, at least the minimum.
    mdev_max: f64,
    /// The RTO's variance term.
    rttvar: f64,
    /// The round ends when the cumulative ACK passes it.
    rtt_seq: u64,
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
    linux: LinuxVariance,
}

impl RtoEstimator {
    /// A fresh estimator.
    pub fn new(policy: RtoPolicy) -> Self {
        let base = match policy {
            RtoPolicy::Fixed(rto) => rto,
            RtoPolicy::Rfc6298(p) | RtoPolicy::Linux(p) => p.initial.clamp(p.min, p.max),
        };
        RtoEstimator {
            policy,
            srtt: None,
            rttvar: 0.0,
            base,
            backoff: 1,
            samples: 0,
            sample_sum: 0.0,
            linux: LinuxVariance::default(),
        }
    }

    /// The timeout to arm now (backoff included).
    #[inline]
    pub fn rto(&self) -> f64 {
        match self.policy {
            RtoPolicy::Fixed(rto) => rto,
            RtoPolicy::Rfc6298(p) | RtoPolicy::Linux(p) => crate::earlier(self.base * f64::from(self.backoff), p.max),
        }
    }

    /// A valid RTT sample (Karn: of a segment sent once) outside the data path's rounds (a SYN's, say): as
    /// [`RtoEstimator::on_sample_at`] with no sequence numbers, so it ends no round of Linux's estimator.
    pub fn on_sample(&mut self, rtt: f64) {
        self.on_sample_at(rtt, 0, 0);
    }

    /// A valid RTT sample from an ACK that moved the cumulative ACK to `una` when `snd_nxt` was one past the highest
    /// sent: update SRTT and the variance, the RTO, and end any backoff. A sample that is not a time
    /// ([`is_time`]) is no measurement and is ignored, so that SRTT, the RTO and what reads them (CUBIC's RTT) stay
    /// finite.
    pub fn on_sample_at(&mut self, rtt: f64, una: u64, snd_nxt: u64) {
        if is_time(rtt) {
            self.take_sample(rtt, una, snd_nxt);
        }
    }

    /// [`RtoEstimator::on_sample_at`] of a sample the caller found to be a time (the sender, which checks it once for
    /// this and its RTT record).
    #[inline]
    pub(crate) fn take_sample(&mut self, rtt: f64, una: u64, snd_nxt: u64) {
        debug_assert!(is_time(rtt));
        self.samples += 1;
        self.sample_sum += rtt;
        let p = match self.policy {
            RtoPolicy::Fixed(_) => return,
            RtoPolicy::Linux(p) => return self.linux_sample(p, rtt, una, snd_nxt),
            RtoPolicy::Rfc6298(p) => p,
        };
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

    /// `tcp_rtt_estimator()` and `__tcp_set_rto()` (module documentation).
    fn linux_sample(&mut self, p: Rfc6298, rtt: f64, una: u64, snd_nxt: u64) {
        let v = &mut self.linux;
        match self.srtt {
            None => {
                self.srtt = Some(rtt);
                v.mdev = 2.0 * rtt;
                v.rttvar = v.mdev.max(p.min);
                v.mdev_max = v.rttvar;
                v.rtt_seq = snd_nxt;
            }
            Some(srtt) => {
                let error = rtt - srtt;
                self.srtt = Some(srtt + error / 8.0);
                let mut step = error.abs() - v.mdev / 4.0;
                if error < 0.0 && step > 0.0 {
                    step /= 8.0; // a falling RTT raises mdev with gain 1/32, not 1/4
                }
                v.mdev += step;
                if v.mdev > v.mdev_max {
                    v.mdev_max = v.mdev;
                    v.rttvar = v.rttvar.max(v.mdev_max);
                }
                if una > v.rtt_seq {
                    // A round ended: rttvar decays toward the round's largest mdev (at least the minimum).
                    if v.mdev_max < v.rttvar {
                        v.rttvar -= (v.rttvar - v.mdev_max) / 4.0;
                    }
                    v.rtt_seq = snd_nxt;
                    v.mdev_max = p.min;
                }
            }
        }
        self.rttvar = v.mdev / 4.0;
        let rto = self.srtt.expect("just set") + v.rttvar;
        let rto = if p.granularity > 0.0 { (rto / p.granularity).ceil() * p.granularity } else { rto };
        self.base = rto.min(p.max);
        self.backoff = 1;
    }

    /// The timer expired: double the RTO (up to the largest multiplier).
    pub fn on_timeout(&mut self) {
        if let Some(p) = self.policy.estimated() {
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

    /// RTT variation: RFC 6298's RTTVAR (with Linux's estimator, its `mdev` / 4, the same smoothed deviation).
    pub fn rttvar(&self) -> f64 {
        self.rttvar
    }

    /// RTO before backoff \[s\] (the initial RTO until the first sample).
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

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} != {b}");
    }

    #[test]
    fn linux_floors_the_variance_term_and_decays_it_by_rounds_by_hand() {
        let p = Rfc6298 { initial: 1.0, min: 0.2, max: 120.0, granularity: 0.0, max_backoff: 64 };
        let mut e = RtoEstimator::new(RtoPolicy::Linux(p));
        assert_eq!(e.rto(), 1.0);
        // First sample R = 0.1 (una 1, snd_nxt 10): SRTT 0.1, mdev 2R = 0.2, rttvar = max(0.2, min) = 0.2.
        e.on_sample_at(0.1, 1, 10);
        close(e.rto(), 0.3);
        // R = 0.1 within the round (una 5 <= rtt_seq 10): mdev = 0.2 + (0 - 0.2/4) = 0.15; rttvar keeps 0.2.
        e.on_sample_at(0.1, 5, 14);
        close(e.rttvar(), 0.15 / 4.0);
        close(e.rto(), 0.3);
        // Fifty rounds of R = 0.1: mdev falls to ~0, but each round's mdev_max restarts at the minimum, so
        // RTO = SRTT + 200 ms, where RFC 6298 with the same minimum gives max(SRTT + 4 RTTVAR, 0.2) = 0.2.
        for i in 0..50 {
            e.on_sample_at(0.1, 11 + 10 * i, 20 + 10 * i);
        }
        close(e.rto(), 0.3);
        let mut rfc = RtoEstimator::new(RtoPolicy::Rfc6298(p));
        for _ in 0..52 {
            rfc.on_sample(0.1);
        }
        close(rfc.rto(), 0.2);
        // A spike R = 0.9 within the round (rtt_seq 510): SRTT 0.2, mdev ~0.8 > mdev_max, so rttvar = 0.8.
        e.on_sample_at(0.9, 505, 520);
        assert!((e.rto() - 1.0).abs() < 1e-6, "{}", e.rto());
        // R = 0.2 ending the round (una 515 > 510): mdev 0.6; the round's mdev_max 0.8 is not below rttvar, so no
        // decay; the next round starts at rtt_seq 520 with mdev_max = 0.2.
        e.on_sample_at(0.2, 515, 520);
        assert!((e.rto() - 1.0).abs() < 1e-6, "{}", e.rto());
        // R = 0.2 ending that round (525 > 520): mdev 0.45 becomes its mdev_max, then rttvar decays by a quarter of
        // its excess over it: 0.8 - (0.8 - 0.45) / 4 = 0.7125; RTO = 0.2 + 0.7125.
        e.on_sample_at(0.2, 525, 540);
        assert!((e.rto() - 0.9125).abs() < 1e-6, "{}", e.rto());
        // A falling sample R = 0.04 (error -0.16): |error| - mdev/4 = 0.16 - 0.1125 = 0.0475 > 0 moves mdev by an
        // eighth of it (gain 1/32): 0.45 + 0.0059375, where RFC 6298's gain would give 0.4975. SRTT 0.18.
        e.on_sample_at(0.04, 530, 545);
        assert!((e.rttvar() - 0.4559375 / 4.0).abs() < 1e-6, "{}", e.rttvar());
        assert!((e.rto() - (0.18 + 0.7125)).abs() < 1e-6, "{}", e.rto());
        // Backoff as RFC 6298's, and a valid sample ends it.
        e.on_timeout();
        assert!((e.rto() - 2.0 * (0.18 + 0.7125)).abs() < 1e-6);
    }

    #[test]
    fn linux_rounds_the_rto_up_to_the_clock_tick() {
        let p = Rfc6298 { initial: 1.0, min: 0.2, max: 120.0, granularity: 0.001, max_backoff: 64 };
        let mut e = RtoEstimator::new(RtoPolicy::Linux(p));
        e.on_sample_at(0.1234567, 1, 2); // 0.1234567 + max(0.2469134, 0.2) = 0.3703701, up to the millisecond
        close(e.rto(), 0.371);
    }
}
