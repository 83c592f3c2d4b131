//! What the link driver ([`super::link`]) counts by the start of a transmission rather than by when it ends: a batch's
//! deliveries and receptions, and the start of each packet the receiver holds out of order until it is delivered.

/// A batch's counts by the start of the transmission ([`super::link::LinkCounts::delivered`]).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ByStart {
    /// Packets delivered in order, by the batch in which their delivering transmission started.
    pub(super) delivered: u64,
    /// Packets received correctly, by the batch in which their transmission started.
    pub(super) received: u64,
    /// Of them, those the receiver did not have ([`super::link::LinkCounts::new_received`]).
    pub(super) new_received: u64,
}

impl ByStart {
    /// Add another count of the same batch.
    pub(super) fn add(&mut self, other: &ByStart) {
        self.delivered += other.delivered;
        self.received += other.received;
        self.new_received += other.new_received;
    }
}

/// The start of the delivering transmission of each packet the receiver holds out of order, by sequence number: a
/// ring over the receiver's window (every held packet lies within Wmax above the cumulative ACK), allocated at the
/// first packet out of order, where a hash map cost a hash per packet held.
pub(super) struct HeldStarts {
    starts: Vec<f64>,
    wmax: u64,
}

impl HeldStarts {
    pub(super) fn new(wmax: u64) -> Self {
        HeldStarts { starts: Vec::new(), wmax }
    }

    #[inline]
    fn index(&self, seq: u64) -> usize {
        (seq & (self.starts.len() as u64 - 1)) as usize
    }

    /// Record `start` for `seq`, unless a start is recorded already (the first delivering transmission counts).
    pub(super) fn keep_first(&mut self, seq: u64, start: f64) {
        if self.starts.is_empty() {
            self.starts = vec![f64::NAN; (self.wmax + 1).next_power_of_two() as usize];
        }
        let i = self.index(seq);
        if self.starts[i].is_nan() {
            self.starts[i] = start;
        }
    }

    /// The start recorded for `seq`, forgotten.
    #[inline]
    pub(super) fn take(&mut self, seq: u64) -> Option<f64> {
        if self.starts.is_empty() {
            return None;
        }
        let i = self.index(seq);
        let t = std::mem::replace(&mut self.starts[i], f64::NAN);
        (!t.is_nan()).then_some(t)
    }
}
