//! The sender's window over time, as a link run goes: what ns-3's `CongestionWindow` trace source and Linux's
//! `tcp:tcp_probe` tracepoint give, here a row each time an event leaves the sender in a new state (after it has
//! sent what the event allowed), for the first seconds of a run. An observer of the link driver
//! ([`super::link::LinkObserver`]; the driver knows nothing of it, and a run without it pays nothing), and kept by the
//! transfer driver once the connection is established ([`super::transfer::run_transfer_traced`]).

use super::observe::LinkObserver;
use crate::tcp::Sender;

/// The sender after one event (and the sends it allowed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowRow {
    /// Simulated time \[s\].
    pub time: f64,
    /// Congestion window cwnd \[packets\].
    pub cwnd: f64,
    /// Slow-start threshold ssthresh \[packets\].
    pub ssthresh: f64,
    /// SND.UNA: the first unacknowledged sequence number.
    pub una: u64,
    /// One past the highest sequence number sent (high − una is the data outstanding).
    pub high: u64,
    /// RFC 6675's pipe, with SACK (None without).
    pub pipe: Option<u64>,
    /// The receiver's window as the last ACK advertised it \[packets\] (Wmax but with `rwnd_rule = linux`).
    pub rwnd: u64,
    /// Whether a fast recovery (or SACK's loss recovery) is in progress.
    pub in_recovery: bool,
    /// The retransmission timeout the sender would arm now, backoff included \[s\].
    pub rto: f64,
    /// Timer expirations so far.
    pub timeouts: u64,
    /// Fast retransmits so far.
    pub fast_retransmits: u64,
}

impl WindowRow {
    fn of(time: f64, sender: &Sender) -> Self {
        let counters = sender.counters();
        WindowRow {
            time,
            cwnd: sender.cwnd(),
            ssthresh: sender.ssthresh(),
            una: sender.una(),
            high: sender.high(),
            pipe: sender.pipe(),
            rwnd: sender.rwnd(),
            in_recovery: sender.in_recovery(),
            rto: sender.rto_estimator().rto(),
            timeouts: counters.timeouts,
            fast_retransmits: counters.fast_retransmits,
        }
    }

    /// Whether the sender's state differs from `other`'s (the time aside).
    fn moved_from(&self, other: &WindowRow) -> bool {
        WindowRow { time: other.time, ..*self } != *other
    }
}

/// The observer that keeps [`WindowRow`]s: one at the start (after the first sends), then one after each event that
/// changed the sender, up to the time `until` and at most `max_rows` rows.
#[derive(Debug, Clone, Default)]
pub struct WindowTrace {
    /// How long the trace runs, and until when (`span` after its start: 0, or [`WindowTrace::start_at`]).
    span: f64,
    until: f64,
    max_rows: usize,
    rows: Vec<WindowRow>,
    /// Whether rows were left out because `max_rows` were kept already.
    truncated: bool,
}

impl WindowTrace {
    /// A trace of the run's first `until` seconds (see [`WindowTrace::start_at`]), of at most `max_rows` rows.
    pub fn new(until: f64, max_rows: usize) -> Self {
        WindowTrace { span: until, until, max_rows, rows: Vec::new(), truncated: false }
    }

    /// Run the trace's seconds from `start` instead of from time 0 (the transfer driver's: from the handshake's end).
    pub fn start_at(&mut self, start: f64) {
        self.until = start + self.span;
    }

    /// The rows, in time order.
    pub fn rows(&self) -> &[WindowRow] {
        &self.rows
    }

    /// Whether the trace stopped at its `max_rows` before its time ran out.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// The sender at `now`, once it has sent what an event allowed: a row if it changed since the last one (the link
    /// driver calls it as an observer, the transfer driver directly).
    pub fn record(&mut self, now: f64, sender: &Sender) {
        if now > self.until {
            return;
        }
        let row = WindowRow::of(now, sender);
        if self.rows.last().is_some_and(|last| !row.moved_from(last)) {
            return;
        }
        if self.rows.len() >= self.max_rows {
            self.truncated = true;
            return;
        }
        self.rows.push(row);
    }
}

impl LinkObserver for WindowTrace {
    #[inline]
    fn after_sends(&mut self, now: f64, sender: &Sender) {
        self.record(now, sender);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::link::{run_link_observed, LinkConfig, PerfectChannel};
    use crate::tcp::{Rfc6298, SenderConfig, Variant};
    use crate::watch::Watch;

    /// Slow start over a loss-free link, worked by hand: one packet at 0; with T = τ + 1/μ, the first ACK at T
    /// (cwnd 2, two packets out: high 3), the next two at 2T and 2T + 1/μ (cwnd 3 then 4, high 5 then 7).
    #[test]
    fn slow_start_is_traced_as_worked_by_hand() {
        let (rate, tau) = (10.0, 0.2); // 1/μ = 0.1 s, T = 0.3 s
        let sender = SenderConfig::new(Variant::NewReno, 1000, 3, 1.0, 1000.0)
            .and_then(|s| s.with_rfc6298(Rfc6298::ns2()))
            .expect("sender");
        let cfg = LinkConfig { sender, rate, tau, buffer: 100, duration: 5.0, warmup: 0.0, batches: 1, delayed_ack: None };
        let mut trace = WindowTrace::new(0.75, 100);
        run_link_observed(&cfg, PerfectChannel, &mut trace, &mut Watch::quiet()).expect("run");
        let seen: Vec<(f64, f64, u64, u64)> = trace.rows().iter().map(|r| (r.time, r.cwnd, r.una, r.high)).collect();
        let expected = [(0.0, 1.0, 0, 1), (0.3, 2.0, 1, 3), (0.6, 3.0, 2, 5), (0.7, 4.0, 3, 7)];
        assert_eq!(seen.len(), expected.len(), "{seen:?}");
        for (got, want) in seen.iter().zip(expected) {
            assert!((got.0 - want.0).abs() < 1e-12 && got.1 == want.1 && (got.2, got.3) == (want.2, want.3),
                    "{got:?} against {want:?}");
        }
        assert!(trace.rows().iter().all(|r| r.ssthresh == 1000.0 && r.pipe.is_none() && !r.in_recovery));
        assert!(!trace.truncated());
    }

    #[test]
    fn the_trace_stops_at_its_rows_and_says_so() {
        let sender = SenderConfig::new(Variant::Reno, 1000, 3, 1.0, 1000.0).expect("sender");
        let cfg = LinkConfig { sender, rate: 10.0, tau: 0.2, buffer: 100, duration: 5.0, warmup: 0.0, batches: 1,
                               delayed_ack: None };
        let mut trace = WindowTrace::new(5.0, 3);
        run_link_observed(&cfg, PerfectChannel, &mut trace, &mut Watch::quiet()).expect("run");
        assert_eq!(trace.rows().len(), 3);
        assert!(trace.truncated());
    }
}
