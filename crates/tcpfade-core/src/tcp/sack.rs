//! Selective acknowledgments (RFC 2018) as they cross the wire, and the sender's scoreboard of them (RFC 6675 §3).
//!
//! Sequence numbers count packets, as everywhere in [`super`]: a SACK block `[left, right)` names the packets
//! `left … right − 1` that the receiver holds above its cumulative ACK. An ACK carries at most
//! [`MAX_SACK_BLOCKS`] blocks: RFC 2018 §3 allows four in 40 option bytes, three when the timestamp option is
//! in use too, as it is by default in Linux and the BSDs; we take three.
//!
//! The `Scoreboard` keeps one bit per outstanding packet (SACKed or not) in a ring indexed by sequence number,
//! sized like the receiver's ring by the receiver's window Wmax: the sender never has more than Wmax packets
//! outstanding, so every packet between the cumulative ACK and the highest sent has its own bit. Every query
//! the loss-recovery rules make (how many SACKed in a range, the K-th highest SACKed, the first or last
//! un-SACKed) works a 64-packet word at a time.

/// Most SACK blocks an ACK carries (RFC 2018 §3: three beside the timestamp option).
pub const MAX_SACK_BLOCKS: usize = 3;

/// The SACK blocks of one ACK, first the one holding the packet that triggered it (RFC 2018 §4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SackBlocks {
    len: u8,
    blocks: [(u64, u64); MAX_SACK_BLOCKS],
}

impl SackBlocks {
    /// No blocks (an ACK with nothing held above the cumulative ACK, or SACK off).
    pub const NONE: SackBlocks = SackBlocks { len: 0, blocks: [(0, 0); MAX_SACK_BLOCKS] };

    /// Blocks `[left, right)` in the order given; beyond [`MAX_SACK_BLOCKS`] they are dropped, as a full option
    /// drops them.
    pub fn new(blocks: &[(u64, u64)]) -> Self {
        let mut out = SackBlocks::NONE;
        for &b in blocks.iter().take(MAX_SACK_BLOCKS) {
            out.push(b);
        }
        out
    }

    /// Add a block at the end, if there is room.
    #[inline]
    pub(crate) fn push(&mut self, block: (u64, u64)) {
        if (self.len as usize) < MAX_SACK_BLOCKS {
            self.blocks[self.len as usize] = block;
            self.len += 1;
        }
    }

    /// The first block's right edge moved to `right` (it grew).
    #[inline]
    pub(crate) fn set_first_right(&mut self, right: u64) {
        debug_assert!(self.len > 0);
        self.blocks[0].1 = right;
    }

    /// The blocks, in the order they are carried.
    #[inline]
    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.blocks[..self.len as usize]
    }

    /// How many blocks.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes the SACK option adds to the ACK's header: kind and length (2) and 8 per block, padded with NOPs
    /// to a multiple of 4 (RFC 2018 §3); none without a block.
    pub fn option_bytes(&self) -> u64 {
        option_bytes_for(self.len)
    }
}

/// [`SackBlocks::option_bytes`] of an ACK with `blocks` blocks.
pub(crate) fn option_bytes_for(blocks: u8) -> u64 {
    match blocks {
        0 => 0,
        n => (2 + 8 * u64::from(n)).div_ceil(4) * 4,
    }
}

/// Bits of `len` ≤ 64 low positions.
#[inline]
fn low_bits(len: u64) -> u64 {
    if len >= 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    }
}

/// The sender's record of which outstanding packets the receiver has SACKed (RFC 6675 §3's scoreboard).
#[derive(Debug, Clone)]
pub(crate) struct Scoreboard {
    words: Vec<u64>,
    /// Ring size in packets − 1 (a power of two, at least 64).
    mask: u64,
    /// Packets marked, all between the cumulative ACK and the highest sent.
    count: u64,
    /// One past the highest SACKed packet (0: none since the start).
    high_sacked: u64,
    /// One bit per outstanding packet, set while its last transmission is a retransmission (kept only for F-RTO,
    /// `super::frto`, which asks whether an ACK covers a packet never sent again; empty otherwise).
    rxt: Vec<u64>,
}

impl Scoreboard {
    /// A scoreboard for a receiver window of `wmax` packets.
    pub(crate) fn new(wmax: u64) -> Self {
        let size = (wmax.max(1) + 1).next_power_of_two().max(64);
        Scoreboard { words: vec![0; (size / 64) as usize], mask: size - 1, count: 0, high_sacked: 0, rxt: Vec::new() }
    }

    /// Keep the retransmitted bits too (F-RTO).
    pub(crate) fn with_retransmissions(mut self) -> Self {
        self.rxt = vec![0; self.words.len()];
        self
    }

    /// `seq` went on the link: a retransmission or not (its slot's bit is the last transmission's; a new packet
    /// clears what a packet a ring earlier left). No-op unless kept.
    #[inline]
    pub(crate) fn note_sent(&mut self, seq: u64, retransmission: bool) {
        if self.rxt.is_empty() {
            return;
        }
        let (w, bit) = (self.word(seq), 1u64 << (seq & 63));
        if retransmission {
            self.rxt[w] |= bit;
        } else {
            self.rxt[w] &= !bit;
        }
    }

    /// Packets in `[from, to)` neither SACKed nor retransmitted (F-RTO's originals); 0 unless kept.
    pub(crate) fn count_originals(&self, from: u64, to: u64) -> u64 {
        if to <= from || self.rxt.is_empty() {
            return 0;
        }
        Self::chunks(self.mask, from, to)
            .map(|(w, off, len, _)| u64::from((!(self.words[w] | self.rxt[w]) >> off & low_bits(len)).count_ones()))
            .sum()
    }

    #[inline]
    fn word(&self, seq: u64) -> usize {
        ((seq & self.mask) >> 6) as usize
    }

    /// The chunks of `[from, to)` that fall in one word each, low to high: (word, first bit, bits, first packet).
    #[inline]
    fn chunks(mask: u64, from: u64, to: u64) -> impl DoubleEndedIterator<Item = (usize, u64, u64, u64)> {
        debug_assert!(to.saturating_sub(from) <= mask + 1, "range beyond the ring");
        let (first, last) = if to > from { (from >> 6, ((to - 1) >> 6) + 1) } else { (0, 0) };
        (first..last).map(move |w| {
            let start = (w << 6).max(from);
            let end = ((w + 1) << 6).min(to);
            (((start & mask) >> 6) as usize, start & 63, end - start, start)
        })
    }

    /// Packets SACKed (between the cumulative ACK and the highest sent).
    #[inline]
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// One past the highest packet ever SACKed (0: none).
    #[inline]
    pub(crate) fn high_sacked(&self) -> u64 {
        self.high_sacked
    }

    /// Whether `seq` is SACKed.
    #[inline]
    pub(crate) fn is_sacked(&self, seq: u64) -> bool {
        self.words[self.word(seq)] >> (seq & 63) & 1 == 1
    }

    /// Mark `[from, to)` SACKed; returns how many were not before.
    pub(crate) fn mark(&mut self, from: u64, to: u64) -> u64 {
        if to <= from {
            return 0;
        }
        let mut new = 0;
        for (w, off, len, _) in Self::chunks(self.mask, from, to) {
            let bits = low_bits(len) << off;
            new += u64::from((!self.words[w] & bits).count_ones());
            self.words[w] |= bits;
        }
        self.count += new;
        self.high_sacked = self.high_sacked.max(to);
        new
    }

    /// Mark `seq` SACKed: [`Scoreboard::mark`] of `[seq, seq + 1)`, without counting bits.
    #[inline(always)]
    pub(crate) fn mark_one(&mut self, seq: u64) {
        let (w, bit) = (self.word(seq), 1u64 << (seq & 63));
        self.count += u64::from(self.words[w] & bit == 0);
        self.words[w] |= bit;
        self.high_sacked = self.high_sacked.max(seq + 1);
    }

    /// Forget every mark (the receiver reneged: `super::sack_recovery`'s evidence); the retransmitted bits stay.
    pub(crate) fn clear(&mut self) {
        self.words.fill(0);
        (self.count, self.high_sacked) = (0, 0);
    }

    /// The cumulative ACK moved from `from` to `to`: forget the marks below it (they are acknowledged).
    pub(crate) fn advance(&mut self, from: u64, to: u64) {
        if self.count == 0 || to <= from {
            return;
        }
        // Beyond a ring's length every bit below `to` goes.
        let from = from.max(to.saturating_sub(self.mask + 1));
        let mut gone = 0;
        for (w, off, len, _) in Self::chunks(self.mask, from, to) {
            let bits = low_bits(len) << off;
            gone += u64::from((self.words[w] & bits).count_ones());
            self.words[w] &= !bits;
        }
        self.count -= gone;
    }

    /// Packets SACKed in `[from, to)`.
    pub(crate) fn count_in(&self, from: u64, to: u64) -> u64 {
        if to <= from {
            return 0;
        }
        Self::chunks(self.mask, from, to)
            .map(|(w, off, len, _)| u64::from((self.words[w] >> off & low_bits(len)).count_ones()))
            .sum()
    }

    /// The `k`-th highest SACKed packet in `[from, to)` (k ≥ 1), if there are k.
    pub(crate) fn kth_highest(&self, k: u64, from: u64, to: u64) -> Option<u64> {
        if to <= from || self.count < k {
            return None;
        }
        let mut k = k;
        for (w, off, len, start) in Self::chunks(self.mask, from, to).rev() {
            let mut bits = self.words[w] >> off & low_bits(len);
            let ones = u64::from(bits.count_ones());
            if ones >= k {
                for _ in 1..k {
                    bits &= !(1u64 << (63 - bits.leading_zeros()));
                }
                return Some(start + u64::from(63 - bits.leading_zeros()));
            }
            k -= ones;
        }
        None
    }

    /// The first packet in `[from, to)` not SACKed.
    pub(crate) fn first_unsacked(&self, from: u64, to: u64) -> Option<u64> {
        debug_assert!(to.saturating_sub(from) <= self.mask + 1, "range beyond the ring");
        // A word at a time from `from` (a ring word holds 64 consecutive packets from a multiple of 64).
        let mut seq = from;
        while seq < to {
            let off = seq & 63;
            let len = (64 - off).min(to - seq);
            let holes = !(self.words[self.word(seq)] >> off) & low_bits(len);
            if holes != 0 {
                return Some(seq + u64::from(holes.trailing_zeros()));
            }
            seq += len;
        }
        None
    }

    /// The last packet in `[from, to)` not SACKed.
    pub(crate) fn last_unsacked(&self, from: u64, to: u64) -> Option<u64> {
        if to <= from {
            return None;
        }
        for (w, off, len, start) in Self::chunks(self.mask, from, to).rev() {
            let holes = !(self.words[w] >> off) & low_bits(len);
            if holes != 0 {
                return Some(start + u64::from(63 - holes.leading_zeros()));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_keep_three_and_count_option_bytes() {
        let b = SackBlocks::new(&[(5, 7), (9, 10), (12, 20), (30, 31)]);
        assert_eq!(b.as_slice(), &[(5, 7), (9, 10), (12, 20)]);
        assert_eq!(b.option_bytes(), 28); // 2 + 3·8 = 26, padded to 28
        assert_eq!(SackBlocks::new(&[(1, 2)]).option_bytes(), 12);
        assert_eq!(SackBlocks::NONE.option_bytes(), 0);
    }

    /// The word-at-a-time searches against a packet-by-packet scan, over random marks across the ring's wrap.
    #[test]
    fn searches_agree_with_a_scan_packet_by_packet() {
        let mut x = 99u64;
        let mut next = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            x >> 33
        };
        for round in 0..300 {
            let mut s = Scoreboard::new(200); // ring of 256
            let base = 1000 + round * 37;
            for _ in 0..next() % 40 {
                let from = base + next() % 256;
                s.mark(from, (from + 1 + next() % 9).min(base + 256));
            }
            for _ in 0..50 {
                let from = base + next() % 256;
                let to = (from + next() % 200).min(base + 256);
                let scan = (from..to).find(|&q| !s.is_sacked(q));
                assert_eq!(s.first_unsacked(from, to), scan, "[{from}, {to})");
                assert_eq!(s.last_unsacked(from, to), (from..to).rev().find(|&q| !s.is_sacked(q)));
                assert_eq!(s.count_in(from, to), (from..to).filter(|&q| s.is_sacked(q)).count() as u64);
            }
        }
    }

    #[test]
    fn scoreboard_counts_finds_and_forgets_across_the_ring() {
        let mut s = Scoreboard::new(100); // ring of 128
        let base = 1000; // not ring-aligned: ranges wrap
        assert_eq!(s.mark(base + 3, base + 5), 2);
        assert_eq!(s.mark(base + 4, base + 6), 1);
        assert_eq!(s.mark(base + 70, base + 72), 2);
        assert_eq!(s.count(), 5);
        assert_eq!(s.high_sacked(), base + 72);
        assert_eq!(s.count_in(base, base + 100), 5);
        assert_eq!(s.count_in(base + 4, base + 71), 3);
        assert_eq!(s.kth_highest(1, base, base + 100), Some(base + 71));
        assert_eq!(s.kth_highest(3, base, base + 100), Some(base + 5));
        assert_eq!(s.kth_highest(5, base, base + 100), Some(base + 3));
        assert_eq!(s.kth_highest(6, base, base + 100), None);
        assert_eq!(s.first_unsacked(base + 3, base + 100), Some(base + 6));
        assert_eq!(s.first_unsacked(base + 3, base + 6), None);
        assert_eq!(s.last_unsacked(base, base + 72), Some(base + 69));
        assert_eq!(s.last_unsacked(base + 3, base + 6), None);
        s.advance(base, base + 5);
        assert_eq!(s.count(), 3);
        assert!(!s.is_sacked(base + 3) && s.is_sacked(base + 5));
        // The ring's slots below the cumulative ACK are free for packets a ring further on.
        assert_eq!(s.mark(base + 128 + 2, base + 128 + 4), 2);
        assert_eq!(s.count_in(base + 5, base + 133), 5);
    }
}
