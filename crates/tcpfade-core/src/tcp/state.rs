//! The one state every part of the sender works over (BRIEF §3; ns-3's TcpSocketState): the window, the
//! sequence space, the duplicate-ACK count, the recovery point, the timer and its estimator, the RTT samples
//! and the counts. Parts keep only what is theirs alone (NewReno's guard, a probe cycle).

use super::cwnd_usage::CwndUsage;
use super::hystart::HyStart;
use super::probing::RttMinima;
use super::rto::RtoEstimator;

/// A packet the sender wants on the link now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// Sequence number (packets, from 0).
    pub seq: u64,
    /// Whether this sequence number was sent before.
    pub retransmission: bool,
}

/// Event counts of a sender.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SenderCounters {
    /// Every packet put on the link, retransmissions included (BRIEF D4).
    pub transmissions: u64,
    /// Packets sent again.
    pub retransmissions: u64,
    /// Timer expirations.
    pub timeouts: u64,
    /// Fast retransmits (K-th duplicate ACK).
    pub fast_retransmits: u64,
    /// Timeouts F-RTO found spurious and undid (RFC 5682; Linux's TCPSpuriousRTOs); counted in `timeouts` too. Kept as
    /// the list of their times (`TcpState::undone_timeouts`); this is its length, in `Sender::counters`.
    pub spurious_timeouts: u64,
}

/// The sender's state.
#[derive(Debug, Clone)]
pub(crate) struct TcpState {
    /// Congestion window W (real, BRIEF D3).
    pub cwnd: f64,
    /// Slow-start threshold Wth.
    pub ssthresh: f64,
    /// First unacknowledged sequence number, X(t) of zorzi-rao §2.
    pub una: u64,
    /// Next sequence number to send in order (moves back to `una` on go-back-N).
    pub send_next: u64,
    /// One past the highest sequence number ever sent.
    pub high: u64,
    /// The receiver's window (RFC 9293's SND.WND, in segments above SND.UNA): what the last ACK advertised, which
    /// bounds the segments outstanding with ⌊W⌋. Wmax throughout, unless the driver passes each ACK's window
    /// (`Sender::note_window`, Linux's autotuning receiver, `super::rwnd`).
    pub rwnd: u64,
    /// Duplicate ACKs since the last ACK of new data.
    pub dupacks: u64,
    /// Segments sent by RFC 3042 limited transmit since the last ACK of new data (left out of FlightSize at
    /// the fast retransmit, RFC 5681 §3.2 step 2).
    pub limited_sent: u64,
    /// In fast recovery: the recovery point (`high` when it started; RFC 6582 "recover").
    pub recover: Option<u64>,
    /// A retransmission to send before anything else (fast retransmit, partial ACK, Immediate Recovery).
    pub retransmit: Option<u64>,
    /// When the retransmission timer expires, if it runs (BRIEF D2).
    pub timer: Option<f64>,
    /// The RTO's estimator (fixed or RFC 6298).
    pub rto: RtoEstimator,
    /// The segment being timed for an RTT sample, and when it was sent (one at a time, as BSD and ns-2); with
    /// timestamps possibly a retransmission, then timed by the echo of the ACK that covers it (`timed_retransmission`).
    pub timed: Option<(u64, f64)>,
    /// Whether retransmissions are timed by their timestamps ([`super::SenderConfig::timestamps`]).
    pub timestamps: bool,
    /// The timestamp the ACK being taken echoes (RFC 7323's TSecr), when its driver gave one.
    pub echo: Option<f64>,
    /// Whether the timed segment is a retransmission (timed by the echo of its ACK: timestamps).
    pub timed_retransmission: bool,
    /// The smallest RTTs measured, by kind of sample (TCP-Probing's best RTT, tsaoussidis-badr §3.1).
    pub rtts: RttMinima,
    /// Event counts.
    pub counters: SenderCounters,
    /// HyStart++ (RFC 9406) while the initial slow start runs it ([`super::SenderConfig::hystart`]).
    pub hystart: Option<Box<HyStart>>,
    /// How far cwnd is used, when it grows only while it limits the sender ([`super::SenderConfig::cwnd_limited`]).
    pub usage: Option<CwndUsage>,
    /// Whether either of the two above runs beside the growth (one test per ACK for a sender with neither).
    pub growth_parts: bool,
    /// Whether a timeout that repeats one leaves ssthresh as it is ([`super::SenderConfig::hold_ssthresh_on_rto`]).
    pub hold_ssthresh_on_rto: bool,
    /// Whether a timeout in a fast recovery not yet past its recovery point leaves ssthresh as it is
    /// ([`super::SenderConfig::ssthresh_once_per_window`]).
    pub ssthresh_once_per_window: bool,
    /// The cumulative ACK at the last timeout: a timeout with it unchanged repeats that one.
    pub last_rto_una: Option<u64>,
    /// When the last timeout fired.
    pub last_timeout_at: f64,
    /// When each timeout F-RTO undid had fired: the undos' count ([`SenderCounters::spurious_timeouts`], filled in by
    /// `Sender::counters`), and what a driver needs to count an undo in the measured window of its timeout.
    pub undone_timeouts: Vec<f64>,
}

impl TcpState {
    /// The state at the start of a connection: W = IW, Wth = the initial threshold, nothing sent.
    pub fn new(initial_window: f64, initial_ssthresh: f64, rto: RtoEstimator) -> Self {
        TcpState {
            cwnd: initial_window,
            ssthresh: initial_ssthresh,
            una: 0,
            send_next: 0,
            high: 0,
            rwnd: u64::MAX,
            dupacks: 0,
            limited_sent: 0,
            recover: None,
            retransmit: None,
            timer: None,
            rto,
            timed: None,
            timestamps: false,
            echo: None,
            timed_retransmission: false,
            rtts: RttMinima::default(),
            counters: SenderCounters::default(),
            hystart: None,
            usage: None,
            growth_parts: false,
            hold_ssthresh_on_rto: false,
            ssthresh_once_per_window: false,
            last_rto_una: None,
            last_timeout_at: 0.0,
            undone_timeouts: Vec::new(),
        }
    }

    /// ⌊W⌋, the whole segments of the window (BRIEF D1). W is finite and at least 1, so the truncation is the floor;
    /// through i64 it is one instruction and a check, where `as u64` costs a dozen on x86-64 (no unsigned convert).
    /// Equal to `cwnd as u64` for every window below 2^63, far beyond any Wmax.
    #[inline(always)]
    pub fn whole_cwnd(&self) -> u64 {
        self.cwnd as i64 as u64
    }

    /// The next new segment, if one is there to send: SND.NXT at its highest, within the receiver's window and
    /// before `limit` (one past a finite transfer's last). What a tail loss probe (RFC 8985 §7.3) and F-RTO's
    /// step 2b (RFC 5682) may send.
    #[inline]
    pub fn next_new_segment(&self, limit: u64) -> Option<u64> {
        (self.send_next == self.high && self.send_next < self.una + self.rwnd && self.send_next < limit)
            .then_some(self.send_next)
    }
}
