//! The TCP receiver, common to every variant (zorzi-rao §2): accepts packets out of order, delivers
//! them in order, and answers every correct packet with a cumulative ACK carrying the next
//! expected sequence number. With TCP-Probing it also answers probes (tsaoussidis-badr §3.1). With SACK
//! ([`Receiver::with_sack`]) each ACK also carries up to three SACK blocks (RFC 2018 §4, [`Receiver::sack_blocks`]).

use super::probing::{ProbeKind, ProbeSegment};
use super::sack::{SackBlocks, MAX_SACK_BLOCKS};

/// Receiver state. Sequence numbers start at 0.
#[derive(Debug, Clone)]
pub struct Receiver {
    expected: u64,
    /// Out-of-order packets held, as a ring indexed by sequence number.
    held: Vec<bool>,
    /// How many of `held` are set: whether a gap lies below the packets held, in O(1) per segment.
    held_count: u64,
    /// One past the highest packet held out of order, while any is (what Linux's autotuning adds for them).
    held_end: u64,
    mask: u64,
    /// In a probe exchange (between PROBE1 and PR2_ACK); false is tsaoussidis-badr's ESTAB state.
    probing: bool,
    /// The SACK blocks' bookkeeping, when SACK is on (None: cumulative ACKs only, today's path).
    sack: Option<Box<SackState>>,
}

/// When a receiver with delayed ACKs answers an in-order segment at once, rather than holding its ACK for the next
/// segment or the timer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DelayedAckRule {
    /// Only when it fills the whole gap below the packets held, so that the cumulative ACK jumps past it: ns-2's
    /// `DelAckSink` (it delays whenever the arrival delivers one packet). The papers' simulations; the default.
    Ns2,
    /// Whenever packets are held out of order, before or after it: it fills all or part of a gap (RFC 5681 §4.2
    /// "SHOULD send an immediate ACK when the incoming segment fills in all or part of a gap"). So do BSD's
    /// `TCP_REASS` (the ACK is delayed only with the reassembly queue empty) and Linux's `__tcp_ack_snd_check()`
    /// (at once while the out-of-order queue is not empty, and when a segment empties it).
    Rfc5681,
}

impl DelayedAckRule {
    /// The rule by name: "ns2" or "rfc5681".
    pub fn from_name(name: &str) -> crate::error::Result<Self> {
        match name {
            "ns2" => Ok(DelayedAckRule::Ns2),
            "rfc5681" => Ok(DelayedAckRule::Rfc5681),
            _ => Err(crate::error::Error::invalid("delayed_ack_rule", format!("'{name}'"), "must be ns2 or rfc5681")),
        }
    }
}

/// What a SACK receiver keeps to fill its ACKs' option (RFC 2018 §4).
#[derive(Debug, Clone, Default)]
struct SackState {
    /// The out-of-order packets held, as sorted disjoint blocks `[left, right)` above the next expected.
    blocks: Vec<(u64, u64)>,
    /// A packet of each block reported first lately, most recent first: the blocks to repeat.
    recent: Vec<u64>,
    /// The option as the two above make it, formed again whenever they change (every ACK sent until they change
    /// carries the same blocks).
    report: SackBlocks,
}

/// The index of the block of sorted disjoint `blocks` holding `seq`, if one does.
fn find_block(blocks: &[(u64, u64)], seq: u64) -> Option<usize> {
    let i = blocks.partition_point(|b| b.1 <= seq);
    (i < blocks.len() && blocks[i].0 <= seq).then_some(i)
}

impl SackState {
    /// The index of the block holding `seq`, if one does.
    fn find(&self, seq: u64) -> Option<usize> {
        find_block(&self.blocks, seq)
    }

    /// Out-of-order packet `seq` arrived (held now, perhaps before): it joins or starts a block, and its block
    /// becomes the most recent.
    fn hold(&mut self, seq: u64) {
        let i = self.blocks.partition_point(|b| b.1 < seq);
        let blocks = &mut self.blocks;
        if i < blocks.len() && blocks[i].0 <= seq && seq < blocks[i].1 {
            // held already
        } else if i < blocks.len() && blocks[i].1 == seq {
            blocks[i].1 = seq + 1;
            if i + 1 < blocks.len() && blocks[i + 1].0 == seq + 1 {
                blocks[i].1 = blocks[i + 1].1;
                blocks.remove(i + 1);
            }
        } else if i < blocks.len() && blocks[i].0 == seq + 1 {
            blocks[i].0 = seq;
        } else {
            blocks.insert(i, (seq, seq + 1));
        }
        let blocks = &self.blocks;
        let block = find_block(blocks, seq);
        self.recent.retain(|&r| find_block(blocks, r) != block);
        self.recent.insert(0, seq);
        self.recent.truncate(MAX_SACK_BLOCKS + 1);
    }

    /// [`SackState::hold`] and the report it leads to, for the common out-of-order packet of a loss recovery: `seq`
    /// extends the highest block at its right end and that block is the one most recently reported (`recent[0]` lies
    /// in it). Then the block grows by one, `seq` takes the first report's place, and the
    /// report is the one before with its first block one longer. Returns false, having changed nothing, otherwise.
    #[inline]
    fn extend_latest(&mut self, seq: u64) -> bool {
        let Some(last) = self.blocks.last_mut() else { return false };
        let left = last.0;
        if last.1 != seq || self.recent.first().is_none_or(|&r| r < left) {
            return false;
        }
        // One report per block: hold() drops a block's others when it reports it (merged blocks too).
        debug_assert!(self.recent[1..].iter().all(|&r| r < left));
        last.1 = seq + 1;
        self.recent[0] = seq;
        debug_assert_eq!(self.report.as_slice().first(), Some(&(left, seq)));
        self.report.set_first_right(seq + 1);
        true
    }

    /// The next expected packet is now `expected`: blocks and reports below it are gone (delivered).
    fn deliver(&mut self, expected: u64) {
        let gone = self.blocks.partition_point(|b| b.1 <= expected);
        self.blocks.drain(..gone);
        self.recent.retain(|&r| r >= expected);
    }

    /// The blocks of the most recently reported first, each once, at most three.
    fn report(&self) -> SackBlocks {
        let mut out = SackBlocks::NONE;
        let mut used = [usize::MAX; MAX_SACK_BLOCKS];
        for &r in &self.recent {
            if out.len() == MAX_SACK_BLOCKS {
                break;
            }
            if let Some(i) = self.find(r).filter(|i| !used.contains(i)) {
                used[out.len()] = i;
                out.push(self.blocks[i]);
            }
        }
        out
    }
}

impl Receiver {
    /// A receiver whose advertised window is `wmax` packets: the sender never has a packet beyond
    /// `expected + wmax - 1` outstanding, so a ring of that size holds every out-of-order packet.
    pub fn new(wmax: u64) -> Self {
        let size = (wmax.max(1) + 1).next_power_of_two();
        Receiver {
            expected: 0,
            held: vec![false; size as usize],
            held_count: 0,
            held_end: 0,
            mask: size - 1,
            probing: false,
            sack: None,
        }
    }

    /// The same receiver with SACK (RFC 2018) on or off: on, [`Receiver::sack_blocks`] gives each ACK's blocks.
    pub fn with_sack(mut self, on: bool) -> Self {
        self.sack = on.then(Box::default);
        self
    }

    /// Whether an ACK sent now carries SACK blocks ([`Receiver::sack_blocks`] not empty), without copying them.
    #[inline]
    pub fn has_sack_blocks(&self) -> bool {
        self.sack.as_ref().is_some_and(|s| !s.report.is_empty())
    }

    /// The SACK blocks of an ACK sent now (RFC 2018 §4): first the block holding the packet that arrived last, if
    /// it is held out of order, then the other blocks most recently reported first, each once, at most three in
    /// all. None without SACK or with nothing held.
    pub fn sack_blocks(&self) -> SackBlocks {
        match &self.sack {
            Some(s) => s.report,
            None => SackBlocks::NONE,
        }
    }

    /// Whether `seq` would be new to this receiver: not below the next expected and not held.
    #[inline]
    pub fn is_new(&self, seq: u64) -> bool {
        seq >= self.expected && !self.held[(seq & self.mask) as usize]
    }

    /// A correct packet `seq` arrived; returns the cumulative ACK (next expected sequence number).
    #[inline]
    pub fn on_segment(&mut self, seq: u64) -> u64 {
        // In order with nothing held just above it: a bulk transfer's common packet, kept small enough to inline.
        if seq == self.expected && !self.held[((seq + 1) & self.mask) as usize] {
            self.expected += 1;
            return self.expected;
        }
        self.on_other_segment(seq)
    }

    /// [`Receiver::on_segment`] for a packet that fills a hole, arrives out of order or is old.
    #[inline(never)]
    fn on_other_segment(&mut self, seq: u64) -> u64 {
        if seq == self.expected {
            self.expected += 1;
            if self.held[(self.expected & self.mask) as usize] {
                while self.held[(self.expected & self.mask) as usize] {
                    self.held[(self.expected & self.mask) as usize] = false;
                    self.held_count -= 1;
                    self.expected += 1;
                }
                if self.sack.is_some() {
                    self.note_sack(seq); // a hole filled: the blocks it joined are delivered
                }
            }
        } else if seq > self.expected {
            debug_assert!(seq - self.expected <= self.mask, "packet {seq} beyond the advertised window");
            let slot = &mut self.held[(seq & self.mask) as usize];
            self.held_count += u64::from(!*slot);
            *slot = true;
            self.held_end = self.held_end.max(seq + 1);
            if self.sack.is_some() {
                self.note_sack(seq);
            }
        }
        // In order with nothing held, or an old packet: no block changes, and SACK costs nothing here.
        self.expected
    }

    /// SACK's bookkeeping for packet `seq`, out of line so that the cumulative-ACK path stays as it was.
    #[inline(never)]
    fn note_sack(&mut self, seq: u64) {
        let expected = self.expected;
        if let Some(sack) = &mut self.sack {
            if seq > expected && sack.extend_latest(seq) {
                return; // nothing below `expected` changed: no block is delivered
            }
            if seq >= expected {
                sack.hold(seq);
            }
            if !sack.blocks.is_empty() {
                sack.deliver(expected); // with no block there is no report either (each lies in a block)
            }
            sack.report = if sack.blocks.is_empty() { SackBlocks::NONE } else { sack.report() };
        }
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
        self.held_count > 0
    }

    /// The packets held out of order, and one past the highest of them (the next expected when none is held).
    pub fn held(&self) -> (u64, u64) {
        if self.held_count > 0 {
            (self.held_count, self.held_end)
        } else {
            (0, self.expected)
        }
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

    #[test]
    fn sack_blocks_report_the_latest_block_first_then_the_recent_ones() {
        let mut r = Receiver::new(32).with_sack(true);
        let blocks = |r: &Receiver| r.sack_blocks().as_slice().to_vec();
        assert_eq!(r.on_segment(0), 1);
        assert!(blocks(&r).is_empty());
        r.on_segment(2);
        assert_eq!(blocks(&r), [(2, 3)]);
        r.on_segment(3);
        assert_eq!(blocks(&r), [(2, 4)]); // grows
        r.on_segment(6);
        assert_eq!(blocks(&r), [(6, 7), (2, 4)]); // the latest first
        r.on_segment(9);
        r.on_segment(12);
        assert_eq!(blocks(&r), [(12, 13), (9, 10), (6, 7)]); // three at most: (2, 4) not repeated
        r.on_segment(5);
        assert_eq!(blocks(&r), [(5, 7), (12, 13), (9, 10)]); // 5 joins (6, 7), reported once
        r.on_segment(4);
        assert_eq!(blocks(&r), [(2, 7), (12, 13), (9, 10)]); // 4 joins (2, 4) and (5, 7)
        assert_eq!(r.on_segment(1), 7); // fills the hole: 1 … 6 delivered
        assert_eq!(blocks(&r), [(12, 13), (9, 10)]);
        r.on_segment(3); // an old one: no block of its own
        assert_eq!(blocks(&r), [(12, 13), (9, 10)]);
        assert_eq!(Receiver::new(32).sack_blocks(), SackBlocks::NONE);
    }

    /// `SackState::extend_latest`, where it applies, leaves the blocks, the recent reports and the report as the
    /// general path (`hold`, `deliver`, `report`) does: random arrivals (an LCG's: a window sent in order, each
    /// segment lost with probability 1/8 and sent again later) through a receiver, each out-of-order segment checked
    /// both ways from the same state.
    #[test]
    fn a_segment_extending_the_latest_block_is_held_as_the_general_path_holds_it() {
        let mut x = 7u64;
        let mut draw = |n: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        let mut r = Receiver::new(64).with_sack(true);
        let (mut next, mut lost, mut taken) = (0u64, Vec::new(), 0);
        for _ in 0..20_000 {
            let seq = if !lost.is_empty() && draw(4) == 0 {
                lost.remove(draw(lost.len() as u64) as usize)
            } else if next < r.expected() + 60 {
                next += 1;
                next - 1
            } else {
                continue;
            };
            if draw(8) == 0 {
                lost.push(seq);
                continue;
            }
            if seq > r.expected() && !r.held[(seq & r.mask) as usize] {
                let sack = r.sack.as_deref().unwrap();
                let (mut quick, mut general) = (sack.clone(), sack.clone());
                if quick.extend_latest(seq) {
                    taken += 1;
                    general.hold(seq);
                    general.deliver(r.expected());
                    general.report = general.report();
                    assert_eq!((&quick.blocks, &quick.recent, quick.report),
                               (&general.blocks, &general.recent, general.report), "segment {seq}");
                }
            }
            r.on_segment(seq);
        }
        assert!(taken > 1000, "the quick path taken {taken} times");
    }
}
