//! TCP endpoints, sans-IO: state machines that react to events (may a packet be sent now? an ACK
//! arrived; the timer fired) and never own a clock or a link, so every driver (slotted,
//! event-driven) drives the same code (BRIEF §3).
//!
//! The variants differ only where the papers say they differ (zorzi-rao §2, chockalingam §II):
//!
//! | variant  | loss detection            | window at detection              | recovery                          |
//! |----------|---------------------------|----------------------------------|-----------------------------------|
//! | OldTahoe | timeout only              | W = 1, Wth = ⌈W/2⌉               | go-back-N from the first unacked  |
//! | Tahoe    | timeout or K dup ACKs     | W = 1, Wth = ⌈W/2⌉               | go-back-N from the first unacked  |
//! | Reno     | timeout or K dup ACKs     | Wth = ⌈W/2⌉, W = Wth + K, +1/dup | fast recovery, ends on any new ACK |
//! | NewReno  | timeout or K dup ACKs     | as Reno                          | fast recovery, ends on a full ACK; partial ACKs retransmit (RFC 6582) |
//! | Probing  | timeout or K dup ACKs     | untouched during a probe cycle   | probe cycle, then Immediate Recovery or Slow Start (tsaoussidis-badr §3) |
//! | CUBIC    | timeout or K dup ACKs     | Wth = max(0.7 W, 2), W = Wth + K, +1/dup | as NewReno; W grows as W_cubic(t) (RFC 9438) |
//!
//! With `sack` ([`SenderConfig::with_sack`]) Reno, NewReno and CUBIC run RFC 6675's SACK recovery instead of their
//! fast recovery, and with `prr` RFC 6937's PRR as its window rule ([`sack_recovery`]); the congestion part stays.
//! With `rack` ([`SenderConfig::with_rack`]) RACK-TLP (RFC 8985, [`rack`]) detects the losses SACK's recovery repairs,
//! by time instead of by duplicate ACKs, and sends tail loss probes.
//!
//! Each is a named choice of parts (BRIEF §3): a [`CongestionControl`] part (Reno-style AIMD, [`congestion`],
//! for the papers' variants and TCP-Probing; CUBIC, [`cubic`]), a [`LossDetection`] rule and a [`Recovery`] part,
//! all over one state ([`state`]), composed by one [`Sender`]. ns-3's TcpCongestionOps / TcpRecoveryOps split and Linux's
//! tcp_congestion_ops are the model.

pub mod config;
pub mod congestion;
pub mod cubic;
mod cwnd_usage;
pub mod frto;
pub mod hystart;
pub mod probe_cycle;
pub mod probing;
pub mod prr;
pub mod rack;
mod rack_record;
pub mod receiver;
pub mod recovery;
pub mod rto;
pub mod rwnd;
pub mod sack;
pub mod sack_recovery;
pub mod sender;
pub mod state;

pub use config::{sack_refusal, CubicAlpha, SenderConfig, SsthreshRule};
pub use probing::{
    BestRtt, CycleRecord, ProbeCounters, ProbeDecision, ProbeKind, ProbeMeasurement, ProbeOutcome, ProbeSegment,
    ProbeTrigger, RttMinima, RttRange,
};
pub use rack::{RackTimers, RackView, LINUX_TIMER_SLACK, PTO_WITHOUT_SRTT, TLP_MAX_ACK_DELAY};
pub use receiver::{DelayedAckRule, Receiver};
pub use rto::{Rfc6298, RtoEstimator, RtoPolicy};
pub use rwnd::{LinuxWindow, RwndRule};
pub use sack::{SackBlocks, MAX_SACK_BLOCKS};
pub use hystart::HyStartPhase;
pub use prr::{PartialAck, PrrBound, PrrState};
pub use sack_recovery::NextSegRule;
pub use sender::{AckStep, Sender};
pub use state::{Segment, SenderCounters};

use crate::error::{Error, Result};

/// The congestion-control part: how the window grows and what a loss does to it ([`congestion`], [`cubic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CongestionControl {
    /// Reno-style AIMD with the papers' Wth = ⌈W/2⌉ (zorzi-rao §2).
    Aimd,
    /// CUBIC (RFC 9438): time in seconds.
    Cubic,
}

/// How losses are detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossDetection {
    /// Only the retransmission timer (OldTahoe).
    TimeoutOnly,
    /// The timer, or the K-th duplicate ACK (fast retransmit).
    DuplicateAcks,
}

/// The recovery part: what happens once a loss is detected ([`recovery`], [`probe_cycle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// Behave as after a timeout: W = 1, resend from the first unacknowledged packet (Tahoe).
    GoBackN,
    /// Fast recovery that ends with the first ACK of new data (Reno).
    FastRecoveryReno,
    /// Fast recovery that ends with the ACK of everything outstanding at its start; partial ACKs
    /// retransmit the next hole (NewReno, RFC 6582).
    FastRecoveryNewReno,
    /// No retransmission: a probe cycle, then Immediate Recovery or Slow Start (TCP-Probing,
    /// tsaoussidis-badr §3; [`probing`]).
    ProbeCycle,
}

/// A TCP variant by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Timeouts only.
    OldTahoe,
    /// Fast retransmit, then slow start.
    Tahoe,
    /// Fast retransmit and fast recovery.
    Reno,
    /// Reno with partial-ACK handling.
    NewReno,
    /// Probe cycles instead of retransmissions (tsaoussidis-badr).
    Probing,
    /// CUBIC's window (RFC 9438) with NewReno's recovery (RFC 6582).
    Cubic,
}

impl Variant {
    /// The registry: every name accepted by [`Variant::from_name`], in order.
    pub const NAMES: [&'static str; 6] = ["oldtahoe", "tahoe", "reno", "newreno", "probing", "cubic"];

    /// Resolve a variant name (case-insensitive; `-` and `_` ignored); an unknown name is an error
    /// listing the known ones.
    pub fn from_name(name: &str) -> Result<Self> {
        let key: String = name.chars().filter(|c| *c != '-' && *c != '_').collect::<String>().to_ascii_lowercase();
        match key.as_str() {
            "oldtahoe" => Ok(Variant::OldTahoe),
            "tahoe" => Ok(Variant::Tahoe),
            "reno" => Ok(Variant::Reno),
            "newreno" => Ok(Variant::NewReno),
            "probing" | "tcpprobing" => Ok(Variant::Probing),
            "cubic" => Ok(Variant::Cubic),
            _ => Err(Error::invalid("variant", name, &format!("must be one of {}", Self::NAMES.join(", ")))),
        }
    }

    /// The canonical name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The variant's congestion-control part.
    pub fn congestion(self) -> CongestionControl {
        match self {
            Variant::Cubic => CongestionControl::Cubic,
            _ => CongestionControl::Aimd,
        }
    }

    /// Whether the variant's window rules read the driver's time, which must then be seconds (CUBIC's C is in
    /// segments/s³): the slotted driver, whose clock counts slots, refuses such a variant.
    pub fn needs_seconds(self) -> bool {
        self.congestion() == CongestionControl::Cubic
    }

    /// The variant's loss-detection rule.
    pub fn loss_detection(self) -> LossDetection {
        match self {
            Variant::OldTahoe => LossDetection::TimeoutOnly,
            _ => LossDetection::DuplicateAcks,
        }
    }

    /// The variant's recovery rule.
    pub fn recovery(self) -> Recovery {
        match self {
            Variant::OldTahoe | Variant::Tahoe => Recovery::GoBackN,
            Variant::Reno => Recovery::FastRecoveryReno,
            Variant::NewReno | Variant::Cubic => Recovery::FastRecoveryNewReno,
            Variant::Probing => Recovery::ProbeCycle,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_resolves_names_and_lists_them_on_error() {
        assert_eq!(Variant::from_name("NewReno").unwrap(), Variant::NewReno);
        assert_eq!(Variant::from_name("old-tahoe").unwrap(), Variant::OldTahoe);
        let err = Variant::from_name("vegas").unwrap_err().to_string();
        assert_eq!(err, "variant = vegas is not allowed: must be one of oldtahoe, tahoe, reno, newreno, probing, cubic");
        assert_eq!(Variant::from_name("TCP-Probing").unwrap(), Variant::Probing);
        for name in Variant::NAMES {
            assert_eq!(Variant::from_name(name).unwrap().name(), name);
        }
    }
}
