//! RACK-TLP's record of the segments sent (RFC 8985 §5.2 and §6.1), which [`super::rack`] reads and marks: for each
//! outstanding segment its latest transmission time (`Segment.xmit_ts`) and flags (lost, retransmitted, a
//! retransmission in flight), in a ring keyed by sequence number that grows with the flight; and the undelivered
//! segments in a list by transmission time, oldest first (Linux's `tsorted_sent_queue`), which loss detection walks
//! from the oldest.
//!
//! **The calm state.** Between losses a bulk transfer's undelivered segments are exactly `[una, high)`, sent in that
//! order, none retransmitted, lost or a probe: the list by transmission time is then the sequence order itself. In
//! that state ([`SentList::try_calm`] checks it, once per quiet spell) the list is not kept, so that a segment sent or
//! delivered costs a store and a load instead of four links; anything else that happens first builds the list again
//! from the sequence order ([`SentList::settle`]).

/// Marked lost.
pub(super) const LOST: u8 = 1;
/// A retransmission of it is in flight (set when retransmitted, cleared when marked lost again).
pub(super) const RXT: u8 = 2;
/// Retransmitted at least once.
pub(super) const EVER_RXT: u8 = 4;
/// In the list of segments not yet delivered, by transmission time.
const LISTED: u8 = 8;
/// No segment (the list's ends).
pub(super) const NONE: u64 = u64::MAX;

/// What is recorded of one segment.
#[derive(Debug, Clone, Copy)]
pub(super) struct Slot {
    /// When it was (last) sent.
    pub xmit: f64,
    /// [`LOST`], [`RXT`], [`EVER_RXT`] (and whether it is listed).
    pub flags: u8,
    /// The neighbours in the list by transmission time (sequence numbers; [`NONE`] at the ends).
    prev: u64,
    next: u64,
}

impl Default for Slot {
    fn default() -> Self {
        Slot { xmit: 0.0, flags: 0, prev: NONE, next: NONE }
    }
}

/// The record (see the module documentation).
#[derive(Debug, Clone)]
pub(super) struct SentList {
    ring: Vec<Slot>,
    mask: u64,
    head: u64,
    tail: u64,
    /// In the calm state: `head`, `tail` and the links are stale.
    calm: bool,
}

impl SentList {
    pub(super) fn new() -> Self {
        SentList { ring: vec![Slot::default(); 64], mask: 63, head: NONE, tail: NONE, calm: false }
    }

    #[inline]
    pub(super) fn slot(&self, seq: u64) -> Slot {
        self.ring[(seq & self.mask) as usize]
    }

    #[inline]
    pub(super) fn slot_mut(&mut self, seq: u64) -> &mut Slot {
        &mut self.ring[(seq & self.mask) as usize]
    }

    /// Whether the record is in the calm state.
    #[inline]
    pub(super) fn is_calm(&self) -> bool {
        self.calm
    }

    /// The undelivered segment sent longest ago ([`NONE`] if none); not in the calm state.
    pub(super) fn oldest(&self) -> u64 {
        debug_assert!(!self.calm);
        self.head
    }

    /// The undelivered segment sent next after `seq` ([`NONE`] if none); not in the calm state.
    #[inline]
    pub(super) fn sent_next_after(&self, seq: u64) -> u64 {
        debug_assert!(!self.calm);
        self.slot(seq).next
    }

    /// New segment `seq` sent at `now`, with `[una, high)` outstanding.
    #[inline(always)]
    pub(super) fn record_new(&mut self, seq: u64, now: f64, una: u64, high: u64) {
        // Its old slot may be another segment's: copy only those before it.
        self.reserve(una, high, seq);
        debug_assert!(self.calm || self.slot(seq).flags & LISTED == 0, "a new segment's slot holds an undelivered one");
        // The links are not written: only a listed slot's are read, and listing one writes them.
        let slot = self.slot_mut(seq);
        (slot.xmit, slot.flags) = (now, 0);
        if !self.calm {
            self.link_last(seq);
        }
    }

    /// Segment `seq` sent again at `now`, with `[una, high)` outstanding: its flags before.
    pub(super) fn record_retransmission(&mut self, seq: u64, now: f64, una: u64, high: u64) -> u8 {
        self.reserve(una, high, high);
        self.settle(una, high);
        self.unlink(seq);
        let slot = self.slot_mut(seq);
        let before = slot.flags & !LISTED;
        slot.xmit = now;
        slot.flags |= RXT | EVER_RXT;
        self.link_last(seq);
        before
    }

    /// Segment `seq` delivered: out of the list, its flags but [`EVER_RXT`] cleared; the record as it was.
    #[inline]
    pub(super) fn remove(&mut self, seq: u64) -> Slot {
        self.unlink(seq);
        let slot = self.slot(seq);
        self.slot_mut(seq).flags &= EVER_RXT;
        slot
    }

    /// The segments `[una, ack)`, the oldest in the list and none ever retransmitted, delivered; the record of the
    /// last of them. Not in the calm state.
    pub(super) fn remove_oldest(&mut self, una: u64, ack: u64) -> Slot {
        debug_assert_eq!(self.head, una, "the oldest undelivered segment is the cumulative ACK");
        for seq in una..ack {
            self.slot_mut(seq).flags = 0; // out of the list; never retransmitted
        }
        let last = self.slot(ack - 1);
        self.head = last.next;
        match self.head {
            NONE => self.tail = NONE,
            h => self.slot_mut(h).prev = NONE,
        }
        last
    }

    /// Segment `seq`, delivered and out of the list, is undelivered again (the receiver reneged): back in the list at
    /// its place by transmission time, found by a walk from the oldest (rare: at a timeout after a renege). Not in the
    /// calm state.
    #[cold]
    pub(super) fn relink(&mut self, seq: u64) {
        debug_assert!(!self.calm && self.slot(seq).flags & LISTED == 0);
        let xmit = self.slot(seq).xmit;
        // The first listed segment sent after it (a later time; at the same time the higher sequence).
        let mut next = self.head;
        while next != NONE {
            let n = self.slot(next);
            if n.xmit > xmit || (n.xmit == xmit && next > seq) {
                break;
            }
            next = n.next;
        }
        let prev = if next == NONE { self.tail } else { self.slot(next).prev };
        self.splice(seq, prev, next);
    }

    /// Put `seq` at the end of the list (sent now, the latest).
    #[inline]
    fn link_last(&mut self, seq: u64) {
        self.splice(seq, self.tail, NONE);
    }

    /// Put `seq` into the list between `prev` and `next`, neighbours in it (NONE at an end).
    #[inline(always)]
    fn splice(&mut self, seq: u64, prev: u64, next: u64) {
        let slot = self.slot_mut(seq);
        (slot.prev, slot.next) = (prev, next);
        slot.flags |= LISTED;
        match prev {
            NONE => self.head = seq,
            p => self.slot_mut(p).next = seq,
        }
        match next {
            NONE => self.tail = seq,
            n => self.slot_mut(n).prev = seq,
        }
    }

    /// Take `seq` out of the list, if it is in it.
    #[inline]
    fn unlink(&mut self, seq: u64) {
        let Slot { prev, next, flags, .. } = self.slot(seq);
        if flags & LISTED == 0 {
            return;
        }
        match prev {
            NONE => self.head = next,
            p => self.slot_mut(p).next = next,
        }
        match next {
            NONE => self.tail = prev,
            n => self.slot_mut(n).prev = prev,
        }
        let slot = self.slot_mut(seq);
        (slot.prev, slot.next) = (NONE, NONE);
        slot.flags &= !LISTED;
    }

    /// Double the ring until `[una, high)` fits, keeping the record of every segment in `[una, recorded)`.
    #[inline]
    fn reserve(&mut self, una: u64, high: u64, recorded: u64) {
        if high - una > self.mask + 1 {
            self.grow(una, high, recorded);
        }
    }

    #[cold]
    fn grow(&mut self, una: u64, high: u64, recorded: u64) {
        let size = (high - una).next_power_of_two().max(2 * (self.mask + 1));
        let mut ring = vec![Slot::default(); size as usize];
        for s in una..recorded {
            ring[(s & (size - 1)) as usize] = self.slot(s);
        }
        self.ring = ring;
        self.mask = size - 1;
    }

    /// Leave the calm state, if in it: the list of the undelivered segments `[una, high)` by transmission time is their
    /// sequence order, built now.
    #[inline]
    pub(super) fn settle(&mut self, una: u64, high: u64) {
        if self.calm {
            self.build_in_order(una, high);
        }
    }

    #[cold]
    fn build_in_order(&mut self, una: u64, high: u64) {
        self.calm = false;
        (self.head, self.tail) = if una < high { (una, high - 1) } else { (NONE, NONE) };
        for seq in una..high {
            let slot = self.slot_mut(seq);
            slot.flags = LISTED;
            slot.prev = if seq > una { seq - 1 } else { NONE };
            slot.next = if seq + 1 < high { seq + 1 } else { NONE };
        }
    }

    /// Enter the calm state if the undelivered segments are `[una, high)` in sequence order from the head of the list,
    /// none lost, retransmitted or ever retransmitted: checked by walking the list.
    pub(super) fn try_calm(&mut self, una: u64, high: u64) {
        let mut expect = una;
        let mut next = self.head;
        while next != NONE {
            let slot = self.slot(next);
            if next != expect || slot.flags != LISTED {
                return;
            }
            expect += 1;
            next = slot.next;
        }
        if expect != high {
            return;
        }
        for seq in una..high {
            self.slot_mut(seq).flags = 0;
        }
        self.calm = true;
    }
}
