//! The receiver's advertised window (RFC 9293 §3.8.6: the window each ACK carries, above its cumulative ACK). Two
//! rules, [`RwndRule`]:
//!
//! - **`Wmax`**: the papers' receiver advertises its whole buffer, Wmax, in every ACK (zorzi-rao §2, abouzeid §II-A),
//!   so the sender is bounded by min(W, Wmax). The default, and what every reproduction runs.
//! - **`Linux`**: Linux 6.18's receive-buffer autotuning for a reader that takes every byte at once (an iperf-like
//!   bulk receiver; docs/models.md, "The receiver's window"; measured in docs/validation/kernel.md). The kernel's
//!   constants are bytes, so the rule counts bytes of a segment of `mss` bytes and hands the sender whole segments:
//!   - at the start (`tcp_select_initial_window()`, `tcp_init_buffer_space()`, then the first data segment's
//!     `tcp_measure_rcv_mss()` with this host's `scaling_ratio` of 160/256): the SYN-ACK's window, 64 KiB rounded
//!     down to whole segments, as the ceiling `rcv_ssthresh`; the buffer's window (`window_clamp` = the full space)
//!     131072 · 160/256 = 81,920 bytes; the measure of what was read in a round trip (`rcvq_space.space`) 10 segments;
//!   - each segment taken in order, and each taken out of order with SACK (`tcp_grow_window()`): the ceiling grows by
//!     two segments, never above the clamp less what the socket holds;
//!   - the receiver's RTT (`tcp_rcv_rtt_update()`): from the timestamp a data segment echoes, in the kernel's
//!     millisecond ticks (a lower sample at once, a higher one by 1/8), and from the time to receive one advertised
//!     window (`tcp_rcv_rtt_measure()`, a minimum);
//!   - once per receiver RTT, after a read (`tcp_rcv_space_adjust()`, `tcp_rcvbuf_grow()`): when c, the bytes read
//!     since the last measure, exceeds that measure s, the clamp rises to rcvwin = 2c + 2·⌊2c(c − s)/s⌋ plus the
//!     extent held out of order (the traced kernel's, 6.18.44, whose every measurement it reproduces within
//!     1.5·10⁻⁵), up to `tcp_rmem[2]` = 32 MiB of buffer; an out-of-order segment raises it to 2s plus that extent;
//!   - the window of an ACK (`__tcp_select_window()`, `tcp_select_window()`): the ceiling, or the free space when it
//!     is less, rounded up to the window scale's 1024 bytes, and never shrinking the right edge advertised before.
//!
//! What the rule leaves out: memory pressure (`tcp_mem`), a reader that lags, GRO (one segment per buffer here), the
//! 6.19 low-RTT rule, and the SYN exchange itself (the connection starts established).

/// Which window the receiver advertises ([`crate::tcp::SenderConfig::rwnd_rule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RwndRule {
    /// Wmax in every ACK: the papers' receiver. The default.
    Wmax,
    /// Linux 6.18's receive-buffer autotuning, for segments of `mss` bytes of payload (see the module documentation).
    Linux {
        /// Bytes of payload per segment (Linux's advmss: 1448 on an Ethernet path with timestamps).
        mss: u64,
    },
}

impl RwndRule {
    /// The rule by name, "wmax" or "linux", with the segment's payload `mss` in bytes for the latter.
    pub fn from_name(name: &str, mss: u64) -> crate::error::Result<Self> {
        match name {
            "wmax" => Ok(RwndRule::Wmax),
            "linux" => {
                // A TCP segment's payload fits in an IP packet: at most 65,535 bytes.
                crate::check::int_in("mss", mss, 1, 65_535)?;
                Ok(RwndRule::Linux { mss })
            }
            _ => Err(crate::error::Error::invalid("rwnd_rule", format!("'{name}'"), "must be wmax or linux")),
        }
    }
}

/// `tcp_rmem[1]`, the receive buffer a socket starts with [bytes].
const RMEM_DEFAULT: u64 = 131_072;
/// `tcp_rmem[2]`, the largest the autotuning makes it [bytes].
const RMEM_MAX: u64 = 33_554_432;
/// The share of the buffer that is window, `scaling_ratio` / 256: 160 on the machine whose kernel was traced (set
/// by the first full segment from its truesize; docs/validation/kernel.md).
const SCALING_RATIO: u64 = 160;
/// The window scale's unit, 2^10 bytes (`rcv_wscale` = 10 with a 32-MiB `tcp_rmem[2]`).
const WINDOW_UNIT: u64 = 1024;
/// TCP_INIT_CWND: the first measure of a round trip's reads is ten segments.
const INIT_SPACE_SEGMENTS: u64 = 10;

/// Linux's window for one receiver: the state of [`RwndRule::Linux`] (see the module documentation), in bytes.
#[derive(Debug, Clone)]
pub struct LinuxWindow {
    mss: u64,
    /// `rcv_ssthresh`: the ceiling the window grows toward.
    ceiling: u64,
    /// `sk_rcvbuf` [bytes of memory], which only grows.
    rcvbuf: u64,
    /// `window_clamp`, equal to the buffer's full window space (`tcp_full_space()`) once a segment has arrived.
    clamp: u64,
    /// `rcvq_space.space`: the bytes read in the last round trip measured (never lowered).
    space: u64,
    /// `rcvq_space.seq` and `.time`: the bytes read, and when, at the start of the round trip being measured.
    measured_from: u64,
    measured_at: f64,
    /// Bytes read by the application so far, and bytes in order not yet read.
    read: u64,
    unread: u64,
    /// `rcv_rtt_est`: the receiver's RTT [s], unknown at first.
    rtt: Option<f64>,
    /// The last echoed timestamp sampled, in ticks (one sample per new echo).
    last_echo_tick: Option<i64>,
    /// `tcp_rcv_rtt_measure()`'s mark: the byte that completes one advertised window, and when the window began.
    window_mark: Option<(u64, f64)>,
    /// The right edge last advertised [bytes of the sequence space]; the window never moves it back.
    edge: u64,
    /// The window last advertised [bytes].
    advertised: u64,
}

impl LinuxWindow {
    /// A receiver's window as its connection is established, for segments of `mss` bytes.
    pub fn new(mss: u64) -> Self {
        let mss = mss.max(1);
        // tcp_select_initial_window(): tcp_full_space() at the default ratio of 1/2, rounded down to whole segments;
        // the SYN-ACK carries it unscaled, at most 65,535 (tcp_make_synack()).
        let full = RMEM_DEFAULT / 2;
        let initial = if full > mss { full / mss * mss } else { full }.min(65_535);
        // tcp_init_buffer_space(): the clamp one segment below the full space, the ceiling within it, and the first
        // measure min(ceiling, window, TCP_INIT_CWND segments); then the first full segment's tcp_measure_rcv_mss()
        // sets the ratio, the clamp to the buffer's window (tcp_set_window_clamp(), which lifts the ceiling back to
        // the SYN-ACK's window) and keeps the measure within the clamp.
        let first_clamp = (2 * mss).max(full - mss.min(full));
        let first_ceiling = initial.min(first_clamp);
        let clamp = RMEM_DEFAULT * SCALING_RATIO / 256;
        LinuxWindow {
            mss,
            ceiling: initial.min(clamp).max(first_ceiling),
            rcvbuf: RMEM_DEFAULT,
            clamp,
            space: first_ceiling.min(initial).min(INIT_SPACE_SEGMENTS * mss).min(clamp),
            measured_from: 0,
            measured_at: 0.0,
            read: 0,
            unread: 0,
            rtt: None,
            last_echo_tick: None,
            window_mark: None,
            edge: initial,
            advertised: initial,
        }
    }

    /// A data segment arrived at `now`, echoing the timestamp `echo` (the receiver's clock when it sent the ACK the
    /// sender had last taken; None without timestamps). Taken before the receiver queues it: the kernel samples the
    /// RTT here (`tcp_rcv_rtt_measure_ts()`).
    pub fn on_arrival(&mut self, now: f64, echo: Option<f64>) {
        let Some(echo) = echo else { return };
        let tick = ticks(echo);
        if self.last_echo_tick == Some(tick) {
            return;
        }
        self.last_echo_tick = Some(tick);
        let delta = ticks(now) - tick;
        if delta > 0 {
            let sample = delta as f64 * 1e-3;
            self.rtt = Some(match self.rtt {
                Some(rtt) if sample >= rtt => {
                    if self.unread > 0 {
                        // tcp_rcv_rtt_update() since 6.16 (a00f135cd986, "skip big rtt sample if receive queue is not
                        // empty"); with a reader that takes each segment at once the queue is read here.
                        return;
                    }
                    rtt - rtt / 8.0 + sample / 8.0
                }
                _ => sample,
            });
        }
    }

    /// The receiver took data segment `seq` at `now`, expecting `before` until then and `expected` now, with `held`
    /// segments held out of order up to `held_end` (one past the highest); `sack` says whether SACK is on (the kernel
    /// grows the ceiling for segments out of order only then). An old segment changes nothing.
    #[allow(clippy::too_many_arguments)]
    pub fn on_segment(&mut self, now: f64, seq: u64, before: u64, expected: u64, held: u64, held_end: u64, sack: bool) {
        if expected > before {
            self.unread += (expected - before) * self.mss;
            self.measure_window_rtt(now, expected);
            self.grow_ceiling(held);
        } else if seq > before {
            if sack {
                self.grow_ceiling(held.saturating_sub(1)); // the segment is charged to the socket after the growth
            }
            // tcp_data_queue_ofo(): the buffer made room for what is held (tcp_rcvbuf_grow() with the measure as is).
            self.raise_clamp(2 * self.space + self.extent(expected, held_end));
        }
    }

    /// The window an ACK leaving now carries, in whole segments above `expected`, the next expected segment
    /// (`__tcp_select_window()` and `tcp_select_window()`), with `held` segments held out of order.
    pub fn window(&mut self, expected: u64, held: u64) -> u64 {
        let full = self.clamp;
        let mut free = full.saturating_sub((self.unread / self.mss + held) * self.mss);
        if free < full / 2 {
            free = free / WINDOW_UNIT * WINDOW_UNIT;
            if free < full / 16 || free < self.mss {
                free = 0;
            }
        }
        let mut window = align_up(free.min(self.ceiling));
        let next = expected * self.mss;
        let current = self.edge.saturating_sub(next);
        if window < current {
            window = align_up(current);
        }
        self.edge = next + window;
        self.advertised = window;
        window / self.mss
    }

    /// The application read everything in order at `now` (an immediate reader: once per segment taken), and, once a
    /// receiver RTT has passed since the last measure, the buffer is right-sized (`tcp_rcv_space_adjust()`), with
    /// `expected` the next expected segment and `held_end` one past the highest held out of order (`expected` when
    /// none is).
    pub fn read(&mut self, now: f64, expected: u64, held_end: u64) {
        self.read += self.unread;
        self.unread = 0;
        let Some(rtt) = self.rtt else { return };
        if now - self.measured_at < rtt {
            return;
        }
        let copied = self.read - self.measured_from;
        if copied > self.space {
            let (old, new) = (self.space, copied);
            self.space = new;
            // tcp_rcvbuf_grow() (6.18): twice the round trip's reads, and twice more the growth for a slow start.
            let grow = ((2 * new) as u128 * (new - old) as u128 / old as u128) as u64;
            self.raise_clamp(2 * new + 2 * grow + self.extent(expected, held_end));
        }
        self.measured_from = self.read;
        self.measured_at = now;
    }

    /// The window advertised last, in whole segments (at first the SYN-ACK's).
    pub fn advertised(&self) -> u64 {
        self.advertised / self.mss
    }

    /// The ceiling `rcv_ssthresh` \[bytes\] (for inspection and tests).
    pub fn ceiling(&self) -> u64 {
        self.ceiling
    }

    /// The clamp `window_clamp` \[bytes\] (for inspection and tests).
    pub fn clamp(&self) -> u64 {
        self.clamp
    }

    /// The measure `rcvq_space.space` \[bytes\] (for inspection and tests).
    pub fn space(&self) -> u64 {
        self.space
    }

    /// The receiver's RTT estimate \[s\], once it has one.
    pub fn rtt(&self) -> Option<f64> {
        self.rtt
    }

    /// `tcp_grow_window()` for a segment just queued, `held` segments held out of order: two segments more, within
    /// the clamp less what the socket holds; `tcp_event_data_recv()` asks only for segments of 128 bytes or more.
    fn grow_ceiling(&mut self, held: u64) {
        if self.mss < 128 {
            return;
        }
        let free = self.clamp.saturating_sub(self.unread + held * self.mss);
        self.ceiling += free.saturating_sub(self.ceiling).min(2 * self.mss);
    }

    /// The bytes from the next expected segment to one past the highest held out of order (what `tcp_rcvbuf_grow()`
    /// adds for the out-of-order queue).
    fn extent(&self, expected: u64, held_end: u64) -> u64 {
        held_end.saturating_sub(expected) * self.mss
    }

    /// `tcp_rcv_rtt_measure()`: the time to receive one advertised window, kept when it is the lowest sample.
    fn measure_window_rtt(&mut self, now: f64, expected: u64) {
        let next = expected * self.mss;
        match self.window_mark {
            Some((mark, _)) if next < mark => return,
            Some((_, since)) => {
                let sample = (now - since).max(1e-6);
                self.rtt = Some(self.rtt.map_or(sample, |rtt| rtt.min(sample)));
            }
            None => {}
        }
        self.window_mark = Some((next + self.advertised, now));
    }

    /// `tcp_rcvbuf_grow()`'s last step: the buffer for a window of `rcvwin` bytes, at most `tcp_rmem[2]`, if that is
    /// more than it has; the clamp follows.
    fn raise_clamp(&mut self, rcvwin: u64) {
        let rcvbuf = (rcvwin * 256 / SCALING_RATIO).min(RMEM_MAX);
        if rcvbuf > self.rcvbuf {
            self.rcvbuf = rcvbuf;
            self.clamp = rcvbuf * SCALING_RATIO / 256;
        }
    }
}

/// The kernel's timestamp clock at `t` seconds: milliseconds (`tcp_time_stamp_ts()` without usec timestamps).
fn ticks(t: f64) -> i64 {
    (t * 1e3).floor() as i64
}

/// `ALIGN(bytes, 1 << rcv_wscale)`: up to the window scale's unit.
fn align_up(bytes: u64) -> u64 {
    bytes.div_ceil(WINDOW_UNIT) * WINDOW_UNIT
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: u64 = 1448;

    /// The kernel's first values for a 1448-byte MSS (docs/validation/kernel.md: 45 segments advertised, a clamp of
    /// 56.6, a measure of 10), and the first segment's growth worked by hand: room = min(81920, 81920 − 1448) − 65160
    /// = 15312, so the ceiling rises by 2 · 1448 to 68056, and the window is that rounded up to 1024 bytes: 68608
    /// bytes, 47 whole segments.
    #[test]
    fn the_first_window_and_the_first_growth_are_the_kernels() {
        let mut w = LinuxWindow::new(M);
        assert_eq!((w.advertised(), w.ceiling(), w.clamp(), w.space()), (45, 65160, 81920, 14480));
        w.on_segment(0.01, 0, 0, 1, 0, 1, false);
        assert_eq!(w.ceiling(), 68056);
        assert_eq!(w.window(1, 0), 47);
        w.read(0.01, 1, 1);
        // Growth stops at the clamp less the segment unread: 81920 − 1448 = 80472, rounded up to 80896 bytes, 55
        // segments (the kernel's 55.87 of its first round trip).
        for seq in 1..20 {
            w.on_segment(0.02, seq, seq, seq + 1, 0, seq + 1, false);
            w.window(seq + 1, 0);
            w.read(0.02, seq + 1, seq + 1);
        }
        assert_eq!(w.ceiling(), 80472);
        w.on_segment(0.03, 20, 20, 21, 0, 21, false);
        assert_eq!(w.window(21, 0), 80896 / M);
    }

    /// Dynamic right-sizing (`tcp_rcvbuf_grow()` as the traced kernel, 6.18.44, runs it), worked by hand: an RTT of
    /// 100 ms from an echo (100 ticks), then c = 21 · 1448 = 30408 bytes read in the round trip after a measure of s =
    /// 14480: rcvwin = 2c + 2⌊2c(c − s)/s⌋ = 60816 + 2 · 66897 = 194610 bytes, a buffer of 194610 · 256/160 = 311376
    /// bytes, and the clamp back at 311376 · 160/256 = 194610 (134.4 segments).
    #[test]
    fn right_sizing_follows_kernel_6_18() {
        let mut w = LinuxWindow::new(M);
        w.on_arrival(0.1, Some(0.0));
        assert_eq!(w.rtt(), Some(0.1));
        w.read(0.1, 0, 0); // the first measure: nothing read yet, so only a new start
        assert_eq!(w.clamp(), 81920);
        for seq in 0..20 {
            w.on_segment(0.15, seq, seq, seq + 1, 0, seq + 1, false);
            w.read(0.15, seq + 1, seq + 1); // within the round trip: no measure
        }
        assert_eq!(w.space(), 10 * M);
        w.on_segment(0.2, 20, 20, 21, 0, 21, false);
        w.read(0.2, 21, 21); // 21 segments since the last measure, at 0.1 s
        let c = 21 * M;
        let rcvwin = 2 * c + 2 * (2 * c * (c - 10 * M) / (10 * M));
        assert_eq!(w.space(), c);
        assert_eq!((rcvwin, w.clamp()), (194_610, 194_610));
        // A round trip that reads less leaves the measure and the clamp as they are.
        let clamp = w.clamp();
        w.on_segment(0.31, 21, 21, 22, 0, 22, false);
        w.read(0.31, 22, 22);
        assert_eq!((w.space(), w.clamp()), (c, clamp));
    }

    /// The RTT from echoes: a lower sample at once, a higher one by an eighth (`tcp_rcv_rtt_update()`), one sample per
    /// new echo, and none under a tick.
    #[test]
    fn the_receivers_rtt_takes_a_lower_sample_at_once_and_a_higher_one_by_an_eighth() {
        let mut w = LinuxWindow::new(M);
        w.on_arrival(0.2, Some(0.0));
        assert_eq!(w.rtt(), Some(0.2));
        w.on_arrival(0.3, Some(0.0)); // the same echo: no sample
        assert_eq!(w.rtt(), Some(0.2));
        w.on_arrival(0.5, Some(0.1)); // 400 ms: 0.2 · 7/8 + 0.4/8 = 0.225
        assert!((w.rtt().unwrap() - 0.225).abs() < 1e-12);
        w.on_arrival(0.6, Some(0.5)); // 100 ms: lower, taken whole
        assert_eq!(w.rtt(), Some(0.1));
        w.on_arrival(0.6004, Some(0.6001)); // the same tick: no sample
        assert_eq!(w.rtt(), Some(0.1));
    }

    /// The right edge never moves back (`tcp_select_window()`): segments held out of order take free space, and the
    /// window offered above a cumulative ACK that has not moved stays what it was.
    #[test]
    fn the_window_never_shrinks_the_right_edge() {
        let mut w = LinuxWindow::new(M);
        let first = w.window(0, 0);
        assert_eq!(first, 45);
        // 50 segments held above a hole at 0: free space 81920 − 50·1448 < half the buffer, so the offer would fall,
        // but the edge stays at 45 segments above SND.UNA = 0.
        for seq in 1..=50 {
            w.on_segment(0.1, seq, 0, 0, seq, seq + 1, true);
        }
        assert_eq!(w.window(0, 50), 45);
        // Out of order with SACK, the buffer made room for what is held: 2 · 10 segments + the extent of 51.
        let rcvwin = 2 * 10 * M + 51 * M;
        assert_eq!(w.clamp(), (rcvwin * 256 / SCALING_RATIO) * SCALING_RATIO / 256);
    }

    #[test]
    fn rules_by_name() {
        assert_eq!(RwndRule::from_name("wmax", 0).unwrap(), RwndRule::Wmax);
        assert_eq!(RwndRule::from_name("linux", 1448).unwrap(), RwndRule::Linux { mss: 1448 });
        assert!(RwndRule::from_name("linux", 0).is_err());
        assert!(RwndRule::from_name("bsd", 1448).is_err());
    }
}
