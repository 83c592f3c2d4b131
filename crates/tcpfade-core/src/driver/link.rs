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
//! Delayed ACKs (optional, RFC 5681 §4.2): an in-order segment is ACKed with the next one or when the
//! delay runs out; a segment out of order, or one that fills a hole, is ACKed at once.

use crate::check;
use crate::error::{Error, Result};
use crate::tcp::{Receiver, Sender, SenderConfig};
use crate::watch::Watch;
use std::collections::{HashMap, VecDeque};

pub use crate::channel::clocked::{LinkChannel, PacketClocked, PerfectChannel};

/// Outcome of the bad visit that ends a sampled good state (abouzeid §IV-F): no loss, losses repaired by
/// fast retransmit (TD), or at least one timeout (TO).
pub const OUTCOMES: [&str; 3] = ["no_loss", "triple_duplicate", "timeout"];

/// Bad visits that end a sampled good state, by outcome and by the window W' at the end of the good state
/// (abouzeid §IV-F, I, J), and the effective bad durations U that follow them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VisitStats {
    /// counts[w' − 1][outcome], the last row gathering every larger window.
    pub by_window: Vec<[u64; 3]>,
    /// Σ U per outcome [s].
    pub effective_bad_sum: [f64; 3],
    /// Number of U per outcome.
    pub effective_bad_count: [u64; 3],
    /// Σ of the base RTO (before backoff) in force when the good state ended, per outcome [s]: what the
    /// analysis' Δ(w') stands for (abouzeid §IV-B approximation 3).
    pub rto_sum: [f64; 3],
    /// Σ of the backoff multiplier in force when the good state ended, per outcome: above 1 when Karn's rule
    /// kept an earlier backoff because no segment sent once had been acknowledged since.
    pub backoff_sum: [f64; 3],
    /// Measured good states that had ended but whose outcome was not yet known when the run ended (the next
    /// sampled good state not begun, or its losses not yet detected): with the counts above, every measured
    /// sampled good state that ended is counted exactly once.
    pub unresolved: u64,
}

/// Windows tracked one by one in [`VisitStats::by_window`].
pub const VISIT_WINDOWS: usize = 256;

/// A sampled good state that has ended: waiting for the next one to start (U) and for its outcome.
#[derive(Debug, Clone, Copy)]
struct EndedGood {
    end: f64,
    window: usize,
    loss: bool,
    timeouts: u64,
    fast_retransmits: u64,
    /// U, once the next sampled good state has started.
    effective_bad: Option<f64>,
    measured: bool,
    /// Base RTO and backoff multiplier when the good state ended.
    rto: f64,
    backoff: u32,
}

/// Parameters of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkConfig {
    /// The sender (variant, receiver window, K, RTO policy, initial ssthresh).
    pub sender: SenderConfig,
    /// Link rate μ [packets/s].
    pub rate: f64,
    /// Round-trip propagation and processing delay τ [s], excluding the link's transmission time.
    pub tau: f64,
    /// Buffer B [packets], not counting the packet on the link.
    pub buffer: u64,
    /// Simulated time [s].
    pub duration: f64,
    /// Time at the start that is simulated but not measured [s].
    pub warmup: f64,
    /// Equal batches of the measured time (for batch-means intervals).
    pub batches: u64,
    /// Delayed-ACK timeout [s]; `None` ACKs every segment.
    pub delayed_ack: Option<f64>,
}

impl LinkConfig {
    /// Validate the driver's parameters.
    pub fn validate(&self) -> Result<()> {
        if self.sender.variant == crate::tcp::Variant::Probing {
            return Err(Error::invalid("variant", "probing", "the bulk link model carries data packets of one size \
                only, not TCP-Probing's header-only probes; simulate it with simulate_transfer"));
        }
        check::positive("rate", self.rate)?;
        check::non_negative("tau", self.tau)?;
        check::int_in("buffer", self.buffer, 0, 1 << 30)?;
        check::positive("duration", self.duration)?;
        check::non_negative("warmup", self.warmup)?;
        if self.warmup >= self.duration {
            return Err(Error::invalid("warmup", self.warmup, &format!("must be < duration (= {})", self.duration)));
        }
        check::int_in("batches", self.batches, 1, 1 << 20)?;
        if let Some(delay) = self.delayed_ack {
            check::positive("delayed_ack", delay)?;
        }
        Ok(())
    }

    /// T = τ + 1/μ, the round trip without queueing.
    pub fn round_trip(&self) -> f64 {
        self.tau + 1.0 / self.rate
    }
}

/// Cumulative counts (or, as differences, those of a batch).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LinkCounts {
    /// Time elapsed [s].
    pub time: f64,
    /// Packets delivered in order to the receiving user, each once. In a run's totals and batches, a packet is
    /// counted in the batch where the transmission that delivered it *started*, and only if it was delivered by
    /// the end of the run: then no measured window can count more packets than the link could send in it
    /// (goodput <= 1 exactly), whereas counting at the in-order delivery would credit a window with packets held
    /// out of order, or sent, before it began.
    pub delivered: u64,
    /// Packets the sender released (retransmissions included).
    pub sent: u64,
    /// Packets that crossed the link correctly (duplicates included). In a run's totals and batches, counted in
    /// the batch where their transmission started (as `delivered`), so that it never exceeds what the link could
    /// send in the measured time.
    pub received: u64,
    /// Packets the channel lost.
    pub channel_losses: u64,
    /// Packets the full buffer dropped.
    pub buffer_losses: u64,
    /// Timer expirations.
    pub timeouts: u64,
    /// Fast retransmits.
    pub fast_retransmits: u64,
    /// Valid RTT samples, and their sum [s].
    pub rtt_samples: u64,
    /// Sum of the RTT samples [s].
    pub rtt_sum: f64,
    /// Time the link spent sending [s].
    pub busy: f64,
}

impl LinkCounts {
    fn minus(&self, earlier: &LinkCounts) -> LinkCounts {
        LinkCounts {
            time: self.time - earlier.time,
            delivered: self.delivered - earlier.delivered,
            sent: self.sent - earlier.sent,
            received: self.received - earlier.received,
            channel_losses: self.channel_losses - earlier.channel_losses,
            buffer_losses: self.buffer_losses - earlier.buffer_losses,
            timeouts: self.timeouts - earlier.timeouts,
            fast_retransmits: self.fast_retransmits - earlier.fast_retransmits,
            rtt_samples: self.rtt_samples - earlier.rtt_samples,
            rtt_sum: self.rtt_sum - earlier.rtt_sum,
            busy: self.busy - earlier.busy,
        }
    }
}

/// Result of a run: the measured totals and each batch's.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkOutcome {
    /// Totals over the measured time (after the warm-up).
    pub totals: LinkCounts,
    /// Totals per batch.
    pub batches: Vec<LinkCounts>,
    /// Final congestion window and threshold (for inspection).
    pub final_cwnd: f64,
    /// Final slow-start threshold.
    pub final_ssthresh: f64,
    /// Bad visits ending sampled good states (empty for channels without sojourns).
    pub visits: VisitStats,
}

struct Link<C> {
    cfg: LinkConfig,
    channel: C,
    sender: Sender,
    receiver: Receiver,
    queue: VecDeque<u64>,
    /// The packet on the link: sequence number and start of its transmission.
    on_link: Option<(u64, f64)>,
    /// ACKs on their way back: arrival time and cumulative ACK.
    acks: VecDeque<(f64, u64)>,
    delack_deadline: Option<f64>,
    delack_value: u64,
    /// Start of the delivering transmission of each packet held out of order at the receiver.
    held_starts: HashMap<u64, f64>,
    /// Packets delivered, by the batch in which their delivering transmission started (see
    /// [`LinkCounts::delivered`]).
    credited: Vec<u64>,
    /// Packets received correctly, by the batch in which their transmission started.
    received_by_start: Vec<u64>,
    /// Length of a batch of the measured time [s].
    batch_length: f64,
    counts: LinkCounts,
    busy_since: f64,
    /// The sampled good state in progress (its sojourn's start and end), and those that ended and wait for
    /// their outcome (several when bad visits come faster than TCP detects their losses).
    sampled: Option<(f64, f64)>,
    ended: VecDeque<EndedGood>,
    visits: VisitStats,
}

impl<C: LinkChannel> Link<C> {
    /// Before the event at `now`: a sampled good state whose sojourn ended by now has ended, at window W'.
    fn track_good_state_end(&mut self, now: f64) {
        if let Some((_, end)) = self.sampled.filter(|&(_, end)| end <= now) {
            let sc = self.sender.counters();
            self.sampled = None;
            self.ended.push_back(EndedGood {
                end,
                window: (self.sender.cwnd() as usize).clamp(1, VISIT_WINDOWS),
                loss: false,
                timeouts: sc.timeouts,
                fast_retransmits: sc.fast_retransmits,
                effective_bad: None,
                measured: end >= self.cfg.warmup,
                rto: self.sender.rto_estimator().base(),
                backoff: self.sender.rto_estimator().backoff(),
            });
        }
    }

    /// A packet got through in [start, ...): its good sojourn is sampled; a new one ends the effective bad
    /// duration of the state before.
    fn track_sampling(&mut self, start: f64) -> Result<()> {
        if self.sampled.is_some_and(|(s, e)| s <= start && start < e) {
            return Ok(()); // the same good sojourn: no need to ask the channel (the common case)
        }
        let Some((good_start, good_end, _)) = self.channel.sojourn_at(start)? else { return Ok(()) };
        if self.sampled.is_some_and(|(s, _)| s == good_start) {
            return Ok(());
        }
        self.sampled = Some((good_start, good_end));
        if let Some(e) = self.ended.back_mut().filter(|e| e.effective_bad.is_none()) {
            e.effective_bad = Some(start - e.end);
        }
        self.classify_ended();
        Ok(())
    }

    /// Decide the outcome of each ended good state whose outcome is known: no loss in its bad visit; a
    /// timeout since it ended; else a fast retransmit since. The others wait (losses not yet detected).
    fn classify_ended(&mut self) {
        let sc = self.sender.counters();
        let visits = &mut self.visits;
        self.ended.retain(|e| {
            let Some(u) = e.effective_bad else { return true };
            let outcome = if !e.loss {
                0
            } else if sc.timeouts > e.timeouts {
                2
            } else if sc.fast_retransmits > e.fast_retransmits {
                1
            } else {
                return true;
            };
            if e.measured {
                if visits.by_window.is_empty() {
                    visits.by_window = vec![[0; 3]; VISIT_WINDOWS];
                }
                visits.by_window[e.window - 1][outcome] += 1;
                visits.effective_bad_sum[outcome] += u;
                visits.effective_bad_count[outcome] += 1;
                visits.rto_sum[outcome] += e.rto;
                visits.backoff_sum[outcome] += f64::from(e.backoff);
            }
            false
        });
    }

    fn send_what_the_window_allows(&mut self, now: f64) {
        while let Some(segment) = self.sender.poll_transmit(now) {
            self.counts.sent += 1;
            if self.on_link.is_none() {
                self.on_link = Some((segment.seq, now));
                self.busy_since = now;
            } else if (self.queue.len() as u64) < self.cfg.buffer {
                self.queue.push_back(segment.seq);
            } else {
                self.counts.buffer_losses += 1;
            }
        }
    }

    fn finish_transmission(&mut self, now: f64) -> Result<()> {
        let (seq, start) = self.on_link.take().expect("a packet is on the link");
        let service = 1.0 / self.cfg.rate;
        if self.channel.lost(start, service)? {
            self.counts.channel_losses += 1;
            if let Some(e) = self.ended.back_mut().filter(|e| e.effective_bad.is_none() && now > e.end) {
                e.loss = true;
            }
        } else {
            self.counts.received += 1;
            if let Some(i) = self.batch_of(start) {
                self.received_by_start[i] += 1;
            }
            self.track_sampling(start)?;
            self.receive(now, seq, start);
        }
        match self.queue.pop_front() {
            Some(next) => self.on_link = Some((next, now)),
            None => self.counts.busy += now - self.busy_since,
        }
        Ok(())
    }

    /// The batch in which a transmission started at `start` is counted (None in the warm-up).
    fn batch_of(&self, start: f64) -> Option<usize> {
        (start >= self.cfg.warmup)
            .then(|| (((start - self.cfg.warmup) / self.batch_length) as usize).min(self.credited.len() - 1))
    }

    /// Credit a packet delivered in order to the batch in which its delivering transmission started.
    fn credit(&mut self, start: f64) {
        if let Some(i) = self.batch_of(start) {
            self.credited[i] += 1;
        }
    }

    fn receive(&mut self, now: f64, seq: u64, start: f64) {
        let before = self.receiver.expected();
        let in_order = seq == before;
        let ack = self.receiver.on_segment(seq);
        let after = self.receiver.expected();
        if after > before {
            self.credit(start);
            for held in before + 1..after {
                if let Some(t) = self.held_starts.remove(&held) {
                    self.credit(t);
                }
            }
        } else if seq > before {
            self.held_starts.entry(seq).or_insert(start);
        }
        // In order and the ACK moved past it: it filled a hole, and the sender should hear at once.
        let filled_hole = in_order && ack > seq + 1;
        match self.cfg.delayed_ack {
            Some(delay) if in_order && !filled_hole => {
                if self.delack_deadline.take().is_some() {
                    self.acks.push_back((now + self.cfg.tau, ack)); // the second segment: ACK both
                } else {
                    self.delack_deadline = Some(now + delay);
                    self.delack_value = ack;
                }
            }
            _ => {
                self.delack_deadline = None;
                self.acks.push_back((now + self.cfg.tau, ack));
            }
        }
    }

    fn snapshot(&self, now: f64) -> LinkCounts {
        let sc = self.sender.counters();
        let (rtt_samples, rtt_sum) = self.sender.rto_estimator().sample_totals();
        let busy = self.counts.busy + if self.on_link.is_some() { now - self.busy_since } else { 0.0 };
        LinkCounts {
            time: now,
            delivered: self.receiver.delivered(),
            timeouts: sc.timeouts,
            fast_retransmits: sc.fast_retransmits,
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
        loop {
            watch.tick(|| now / cfg.duration)?;
            let link = self.on_link.map_or(f64::INFINITY, |(_, start)| start + 1.0 / cfg.rate);
            let ack = self.acks.front().map_or(f64::INFINITY, |&(t, _)| t);
            let delack = self.delack_deadline.unwrap_or(f64::INFINITY);
            let timer = self.sender.timer_deadline().unwrap_or(f64::INFINITY);
            let next = link.min(ack).min(delack).min(timer);
            // Measurement marks fall between events: take the counts as they stand.
            while next_mark <= next {
                snapshots.push(self.snapshot(next_mark));
                match marks.next() {
                    Some(m) => next_mark = m,
                    None => return Ok(self.outcome(snapshots)),
                }
            }
            if !next.is_finite() {
                return Err(Error::invalid("rate", cfg.rate, "the simulation stalled (internal error)"));
            }
            now = next;
            self.track_good_state_end(now);
            if link == next {
                self.finish_transmission(now)?;
            } else if ack == next {
                let (_, value) = self.acks.pop_front().expect("an ACK is due");
                self.sender.on_ack(now, value);
            } else if delack == next {
                self.delack_deadline = None;
                self.acks.push_back((now + cfg.tau, self.delack_value));
            } else {
                self.sender.on_timeout(now);
            }
            if self.ended.front().is_some_and(|e| e.effective_bad.is_some()) {
                self.classify_ended();
            }
            self.send_what_the_window_allows(now);
        }
    }

    fn outcome(&self, snapshots: Vec<LinkCounts>) -> LinkOutcome {
        let mut batches: Vec<LinkCounts> = snapshots.windows(2).map(|w| w[1].minus(&w[0])).collect();
        let mut totals = snapshots.last().expect("marks").minus(&snapshots[0]);
        for ((batch, &credited), &received) in batches.iter_mut().zip(&self.credited).zip(&self.received_by_start) {
            batch.delivered = credited;
            batch.received = received;
        }
        totals.delivered = self.credited.iter().sum();
        totals.received = self.received_by_start.iter().sum();
        LinkOutcome {
            totals,
            batches,
            final_cwnd: self.sender.cwnd(),
            final_ssthresh: self.sender.ssthresh(),
            visits: VisitStats {
                unresolved: self.ended.iter().filter(|e| e.measured).count() as u64,
                ..self.visits.clone()
            },
        }
    }
}

/// Simulate a TCP bulk transfer over the link and `channel` (see the module documentation).
pub fn run_link<C: LinkChannel>(cfg: &LinkConfig, channel: C) -> Result<LinkOutcome> {
    run_link_watched(cfg, channel, &mut Watch::quiet())
}

/// [`run_link`], telling `watch` the fraction of the simulated time done; an error from it stops the run.
pub fn run_link_watched<C: LinkChannel>(cfg: &LinkConfig, channel: C, watch: &mut Watch<'_>) -> Result<LinkOutcome> {
    cfg.validate()?;
    let link = Link {
        cfg: *cfg,
        channel,
        sender: Sender::new(cfg.sender),
        receiver: Receiver::new(cfg.sender.wmax),
        queue: VecDeque::with_capacity(cfg.buffer.min(1 << 16) as usize),
        on_link: None,
        acks: VecDeque::new(),
        delack_deadline: None,
        delack_value: 0,
        held_starts: HashMap::new(),
        credited: vec![0; cfg.batches as usize],
        received_by_start: vec![0; cfg.batches as usize],
        batch_length: (cfg.duration - cfg.warmup) / cfg.batches as f64,
        counts: LinkCounts::default(),
        busy_since: 0.0,
        sampled: None,
        ended: VecDeque::new(),
        visits: VisitStats::default(),
    };
    link.run(watch)
}
