//! The emulated link of one direction: what the event-driven simulator's link is (`tcpfade_core::driver::link`,
//! abouzeid §II-A), for real packets.
//!
//! Packets read from the sending side's TUN device join a DropTail buffer of B packets (not counting the one on
//! the link); the link sends them one after the other at `rate_bps`, each for its own size × 8 / rate; the channel
//! (any [`LinkChannelSpec`], through the one `LinkChannel` interface the simulator uses) decides whether the
//! packet on the link during [s, s + d) survives; a survivor is written to the receiving side's TUN device at
//! s + d + delay. The schedule is computed in virtual time from each arrival, so the rate and the delay do not
//! drift with the thread's wake-up latency: that latency only delays a write (it is measured: [`Timing`]).
//!
//! Every decision is logged: arrival time, size, fate, the queue the packet found, when its transmission ended,
//! and the TCP payload it delivered for the first time (the goodput's bytes: [`crate::segments`]).

use std::collections::VecDeque;
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use crate::segments::FirstDelivery;
use tcpfade_core::channel::LinkChannelSpec;
use tcpfade_core::{Error, Result};

/// Longest a link thread sleeps before it looks at its stop flag again [s].
const LOOK_EVERY: f64 = 0.02;

/// One direction of the emulated link.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkSpec {
    /// Link rate [bit/s]: a packet of n bytes is on the link for 8n / rate seconds.
    pub rate_bps: f64,
    /// One-way propagation delay after the link \[s\].
    pub delay: f64,
    /// DropTail buffer B \[packets\], not counting the packet on the link.
    pub buffer: u64,
    /// The channel the packets on the link meet.
    pub channel: LinkChannelSpec,
    /// Seed of the channel.
    pub seed: u64,
}

/// What happened to a packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Fate {
    /// It crossed the link and was written to the other side.
    Delivered = 0,
    /// The channel lost it on the link.
    Lost = 1,
    /// It found the buffer full.
    Dropped = 2,
}

/// One packet's passage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    /// Arrival at the link, seconds since the emulation began.
    pub time: f64,
    /// IP packet size \[bytes\].
    pub bytes: u32,
    /// Its fate.
    pub fate: Fate,
    /// Packets waiting in the buffer when it arrived (not counting the one on the link).
    pub queue: u32,
    /// End of its transmission on the link, seconds since the emulation began (NaN: dropped at the buffer).
    pub departed: f64,
    /// TCP payload bytes it delivered for the first time ([`FirstDelivery`]; 0 unless delivered).
    pub new_bytes: u32,
}

/// How late the writes came against the virtual schedule, and what the link cost.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timing {
    /// Lateness of each delivery \[s\] (the write's time minus its scheduled time).
    pub lateness: Vec<f32>,
    /// CPU time the link's thread used \[s\].
    pub cpu_seconds: f64,
}

/// CPU time of the calling thread [s].
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn seconds(epoch: Instant) -> f64 {
    epoch.elapsed().as_secs_f64()
}

/// Wait until `fd` is readable or `timeout` seconds have passed.
fn wait_readable(fd: i32, timeout: f64) -> io::Result<()> {
    let mut poll = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
    let whole = timeout.max(0.0);
    let spec = libc::timespec { tv_sec: whole.trunc() as libc::time_t, tv_nsec: (whole.fract() * 1e9) as libc::c_long };
    // SAFETY: one valid pollfd, a valid timespec, no signal mask change.
    let r = unsafe { libc::ppoll(&mut poll, 1, &spec, std::ptr::null()) };
    if r < 0 {
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    Ok(())
}

/// What a link tells the rest of the emulator while it runs: when it last read or wrote a packet, and how many
/// packets it holds (waiting, on the link or on their way). A program's run is over once every link is empty and
/// quiet.
#[derive(Debug, Default)]
pub struct Activity {
    /// Time of the last packet read or written [ns since the epoch].
    pub last: AtomicU64,
    /// Packets the link holds.
    pub holding: AtomicU64,
}

/// The link of one direction, from `input` (a TUN device's packets) to `output`, until `stop` is set.
pub fn run_link(
    spec: &LinkSpec,
    input: &File,
    output: &File,
    epoch: Instant,
    stop: &AtomicBool,
    activity: &Activity,
) -> Result<(Vec<Decision>, Timing)> {
    let mut channel = spec.channel.build(spec.seed)?;
    // The default 50 µs timer slack would be added to every wake-up; the schedule wants the earliest.
    // SAFETY: prctl with an integer argument affects only this thread.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
    let (fd_in, fd_out) = (input.as_raw_fd(), output.as_raw_fd());
    let mut log = Vec::new();
    let mut first = FirstDelivery::default();
    let mut timing = Timing::default();
    // End of transmission of each packet in the system (on the link or waiting), in order.
    let mut departures: VecDeque<f64> = VecDeque::new();
    let mut last_departure = 0.0_f64;
    // Survivors on their way: delivery time and the packet.
    let mut in_flight: VecDeque<(f64, Vec<u8>)> = VecDeque::new();
    let mut spare: Vec<Vec<u8>> = Vec::new();
    let mut buf = vec![0u8; 65_536];
    let fail = |what: &str, e: io::Error| Error::system(format!("the emulated link could not {what}"), e);
    while !stop.load(Ordering::Relaxed) {
        let now = seconds(epoch);
        while in_flight.front().is_some_and(|&(at, _)| at <= now) {
            let (at, packet) = in_flight.pop_front().expect("a packet is due");
            // SAFETY: writing a buffer we own to a descriptor we own.
            if unsafe { libc::write(fd_out, packet.as_ptr().cast(), packet.len()) } < 0 {
                let e = io::Error::last_os_error();
                // A full receive queue on the other side drops the packet, as a real interface would.
                if e.raw_os_error() != Some(libc::EAGAIN) && e.raw_os_error() != Some(libc::EIO) {
                    return Err(fail("write a packet", e));
                }
            }
            timing.lateness.push((seconds(epoch) - at) as f32);
            spare.push(packet);
            activity.last.store(epoch.elapsed().as_nanos() as u64, Ordering::Relaxed);
        }
        // Packets whose transmission has ended leave the system now, not only when the next packet comes: else
        // the last ones were held forever and `tcpfade emulate -- COMMAND` waited its whole drain limit (30 s)
        // for a quiet link after the command had ended.
        let now = seconds(epoch);
        while departures.front().is_some_and(|&end| end <= now) {
            departures.pop_front();
        }
        activity.holding.store((in_flight.len() + departures.len()) as u64, Ordering::Relaxed);
        let next = in_flight.front().map_or(LOOK_EVERY, |&(at, _)| (at - seconds(epoch)).min(LOOK_EVERY));
        wait_readable(fd_in, next).map_err(|e| fail("wait for packets", e))?;
        loop {
            // SAFETY: reading into a buffer we own from a descriptor we own.
            let n = unsafe { libc::read(fd_in, buf.as_mut_ptr().cast(), buf.len()) };
            if n < 0 {
                let e = io::Error::last_os_error();
                match e.kind() {
                    io::ErrorKind::WouldBlock => break,
                    io::ErrorKind::Interrupted => continue,
                    _ => return Err(fail("read a packet", e)),
                }
            }
            let n = n as usize;
            let now = seconds(epoch);
            activity.last.store(epoch.elapsed().as_nanos() as u64, Ordering::Relaxed);
            while departures.front().is_some_and(|&end| end <= now) {
                departures.pop_front();
            }
            let waiting = departures.len().saturating_sub(1);
            if !departures.is_empty() && waiting as u64 >= spec.buffer {
                log.push(Decision { time: now, bytes: n as u32, fate: Fate::Dropped, queue: waiting as u32,
                                    departed: f64::NAN, new_bytes: 0 });
                continue;
            }
            let start = last_departure.max(now);
            let duration = n as f64 * 8.0 / spec.rate_bps;
            last_departure = start + duration;
            departures.push_back(last_departure);
            let lost = channel.lost(start, duration)?;
            let fate = if lost { Fate::Lost } else { Fate::Delivered };
            let new_bytes = if lost { 0 } else { first.new_bytes(&buf[..n]) };
            log.push(Decision { time: now, bytes: n as u32, fate, queue: waiting as u32, departed: last_departure,
                                new_bytes });
            if !lost {
                let mut packet = spare.pop().unwrap_or_default();
                packet.clear();
                packet.extend_from_slice(&buf[..n]);
                in_flight.push_back((last_departure + spec.delay, packet));
            }
        }
    }
    timing.cpu_seconds = thread_cpu_seconds();
    Ok((log, timing))
}
