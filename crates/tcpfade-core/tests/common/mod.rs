//! The miniature transfer link of the hand-worked traces (tsaoussidis-badr §4's set-up, scaled down): 1000
//! bytes/s (8000 bit/s), no delay, one ACK per segment, 20-byte headers (24 with the SYN's MSS option, 28 for
//! probes), MSS 1000, every frame logged. Shared so that each trace states only its sender and its size.

use tcpfade_core::driver::{Metering, TransferConfig};
use tcpfade_core::tcp::{Sender, SenderConfig};

/// Everything the sender sends now, by sequence number (the scripted traces' view of `poll_transmit`).
#[allow(dead_code)] // each test binary takes what it needs
pub fn drain(s: &mut Sender, now: f64) -> Vec<u64> {
    std::iter::from_fn(|| s.poll_transmit(now).map(|seg| seg.seq)).collect()
}

/// An ACK of `cum` with SACK blocks at `now`; returns what is sent in answer.
#[allow(dead_code)]
pub fn sack_ack(s: &mut Sender, now: f64, cum: u64, blocks: &[(u64, u64)]) -> Vec<u64> {
    s.on_sack_ack(now, cum, blocks);
    drain(s, now)
}

/// The miniature link carrying `size` bytes from `sender`.
#[allow(dead_code)]
pub fn miniature_transfer(sender: SenderConfig, size: u64) -> TransferConfig {
    TransferConfig {
        sender,
        size,
        mss: 1000,
        header_bytes: 20,
        syn_option_bytes: 4,
        probe_option_bytes: 8,
        rate: 8000.0,
        metering: Metering::Frame,
        delay: 0.0,
        delayed_ack: None,
        drop_acks: true,
        loss_on_air: false,
        time_limit: 100.0,
        record_frames: true,
    }
}
