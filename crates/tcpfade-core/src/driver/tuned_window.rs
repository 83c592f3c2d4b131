//! Linux's autotuned receive window at a driver's receiver ([`RwndRule::Linux`], `crate::tcp::rwnd`), written once
//! for the link and transfer drivers: the tuner, the window and departure time of each ACK on its way back, and when
//! the receiver sent the last ACK the sender took, which the data segments sent after it echo (RFC 7323's TSecr, from
//! which the kernel's receiver takes its RTT).

use crate::tcp::{LinuxWindow, Receiver, RwndRule, Sender};
use std::collections::VecDeque;

/// The receiver's window and what carries it (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct TunedWindow {
    tuner: LinuxWindow,
    /// The window and departure time of each ACK on its way back that carries one, in order.
    in_flight: VecDeque<(u64, f64)>,
    /// When the receiver sent the last ACK the sender took.
    last_ack_left: f64,
}

impl TunedWindow {
    /// The window for `rule`, None for the papers' receiver (Wmax in every ACK, nothing to carry); `handshake` is when
    /// the receiver's SYN-ACK left, which the first data segments echo.
    pub(crate) fn new(rule: RwndRule, handshake: f64) -> Option<Self> {
        match rule {
            RwndRule::Wmax => None,
            RwndRule::Linux { mss } => {
                Some(TunedWindow { tuner: LinuxWindow::new(mss), in_flight: VecDeque::new(), last_ack_left: handshake })
            }
        }
    }

    /// The receiver sent its SYN-ACK at `now` (a transfer's handshake): the first data segments echo it.
    pub(crate) fn handshake(&mut self, now: f64) {
        self.last_ack_left = now;
    }

    /// The SYN-ACK's window [segments], which the sender holds until the first ACK brings another.
    pub(crate) fn syn_window(&self) -> u64 {
        self.tuner.advertised()
    }

    /// The TSecr of a data segment the sender sends now: when the receiver sent the last ACK the sender took.
    #[inline]
    pub(crate) fn echo(&self) -> f64 {
        self.last_ack_left
    }

    /// Data segment `seq`, echoing `echo` (with timestamps), reached the receiver at `now`, expecting `before`; the
    /// receiver has taken it. `sack`: whether SACK is on.
    pub(crate) fn taken(&mut self, now: f64, seq: u64, before: u64, echo: Option<f64>, receiver: &Receiver, sack: bool) {
        self.tuner.on_arrival(now, echo);
        let (held, end) = receiver.held();
        self.tuner.on_segment(now, seq, before, receiver.expected(), held, end, sack);
    }

    /// The window an ACK of `ack` leaving now carries (the receiver's state moves with it, sent or not).
    pub(crate) fn window(&mut self, ack: u64, receiver: &Receiver) -> u64 {
        self.tuner.window(ack, receiver.held().0)
    }

    /// An ACK with `window` went onto the medium at `now`.
    pub(crate) fn sent(&mut self, window: u64, now: f64) {
        self.in_flight.push_back((window, now));
    }

    /// The application read what arrived in order, at `now`.
    pub(crate) fn read(&mut self, now: f64, receiver: &Receiver) {
        self.tuner.read(now, receiver.expected(), receiver.held().1);
    }

    /// The next ACK on its way back arrived; `taken` says whether the sender takes it (a frame corrupted on the air
    /// is not taken), and then its window is handed to `sender` before the ACK itself.
    pub(crate) fn arrived(&mut self, taken: bool, sender: &mut Sender) {
        let (window, left) = self.in_flight.pop_front().expect("the window of each ACK on its way back");
        if taken {
            sender.note_window(window);
            self.last_ack_left = left;
        }
    }
}
