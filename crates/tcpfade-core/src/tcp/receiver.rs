//! The TCP receiver, common to every variant (zorzi-rao §2): accepts packets out of order, delivers
//! them in order, and answers every correct packet with a cumulative ACK carrying the next
//! expected sequence number. With TCP-Probing it also answers probes (tsaoussidis-badr §3.1).

use super::probing::{ProbeKind, ProbeSegment};

/// Receiver state. Sequence numbers start at 0.
#[derive(Debug, Clone)]
pub struct Receiver {
    expected: u64,
    /// Out-of-order packets held, as a ring indexed by sequence number.
    held: Vec<bool>,
    mask: u64,
    /// In a probe exchange (between PROBE1 and PR2_ACK); false is tsaoussidis-badr's ESTAB state.
    probing: bool,
}

impl Receiver {
    /// A receiver whose advertised window is `wmax` packets: the sender never has a packet beyond
    /// `expected + wmax - 1` outstanding, so a ring of that size holds every out-of-order packet.
    pub fn new(wmax: u64) -> Self {
        let size = (wmax.max(1) + 1).next_power_of_two();
        Receiver { expected: 0, held: vec![false; size as usize], mask: size - 1, probing: false }
    }

    /// A correct packet `seq` arrived; returns the cumulative ACK (next expected sequence number).
    #[inline]
    pub fn on_segment(&mut self, seq: u64) -> u64 {
        if seq == self.expected {
            self.expected += 1;
            while self.held[(self.expected & self.mask) as usize] {
                self.held[(self.expected & self.mask) as usize] = false;
                self.expected += 1;
            }
        } else if seq > self.expected {
            debug_assert!(seq - self.expected <= self.mask, "packet {seq} beyond the advertised window");
            self.held[(seq & self.mask) as usize] = true;
        }
        self.expected
    }

    /// A probe arrived: the answer to send at once, with the probe's id (tsaoussidis-badr §3.1).
    /// PR2_ACK returns the receiver to normal operation; a PROBE1 after it (its PR2_ACK lost and the
    /// sender's probe timer expired) is answered as the start of a new exchange. Probe answers are
    /// never answered.
    pub fn on_probe(&mut self, probe: ProbeSegment) -> Option<ProbeSegment> {
        let kind = match probe.kind {
            ProbeKind::Probe1 => {
                self.probing = true;
                ProbeKind::Pr1Ack
            }
            ProbeKind::Probe2 => {
                self.probing = false;
                ProbeKind::Pr2Ack
            }
            ProbeKind::Pr1Ack | ProbeKind::Pr2Ack => return None,
        };
        Some(ProbeSegment { kind, id: probe.id })
    }

    /// Whether the receiver is inside a probe exchange (PROBE1 answered, PROBE2 not yet).
    pub fn in_probe_exchange(&self) -> bool {
        self.probing
    }

    /// Packets delivered in order to the user so far (each exactly once, BRIEF D4): everything
    /// below the next expected sequence number.
    pub fn delivered(&self) -> u64 {
        self.expected
    }

    /// Next expected sequence number.
    pub fn expected(&self) -> u64 {
        self.expected
    }

    /// Whether out-of-order packets are held.
    pub fn holds_out_of_order(&self) -> bool {
        self.held.iter().any(|&h| h)
    }

    /// Deliver `n` in-order packets at once (a driver's fast-forward through error-free slots
    /// while nothing is held).
    pub fn advance_in_order(&mut self, n: u64) {
        debug_assert!(!self.holds_out_of_order());
        self.expected += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cumulative_acks_and_in_order_delivery() {
        let mut r = Receiver::new(6);
        assert_eq!(r.on_segment(0), 1);
        assert_eq!(r.on_segment(2), 1); // duplicate ACK, 2 held
        assert_eq!(r.on_segment(3), 1);
        assert_eq!(r.delivered(), 1);
        assert_eq!(r.on_segment(1), 4); // fills the hole: 1, 2, 3 delivered
        assert_eq!(r.delivered(), 4);
        assert_eq!(r.on_segment(2), 4); // old packet again: no double delivery
        assert_eq!(r.delivered(), 4);
        assert!(!r.holds_out_of_order());
    }
}
