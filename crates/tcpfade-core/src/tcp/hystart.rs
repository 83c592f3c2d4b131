//! HyStart++ (RFC 9406): the initial slow start left on a rise in round-trip time, before the losses of an
//! overshoot, through a conservative slow start (CSS) that undoes a false exit. A part beside the congestion
//! control (AIMD or CUBIC), with [`super::SenderConfig::hystart`].
//!
//! The rules, each with its section of RFC 9406, in packets and the driver's seconds:
//!
//! - §4.2, rounds: a round ends when the cumulative ACK reaches `window_end`, SND.NXT when the round began (the
//!   first round is the initial window's). At each round's end lastRoundMinRTT = currentRoundMinRTT,
//!   currentRoundMinRTT = ∞ and the sample count restarts.
//! - §4.2, samples: every ACK of new data gives an RTT sample, the time since the newest segment it
//!   acknowledges was sent (the part keeps each new segment's send time: the sender's own timing takes one
//!   sample a round trip, as BSD's, and RFC 9406 wants N_RTT_SAMPLE = 8 per round). While the part runs there has
//!   been no loss, so no sample is of a retransmission. Samples are rounded to the microsecond, as the kernel
//!   keeps them, so that equal round trips compare equal.
//! - §4.2, slow start: W grows by the congestion part's own slow-start rule (one per ACK, or the segments acked up
//!   to L = 2 with byte counting: RFC 3465's L, which is below RFC 9406's L = 8 for an unpaced sender, so it is
//!   the one that binds). Once a round has N_RTT_SAMPLE samples, with RttThresh = max(4 ms, min(lastRoundMinRTT /
//!   8, 16 ms)): currentRoundMinRTT ≥ lastRoundMinRTT + RttThresh leaves slow start for CSS, with
//!   cssBaselineMinRtt = currentRoundMinRTT.
//! - §4.2, CSS: each ACK's growth is a quarter of slow start's (CSS_GROWTH_DIVISOR = 4); a round with
//!   N_RTT_SAMPLE samples whose minimum falls below the baseline goes back to slow start (the exit was
//!   spurious); after CSS_ROUNDS = 5 rounds in CSS, ssthresh = cwnd and congestion avoidance begins.
//! - §4.2, a loss (a fast retransmit or a timeout) in slow start or CSS: the congestion part sets ssthresh as
//!   always, and HyStart++ ends.
//! - §4.3: only the initial slow start runs HyStart++; once it ends (by CSS, a loss, or cwnd reaching ssthresh)
//!   every later slow start is the ordinary one, bounded by the ssthresh found.
//!
//! Linux's default for CUBIC is HyStart (Ha and Rhee 2008: ACK trains and delay), a different algorithm, which is
//! not modelled; no profile turns this part on.

use super::state::TcpState;

/// MIN_RTT_THRESH \[s\] (RFC 9406 §4.3).
pub const MIN_RTT_THRESH: f64 = 0.004;
/// MAX_RTT_THRESH \[s\].
pub const MAX_RTT_THRESH: f64 = 0.016;
/// MIN_RTT_DIVISOR.
pub const MIN_RTT_DIVISOR: f64 = 8.0;
/// N_RTT_SAMPLE: samples a round needs before its minimum is judged.
pub const N_RTT_SAMPLE: u32 = 8;
/// CSS_GROWTH_DIVISOR.
pub const CSS_GROWTH_DIVISOR: f64 = 4.0;
/// CSS_ROUNDS.
pub const CSS_ROUNDS: u32 = 5;

/// Where HyStart++ stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HyStartPhase {
    /// The initial slow start, watched.
    SlowStart,
    /// Conservative slow start, with the rounds spent in it.
    Css(u32),
    /// Over: congestion avoidance, a loss, or cwnd at ssthresh.
    Done,
}

/// HyStart++'s state (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct HyStart {
    /// Send times of new segments, by sequence number modulo the ring's size (a power of two at least the flight).
    times: Vec<f64>,
    window_end: u64,
    last_round_min: f64,
    current_round_min: f64,
    samples: u32,
    css_baseline: f64,
    pub(crate) phase: HyStartPhase,
}

impl HyStart {
    /// The part at the start of a connection whose initial window is `initial_window` segments.
    pub(crate) fn new(initial_window: u64) -> Self {
        HyStart {
            times: vec![0.0; initial_window.next_power_of_two().max(64) as usize],
            window_end: initial_window,
            last_round_min: f64::INFINITY,
            current_round_min: f64::INFINITY,
            samples: 0,
            css_baseline: f64::INFINITY,
            phase: HyStartPhase::SlowStart,
        }
    }

    /// New segment `seq` went out at `now`, with `una` the first unacknowledged.
    #[inline]
    pub(crate) fn on_send(&mut self, seq: u64, una: u64, now: f64) {
        let size = self.times.len() as u64;
        if seq - una >= size {
            // Double until the flight fits, keeping the outstanding segments' times.
            let new_size = (seq - una + 1).next_power_of_two().max(2 * size);
            let mut times = vec![0.0; new_size as usize];
            for s in una..seq {
                times[(s % new_size) as usize] = self.times[(s % size) as usize];
            }
            self.times = times;
        }
        let size = self.times.len() as u64;
        self.times[(seq % size) as usize] = now;
    }

    /// An ACK of new data at `now` has been applied by the congestion part, which moved cwnd from `before`; `st.una`
    /// is past the segments it acknowledged. Returns false once HyStart++ is over (the sender drops the part).
    pub(crate) fn after_ack(&mut self, st: &mut TcpState, before: f64, slow_start: bool, now: f64) -> bool {
        if st.counters.fast_retransmits + st.counters.timeouts > 0 || !slow_start {
            self.phase = HyStartPhase::Done; // a loss set ssthresh, or cwnd had reached it (§4.2, §4.3)
            return false;
        }
        if let HyStartPhase::Css(_) = self.phase {
            st.cwnd = before + (st.cwnd - before) / CSS_GROWTH_DIVISOR;
        }
        let size = self.times.len() as u64;
        // In whole microseconds, as Linux keeps RTTs: two equal round trips then compare equal, whatever the
        // rounding of the times they are differences of (a spurious "the minimum fell" would restart slow start).
        let rtt = ((now - self.times[((st.una - 1) % size) as usize]) * 1e6).round() / 1e6;
        self.current_round_min = self.current_round_min.min(rtt);
        self.samples += 1;
        if self.samples >= N_RTT_SAMPLE && self.last_round_min.is_finite() {
            match self.phase {
                HyStartPhase::SlowStart => {
                    let thresh = (self.last_round_min / MIN_RTT_DIVISOR).clamp(MIN_RTT_THRESH, MAX_RTT_THRESH);
                    if self.current_round_min >= self.last_round_min + thresh {
                        self.css_baseline = self.current_round_min;
                        self.phase = HyStartPhase::Css(0);
                    }
                }
                HyStartPhase::Css(_) if self.current_round_min < self.css_baseline => {
                    self.css_baseline = f64::INFINITY; // the exit was spurious
                    self.phase = HyStartPhase::SlowStart;
                }
                _ => {}
            }
        }
        if st.una >= self.window_end {
            self.last_round_min = self.current_round_min;
            self.current_round_min = f64::INFINITY;
            self.samples = 0;
            self.window_end = st.high;
            if let HyStartPhase::Css(rounds) = self.phase {
                if rounds + 1 >= CSS_ROUNDS {
                    st.ssthresh = st.cwnd; // §4.2: congestion avoidance
                    self.phase = HyStartPhase::Done;
                    return false;
                }
                self.phase = HyStartPhase::Css(rounds + 1);
            }
        }
        true
    }
}
