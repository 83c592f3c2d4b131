//! A sender's parameters, declared once and checked where they enter. Which parts they select (BRIEF §3): the
//! variant names the loss detection and the recovery part; the rest parameterise the parts.

use super::probing::BestRtt;
use super::rto::{Rfc6298, RtoPolicy};
use super::prr::{PartialAck, PrrBound};
use super::rack::RackTimers;
use super::receiver::DelayedAckRule;
use super::rwnd::RwndRule;
use super::{LossDetection, Recovery, Variant};
use crate::check;
use crate::error::{Error, Result};

/// How Reno-style congestion control sets Wth at a loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SsthreshRule {
    /// Wth = ⌈W/2⌉ of the real-valued window (zorzi-rao §2; BRIEF D3): the papers' rule, the default.
    HalfWindow,
    /// Wth = max(FlightSize/2, 2) with FlightSize the segments outstanding (RFC 5681 §3.1, eq. (4)).
    HalfFlight,
}

impl SsthreshRule {
    /// The rule by name: "half_window" or "half_flight".
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "half_window" => Ok(SsthreshRule::HalfWindow),
            "half_flight" => Ok(SsthreshRule::HalfFlight),
            _ => Err(Error::invalid("ssthresh_rule", format!("'{name}'"), "must be half_window or half_flight")),
        }
    }
}

/// How CUBIC's Reno-friendly window W_est grows once it has reached cwnd_prior, the window before the last
/// reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CubicAlpha {
    /// RFC 9438 §4.3: α_cubic = 3(1 − β_cubic)/(1 + β_cubic) until W_est reaches cwnd_prior, then 1 (Reno's
    /// growth). The default.
    Rfc9438,
    /// Linux's `tcp_cubic.c` (`bictcp_update()`'s `beta_scale`): α_cubic = 3(1 − β_cubic)/(1 + β_cubic) throughout.
    Linux,
}

impl CubicAlpha {
    /// The rule by name: "rfc9438" or "linux".
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "rfc9438" => Ok(CubicAlpha::Rfc9438),
            "linux" => Ok(CubicAlpha::Linux),
            _ => Err(Error::invalid("cubic_alpha", format!("'{name}'"), "must be rfc9438 or linux")),
        }
    }
}

/// Parameters of a sender.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SenderConfig {
    /// The TCP variant.
    pub variant: Variant,
    /// Receiver's advertised window Wmax (packets): the most the sender has outstanding and cwnd's cap (less than the
    /// receiver's buffer when the sender's own buffer holds fewer packets, `receive_buffer`).
    pub wmax: u64,
    /// The receiver's buffer (packets), the most its window advertises (`Sender::rwnd`); at least `wmax`, which is
    /// this or the sender's buffer if that holds fewer. The same as `wmax` unless set.
    pub receive_buffer: u64,
    /// Duplicate-ACK threshold K (dupthresh).
    pub dupthresh: u64,
    /// Retransmission timeout: fixed T0 (in the driver's time unit) or RFC 6298.
    pub rto: RtoPolicy,
    /// Initial slow-start threshold Wth (packets).
    pub initial_ssthresh: f64,
    /// NewReno's recovery part only (NewReno, CUBIC): RFC 6582 §3.2 step 2 (a K-th duplicate ACK starts a fast
    /// retransmit only when the cumulative ACK covers more than `recover`, the highest packet sent when the last
    /// recovery or timeout began) and step 4 (`recover` set at each timeout). Off by default (BRIEF D10): the
    /// NewReno of the papers and of the analyses has no guard.
    pub recover_guard: bool,
    /// A finite transfer of this many segments (sequence numbers 0 … n − 1); None: always data to send.
    pub segments: Option<u64>,
    /// Appropriate byte counting (RFC 3465): an ACK of new data grows W by the segments it acknowledges (at
    /// most L = 2 in slow start, RFC 3465 §2.2) rather than by one ACK's worth, as Linux does. Off by default:
    /// the papers' TCP grows per ACK (zorzi-rao §2); it only matters with delayed or lost ACKs.
    pub byte_counting: bool,
    /// TCP-Probing only: which RTT samples make best RTT, the lower bound of the end-of-cycle rule
    /// (tsaoussidis-badr §3.1; BRIEF D12).
    pub best_rtt: BestRtt,
    /// Initial window IW in segments: W at the start of the connection (RFC 5681 §3.1; RFC 3390 allows up to
    /// 4 segments, RFC 6928 10). 1 by default: the papers' TCP starts at W = 1 (zorzi-rao §2). It never
    /// exceeds Wmax, and it is not the loss window: after a timeout W = 1 whatever IW (RFC 5681 §3.1, LW).
    pub initial_window: u64,
    /// Wth at a loss for the Reno-style congestion part (CUBIC has its own, β_cubic · W).
    pub ssthresh_rule: SsthreshRule,
    /// SACK (RFC 2018 blocks at the receiver, RFC 6675 loss recovery at the sender) in place of the variant's
    /// fast recovery (Reno, NewReno, CUBIC). Off by default: the papers' TCP has no SACK.
    pub sack: bool,
    /// PRR (RFC 6937) as the window rule during fast recovery, with its reduction bound: SACK's recovery's, or
    /// without SACK the cumulative one's ([`super::prr`]). None: RFC 6675's own (cwnd = ssthresh at entry), or
    /// the inflation of RFC 5681 §3.2 without SACK.
    pub prr: Option<PrrBound>,
    /// RACK-TLP (RFC 8985) as the loss detection of SACK's recovery: losses marked by transmit time (RACK) in place
    /// of DupThresh and IsLost, and tail loss probes (TLP). Off by default (the papers' TCP has none); needs SACK.
    pub rack: bool,
    /// How RACK-TLP's probe and reordering timers are set: RFC 8985's formulas or Linux's ([`RackTimers`]).
    pub rack_timers: RackTimers,
    /// HyStart++ (RFC 9406) in the initial slow start ([`super::hystart`]). Off by default (the papers' TCP has
    /// none, and Linux runs HyStart, a different algorithm); needs a clock in seconds.
    pub hystart: bool,
    /// RFC 3042 limited transmit: on each of the first two duplicate ACKs (below dupthresh, outside recovery)
    /// one segment of new data may be sent beyond W, so long as no more than W + 2 are outstanding and Wmax
    /// allows; W does not change, and RFC 5681 §3.2 step 2 leaves these segments out of FlightSize at the fast
    /// retransmit. Off by default (the papers' TCP has none); a variant without fast retransmit (OldTahoe)
    /// refuses it.
    pub limited_transmit: bool,
    /// A retransmission timeout that repeats one (the cumulative ACK unchanged since the last) leaves ssthresh, and the
    /// congestion part's state, as they are: RFC 5681 §3.1 and Linux's tcp_enter_loss(). Off by default: the papers'
    /// TCP recomputes ssthresh at every timeout (zorzi-rao §2 rule 3, ns-2).
    pub hold_ssthresh_on_rto: bool,
    /// RFC 7323 timestamps' RTT samples where Karn's rule takes none: an ACK that newly acknowledges a segment sent
    /// again gives the RTT since the copy it answers (the timestamp it echoes, which its driver hands over with
    /// [`super::Sender::note_echo`]), and with it the RTO's backoff ends (Linux's `tcp_ack_update_rtt()`,
    /// `tcp_timestamps = 1`). Other samples are as without (one timed segment at a time). Off by default: the papers'
    /// TCP and ns-2's agents carry no timestamps.
    pub timestamps: bool,
    /// CUBIC only: how W_est grows past cwnd_prior ([`CubicAlpha`]). RFC 9438's switch to 1 by default.
    pub cubic_alpha: CubicAlpha,
    /// Linux's whole-segment window (`tcp_snd_cwnd()` is an integer): congestion avoidance adds whole segments, one
    /// for every W segments acknowledged (`tcp_cong_avoid_ai()`; CUBIC one per `bictcp_update()`'s cnt, toward the
    /// larger of its whole target and ⌊W_est⌋), the count cleared at a reduction; a reduction starts from ⌊cwnd⌋
    /// and rounds the new ssthresh down, at least 2 (`tcp_reno_ssthresh()` = max(cwnd >> 1, 2), CUBIC's
    /// `bictcp_recalc_ssthresh()` = max(cwnd · 717 >> 10, 2) and its W_max (cwnd · 1741 >> 11) under fast
    /// convergence). Off by default: the papers' window is real-valued (W += 1/W, ⌈W/2⌉, zorzi-rao §2), as RFC
    /// 9438's β_cubic · cwnd is.
    pub integer_window: bool,
    /// A retransmission timeout during a fast recovery whose recovery point SND.UNA has not yet passed leaves
    /// ssthresh, and the congestion part's state, as they are: that window's reduction is made already (Linux's
    /// `tcp_enter_loss()`). Off by default: the papers' TCP, and RFC 5681 §3.1, set ssthresh at every first timeout.
    pub ssthresh_once_per_window: bool,
    /// PRR without SACK: whether NewReno's retransmission at a partial ACK goes out at once or waits for PRR's sndcnt
    /// ([`PartialAck`]). Forced by default (the rule as it stood); nothing changes without PRR, or with SACK, whose
    /// NextSeg sends by pipe already.
    pub prr_partial_ack: PartialAck,
    /// F-RTO (RFC 5682 §3, SACK-enhanced, as Linux's `tcp_frto = 2`; [`super::frto`]): a timeout that the next ACKs
    /// show spurious is undone. With SACK or without (Linux runs it either way; without SACK the evidence is the
    /// cumulative ACK's). Off by default (the papers' TCP and RFC 6298 have none).
    pub frto: bool,
    /// The receiver's delayed ACKs (when the driver delays them): which in-order segment is ACKed at once
    /// ([`DelayedAckRule`]). ns-2's by default (the papers' simulations); the receiver's rule, kept here with the
    /// connection's other choices as `sack` is.
    pub delayed_ack_rule: DelayedAckRule,
    /// The window the receiver advertises in each ACK ([`RwndRule`]): Wmax by default (the papers' receiver), or
    /// Linux's autotuned window, which the drivers that carry it (the link and transfer drivers) hand the sender with
    /// each ACK; the receiver's rule, kept here as `delayed_ack_rule` is.
    pub rwnd_rule: RwndRule,
    /// cwnd grows only while it limits the sender (Linux's `tcp_is_cwnd_limited()`; `super::cwnd_usage`): not while
    /// the receiver's window or the end of the data holds the sender back, but in slow start up to twice the largest
    /// flight of the last window. Off by default (the papers' TCP grows W on every ACK of new data).
    pub cwnd_limited: bool,
}

impl SenderConfig {
    /// Validated configuration.
    pub fn new(variant: Variant, wmax: u64, dupthresh: u64, rto: f64, initial_ssthresh: f64) -> Result<Self> {
        check::int_in("wmax", wmax, 1, 1 << 30)?;
        check::int_in("dupthresh", dupthresh, 1, 1 << 30)?;
        check::positive("rto", rto)?;
        if !(initial_ssthresh.is_finite() && initial_ssthresh >= 1.0) {
            return Err(Error::invalid("initial_ssthresh", initial_ssthresh, "must be a finite number >= 1"));
        }
        Ok(SenderConfig {
            variant,
            wmax,
            receive_buffer: wmax,
            dupthresh,
            rto: RtoPolicy::Fixed(rto),
            initial_ssthresh,
            recover_guard: false,
            segments: None,
            byte_counting: false,
            best_rtt: BestRtt::Earlier,
            initial_window: 1,
            ssthresh_rule: SsthreshRule::HalfWindow,
            sack: false,
            prr: None,
            rack: false,
            rack_timers: RackTimers::Rfc8985,
            hystart: false,
            limited_transmit: false,
            hold_ssthresh_on_rto: false,
            timestamps: false,
            cubic_alpha: CubicAlpha::Rfc9438,
            integer_window: false,
            ssthresh_once_per_window: false,
            prr_partial_ack: PartialAck::Forced,
            frto: false,
            delayed_ack_rule: DelayedAckRule::Ns2,
            rwnd_rule: RwndRule::Wmax,
            cwnd_limited: false,
        })
    }

    /// The same configuration with the timer estimated by RFC 6298 (checked).
    pub fn with_rfc6298(mut self, params: Rfc6298) -> Result<Self> {
        params.validate()?;
        self.rto = RtoPolicy::Rfc6298(params);
        Ok(self)
    }

    /// The same configuration with Linux's RTO estimator ([`RtoPolicy::Linux`]) and these parameters (`min` is
    /// `tcp_rto_min`, a floor on the variance term).
    pub fn with_linux_rto(mut self, params: Rfc6298) -> Result<Self> {
        params.validate()?;
        self.rto = RtoPolicy::Linux(params);
        Ok(self)
    }

    /// The same configuration with RFC 6582's `recover` guard on or off (see
    /// [`SenderConfig::recover_guard`]); only NewReno's recovery (NewReno, CUBIC) has it, so another variant refuses
    /// it rather than run as if it were off.
    pub fn with_recover_guard(mut self, on: bool) -> Result<Self> {
        if on && self.variant.recovery() != Recovery::FastRecoveryNewReno {
            return Err(Error::invalid(
                "recover_guard",
                "True",
                &format!("it is RFC 6582's guard of NewReno's recovery (newreno, cubic); {} has none to guard",
                         self.variant.name()),
            ));
        }
        self.recover_guard = on;
        Ok(self)
    }

    /// The same configuration with appropriate byte counting on or off (see [`SenderConfig::byte_counting`]).
    pub fn with_byte_counting(mut self, on: bool) -> Self {
        self.byte_counting = on;
        self
    }

    /// The same configuration with TCP-Probing's best RTT taken from the samples `reading` names.
    pub fn with_best_rtt(mut self, reading: BestRtt) -> Self {
        self.best_rtt = reading;
        self
    }

    /// The same configuration for a finite transfer of `segments` segments (checked: at least one).
    pub fn with_segments(mut self, segments: u64) -> Result<Self> {
        check::int_in("segments", segments, 1, 1 << 50)?;
        self.segments = Some(segments);
        Ok(self)
    }

    /// The same configuration with Wth at a loss set by `rule` (see [`SsthreshRule`]).
    pub fn with_ssthresh_rule(mut self, rule: SsthreshRule) -> Self {
        self.ssthresh_rule = rule;
        self
    }

    /// The same configuration with RFC 3042 limited transmit on or off (see
    /// [`SenderConfig::limited_transmit`]); refused for a variant that never retransmits on duplicate ACKs.
    pub fn with_limited_transmit(mut self, on: bool) -> Result<Self> {
        if on && self.variant.loss_detection() == LossDetection::TimeoutOnly {
            return Err(Error::invalid(
                "limited_transmit",
                "True",
                &format!("needs a variant that counts duplicate ACKs ({} has no fast retransmit, zorzi-rao §2)",
                         self.variant.name()),
            ));
        }
        self.limited_transmit = on;
        Ok(self)
    }

    /// The same configuration with an initial window of `segments` segments (checked: at least one; see
    /// [`SenderConfig::initial_window`]).
    pub fn with_initial_window(mut self, segments: u64) -> Result<Self> {
        check::int_in("initial_window", segments, 1, 1 << 30)?;
        self.initial_window = segments;
        Ok(self)
    }

    /// The same configuration with SACK on or off (see [`SenderConfig::sack`]). SACK's loss recovery is a fast
    /// recovery: a variant without one (OldTahoe, Tahoe: go-back-N from W = 1) or whose reaction to a loss is not a
    /// retransmission (TCP-Probing's probe cycle) refuses it.
    pub fn with_sack(mut self, on: bool) -> Result<Self> {
        if on {
            if let Some(reason) = sack_refusal(self.variant) {
                return Err(Error::invalid("sack", "True", &reason));
            }
        }
        self.sack = on;
        if !on {
            self.rack = false; // RACK reads SACK's scoreboard; PRR and F-RTO hold without it (super::prr, super::frto)
        }
        Ok(self)
    }

    /// The same configuration with PRR-SSRB (RFC 6937) on or off as the window rule of the fast recovery: SACK's
    /// (DeliveredData and pipe from the scoreboard) or, without SACK, the cumulative one's (from duplicate ACKs,
    /// as Linux: [`super::prr`]). A variant without fast recovery refuses it, for SACK's reason.
    pub fn with_prr(self, on: bool) -> Result<Self> {
        self.with_prr_bound(on.then_some(PrrBound::Ssrb))
    }

    /// [`SenderConfig::with_prr`] with the reduction bound named: SSRB, CRB, or None for no PRR.
    pub fn with_prr_bound(mut self, bound: Option<PrrBound>) -> Result<Self> {
        if bound.is_some() {
            if let Some(reason) = fast_recovery_refusal(self.variant, "PRR (RFC 6937)") {
                return Err(Error::invalid("prr", "True", &reason));
            }
        }
        self.prr = bound;
        Ok(self)
    }
}

impl SenderConfig {
    /// The same configuration with RACK-TLP (RFC 8985) on or off as the loss detection (see [`SenderConfig::rack`]);
    /// SACK must be on already (RACK reads the SACK scoreboard, and TLP's probes are repaired by SACK's recovery).
    pub fn with_rack(mut self, on: bool) -> Result<Self> {
        if on && !self.sack {
            return Err(Error::invalid("rack", "True", "RACK-TLP is the loss detection of SACK's loss recovery here \
                (it reads which segments the SACK scoreboard holds, RFC 8985 §4); turn sack on too"));
        }
        self.rack = on;
        Ok(self)
    }

    /// The same configuration with RACK-TLP's timers set by `timers` ([`SenderConfig::rack_timers`]); read only with
    /// RACK on.
    pub fn with_rack_timers(mut self, timers: RackTimers) -> Self {
        self.rack_timers = timers;
        self
    }

    /// The same configuration with F-RTO (RFC 5682 §3) on or off ([`SenderConfig::frto`]), with SACK or without it as
    /// Linux runs it. A variant without fast recovery refuses it, for SACK's reason (its timeout repair is its loss
    /// repair, or a probe cycle).
    pub fn with_frto(mut self, on: bool) -> Result<Self> {
        if on {
            if let Some(reason) = fast_recovery_refusal(self.variant, "F-RTO (RFC 5682)") {
                return Err(Error::invalid("frto", "True", &reason));
            }
        }
        self.frto = on;
        Ok(self)
    }

    /// The same configuration with HyStart++ (RFC 9406) on or off.
    pub fn with_hystart(mut self, on: bool) -> Self {
        self.hystart = on;
        self
    }

    /// The same configuration with timestamps' RTT samples of retransmitted segments, or not
    /// ([`SenderConfig::timestamps`]).
    pub fn with_timestamps(mut self, on: bool) -> Self {
        self.timestamps = on;
        self
    }

    /// The same configuration with ssthresh held on a repeated timeout, or not ([`SenderConfig::hold_ssthresh_on_rto`]).
    pub fn with_hold_ssthresh_on_rto(mut self, on: bool) -> Self {
        self.hold_ssthresh_on_rto = on;
        self
    }

    /// The same configuration with CUBIC's Reno-friendly growth past cwnd_prior by `rule` ([`CubicAlpha`]; other
    /// variants have no W_est and run as before).
    pub fn with_cubic_alpha(mut self, rule: CubicAlpha) -> Self {
        self.cubic_alpha = rule;
        self
    }

    /// The same configuration with Linux's whole-segment window, or not ([`SenderConfig::integer_window`]).
    pub fn with_integer_window(mut self, on: bool) -> Self {
        self.integer_window = on;
        self
    }

    /// The same configuration with the receiver's delayed ACKs ruled by `rule` ([`DelayedAckRule`]).
    pub fn with_delayed_ack_rule(mut self, rule: DelayedAckRule) -> Self {
        self.delayed_ack_rule = rule;
        self
    }

    /// The same configuration with cwnd growing only while it limits the sender, or on every ACK
    /// ([`SenderConfig::cwnd_limited`]).
    pub fn with_cwnd_limited(mut self, on: bool) -> Self {
        self.cwnd_limited = on;
        self
    }

    /// The same configuration with a receiver's buffer of `packets` ([`SenderConfig::receive_buffer`]; at least Wmax).
    pub fn with_receive_buffer(mut self, packets: u64) -> Result<Self> {
        check::int_in("receive_buffer", packets, self.wmax, 1 << 40)?;
        self.receive_buffer = packets;
        Ok(self)
    }

    /// The same configuration with the receiver's window ruled by `rule` ([`RwndRule`]).
    pub fn with_rwnd_rule(mut self, rule: RwndRule) -> Self {
        self.rwnd_rule = rule;
        self
    }

    /// The same configuration with a partial ACK's retransmission under PRR ruled by `rule` ([`PartialAck`]).
    pub fn with_prr_partial_ack(mut self, rule: PartialAck) -> Self {
        self.prr_partial_ack = rule;
        self
    }

    /// The same configuration with ssthresh reduced once per window of data, or not
    /// ([`SenderConfig::ssthresh_once_per_window`]).
    pub fn with_ssthresh_once_per_window(mut self, on: bool) -> Self {
        self.ssthresh_once_per_window = on;
        self
    }
}

/// Why `variant` cannot run SACK's loss recovery, if it cannot.
pub fn sack_refusal(variant: Variant) -> Option<String> {
    fast_recovery_refusal(variant, "SACK's loss recovery (RFC 6675)")
}

/// Why `variant` cannot take `part`, a rule of the fast recovery (SACK's recovery, PRR), if it cannot: it has
/// none (go-back-N) or reacts to a loss by a probe cycle. tcpfade.tcp.parameters.check_recovery_parts words it alike.
pub fn fast_recovery_refusal(variant: Variant, part: &str) -> Option<String> {
    match variant.recovery() {
        Recovery::GoBackN => Some(format!("{} has no fast recovery for {part} to replace: its reaction to a loss is \
            go-back-N from W = 1; use reno, newreno or cubic", variant.name())),
        Recovery::ProbeCycle => Some(format!("{} reacts to a loss with a probe cycle, not retransmissions, so {part} \
            has no place in it; use reno, newreno or cubic", variant.name())),
        Recovery::FastRecoveryReno | Recovery::FastRecoveryNewReno => None,
    }
}
