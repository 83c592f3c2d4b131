//! Tail loss probes (RFC 8985 §7): the PTO armed, stopped and fired, the probe chosen, and an ACK's check of a probe
//! that repaired a loss; with the reordering timer, the timers RACK-TLP hands the sender as one ([`Rack::deadline`]).

use super::{Context, Rack, PTO_WITHOUT_SRTT};

impl Rack {
    /// §7.2: arm the PTO at `now` if the state allows one, else stop it.
    pub(crate) fn arm_pto(&mut self, cx: &Context, now: f64) {
        if cx.recovering || cx.sacked > 0 {
            self.pto_deadline = None;
            return;
        }
        self.arm_pto_calm(cx.una, cx.high, cx.srtt, cx.rto_expiry, now);
    }

    /// [`Rack::arm_pto`] outside recovery with nothing SACKed, as in the calm state (`super::rack_record`), from the
    /// sender's `una`, `high`, SRTT and RTO expiry.
    #[inline]
    pub(crate) fn arm_pto_calm(&mut self, una: u64, high: u64, srtt: Option<f64>, rto_expiry: Option<f64>, now: f64) {
        if una >= high {
            self.pto_deadline = None;
            return;
        }
        let pto = match srtt {
            Some(srtt) if high - una == 1 => 2.0 * srtt + self.pto_one_out,
            Some(srtt) => 2.0 * srtt + self.timer_slack,
            None => PTO_WITHOUT_SRTT,
        };
        let at = now + pto;
        self.pto_deadline = Some(rto_expiry.map_or(at, |rto| crate::earlier(at, rto)));
    }

    /// Stop the PTO (the RTO governs).
    pub(crate) fn stop_pto(&mut self) {
        self.pto_deadline = None;
    }

    /// §7.4 TLP_process_ack for an ACK of `ack`; `dupack` when it moved nothing (the cumulative ACK unchanged) and
    /// `no_sack` when it carried no SACK block. True when the probe repaired a loss (the caller reduces cwnd). The
    /// simulated receivers send no DSACK, so "the ACK has a DSACK matching TLP.end_seq" never holds.
    pub(crate) fn tlp_on_ack(&mut self, ack: u64, dupack: bool, no_sack: bool) -> bool {
        let Some(end) = self.tlp_end.filter(|&end| ack >= end) else { return false };
        if !self.tlp_is_retrans || ack > end || (dupack && no_sack) {
            self.tlp_end = None;
            let repaired = self.tlp_is_retrans && ack > end;
            self.probe_repairs += u64::from(repaired);
            return repaired;
        }
        false
    }

    /// Which of RACK's timers is due at `now`, if one is: the reordering timer first.
    pub(crate) fn due(&self, now: f64) -> Option<RackTimer> {
        if self.reo_deadline.is_some_and(|t| t <= now) {
            Some(RackTimer::Reordering)
        } else if self.pto_deadline.is_some_and(|t| t <= now) {
            Some(RackTimer::Probe)
        } else {
            None
        }
    }

    /// The earliest of the reordering timer and either the PTO, while armed, or the RTO.
    #[inline]
    pub(crate) fn deadline(&self, rto: Option<f64>) -> Option<f64> {
        let pto_or_rto = self.pto_deadline.or(rto);
        match (self.reo_deadline, pto_or_rto) {
            (Some(a), Some(b)) => Some(crate::earlier(a, b)),
            (a, b) => a.or(b),
        }
    }

    /// §7.3: the PTO fired. With no probe outstanding and an RTT sample since the last, choose the probe: `new`, the
    /// next new segment if there is one the receiver's window allows, else the highest sent (`high` − 1). Returns
    /// the probe's sequence number (the caller sends it beyond cwnd and re-arms the RTO).
    pub(crate) fn on_pto(&mut self, new: Option<u64>, high: u64) -> Option<u64> {
        self.pto_deadline = None;
        if self.tlp_end.is_some() || !self.sampled_since_probe || high == 0 {
            return None;
        }
        let (seq, retrans) = match new {
            Some(seq) => (seq, false),
            None => (high - 1, true),
        };
        self.tlp_is_retrans = retrans;
        self.tlp_end = Some(high.max(seq + 1));
        self.sampled_since_probe = false;
        self.probes += 1;
        self.probe = Some(seq);
        Some(seq)
    }
}

/// Which of RACK-TLP's timers fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RackTimer {
    /// The reordering timer (§6.2 step 5).
    Reordering,
    /// The probe timeout (§7.3).
    Probe,
}

#[cfg(test)]
mod tests {
    use super::super::RackTimers;
    use super::*;

    #[test]
    fn tlp_loss_detection_follows_rfc_8985_section_7_4_2() {
        let mut r = Rack::new(3, RackTimers::Rfc8985, 1.0);
        // A retransmitted probe of segment 9 (TLP.end_seq = 10).
        assert_eq!(r.on_pto(None, 10), Some(9));
        assert!(!r.tlp_on_ack(9, false, true)); // below TLP.end_seq: nothing
        assert!(!r.tlp_on_ack(10, false, true)); // at it, no DSACK: undecided
        assert_eq!(r.tlp_end, Some(10));
        assert!(r.tlp_on_ack(11, false, true)); // beyond it: the probe repaired a loss
        assert_eq!((r.tlp_end, r.probe_repairs), (None, 1));
        // A second probe needs an RTT sample since the first (§7.3 condition 2).
        assert_eq!(r.on_pto(None, 12), None);
        r.sampled_since_probe = true;
        assert_eq!(r.on_pto(None, 12), Some(11));
        // A duplicate ACK without SACK blocks at TLP.end_seq: both copies arrived (case 2), no reduction.
        assert!(!r.tlp_on_ack(12, true, true));
        assert_eq!((r.tlp_end, r.probe_repairs), (None, 1));
        // A probe of new data: its ACK ends the episode without a reduction.
        r.sampled_since_probe = true;
        assert_eq!(r.on_pto(Some(12), 12), Some(12));
        assert!(!r.tlp_is_retrans);
        assert!(!r.tlp_on_ack(14, false, true));
        assert_eq!(r.tlp_end, None);
    }
}
