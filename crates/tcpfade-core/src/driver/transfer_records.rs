//! What a finite transfer ([`super::transfer`]) records: its segments by kind, each radio's time and frames, and
//! (when asked) every frame on the link.

/// Kinds of segment counted in a transfer's byte accounting, in the order of [`KIND_NAMES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum SegmentKind {
    /// SYN (sender).
    Syn,
    /// SYN-ACK (receiver).
    SynAck,
    /// The ACK that completes the handshake (sender).
    HandshakeAck,
    /// A data segment sent for the first time.
    Data,
    /// A data segment sent again.
    Retransmission,
    /// The sender's FIN (first or again).
    Fin,
    /// The receiver's ACKs of data.
    Ack,
    /// PROBE1 and PROBE2 (sender).
    Probe,
    /// PR1_ACK and PR2_ACK (receiver).
    ProbeAnswer,
    /// The receiver's FIN with the ACK of the sender's FIN.
    FinAck,
    /// The sender's ACK of the receiver's FIN.
    FinalAck,
}

/// Names of [`SegmentKind`], in order.
pub const KIND_NAMES: [&str; 11] =
    ["syn", "syn_ack", "handshake_ack", "data", "retransmission", "fin", "ack", "probe", "probe_answer", "fin_ack", "final_ack"];

/// Segments, bytes and drops of one kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KindCount {
    /// Segments handed by TCP to IP.
    pub segments: u64,
    /// Their bytes (headers and payload).
    pub bytes: u64,
    /// Segments the channel dropped.
    pub dropped: u64,
}

/// One host's radio: time and traffic transmitted and received.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Radio {
    /// Time transmitting \[s\].
    pub tx_time: f64,
    /// Time receiving \[s\] (frames corrupted on the air included).
    pub rx_time: f64,
    /// Frames transmitted.
    pub tx_frames: u64,
    /// Bytes transmitted.
    pub tx_bytes: u64,
    /// Frames received.
    pub rx_frames: u64,
    /// Bytes received.
    pub rx_bytes: u64,
}

/// A frame as the frame log records it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameRecord {
    /// When TCP handed it to IP \[s\].
    pub time: f64,
    /// 0 sender, 1 receiver.
    pub from: u8,
    /// Its kind.
    pub kind: SegmentKind,
    /// Sequence number (data, FIN), cumulative ACK (ACK, FIN-ACK), probe id (probes), else 0.
    pub number: u64,
    /// Bytes.
    pub bytes: u64,
    /// Dropped by the channel.
    pub dropped: bool,
}
