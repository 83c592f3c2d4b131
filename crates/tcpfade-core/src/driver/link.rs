//! The event-driven driver: a TCP bulk transfer over a wireless link with a buffer (abouzeid §II-A, §III).
//!
//! The sender puts packets into a DropTail buffer of B packets (not counting the one on the link) in front
//! of a link of rate μ packets/s. The link sends the head of the buffer in [s, s + 1/μ); the channel decides
//! whether it survives that interval (abouzeid §III: lost if the channel is bad at any instant of it). A
//! packet that survives reaches the receiver at s + 1/μ, and its ACK reaches the sender τ later, so the
//! round trip without queueing is T = τ + 1/μ and the pipe holds μT packets: w_p = B + μT (abouzeid §II-A).
//! ACKs are never lost. All the propagation delay sits on the way back: with a channel that evolves on its
//! own and a FIFO link, where τ is split changes no statistic of the run, and this way every packet meets
//! the channel at the time it leaves the buffer.
//!
//! Events are few and ordered, so there is no general event queue: the link finishes one packet at a
//! time, ACKs arrive in the order they were sent (a FIFO), and there is one retransmission timer and one
//! delayed-ACK timer. At equal times: link completion, then ACK arrival, then the delayed ACK, then the
//! retransmission timer; after each event the sender sends whatever its window allows.
//!
//! With SACK ([`crate::tcp::SenderConfig::sack`]) each ACK carries the receiver's SACK blocks back to the sender, in a queue
//! beside the ACKs' (kept empty without SACK, so the cumulative-ACK path is today's).
//!
//! Delayed ACKs (optional, RFC 5681 §4.2): an in-order segment is ACKed with the next one or when the
//! delay runs out; a segment out of order, or one that fills a hole, is ACKed at once
//! (`AckPolicy`).
//!
//! Bookkeeping that only one study needs watches the run through a [`LinkObserver`]: [`run_link`] gathers
//! abouzeid's bad-visit statistics ([`VisitObserver`]); [`run_link_observed`] takes any observer.

use super::by_start::{ByStart, HeldStarts};
use super::common::{AckPolicy, TsRecent};
use super::tuned_window::TunedWindow;
use crate::error::{Error, Result};
use crate::tcp::{AckStep, Receiver, RwndRule, SackBlocks, Sender};
use crate::watch::Watch;
use std::collections::VecDeque;

pub use super::link_config::{LinkConfig, LinkCounts, LinkOutcome};
pub use super::observe::{LinkObserver, NoObserver};
pub use super::visits::{VisitObserver, VisitStats, OUTCOMES, VISIT_WINDOWS};
pub use super::window_trace::{WindowRow, WindowTrace};
pub use crate::channel::clocked::{LinkChannel, PacketClocked, PerfectChannel};

/// The bit of an ACK on its way back that says its SACK blocks wait in the queue beside (`Link::sacks`): a sequence
/// number never reaches it (2^63 packets).
const CARRIES_SACK: u64 = 1 << 63;

/// The run's state; `SACK` says whether ACKs carry SACK blocks, `EXTRA` whether segments and ACKs carry more than
/// sequence numbers: timestamps, or Linux's autotuned window (constants, so that without them the driver's loop is
/// exactly the cumulative-ACK one; which of the two is said at run time).
struct Link<'o, C, O, const SACK: bool, const EXTRA: bool> {
    cfg: LinkConfig,
    channel: C,
    observer: &'o mut O,
    sender: Sender,
    receiver: Receiver,
    queue: VecDeque<u64>,
    /// The packet on the link: sequence number, start of its transmission, and when it ends (infinite when the link
    /// is idle): plain fields, where an option was unpacked at every event.
    link_seq: u64,
    link_start: f64,
    link_done_at: f64,
    /// The first ACK on its way back, as plain fields: when it arrives (infinite when none is on its way) and its
    /// cumulative ACK, with [`CARRIES_SACK`] set in it when the ACK's SACK blocks wait in `sacks`. A round trip of
    /// less than two packets' transmission has at most one ACK on its way, and the queue below stays empty.
    next_ack_at: f64,
    next_ack: u64,
    /// The ACKs behind it, in order: arrival time and value as above.
    acks: VecDeque<(f64, u64)>,
    /// The SACK blocks of the ACKs on their way back that carry any, in order, when SACK is on: most ACKs of a bulk
    /// transfer carry none, and the queue of times stays as without SACK.
    sacks: VecDeque<SackBlocks>,
    /// The SACK blocks of the ACK being taken, when it carries any.
    ack_blocks: SackBlocks,
    /// With timestamps: when each packet in the buffer left the sender (its TSval) and the receiver's timestamp it
    /// echoes (its TSecr: when the receiver sent the last ACK the sender had taken), the one on the link's, the
    /// receiver's TS.Recent, and the echo each ACK on its way back carries (beside `acks`).
    emitted: VecDeque<(f64, f64)>,
    on_link_emitted: (f64, f64),
    ts_recent: TsRecent,
    echoes: VecDeque<f64>,
    ack_policy: AckPolicy,
    /// Linux's autotuned receive window ([`crate::tcp::RwndRule::Linux`]); None with the papers' receiver, whose
    /// window is Wmax.
    rwnd: Option<TunedWindow>,
    /// Start of the delivering transmission of each packet held out of order at the receiver.
    held_starts: HeldStarts,
    /// The counts kept by the batch in which a transmission started, one entry a batch; those of batch `current.0` in
    /// `current.1` until a transmission of a later batch ends (starts come in order), then added to its entry.
    by_start: Vec<ByStart>,
    current: (usize, ByStart),
    /// Length of a batch of the measured time [s].
    batch_length: f64,
    /// The start times [lo, hi) counted in batch i, as (lo, hi, i) (empty at first).
    batch_bounds: (f64, f64, usize),
    /// A packet's transmission time 1/μ [s].
    service: f64,
    counts: LinkCounts,
    busy_since: f64,
}

impl<C: LinkChannel, O: LinkObserver, const SACK: bool, const EXTRA: bool> Link<'_, C, O, SACK, EXTRA> {
    fn send_what_the_window_allows(&mut self, now: f64) {
        while let Some(segment) = self.sender.poll_transmit(now) {
            self.put_on_link(segment.seq, now);
        }
    }

    /// The sender released `seq` at `now`: onto the idle link, into the buffer, or dropped by the full buffer.
    #[inline(always)]
    fn put_on_link(&mut self, seq: u64, now: f64) {
        self.counts.sent += 1;
        if self.link_done_at == f64::INFINITY {
            self.start_on_link(seq, now);
            self.busy_since = now;
            if EXTRA {
                self.on_link_emitted = (now, self.rwnd.as_ref().map_or(0.0, TunedWindow::echo));
            }
        } else if (self.queue.len() as u64) < self.cfg.buffer {
            self.queue.push_back(seq);
            if EXTRA {
                self.emitted.push_back((now, self.rwnd.as_ref().map_or(0.0, TunedWindow::echo)));
            }
        } else {
            self.counts.buffer_losses += 1;
        }
    }

    fn finish_transmission(&mut self, now: f64) -> Result<()> {
        let (seq, start) = (self.link_seq, self.link_start);
        if self.channel.lost(start, self.service)? {
            self.counts.channel_losses += 1;
            self.observer.on_channel_loss(now);
        } else {
            // The next expected packet is never held: new without looking (the common packet).
            let new = seq == self.receiver.expected() || self.receiver.is_new(seq);
            let batch = self.batch_of(start);
            self.observer.on_survived(start, &mut self.channel, &self.sender)?;
            if EXTRA && self.cfg.sender.timestamps {
                self.ts_recent.on_segment(seq, self.on_link_emitted.0);
            }
            self.receive(now, seq, start, batch, new);
        }
        match self.queue.pop_front() {
            Some(next) => {
                self.start_on_link(next, now);
                if EXTRA {
                    self.on_link_emitted = self.emitted.pop_front().expect("a TSval for each packet in the buffer");
                }
            }
            None => {
                self.link_done_at = f64::INFINITY;
                self.counts.busy += now - self.busy_since;
            }
        }
        Ok(())
    }

    /// When the receiver's held ACK goes out (infinite when none is held).
    #[inline(always)]
    fn delayed_ack_at(&self) -> f64 {
        self.ack_policy.deadline().unwrap_or(f64::INFINITY)
    }

    /// `seq` starts its transmission at `now`.
    #[inline(always)]
    fn start_on_link(&mut self, seq: u64, now: f64) {
        self.link_seq = seq;
        self.link_start = now;
        self.link_done_at = now + self.service;
    }

    /// The batch in which a transmission started at `start` is counted (None in the warm-up): the index
    /// ⌊(start − warm-up) / batch length⌋, from the bounds of the last batch asked about when `start` lies in them.
    #[inline]
    fn batch_of(&mut self, start: f64) -> Option<usize> {
        let (lo, hi, i) = self.batch_bounds;
        if lo <= start && start < hi {
            return Some(i);
        }
        if !(start >= self.cfg.warmup) {
            return None;
        }
        let last = self.by_start.len() - 1;
        let i = self.raw_batch(start).min(last);
        let hi = if i == last { f64::INFINITY } else { self.first_start_of(i + 1) };
        self.batch_bounds = (self.first_start_of(i), hi, i);
        Some(i)
    }

    /// ⌊(start − warm-up) / batch length⌋, unclamped.
    fn raw_batch(&self, start: f64) -> usize {
        ((start - self.cfg.warmup) / self.batch_length) as usize
    }

    /// The smallest start time (≥ the warm-up) whose [`Link::raw_batch`] is at least `i`: the rounded division is
    /// monotone in the start, so the bound is found by stepping one float at a time from warm-up + i·length.
    fn first_start_of(&self, i: usize) -> f64 {
        let warmup = self.cfg.warmup;
        if i == 0 {
            return warmup;
        }
        // Non-negative floats are ordered as their bit patterns.
        let down = |s: f64| if s > warmup { f64::from_bits(s.to_bits() - 1) } else { s };
        let mut s = (warmup + self.batch_length * i as f64).max(warmup);
        while s > warmup && self.raw_batch(s) >= i {
            s = down(s);
        }
        while self.raw_batch(s) < i {
            s = f64::from_bits(s.to_bits() + 1);
        }
        s
    }

    /// Credit a packet delivered in order to the batch in which its delivering transmission started.
    fn credit(&mut self, start: f64) {
        match self.batch_of(start) {
            Some(i) if i == self.current.0 => self.current.1.delivered += 1,
            Some(i) => self.by_start[i].delivered += 1,
            None => {}
        }
    }

    /// The counts by start of batch `i`, where the transmission that ended now started: the current batch's, after
    /// those of the batch before are put in their entry if `i` is a later one.
    #[inline(always)]
    fn counts_of(&mut self, i: usize) -> &mut ByStart {
        if i != self.current.0 {
            self.close_current(i);
        }
        &mut self.current.1
    }

    #[inline(never)]
    fn close_current(&mut self, i: usize) {
        let (j, counts) = std::mem::replace(&mut self.current, (i, ByStart::default()));
        self.by_start[j].add(&counts);
    }

    /// The receiver takes `seq`, whose delivering transmission started at `start`, in batch `batch` (`Link::batch_of`);
    /// `new`: a sequence number it neither held nor had passed.
    fn receive(&mut self, now: f64, seq: u64, start: f64, batch: Option<usize>, new: bool) {
        let before = self.receiver.expected();
        let ack = self.receiver.on_segment(seq);
        let after = self.receiver.expected();
        if let Some(i) = batch {
            let counts = self.counts_of(i);
            counts.received += 1;
            counts.new_received += u64::from(new);
            counts.delivered += u64::from(after > before);
        }
        if after > before {
            for held in before + 1..after {
                if let Some(t) = self.held_starts.take(held) {
                    self.credit(t);
                }
            }
        } else if seq > before {
            self.held_starts.keep_first(seq, start);
        }
        if let Some(rwnd) = self.rwnd.as_mut().filter(|_| EXTRA) {
            let echo = self.cfg.sender.timestamps.then_some(self.on_link_emitted.1);
            rwnd.taken(now, seq, before, echo, &self.receiver, SACK);
        }
        if self.ack_policy.ack_now(now, seq, before, ack, || self.receiver.holds_out_of_order()) {
            self.send_ack(now, ack);
        }
        if let Some(rwnd) = self.rwnd.as_mut().filter(|_| EXTRA) {
            rwnd.read(now, &self.receiver);
        }
    }

    /// The receiver's ACK of `ack` leaves at `now`, with its SACK blocks when SACK is on, and is counted.
    #[inline(always)]
    fn send_ack(&mut self, now: f64, ack: u64) {
        self.counts.acks += 1;
        let at = now + self.cfg.tau;
        if EXTRA && self.cfg.sender.timestamps {
            let echo = self.ts_recent.echo(ack);
            self.echoes.push_back(echo);
        }
        let carries = SACK && self.receiver.has_sack_blocks();
        if carries {
            self.sacks.push_back(self.receiver.sack_blocks());
        }
        if let Some(rwnd) = self.rwnd.as_mut().filter(|_| EXTRA) {
            let window = rwnd.window(ack, &self.receiver);
            rwnd.sent(window, now);
        }
        let value = if carries { ack | CARRIES_SACK } else { ack };
        if self.next_ack_at == f64::INFINITY {
            (self.next_ack_at, self.next_ack) = (at, value);
        } else {
            self.acks.push_back((at, value));
        }
    }

    /// The counts at `now`; `delivered`, `received` and `new_received` are counted by the start of the transmission
    /// ([`LinkCounts::delivered`]), which [`Link::outcome`] fills in.
    fn snapshot(&self, now: f64) -> LinkCounts {
        let sc = self.sender.counters();
        let (rtt_samples, rtt_sum) = self.sender.rto_estimator().sample_totals();
        let busy = self.counts.busy + if self.link_done_at < f64::INFINITY { now - self.busy_since } else { 0.0 };
        LinkCounts {
            time: now,
            delivered: self.receiver.delivered(),
            timeouts: sc.timeouts,
            fast_retransmits: sc.fast_retransmits,
            retransmissions: sc.retransmissions,
            rtt_samples,
            rtt_sum,
            busy,
            ..self.counts
        }
    }

    fn run(mut self, watch: &mut Watch<'_>) -> Result<LinkOutcome> {
        let cfg = self.cfg;
        let batch_length = self.batch_length;
        let mut marks = (0..=cfg.batches).map(|i| cfg.warmup + batch_length * i as f64);
        let mut next_mark = marks.next().expect("at least the warm-up mark");
        let mut snapshots = Vec::with_capacity(cfg.batches as usize + 1);
        let mut now = 0.0;
        if next_mark <= now {
            // No warm-up: measure from before the first send (a batch is [mark, next mark)).
            snapshots.push(self.snapshot(now));
            next_mark = marks.next().expect("at least two marks");
        }
        self.send_what_the_window_allows(now);
        self.observer.after_sends(now, &self.sender);
        // The sender's timers move only when it takes an ACK or a timeout (and sends after it), the delayed ACK's at a
        // link completion or its own event: the earlier of the two, `later`, is kept between those, and each event
        // compares three times (ties in the order the module's doc gives).
        let delayed_acks = cfg.delayed_ack.is_some();
        let mut timer = self.sender.timer_deadline().unwrap_or(f64::INFINITY);
        let mut later = crate::earlier(self.delayed_ack_at(), timer);
        loop {
            let (link_at, ack_at) = (self.link_done_at, self.next_ack_at);
            let next = crate::earlier(crate::earlier(link_at, ack_at), later);
            // Measurement marks fall between events: take the counts as they stand.
            while next_mark <= next {
                // A bulk sender always has a next event (a packet on the link, an ACK, a timer): none (next is then
                // infinite, past every mark) is a wedged sender, which must be an error, not a run that ends quietly
                // at the next marks with nothing sent since.
                if !next.is_finite() {
                    return Err(Error::invalid("rate", cfg.rate, &format!(
                        "the simulation stalled at t = {now} s: the sender has nothing in flight, no timer and sends \
                         nothing (internal error; please report it with the call)")));
                }
                snapshots.push(self.snapshot(next_mark));
                match marks.next() {
                    Some(m) => next_mark = m,
                    None => return Ok(self.outcome(snapshots)),
                }
            }
            now = next;
            self.observer.before_event(now, &self.sender);
            if link_at == now {
                self.finish_transmission(now)?;
                if delayed_acks {
                    later = crate::earlier(self.delayed_ack_at(), timer);
                }
                continue;
            } else if ack_at == now {
                let value = self.next_ack;
                (self.next_ack_at, self.next_ack) = self.acks.pop_front().unwrap_or((f64::INFINITY, 0));
                if EXTRA {
                    if self.cfg.sender.timestamps {
                        self.sender.note_echo(self.echoes.pop_front());
                    }
                    if let Some(rwnd) = &mut self.rwnd {
                        rwnd.arrived(true, &mut self.sender);
                    }
                }
                if SACK {
                    // Most ACKs carry no block: their empty slice costs no copy of an empty option.
                    let blocks: &[(u64, u64)] = if value & CARRIES_SACK != 0 {
                        self.ack_blocks = self.sacks.pop_front().expect("the SACK blocks of an ACK that carries them");
                        self.ack_blocks.as_slice()
                    } else {
                        &[]
                    };
                    let value = value & !CARRIES_SACK;
                    // The common ACKs and their sends in one step (Sender::on_sack_ack_then_send); any other as below.
                    match self.sender.on_sack_ack_then_send(now, value, blocks) {
                        Some(AckStep::Sent(sent)) => sent.for_each(|seq| self.put_on_link(seq, now)),
                        Some(AckStep::Poll) => self.send_what_the_window_allows(now),
                        None => {
                            self.sender.on_sack_ack(now, value, blocks);
                            self.send_what_the_window_allows(now);
                        }
                    }
                } else {
                    match self.sender.on_ack_then_send(now, value) {
                        Some(sent) => sent.for_each(|seq| self.put_on_link(seq, now)),
                        None => {
                            self.sender.on_ack(now, value);
                            self.send_what_the_window_allows(now);
                        }
                    }
                }
            } else if self.delayed_ack_at() == now {
                self.ack_policy.release();
                self.counts.timer_acks += 1;
                self.send_ack(now, self.receiver.expected());
                later = timer;
                continue;
            } else {
                self.sender.on_timeout(now);
                self.send_what_the_window_allows(now);
            }
            // Only an ACK or a timer changes what the sender may send, and its counts: after a link completion or a
            // delayed ACK its state is as the last poll left it, which sent all it could, so it is not asked again.
            self.observer.after_sends(now, &self.sender);
            timer = self.sender.timer_deadline().unwrap_or(f64::INFINITY);
            later = if delayed_acks { crate::earlier(self.delayed_ack_at(), timer) } else { timer };
            // Progress and a stop are looked at once an ACK or a timer is handled: every run has one or the other
            // within a few events (a lost packet's timer, a received one's ACK).
            watch.tick(|| now / cfg.duration)?;
        }
    }

    fn outcome(&mut self, snapshots: Vec<LinkCounts>) -> LinkOutcome {
        let last = self.by_start.len() - 1;
        self.close_current(last);
        let mut batches: Vec<LinkCounts> = snapshots.windows(2).map(|w| w[1].minus(&w[0])).collect();
        let mut totals = snapshots.last().expect("marks").minus(&snapshots[0]);
        for (i, batch) in batches.iter_mut().enumerate() {
            (batch.delivered, batch.received, batch.new_received) =
                (self.by_start[i].delivered, self.by_start[i].received, self.by_start[i].new_received);
        }
        // F-RTO's undos (never in the snapshots), each in the batch in which the timeout it undid fired, as the timeouts
        // are counted: no measured window counts an undo without its timeout.
        for &fired in self.sender.undone_timeouts() {
            if fired >= self.cfg.warmup {
                batches[self.raw_batch(fired).min(last)].spurious_timeouts += 1;
                totals.spurious_timeouts += 1;
            }
        }
        totals.delivered = self.by_start.iter().map(|b| b.delivered).sum();
        totals.received = self.by_start.iter().map(|b| b.received).sum();
        totals.new_received = self.by_start.iter().map(|b| b.new_received).sum();
        LinkOutcome {
            totals,
            batches,
            final_cwnd: self.sender.cwnd(),
            final_ssthresh: self.sender.ssthresh(),
            visits: VisitStats::default(),
        }
    }
}

/// Simulate a TCP bulk transfer over the link and `channel` (see the module documentation).
pub fn run_link<C: LinkChannel>(cfg: &LinkConfig, channel: C) -> Result<LinkOutcome> {
    run_link_watched(cfg, channel, &mut Watch::quiet())
}

/// [`run_link`], telling `watch` the fraction of the simulated time done; an error from it stops the run.
pub fn run_link_watched<C: LinkChannel>(cfg: &LinkConfig, channel: C, watch: &mut Watch<'_>) -> Result<LinkOutcome> {
    let mut observer = VisitObserver::new(cfg.warmup);
    let outcome = run_link_observed(cfg, channel, &mut observer, watch)?;
    Ok(LinkOutcome { visits: observer.stats(), ..outcome })
}

/// [`run_link_watched`] with the sender's window traced too (`trace`, if given: [`WindowTrace`]), returned beside the
/// outcome.
pub fn run_link_traced<C: LinkChannel>(
    cfg: &LinkConfig,
    channel: C,
    trace: Option<WindowTrace>,
    watch: &mut Watch<'_>,
) -> Result<(LinkOutcome, Option<WindowTrace>)> {
    let mut observers = (VisitObserver::new(cfg.warmup), trace);
    let outcome = run_link_observed(cfg, channel, &mut observers, watch)?;
    Ok((LinkOutcome { visits: observers.0.stats(), ..outcome }, observers.1))
}

/// [`run_link_watched`] with `observer` seeing the run instead of abouzeid's [`VisitObserver`]; the outcome's
/// `visits` stay empty (the observer holds what it gathered). With [`NoObserver`] this is the bare driver.
pub fn run_link_observed<C: LinkChannel, O: LinkObserver>(
    cfg: &LinkConfig,
    channel: C,
    observer: &mut O,
    watch: &mut Watch<'_>,
) -> Result<LinkOutcome> {
    cfg.validate()?;
    match (cfg.sender.sack, cfg.sender.timestamps || cfg.sender.rwnd_rule != RwndRule::Wmax) {
        (true, false) => Link::<C, O, true, false>::new(cfg, channel, observer).run(watch),
        (false, false) => Link::<C, O, false, false>::new(cfg, channel, observer).run(watch),
        (true, true) => Link::<C, O, true, true>::new(cfg, channel, observer).run(watch),
        (false, true) => Link::<C, O, false, true>::new(cfg, channel, observer).run(watch),
    }
}

impl<'o, C: LinkChannel, O: LinkObserver, const SACK: bool, const EXTRA: bool> Link<'o, C, O, SACK, EXTRA> {
    fn new(cfg: &LinkConfig, channel: C, observer: &'o mut O) -> Self {
        // The connection starts established: the SYN-ACK, which the first data segments echo, left τ before them (an
        // ACK's way back holds all of τ here, and a segment's transmission its 1/μ), with the receiver's first window.
        let rwnd = TunedWindow::new(cfg.sender.rwnd_rule, -cfg.tau);
        let mut sender = Sender::new(cfg.sender);
        if let Some(rwnd) = &rwnd {
            sender.note_window(rwnd.syn_window());
        }
        Link {
            cfg: *cfg,
            channel,
            observer,
            sender,
            receiver: Receiver::new(cfg.sender.wmax).with_sack(SACK),
            queue: VecDeque::with_capacity(cfg.buffer.min(1 << 16) as usize),
            link_seq: 0,
            link_start: 0.0,
            link_done_at: f64::INFINITY,
            next_ack_at: f64::INFINITY,
            next_ack: 0,
            acks: VecDeque::new(),
            sacks: VecDeque::new(),
            ack_blocks: SackBlocks::NONE,
            emitted: VecDeque::new(),
            on_link_emitted: (0.0, 0.0),
            ts_recent: TsRecent::new(),
            echoes: VecDeque::new(),
            ack_policy: AckPolicy::new(cfg.delayed_ack, cfg.sender.delayed_ack_rule),
            rwnd,
            held_starts: HeldStarts::new(cfg.sender.wmax),
            by_start: vec![ByStart::default(); cfg.batches as usize],
            current: (0, ByStart::default()),
            batch_length: (cfg.duration - cfg.warmup) / cfg.batches as f64,
            batch_bounds: (0.0, 0.0, 0),
            service: 1.0 / cfg.rate,
            counts: LinkCounts::default(),
            busy_since: 0.0,
        }
    }
}
