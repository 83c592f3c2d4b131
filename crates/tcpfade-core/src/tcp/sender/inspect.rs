//! What a driver or a test reads of the sender: its window, threshold, counters and the parts' state, without
//! changing anything.

use super::super::hystart::HyStartPhase;
use super::super::prr::PrrState;
use super::super::rack::RackView;
use super::super::rto::RtoEstimator;
use super::super::sack_recovery::{NextSegRule, SackRecovery};
use super::super::Variant;
use super::{RecoveryPart, Sender, SenderConfig, SenderCounters};

impl Sender {
    /// Congestion window W.
    pub fn cwnd(&self) -> f64 {
        self.st.cwnd
    }

    /// Slow-start threshold Wth.
    pub fn ssthresh(&self) -> f64 {
        self.st.ssthresh
    }

    /// First unacknowledged sequence number.
    pub fn una(&self) -> u64 {
        self.st.una
    }

    /// The receiver's window as the last ACK advertised it ([`Sender::note_window`]; the receiver's whole buffer
    /// without), whatever the sender's own buffer allows out.
    pub fn rwnd(&self) -> u64 {
        self.advertised
    }

    /// min(⌊W⌋, the receiver's window): Wmax as the window unless the driver passes each ACK's
    /// ([`Sender::note_window`]).
    pub fn usable_window(&self) -> u64 {
        // W >= 1, so truncation is the floor (and compiles to one instruction, not a libm call).
        self.st.whole_cwnd().min(self.st.rwnd)
    }

    /// Whether fast recovery (or SACK's loss recovery) is in progress.
    pub fn in_recovery(&self) -> bool {
        self.st.recover.is_some()
    }

    // -- SACK (RFC 6675) and PRR (RFC 6937); None or false without SACK --

    fn sack(&self) -> Option<&SackRecovery> {
        match &self.recovery {
            RecoveryPart::Sack(part) => Some(part),
            _ => None,
        }
    }

    /// RFC 6675's pipe: the packets the sender deems in the network (None without SACK).
    pub fn pipe(&self) -> Option<u64> {
        self.sack().map(|part| part.pipe(&self.st))
    }

    /// Whether the scoreboard holds `seq` as SACKed (false without SACK).
    pub fn is_sacked(&self, seq: u64) -> bool {
        self.sack().is_some_and(|part| seq >= self.st.una && seq < self.st.high && part.board.is_sacked(seq))
    }

    /// The NextSeg rule behind the last packet SACK's recovery chose (None without SACK or before any).
    pub fn last_rule(&self) -> Option<NextSegRule> {
        self.sack().and_then(|part| part.last_rule)
    }

    /// Where HyStart++ stands (None without it); over from the first loss (RFC 9406 §4.2), which the part itself
    /// notes at the next ACK of new data.
    pub fn hystart_phase(&self) -> Option<HyStartPhase> {
        let lost = self.st.counters.fast_retransmits + self.st.counters.timeouts > 0;
        self.st.hystart.as_deref().map(|h| if lost { HyStartPhase::Done } else { h.phase })
    }

    /// Timeouts F-RTO found spurious and undid (0 without it).
    pub fn spurious_timeouts(&self) -> u64 {
        self.st.undone_timeouts.len() as u64
    }

    /// PRR's variables in the current recovery (None outside one, or without PRR).
    pub fn prr_state(&self) -> Option<PrrState> {
        self.recovery.prr_state()
    }

    /// RACK-TLP's state (None without it).
    pub fn rack(&self) -> Option<RackView> {
        self.sack().and_then(|part| part.rack.as_deref()).map(crate::tcp::rack::Rack::view)
    }

    /// Whether RACK holds `seq` as lost (false without RACK, or once `seq` is acknowledged).
    pub fn is_marked_lost(&self, seq: u64) -> bool {
        let st = &self.st;
        self.sack().and_then(|part| part.rack.as_deref()).is_some_and(|rack| {
            seq >= st.una && seq < st.high && !self.is_sacked(seq) && rack.is_lost(seq)
        })
    }

    /// The retransmission-timeout estimator (RTT samples, SRTT, backoff).
    pub fn rto_estimator(&self) -> &RtoEstimator {
        &self.st.rto
    }

    /// Event counts so far.
    pub fn counters(&self) -> SenderCounters {
        SenderCounters { spurious_timeouts: self.spurious_timeouts(), ..self.st.counters }
    }

    /// The configuration.
    pub fn config(&self) -> &SenderConfig {
        &self.cfg
    }

    /// The variant whose parts this sender runs.
    pub fn variant(&self) -> Variant {
        self.cfg.variant
    }
}
