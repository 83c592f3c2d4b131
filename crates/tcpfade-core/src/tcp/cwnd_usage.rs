//! Growth only while cwnd limits the sender, as Linux has it (`tcp_cwnd_validate()` in tcp_output.c, which keeps how
//! far the window is used, and `tcp_is_cwnd_limited()` in include/net/tcp.h, which `tcp_reno_cong_avoid()` and
//! `cubictcp_cong_avoid()` ask before they grow it): a sender held back by the receiver's window (`super::rwnd`), or
//! with nothing more to send, does not grow cwnd, except in slow start up to twice the largest flight of the last
//! window. Off by default (the papers' TCP and RFC 5681 grow cwnd on every ACK of new data; RFC 7661 leaves the
//! matter open); in the linux profile ([`super::SenderConfig::cwnd_limited`]).

/// How far cwnd was used over the last window of data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct CwndUsage {
    /// `max_packets_out`: the largest flight since `until` was set.
    max_out: u64,
    /// `is_cwnd_limited`: whether the flight filled cwnd when it was last recorded.
    limited: bool,
    /// `cwnd_usage_seq`: SND.NXT when the record was last renewed; once SND.UNA passes it, a window has gone by.
    until: u64,
}

impl CwndUsage {
    /// An ACK of new data arrives, the flight before it being `una_before`..`high` (what the sends after the last ACK
    /// left, as `tcp_cwnd_validate()` records it after them) with cwnd `cwnd` whole segments, in slow start or not:
    /// whether cwnd may grow now (`tcp_is_cwnd_limited()`).
    pub(crate) fn allows_growth(&mut self, una_before: u64, high: u64, cwnd: u64, slow_start: bool) -> bool {
        let out = high - una_before;
        let limited = out >= cwnd;
        // The strongest sign of use within a window: a filled cwnd, else the largest flight; renewed each window.
        if una_before >= self.until || limited || (!self.limited && out > self.max_out) {
            *self = CwndUsage { max_out: out, limited, until: high };
        }
        self.limited || (slow_start && cwnd < 2 * self.max_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_follows_tcp_is_cwnd_limited() {
        let mut u = CwndUsage::default();
        // A full window: cwnd may grow, in slow start or not.
        assert!(u.allows_growth(0, 10, 10, false));
        // The receiver holds the flight at 10 while cwnd is 15, within the same window (SND.UNA below 10): the record
        // keeps "limited" (the strongest sign this window), so growth goes on until the window has gone by.
        assert!(u.allows_growth(1, 11, 15, false));
        // A window later (SND.UNA past 10, at 11 = until): 10 out of 15 is not limited; in congestion avoidance no
        // growth, in slow start while cwnd < 2 · 10.
        assert!(!u.allows_growth(11, 21, 15, false));
        assert!(u.allows_growth(12, 22, 15, true));
        assert!(u.allows_growth(13, 23, 19, true));
        assert!(!u.allows_growth(14, 24, 20, true));
        // A larger flight, not limited, raises the record within the window: 12 out → growth in slow start below 24.
        assert!(u.allows_growth(15, 27, 23, true));
        assert!(!u.allows_growth(16, 28, 24, true));
    }
}
