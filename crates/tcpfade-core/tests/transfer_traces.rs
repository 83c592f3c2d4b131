//! Hand-worked transfers (tsaoussidis-badr §4's set-up, in miniature): every segment of a three-segment transfer,
//! with the time TCP hands it to IP, worked out by hand from driver/transfer.rs's rules before the code ran.
//! The link carries 1000 bytes/s (8000 bit/s), no delay, one ACK per segment, 20-byte headers (24 with the SYN's
//! MSS option, 28 for probes), MSS 1000: a data segment holds the link 1.02 s, a header 0.02 s. The RTO's
//! minimum is 3 s, above every round trip here (a data segment's ACK can wait behind the next segment on the
//! half-duplex link: 2.06 s), so no timeout is spurious.

mod common;

use std::collections::HashSet;
use tcpfade_core::driver::{run_transfer, FrameRecord, LinkChannel, SegmentKind, TransferConfig};
use tcpfade_core::error::Result;
use tcpfade_core::tcp::{BestRtt, Rfc6298, RttRange, SenderConfig, Variant};
use tcpfade_core::watch::Watch;
use SegmentKind::*;

/// Drops the segments handed to IP in the given places of the order (0 = the SYN).
struct Scripted {
    drop: HashSet<usize>,
    seen: usize,
}

impl LinkChannel for Scripted {
    fn lost(&mut self, _start: f64, _duration: f64) -> Result<bool> {
        self.seen += 1;
        Ok(self.drop.contains(&(self.seen - 1)))
    }
}

fn config(variant: Variant) -> TransferConfig {
    let rfc = Rfc6298 { initial: 3.0, min: 3.0, max: 64.0, granularity: 0.01, max_backoff: 64 };
    // Best RTT from every earlier sample: the SYN's counts (its 0.048 s is the probes' lower bound below).
    let sender = SenderConfig::new(variant, 4, 3, 1.0, 4.0).unwrap().with_rfc6298(rfc).unwrap().with_best_rtt(BestRtt::Earlier);
    common::miniature_transfer(sender, 3000)
}

/// (time, from the receiver, kind, number, dropped)
type Row = (f64, bool, SegmentKind, u64, bool);

fn check(frames: &[FrameRecord], expected: &[Row]) {
    assert_eq!(frames.len(), expected.len(), "{frames:#?}");
    for (i, (f, &(time, from_receiver, kind, number, dropped))) in frames.iter().zip(expected).enumerate() {
        assert!((f.time - time).abs() < 1e-9, "frame {i}: at {} expected {time}: {f:?}", f.time);
        assert_eq!((f.from == 1, f.kind, f.number, f.dropped), (from_receiver, kind, number, dropped), "frame {i}");
    }
}

const S: bool = false; // from the sender
const R: bool = true; // from the receiver

#[test]
fn loss_free_transfer_keeps_the_link_busy_from_syn_to_the_last_ack() {
    let out = run_transfer(&config(Variant::Reno), Scripted { drop: HashSet::new(), seen: 0 }, &mut RttRange::default(),
                           &mut Watch::quiet()).unwrap();
    check(&out.frames, &[
        (0.0, S, Syn, 0, false),            // 0-0.024
        (0.024, R, SynAck, 0, false),       // 0.024-0.048
        (0.048, S, HandshakeAck, 0, false), // 0.048-0.068
        (0.048, S, Data, 0, false),         // W = 1; 0.068-1.088
        (1.088, R, Ack, 1, false),          // 1.088-1.108
        (1.108, S, Data, 1, false),         // W = 2; 1.108-2.128
        (1.108, S, Data, 2, false),         // 2.128-3.148
        (2.128, R, Ack, 2, false),          // waits for the link: 3.148-3.168
        (3.148, R, Ack, 3, false),          // 3.168-3.188
        (3.168, S, Fin, 3, false),          // after ACK 2, W = 3; 3.188-3.208
        (3.208, R, FinAck, 4, false),       // 3.208-3.228
        (3.228, S, FinalAck, 0, false),     // 3.228-3.248: the connection ends
    ]);
    // Never idle: the time is every byte once at 1000 bytes/s.
    let bytes: u64 = out.by_kind.iter().map(|k| k.bytes).sum();
    assert_eq!(bytes, 24 + 24 + 20 + 3 * 1020 + 3 * 20 + 20 + 20 + 20);
    assert!(out.completed && (out.time - 3.248).abs() < 1e-9 && out.delivered == 3000);
    assert!((out.radios[0].tx_time - (24.0 + 20.0 + 3060.0 + 20.0 + 20.0) / 1000.0).abs() < 1e-12);
}

#[test]
fn probing_sits_out_a_loss_on_probes_and_recovers_immediately() {
    // Segment 1 (the 6th handed to IP) is dropped. Segment 2 brings one duplicate ACK (K = 3): the window (2)
    // is full, so the timer decides. SRTT: the SYN's 0.048 s, then segment 0's 1.06 s (sent at 0.048 behind
    // the handshake's ACK, ACKed at 1.108): SRTT 0.1745 (RTTVAR 0.271, RTO max(1.2585, 3) = 3 s) from segment
    // 1's departure at 1.108: a timeout at 4.108 starts a probe cycle, with a probe timer of SRTT = 0.1745 s.
    let out = run_transfer(&config(Variant::Probing), Scripted { drop: HashSet::from([5]), seen: 0 },
                           &mut RttRange::default(), &mut Watch::quiet()).unwrap();
    check(&out.frames, &[
        (0.0, S, Syn, 0, false),
        (0.024, R, SynAck, 0, false),
        (0.048, S, HandshakeAck, 0, false),
        (0.048, S, Data, 0, false),
        (1.088, R, Ack, 1, false),
        (1.108, S, Data, 1, true),          // dropped between TCP and IP: the link stays free
        (1.108, S, Data, 2, false),         // 1.108-2.128
        (2.128, R, Ack, 1, false),          // out of order: a duplicate ACK at once
        (4.108, S, Probe, 1, false),        // PROBE1 (28 bytes); the link idled from 2.148
        (4.136, R, ProbeAnswer, 1, false),  // PR1_ACK: RTT 0.056
        (4.164, S, Probe, 1, false),        // PROBE2
        (4.192, R, ProbeAnswer, 1, false),  // PR2_ACK: RTT 0.056, in [best 0.048, last 0.1745]: Immediate Recovery
        (4.220, S, Retransmission, 1, false), // W = 2 kept; 4.220-5.240
        (5.240, R, Ack, 3, false),          // fills the hole
        (5.260, S, Fin, 3, false),
        (5.280, R, FinAck, 4, false),
        (5.300, S, FinalAck, 0, false),
    ]);
    assert!(out.completed && (out.time - 5.320).abs() < 1e-9);
    assert_eq!((out.sender.timeouts, out.probes.immediate_recoveries, out.probes.slow_starts), (1, 1, 0));
    let c = &out.cycles[0].measurement;
    assert!((c.rtt1 - 0.056).abs() < 1e-9 && (c.rtt2 - 0.056).abs() < 1e-9);
    assert!((c.best_rtt - 0.048).abs() < 1e-9 && (c.last_rtt - 0.1745).abs() < 1e-9);
}

#[test]
fn a_lost_syn_ack_and_a_lost_last_ack_are_recovered_by_their_timers() {
    // The SYN-ACK (2nd) is dropped: the SYN goes again after the initial RTO (3 s), with no RTT sample from
    // it (Karn). The last ACK (then the 14th segment handed to IP) is dropped: the receiver sends its FIN-ACK
    // again after the initial RTO, and the sender answers it.
    let out = run_transfer(&config(Variant::Reno), Scripted { drop: HashSet::from([1, 13]), seen: 0 },
                           &mut RttRange::default(), &mut Watch::quiet()).unwrap();
    let kinds: Vec<(SegmentKind, bool)> = out.frames.iter().map(|f| (f.kind, f.dropped)).collect();
    assert_eq!(&kinds[..4], &[(Syn, false), (SynAck, true), (Syn, false), (SynAck, false)]);
    assert!((out.frames[2].time - 3.0).abs() < 1e-9);
    assert_eq!(&kinds[kinds.len() - 4..], &[(FinAck, false), (FinalAck, true), (FinAck, false), (FinalAck, false)]);
    let n = out.frames.len();
    assert!((out.frames[n - 2].time - (out.frames[n - 4].time + 3.0)).abs() < 1e-9);
    assert_eq!(out.syn_retransmissions, 1);
    assert!(out.completed);
}

#[test]
fn the_window_trace_follows_the_loss_free_transfer_above() {
    // From the frame log above: the handshake ends at 0.048 and segment 0 goes (W = 1, high 1); ACK 1 reaches the
    // sender at 1.108 (W = 2, segments 1 and 2: high 3); ACK 2, held behind segment 2 on the link, at 3.168 (W = 3,
    // the FIN, segment 3: high 4); ACK 3 at 3.188 (W = 4). Reno's slow start, ssthresh 4 throughout.
    let trace = tcpfade_core::driver::WindowTrace::new(3.2, 100);
    let (out, trace) = tcpfade_core::driver::run_transfer_traced(
        &config(Variant::Reno), Scripted { drop: HashSet::new(), seen: 0 }, &mut RttRange::default(), Some(trace),
        &mut Watch::quiet()).unwrap();
    assert!(out.completed);
    let rows: Vec<(f64, f64, u64, u64)> =
        trace.unwrap().rows().iter().map(|r| (r.time, r.cwnd, r.una, r.high)).collect();
    let expected = [(0.048, 1.0, 0, 1), (1.108, 2.0, 1, 3), (3.168, 3.0, 2, 4), (3.188, 4.0, 3, 4)];
    assert_eq!(rows.len(), expected.len(), "{rows:?}");
    for (got, want) in rows.iter().zip(expected) {
        assert!((got.0 - want.0).abs() < 1e-9 && (got.1, got.2, got.3) == (want.1, want.2, want.3), "{got:?} {want:?}");
    }
}

#[test]
fn a_transfers_trace_runs_its_seconds_from_the_handshakes_end() {
    // Found by a review: with a long handshake the trace's seconds were counted from the SYN and came back empty.
    // The same transfer as above, its trace of 1.1 s: from 0.048 to 1.148, so the rows at 0.048 and 1.108.
    let (_, trace) = tcpfade_core::driver::run_transfer_traced(
        &config(Variant::Reno), Scripted { drop: HashSet::new(), seen: 0 }, &mut RttRange::default(),
        Some(tcpfade_core::driver::WindowTrace::new(1.1, 100)), &mut Watch::quiet()).unwrap();
    let times: Vec<f64> = trace.unwrap().rows().iter().map(|r| r.time).collect();
    assert_eq!(times.len(), 2, "{times:?}");
    assert!((times[0] - 0.048).abs() < 1e-9 && (times[1] - 1.108).abs() < 1e-9, "{times:?}");
}
