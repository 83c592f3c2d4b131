//! Which bytes of a TCP stream a link delivers for the first time: the emulator's measure of goodput.
//!
//! Goodput is data delivered once (docs/glossary.md). Counted where the receiver's kernel takes data in order
//! (`tcpi_bytes_received`), a measurement over [t1, t2] also takes in the data that crossed the link before t1
//! and waited behind a hole until a retransmission filled it after t1: a run whose warm-up ends during a loss
//! recovery then measures more than the link can carry in the interval (goodput above 1, issue 34). Counted at the
//! link, as each packet ends its transmission, the bytes of [t1, t2] are those the link carried then, each once.
//!
//! A packet's TCP payload occupies the sequence range [seq, seq + len) of its flow (RFC 9293 §3.4). Each flow keeps
//! the ranges delivered so far; a packet's first-delivered bytes are its range less their union. Sequence numbers
//! are unwrapped against the flow's last one (a step of less than 2^31 either way, as RFC 9293's comparison
//! assumes), so a flow may carry more than 4 GiB.

use std::collections::{BTreeMap, HashMap};

/// A flow: source and destination addresses and ports.
type Flow = ([u8; 4], [u8; 4], u16, u16);

/// The delivered ranges of one flow, in unwrapped sequence space.
#[derive(Debug, Default)]
struct Coverage {
    /// The last sequence number seen, unwrapped (None before the first segment).
    last: Option<u64>,
    /// Disjoint, non-adjacent delivered ranges: start -> end.
    ranges: BTreeMap<u64, u64>,
}

impl Coverage {
    /// `seq` (32 bits) in the flow's unwrapped space.
    fn unwrap(&mut self, seq: u32) -> u64 {
        let value = match self.last {
            // Start in the middle of 64 bits, so that a step back from the first segment stays positive.
            None => (1u64 << 62) + u64::from(seq),
            Some(last) => {
                let step = seq.wrapping_sub(last as u32) as i32;
                last.wrapping_add_signed(i64::from(step))
            }
        };
        self.last = Some(value);
        value
    }

    /// Add [start, end); returns how many of its bytes were not covered before.
    fn add(&mut self, mut start: u64, mut end: u64) -> u64 {
        let mut new = end - start;
        // The range that begins at or before `start` may overlap or touch it.
        if let Some((&s, &e)) = self.ranges.range(..=start).next_back() {
            if e >= start {
                new -= e.min(end) - start;
                start = s;
                end = end.max(e);
                self.ranges.remove(&s);
            }
        }
        // Ranges that begin inside [start, end].
        while let Some((&s, &e)) = self.ranges.range(start..=end).next() {
            new -= e.min(end).saturating_sub(s);
            end = end.max(e);
            self.ranges.remove(&s);
        }
        self.ranges.insert(start, end);
        new
    }
}

/// First-delivered TCP payload bytes, per flow, of the packets a link delivers.
#[derive(Debug, Default)]
pub struct FirstDelivery {
    flows: HashMap<Flow, Coverage>,
}

impl FirstDelivery {
    /// The payload bytes of IPv4 `packet` that no earlier delivered packet of its flow carried (0 for anything but
    /// a TCP segment with data, and for a malformed packet).
    pub fn new_bytes(&mut self, packet: &[u8]) -> u32 {
        let Some((flow, seq, len)) = segment(packet) else {
            return 0;
        };
        if len == 0 {
            return 0;
        }
        let coverage = self.flows.entry(flow).or_default();
        let start = coverage.unwrap(seq);
        coverage.add(start, start + u64::from(len)) as u32
    }
}

/// The flow, sequence number and payload length of an IPv4 TCP segment (RFC 791 §3.1, RFC 9293 §3.1).
fn segment(packet: &[u8]) -> Option<(Flow, u32, u32)> {
    if packet.len() < 20 || packet[0] >> 4 != 4 || packet[9] != 6 {
        return None;
    }
    let ip_header = usize::from(packet[0] & 0x0f) * 4;
    let total = usize::from(u16::from_be_bytes([packet[2], packet[3]])).min(packet.len());
    let tcp = packet.get(ip_header..total)?;
    if tcp.len() < 20 {
        return None;
    }
    let tcp_header = usize::from(tcp[12] >> 4) * 4;
    let payload = tcp.len().checked_sub(tcp_header)?;
    let address =
        |at: usize| -> [u8; 4] { [packet[at], packet[at + 1], packet[at + 2], packet[at + 3]] };
    let flow = (
        address(12),
        address(16),
        u16::from_be_bytes([tcp[0], tcp[1]]),
        u16::from_be_bytes([tcp[2], tcp[3]]),
    );
    let seq = u32::from_be_bytes([tcp[4], tcp[5], tcp[6], tcp[7]]);
    Some((flow, seq, payload as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An IPv4 TCP segment of `payload` bytes at `seq` from port `sport`.
    fn packet(seq: u32, payload: usize, sport: u16) -> Vec<u8> {
        let mut p = vec![0u8; 40 + payload];
        p[0] = 0x45; // IPv4, 20-byte header
        let total = (40 + payload) as u16;
        p[2..4].copy_from_slice(&total.to_be_bytes());
        p[9] = 6;
        p[12..16].copy_from_slice(&[10, 77, 0, 1]);
        p[16..20].copy_from_slice(&[10, 77, 0, 2]);
        p[20..22].copy_from_slice(&sport.to_be_bytes());
        p[22..24].copy_from_slice(&5001u16.to_be_bytes());
        p[24..28].copy_from_slice(&seq.to_be_bytes());
        p[32] = 5 << 4; // 20-byte TCP header
        p
    }

    #[test]
    fn a_retransmission_of_delivered_data_counts_nothing_and_a_hole_once() {
        let mut d = FirstDelivery::default();
        assert_eq!(d.new_bytes(&packet(1000, 100, 1)), 100);
        // [1100, 1200) lost on the link (never delivered), then [1200, 1300) arrives out of order
        assert_eq!(d.new_bytes(&packet(1200, 100, 1)), 100);
        assert_eq!(d.new_bytes(&packet(1000, 100, 1)), 0); // a spurious retransmission
        assert_eq!(d.new_bytes(&packet(1100, 100, 1)), 100); // the hole, filled once
        assert_eq!(d.new_bytes(&packet(1150, 100, 1)), 0); // repacketized, all delivered already
        assert_eq!(d.new_bytes(&packet(1250, 100, 1)), 50); // half old, half new
        assert_eq!(d.flows.values().next().map(|c| c.ranges.len()), Some(1)); // one range [1000, 1350)
    }

    #[test]
    fn flows_are_apart_and_sequence_numbers_wrap() {
        let mut d = FirstDelivery::default();
        assert_eq!(d.new_bytes(&packet(u32::MAX - 49, 100, 1)), 100); // wraps through 0
        assert_eq!(d.new_bytes(&packet(50, 100, 1)), 100);
        assert_eq!(d.new_bytes(&packet(u32::MAX - 49, 100, 1)), 0);
        assert_eq!(d.new_bytes(&packet(50, 100, 2)), 100); // another flow
    }

    #[test]
    fn pure_acks_and_other_packets_carry_no_payload() {
        let mut d = FirstDelivery::default();
        assert_eq!(d.new_bytes(&packet(7, 0, 1)), 0);
        assert_eq!(d.new_bytes(&[0x60; 60]), 0); // IPv6
        assert_eq!(d.new_bytes(&[0x45; 10]), 0); // truncated
        let mut udp = packet(7, 10, 1);
        udp[9] = 17;
        assert_eq!(d.new_bytes(&udp), 0);
    }
}
