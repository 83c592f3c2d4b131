//! A finite transfer from connection set-up to tear-down (tsaoussidis-badr §4): `size` bytes in
//! segments of at most MSS bytes between two hosts on one link, every segment exposed to the channel.
//!
//! **Link.** One shared, half-duplex medium of `rate` bits/s (a wireless channel: one frame at a time,
//! in the order the hosts hand them over), then a one-way propagation delay. A frame of b bytes holds it
//! for 8b/rate seconds. So a host's radio never transmits and receives at once, and its energy splits
//! exactly into transmit, receive and idle time.
//!
//! **Losses** (VDELDROP, tsaoussidis-badr §4): the channel decides each segment's fate, with the drop
//! rate of the state it meets. Where: between TCP and IP of the sending host (`loss_on_air = false`, the
//! paper's set-up: the segment counts as sent by TCP but never occupies the link), or on the link
//! (`loss_on_air = true`: it is transmitted, costs both radios their energy, and arrives corrupted).
//! Which segments: the sender's always; the receiver's (ACKs, probe answers, SYN-ACK, FIN-ACK) too
//! when `drop_acks` (VDELDROP on both hosts). One channel for both hosts: the on/off phases are the
//! link's, each segment dropped independently within them.
//!
//! **Connection.** SYN → SYN-ACK → ACK (the SYN and SYN-ACK carry the 4-byte MSS option; a lost SYN or
//! SYN-ACK is recovered by the SYN's timer, the initial RTO doubling per retry; the SYN's RTT seeds the
//! estimator, RFC 6298 §2). Data segments 0 … n − 1, then the FIN as segment n (header only, sent and
//! recovered like data). The receiver answers an in-order FIN at once with a FIN-ACK (its ACK and its own
//! FIN in one segment) and retransmits it on its own timer until the sender's last ACK arrives: that
//! arrival ends the connection and its time.
//!
//! **ACKs.** With SACK ([`crate::tcp::SenderConfig::sack`]) each carries the receiver's SACK blocks, and its
//! header the SACK option's bytes (2 + 8 per block, padded to a multiple of 4: RFC 2018 §3). One per segment, or
//! delayed (RFC 5681 §4.2, RFC 1122 §4.2.3.2): an in-order segment is
//! ACKed with the next one or when the delay runs out; a segment out of order, an old one, or one that
//! fills a hole is ACKed at once (the policy the link driver uses too, `AckPolicy`).
//!
//! **Probe cycles** (TCP-Probing) end inside the sender: its probe cycle judges the two probe RTTs with the
//! [`ProbeDecision`] the run is given ([`crate::tcp::Sender::on_probe_answer`]); the driver only logs each
//! ended cycle ([`CycleRecord`]).
//!
//! Events are few and ordered, so as in [`super::link`] there is no general event queue: frames arrive
//! in the order they left (one FIFO medium, one delay), and each timer is one deadline. At equal times:
//! an arrival, then the receiver's timers (delayed ACK, FIN-ACK), then the sender's (SYN, probe, RTO);
//! after each event the sender sends whatever it may.

use super::common::{AckPolicy, NextEvent, TsRecent};
use super::tuned_window::TunedWindow;
use super::link::LinkChannel;
use super::window_trace::WindowTrace;
use crate::check;
use crate::error::{Error, Result};
use crate::tcp::{AckStep, ProbeDecision, ProbeSegment, Receiver, Rfc6298, SackBlocks, Sender, SenderConfig};
use crate::watch::Watch;
use std::collections::VecDeque;

pub use super::transfer_records::{FrameRecord, KindCount, Radio, SegmentKind, KIND_NAMES};
pub use crate::tcp::CycleRecord;

/// What the link's rate meters (tsaoussidis-badr §4 gives neither the link nor how it was shaped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metering {
    /// Every byte of a frame, headers included, holds the link 8/rate seconds.
    Frame,
    /// Only payload bytes hold the link; headers, ACKs and probes take no time (a link shaped on the
    /// application's bytes: 5 MiB at 2^20 bit/s is exactly Table 1's 40.000 s).
    Payload,
}

/// Parameters of a transfer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TransferConfig {
    /// The sender (variant, receiver window Wmax in segments, K, RTO policy, initial ssthresh).
    pub sender: SenderConfig,
    /// Bytes the application delivers.
    pub size: u64,
    /// Maximum segment size (payload bytes).
    pub mss: u64,
    /// Header bytes of every segment.
    pub header_bytes: u64,
    /// Option bytes a SYN and a SYN-ACK add (MSS option: 4).
    pub syn_option_bytes: u64,
    /// Option bytes a probe segment adds (type, length, id: tsaoussidis-badr §3.1).
    pub probe_option_bytes: u64,
    /// Link rate [bit/s].
    pub rate: f64,
    /// What the rate meters: whole frames or payload only.
    pub metering: Metering,
    /// One-way propagation delay \[s\].
    pub delay: f64,
    /// Delayed-ACK timeout \[s\]; None: an ACK per segment.
    pub delayed_ack: Option<f64>,
    /// The channel drops the receiver's segments too (VDELDROP on both hosts).
    pub drop_acks: bool,
    /// Dropped segments occupy the link (lost on the air) instead of vanishing between TCP and IP.
    pub loss_on_air: bool,
    /// Simulated time after which an unfinished transfer stops \[s\].
    pub time_limit: f64,
    /// Keep a log of every frame.
    pub record_frames: bool,
}

impl TransferConfig {
    /// Validate the parameters.
    pub fn validate(&self) -> Result<()> {
        check::int_in("size_bytes", self.size, 1, 1 << 50)?;
        check::int_in("mss", self.mss, 1, 1 << 30)?;
        check::int_in("header_bytes", self.header_bytes, 0, 1 << 20)?;
        check::int_in("syn_option_bytes", self.syn_option_bytes, 0, 40)?;
        check::int_in("probe_option_bytes", self.probe_option_bytes, 0, 40)?;
        check::positive("rate", self.rate)?;
        check::non_negative("delay", self.delay)?;
        check::positive("time_limit", self.time_limit)?;
        if let Some(d) = self.delayed_ack {
            check::positive("delayed_ack", d)?;
        }
        self.rfc6298().map(|_| ())
    }

    /// The RFC 6298 parameters of the sender's timer; a fixed RTO is an error.
    fn rfc6298(&self) -> Result<Rfc6298> {
        self.sender.rto.estimated().ok_or_else(|| {
            Error::invalid("rto", "fixed", "a transfer's timer is estimated (RFC 6298's or Linux's rule)")
        })
    }

    /// Data segments n = ⌈size / MSS⌉.
    pub fn data_segments(&self) -> u64 {
        self.size.div_ceil(self.mss)
    }
}

/// What a transfer did.
#[derive(Debug, Clone, PartialEq)]
pub struct TransferOutcome {
    /// The receiver got the sender's last ACK before the time limit.
    pub completed: bool,
    /// Time from the first SYN to the end of the connection (or to the time limit) \[s\].
    pub time: f64,
    /// Bytes delivered in order to the receiving application.
    pub delivered: u64,
    /// Counts by kind, in the order of [`KIND_NAMES`].
    pub by_kind: [KindCount; 11],
    /// Sender, then receiver.
    pub radios: [Radio; 2],
    /// SYNs sent again.
    pub syn_retransmissions: u64,
    /// The sender's counters.
    pub sender: crate::tcp::SenderCounters,
    /// The probe cycles' counters.
    pub probes: crate::tcp::ProbeCounters,
    /// Every probe cycle that ended, in order.
    pub cycles: Vec<CycleRecord>,
    /// The frame log, when asked for.
    pub frames: Vec<FrameRecord>,
    /// The smoothed RTT at the end (if any sample was taken) \[s\].
    pub srtt: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Frame {
    Syn,
    SynAck,
    HandshakeAck,
    /// A data segment, when it left the sender (its timestamp, echoed back when the sender uses timestamps), and the
    /// receiver's timestamp it echoes (read by Linux's autotuned receive window, `TunedWindow`).
    Data { seq: u64, retransmission: bool, tsval: f64, tsecr: f64 },
    /// A cumulative ACK, how many SACK blocks it carries, and the timestamp it echoes (RFC 7323's TSecr). The blocks
    /// travel beside the frames in flight (`Run::sacks_in_flight`): a frame with them inside was four times the size,
    /// and the queue of frames in flight copies each frame in and out.
    Ack(u64, u8, f64),
    Probe(ProbeSegment),
    FinAck,
    FinalAck,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Connecting,
    Established,
    /// The sender's FIN is acknowledged; it answers FIN-ACKs with the final ACK.
    TimeWait,
}

/// The bytes RFC 7323's timestamp option adds to every segment (kind, length, TSval, TSecr: 10; two NOPs align it).
pub const TIMESTAMP_OPTION_BYTES: u64 = 12;

/// The driver's events, in the order they are handled at equal times (then the RTO).
const ARRIVAL: usize = 0;
const DELAYED_ACK: usize = 1;
const FIN_ACK: usize = 2;
const SYN: usize = 3;
const PROBE: usize = 4;

struct Run<'a, C: LinkChannel, D: ProbeDecision + ?Sized> {
    cfg: &'a TransferConfig,
    channel: C,
    decision: &'a mut D,
    sender: Sender,
    receiver: Receiver,
    /// The timer's parameters (the SYN's and the FIN-ACK's timers use its initial RTO).
    rfc6298: Rfc6298,
    n: u64,
    now: f64,
    phase: Phase,
    medium_free: f64,
    /// (arrival, to receiver?, frame, corrupted on the air, its bytes and airtime as sent)
    in_flight: VecDeque<(f64, bool, Frame, bool, u64, f64)>,
    /// The SACK blocks of the ACKs in flight that carry any, in order.
    sacks_in_flight: VecDeque<SackBlocks>,
    syn_sent: Option<f64>,
    syn_deadline: Option<f64>,
    syn_tries: u32,
    ack_policy: AckPolicy,
    /// The receiver's RFC 7323 TS.Recent, which its ACKs echo.
    ts_recent: TsRecent,
    /// Linux's autotuned receive window ([`crate::tcp::RwndRule::Linux`]); None with Wmax in every ACK.
    rwnd: Option<TunedWindow>,
    finack_deadline: Option<f64>,
    finack_tries: u32,
    /// The sender's window over time, when asked for.
    trace: Option<WindowTrace>,
    out: TransferOutcome,
}

impl<C: LinkChannel, D: ProbeDecision + ?Sized> Run<'_, C, D> {
    fn bytes(&self, frame: Frame) -> u64 {
        // With timestamps every segment carries RFC 7323's option: 10 bytes, padded with two NOPs to 12, as Linux
        // sends it (and the SACK option then has room for three blocks: `MAX_SACK_BLOCKS`).
        let h = self.cfg.header_bytes + if self.cfg.sender.timestamps { TIMESTAMP_OPTION_BYTES } else { 0 };
        match frame {
            Frame::Syn | Frame::SynAck => h + self.cfg.syn_option_bytes,
            Frame::Data { seq, .. } if seq < self.n => h + (self.cfg.size - seq * self.cfg.mss).min(self.cfg.mss),
            Frame::Probe(_) => h + self.cfg.probe_option_bytes,
            Frame::Ack(_, blocks, _) => h + crate::tcp::sack::option_bytes_for(blocks),
            _ => h,
        }
    }

    /// How long `frame`, of `bytes` bytes, holds the link [s].
    fn airtime(&self, frame: Frame, bytes: u64) -> f64 {
        let metered = match (self.cfg.metering, frame) {
            (Metering::Frame, _) => bytes,
            (Metering::Payload, Frame::Data { seq, .. }) if seq < self.n => {
                (self.cfg.size - seq * self.cfg.mss).min(self.cfg.mss)
            }
            (Metering::Payload, _) => 0,
        };
        metered as f64 * 8.0 / self.cfg.rate
    }

    fn kind(&self, frame: Frame, from_receiver: bool) -> (SegmentKind, u64) {
        match frame {
            Frame::Syn => (SegmentKind::Syn, 0),
            Frame::SynAck => (SegmentKind::SynAck, 0),
            Frame::HandshakeAck => (SegmentKind::HandshakeAck, 0),
            Frame::Data { seq, .. } if seq == self.n => (SegmentKind::Fin, seq),
            Frame::Data { seq, retransmission: false, .. } => (SegmentKind::Data, seq),
            Frame::Data { seq, retransmission: true, .. } => (SegmentKind::Retransmission, seq),
            Frame::Ack(ack, ..) => (SegmentKind::Ack, ack),
            Frame::Probe(p) if from_receiver => (SegmentKind::ProbeAnswer, u64::from(p.id)),
            Frame::Probe(p) => (SegmentKind::Probe, u64::from(p.id)),
            Frame::FinAck => (SegmentKind::FinAck, self.n + 1),
            Frame::FinalAck => (SegmentKind::FinalAck, 0),
        }
    }

    /// TCP of one host hands `frame` to IP now.
    fn send(&mut self, frame: Frame, from_receiver: bool) -> Result<()> {
        self.transmit(frame, from_receiver).map(drop)
    }

    /// The receiver's ACK of `ack`, with the timestamp it echoes, its SACK blocks and its window.
    fn send_ack(&mut self, ack: u64) -> Result<()> {
        let echo = self.ts_recent.echo(ack);
        let sack = self.receiver.sack_blocks();
        let blocks = sack.len() as u8;
        let window = self.rwnd.as_mut().map(|rwnd| rwnd.window(ack, &self.receiver));
        if self.transmit(Frame::Ack(ack, blocks, echo), true)? {
            if blocks > 0 {
                self.sacks_in_flight.push_back(sack);
            }
            if let (Some(rwnd), Some(window)) = (self.rwnd.as_mut(), window) {
                rwnd.sent(window, self.now);
            }
        }
        Ok(())
    }

    /// Data segment `seq` as the sender sends it now.
    fn data(&self, seq: u64, retransmission: bool) -> Frame {
        Frame::Data { seq, retransmission, tsval: self.now, tsecr: self.rwnd.as_ref().map_or(0.0, TunedWindow::echo) }
    }

    /// [`Run::send`], saying whether the frame went onto the medium (a drop before IP does not).
    fn transmit(&mut self, frame: Frame, from_receiver: bool) -> Result<bool> {
        let bytes = self.bytes(frame);
        let (kind, number) = self.kind(frame, from_receiver);
        let exposed = !from_receiver || self.cfg.drop_acks;
        let duration = self.airtime(frame, bytes);
        let start = self.now.max(self.medium_free);
        let dropped = exposed && {
            let at = if self.cfg.loss_on_air { start } else { self.now };
            self.channel.lost(at, duration)?
        };
        let count = &mut self.out.by_kind[kind as usize];
        count.segments += 1;
        count.bytes += bytes;
        count.dropped += u64::from(dropped);
        if self.cfg.record_frames {
            self.out.frames.push(FrameRecord { time: self.now, from: u8::from(from_receiver), kind, number, bytes, dropped });
        }
        if dropped && !self.cfg.loss_on_air {
            return Ok(false); // VDELDROP between TCP and IP: it never reaches the link
        }
        self.medium_free = start + duration;
        let radio = &mut self.out.radios[usize::from(from_receiver)];
        radio.tx_time += duration;
        radio.tx_frames += 1;
        radio.tx_bytes += bytes;
        self.in_flight.push_back((start + duration + self.cfg.delay, !from_receiver, frame, dropped, bytes, duration));
        Ok(true)
    }

    /// The sender sends whatever it may now: the SYN at the start, then probes and data.
    fn pump(&mut self) -> Result<()> {
        match self.phase {
            Phase::Connecting if self.syn_sent.is_none() => {
                self.syn_sent = Some(self.now);
                self.syn_deadline = Some(self.now + self.sender.rto_estimator().rto());
                self.send(Frame::Syn, false)
            }
            Phase::Established => loop {
                if let Some(probe) = self.sender.poll_probe(self.now) {
                    self.send(Frame::Probe(probe), false)?;
                } else if let Some(seg) = self.sender.poll_transmit(self.now) {
                    self.send(self.data(seg.seq, seg.retransmission), false)?;
                } else {
                    return Ok(());
                }
            },
            _ => Ok(()),
        }
    }

    fn arrive_at_receiver(&mut self, frame: Frame) -> Result<bool> {
        match frame {
            Frame::Syn => {
                if let Some(rwnd) = &mut self.rwnd {
                    rwnd.handshake(self.now);
                }
                self.send(Frame::SynAck, true)?
            }
            Frame::Data { seq, tsval, tsecr, .. } => {
                self.ts_recent.on_segment(seq, tsval);
                let before = self.receiver.expected();
                let ack = self.receiver.on_segment(seq);
                if let Some(rwnd) = &mut self.rwnd {
                    let echo = self.cfg.sender.timestamps.then_some(tsecr);
                    rwnd.taken(self.now, seq, before, echo, &self.receiver, self.cfg.sender.sack);
                }
                if ack > self.n {
                    // The FIN, in order: everything is delivered. ACK it and close at once.
                    self.ack_policy.release();
                    self.finack_tries = 0;
                    self.finack_deadline = Some(self.now + self.fin_timeout());
                    self.send(Frame::FinAck, true)?;
                } else if self.ack_policy.ack_now(self.now, seq, before, ack, || self.receiver.holds_out_of_order()) {
                    self.send_ack(ack)?;
                }
                if let Some(rwnd) = &mut self.rwnd {
                    rwnd.read(self.now, &self.receiver);
                }
            }
            Frame::Probe(probe) => {
                if let Some(answer) = self.receiver.on_probe(probe) {
                    self.send(Frame::Probe(answer), true)?;
                }
            }
            Frame::FinalAck => return Ok(true),
            Frame::HandshakeAck | Frame::SynAck | Frame::Ack(..) | Frame::FinAck => {}
        }
        Ok(false)
    }

    /// `frame` reaches the sender, with its SACK blocks if it is an ACK that carries any.
    fn arrive_at_sender(&mut self, frame: Frame, sack: Option<SackBlocks>) -> Result<()> {
        match frame {
            Frame::SynAck => {
                if self.phase == Phase::Connecting {
                    if self.syn_tries == 0 {
                        self.sender.on_rtt_sample(self.now - self.syn_sent.expect("sent"));
                    }
                    self.syn_deadline = None;
                    self.phase = Phase::Established;
                    if let Some(rwnd) = &self.rwnd {
                        self.sender.note_window(rwnd.syn_window());
                    }
                }
                if self.phase == Phase::Established {
                    self.send(Frame::HandshakeAck, false)?;
                }
            }
            Frame::Ack(ack, _, echo) => {
                self.sender.note_echo(Some(echo));
                let blocks = sack.as_ref().map_or(&[][..], SackBlocks::as_slice);
                // The common ACK and its sends in one step (Sender::on_sack_ack_then_send, on_ack_then_send), as the
                // link driver takes it: the same sends pump would make next, in the same order; any other ACK as
                // before, its sends left to pump.
                let step = match self.phase {
                    Phase::Established => match self.sender.on_sack_ack_then_send(self.now, ack, blocks) {
                        None if blocks.is_empty() => self.sender.on_ack_then_send(self.now, ack).map(AckStep::Sent),
                        step => step,
                    },
                    _ => None,
                };
                match step {
                    Some(AckStep::Sent(sent)) => {
                        for seq in sent {
                            self.send(self.data(seq, false), false)?;
                        }
                    }
                    Some(AckStep::Poll) => {} // taken; pump sends what it allows
                    None => self.sender.on_sack_ack(self.now, ack, blocks),
                }
            }
            Frame::Probe(answer) => {
                // The probe cycle judges its own measurements (tsaoussidis-badr §3.1); the log keeps its record.
                if let Some(record) = self.sender.on_probe_answer(self.now, answer, self.decision)? {
                    self.out.cycles.push(record);
                }
            }
            Frame::FinAck => {
                if self.phase == Phase::Established {
                    self.sender.note_echo(None); // the FIN-ACK's timestamp is not modelled
                    self.sender.on_ack(self.now, self.n + 1);
                    self.phase = Phase::TimeWait;
                }
                if self.phase == Phase::TimeWait {
                    self.send(Frame::FinalAck, false)?;
                }
            }
            Frame::Syn | Frame::HandshakeAck | Frame::Data { .. } | Frame::FinalAck => {}
        }
        Ok(())
    }

    /// The receiver's FIN-ACK timer: the initial RTO, doubled per retry (it keeps no RTT estimate).
    fn fin_timeout(&self) -> f64 {
        self.backed_off(self.finack_tries)
    }

    fn backed_off(&self, tries: u32) -> f64 {
        let p = self.rfc6298;
        (p.initial.clamp(p.min, p.max) * f64::from(1u32 << tries.min(p.max_backoff.ilog2()))).min(p.max)
    }

    fn run(&mut self, watch: &mut Watch) -> Result<()> {
        loop {
            self.pump()?;
            if let Some(trace) = self.trace.as_mut().filter(|_| self.phase == Phase::Established) {
                if trace.rows().is_empty() {
                    trace.start_at(self.now); // its seconds run from the handshake's end
                }
                trace.record(self.now, &self.sender);
            }
            let event = NextEvent::of([
                self.in_flight.front().map(|f| f.0),
                self.ack_policy.deadline(),
                self.finack_deadline,
                self.syn_deadline,
                self.sender.probe_deadline(),
                if self.phase == Phase::Established { self.sender.timer_deadline() } else { None },
            ]);
            let next = event.time;
            if !next.is_finite() {
                // Until it ends a transfer always has a frame in flight or a timer running; checked before the time
                // limit, which an infinite time would otherwise pass for a transfer that merely did not finish.
                return Err(Error::invalid("time_limit", self.cfg.time_limit, &format!(
                    "the transfer stalled at t = {} s: nothing in flight and no timer (internal error; please report \
                     it with the call)", self.now)));
            }
            if next > self.cfg.time_limit {
                self.now = self.cfg.time_limit;
                return Ok(());
            }
            self.now = next;
            if event.is(ARRIVAL) {
                let (_, to_receiver, frame, corrupted, bytes, airtime) = self.in_flight.pop_front().expect("front");
                let sack = match frame {
                    Frame::Ack(_, blocks, _) if blocks > 0 => {
                        Some(self.sacks_in_flight.pop_front().expect("the blocks of each ACK in flight that has any"))
                    }
                    _ => None,
                };
                if let (Some(rwnd), Frame::Ack(..)) = (self.rwnd.as_mut(), frame) {
                    rwnd.arrived(!corrupted, &mut self.sender); // its window before the ACK itself
                }
                let radio = &mut self.out.radios[usize::from(to_receiver)];
                radio.rx_time += airtime;
                radio.rx_frames += 1;
                radio.rx_bytes += bytes;
                if !corrupted {
                    if to_receiver {
                        if self.arrive_at_receiver(frame)? {
                            self.out.completed = true;
                            return Ok(());
                        }
                    } else {
                        self.arrive_at_sender(frame, sack)?;
                    }
                }
            } else if event.is(DELAYED_ACK) {
                self.ack_policy.release();
                self.send_ack(self.receiver.expected())?;
            } else if event.is(FIN_ACK) {
                self.finack_tries += 1;
                self.finack_deadline = Some(self.now + self.fin_timeout());
                self.send(Frame::FinAck, true)?;
            } else if event.is(SYN) {
                self.syn_tries += 1;
                self.syn_deadline = Some(self.now + self.backed_off(self.syn_tries));
                self.out.syn_retransmissions += 1;
                self.send(Frame::Syn, false)?;
            } else if event.is(PROBE) {
                self.sender.on_probe_timeout(self.now);
            } else {
                self.sender.on_timeout(self.now);
            }
            let (una, n) = (self.sender.una(), self.n);
            watch.tick(|| (una as f64 / (n + 1) as f64).max(self.now / self.cfg.time_limit))?;
        }
    }
}

/// Run a transfer over `channel`, ending probe cycles with `decision` (used by TCP-Probing only).
pub fn run_transfer<C: LinkChannel, D: ProbeDecision + ?Sized>(
    cfg: &TransferConfig,
    channel: C,
    decision: &mut D,
    watch: &mut Watch,
) -> Result<TransferOutcome> {
    run_transfer_traced(cfg, channel, decision, None, watch).map(|(outcome, _)| outcome)
}

/// [`run_transfer`] with the sender's window traced from the handshake's end (`trace`, if given: [`WindowTrace`]),
/// returned beside the outcome.
pub fn run_transfer_traced<C: LinkChannel, D: ProbeDecision + ?Sized>(
    cfg: &TransferConfig,
    channel: C,
    decision: &mut D,
    trace: Option<WindowTrace>,
    watch: &mut Watch,
) -> Result<(TransferOutcome, Option<WindowTrace>)> {
    cfg.validate()?;
    let n = cfg.data_segments();
    let sender_cfg = cfg.sender.with_segments(n + 1)?; // the FIN is segment n
    let mut run = Run {
        cfg,
        rfc6298: cfg.rfc6298()?,
        channel,
        decision,
        sender: Sender::new(sender_cfg),
        receiver: Receiver::new(cfg.sender.wmax).with_sack(cfg.sender.sack),
        n,
        now: 0.0,
        phase: Phase::Connecting,
        medium_free: 0.0,
        in_flight: VecDeque::new(),
        sacks_in_flight: VecDeque::new(),
        syn_sent: None,
        syn_deadline: None,
        syn_tries: 0,
        ack_policy: AckPolicy::new(cfg.delayed_ack, cfg.sender.delayed_ack_rule),
        ts_recent: TsRecent::new(),
        rwnd: TunedWindow::new(cfg.sender.rwnd_rule, 0.0),
        finack_deadline: None,
        finack_tries: 0,
        trace,
        out: TransferOutcome {
            completed: false,
            time: 0.0,
            delivered: 0,
            by_kind: [KindCount::default(); 11],
            radios: [Radio::default(); 2],
            syn_retransmissions: 0,
            sender: Default::default(),
            probes: Default::default(),
            cycles: Vec::new(),
            frames: Vec::new(),
            srtt: None,
        },
    };
    run.run(watch)?;
    let mut out = run.out;
    out.time = run.now;
    out.delivered = (run.receiver.expected().min(n) * cfg.mss).min(cfg.size);
    out.sender = run.sender.counters();
    out.probes = run.sender.probe_counters();
    out.srtt = run.sender.rto_estimator().srtt();
    Ok((out, run.trace))
}
