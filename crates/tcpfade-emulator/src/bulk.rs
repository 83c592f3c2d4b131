//! A kernel TCP bulk transfer over the emulated link: a sender in the sender namespace writes as fast as its
//! socket takes data for a given time, a receiver in the receiver namespace reads and discards; the figures are
//! the bytes the receiving application got and the sender's own TCP_INFO (retransmissions, RTO expirations,
//! smoothed RTT), taken at the end of the warm-up and at the end.

use crate::{Emulation, RECEIVER_ADDR};
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tcpfade_core::watch::Watch;
use tcpfade_core::{Error, Result};

/// The receiver's port.
pub const PORT: u16 = 5001;
/// How long a socket call may block before the loops look at the clock and the stop flag.
const SLICE: Duration = Duration::from_millis(20);

/// What to run.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkSpec {
    /// The sender's congestion control, by the kernel's name (reno, cubic, bbr, ...).
    pub congestion: String,
    /// Length of the transfer from the connection's start \[s\].
    pub duration: f64,
    /// Time at the start not measured \[s\].
    pub warmup: f64,
}

/// struct tcp_info of linux/tcp.h up to the RTO counters of Linux 6.7; an older kernel fills less of it, which
/// the returned length tells.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
struct RawTcpInfo {
    state: u8,
    ca_state: u8,
    retransmits: u8,
    probes: u8,
    backoff: u8,
    options: u8,
    wscale: u8,
    app_limited: u8,
    rto: u32,
    ato: u32,
    snd_mss: u32,
    rcv_mss: u32,
    unacked: u32,
    sacked: u32,
    lost: u32,
    retrans: u32,
    fackets: u32,
    last_data_sent: u32,
    last_ack_sent: u32,
    last_data_recv: u32,
    last_ack_recv: u32,
    pmtu: u32,
    rcv_ssthresh: u32,
    rtt: u32,
    rttvar: u32,
    snd_ssthresh: u32,
    snd_cwnd: u32,
    advmss: u32,
    reordering: u32,
    rcv_rtt: u32,
    rcv_space: u32,
    total_retrans: u32,
    pacing_rate: u64,
    max_pacing_rate: u64,
    bytes_acked: u64,
    bytes_received: u64,
    segs_out: u32,
    segs_in: u32,
    notsent_bytes: u32,
    min_rtt: u32,
    data_segs_in: u32,
    data_segs_out: u32,
    delivery_rate: u64,
    busy_time: u64,
    rwnd_limited: u64,
    sndbuf_limited: u64,
    delivered: u32,
    delivered_ce: u32,
    bytes_sent: u64,
    bytes_retrans: u64,
    dsack_dups: u32,
    reord_seen: u32,
    rcv_ooopack: u32,
    snd_wnd: u32,
    rcv_wnd: u32,
    rehash: u32,
    total_rto: u16,
    total_rto_recoveries: u16,
    total_rto_time: u32,
}

/// The sender's TCP_INFO, in seconds and counts.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TcpInfo {
    /// Segments retransmitted (tcpi_total_retrans).
    pub retransmissions: u64,
    /// RTO expirations (tcpi_total_rto, Linux 6.7 and later; None before).
    pub timeouts: Option<u64>,
    /// Smoothed RTT \[s\].
    pub rtt: f64,
    /// RTT variation \[s\].
    pub rttvar: f64,
    /// Smallest RTT seen \[s\].
    pub min_rtt: f64,
    /// The current RTO \[s\].
    pub rto: f64,
    /// Sender MSS \[bytes\].
    pub mss: u32,
    /// Congestion window \[segments\].
    pub cwnd: u32,
    /// Data bytes sent, retransmissions included.
    pub bytes_sent: u64,
    /// Data bytes retransmitted.
    pub bytes_retransmitted: u64,
    /// Whether SACK and timestamps were negotiated (tcpi_options bits 2 and 1).
    pub sack: bool,
    /// See `sack`.
    pub timestamps: bool,
}

/// The kernel's TCP_INFO of socket `fd`, and how many bytes of it the kernel filled.
fn raw_tcp_info(fd: RawFd) -> Result<(RawTcpInfo, libc::socklen_t)> {
    let mut raw = RawTcpInfo::default();
    let mut len = std::mem::size_of::<RawTcpInfo>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes into `raw`, a plain C struct.
    let r = unsafe {
        libc::getsockopt(fd, libc::IPPROTO_TCP, libc::TCP_INFO, (&mut raw as *mut RawTcpInfo).cast(), &mut len)
    };
    if r != 0 {
        return Err(Error::system("TCP_INFO could not be read", io::Error::last_os_error()));
    }
    Ok((raw, len))
}

/// Data bytes the receiver's kernel has taken in order (tcpi_bytes_received, RFC 4898's
/// tcpEStatsAppHCThruOctetsReceived), 0 before the connection is accepted (`fd` < 0). The kernel counts them as
/// the link delivers them, whenever the receiving program gets to read them. Kept beside the goodput, which is
/// counted at the link (`crate::segments`): in order, data that crossed the link before the warm-up ended but
/// waited behind a hole counts after it.
fn received_in_order(fd: &AtomicI32) -> Result<u64> {
    let fd = fd.load(Ordering::Acquire);
    if fd < 0 {
        return Ok(0);
    }
    Ok(raw_tcp_info(fd)?.0.bytes_received)
}

fn tcp_info(stream: &TcpStream) -> Result<TcpInfo> {
    let (raw, len) = raw_tcp_info(stream.as_raw_fd())?;
    let has_rto = len as usize >= std::mem::offset_of!(RawTcpInfo, total_rto) + 2;
    let s = |us: u32| f64::from(us) * 1e-6;
    Ok(TcpInfo {
        retransmissions: u64::from(raw.total_retrans),
        timeouts: has_rto.then_some(u64::from(raw.total_rto)),
        rtt: s(raw.rtt),
        rttvar: s(raw.rttvar),
        min_rtt: s(raw.min_rtt),
        rto: s(raw.rto),
        mss: raw.snd_mss,
        cwnd: raw.snd_cwnd,
        bytes_sent: raw.bytes_sent,
        bytes_retransmitted: raw.bytes_retrans,
        sack: raw.options & 2 != 0,
        timestamps: raw.options & 1 != 0,
    })
}

/// What a bulk transfer measured.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkOutcome {
    /// Data bytes the receiver's kernel took in order between the two snapshots (`received_in_order`).
    pub received_bytes: u64,
    /// Time between the two snapshots \[s\].
    pub measured: f64,
    /// The two snapshots' times on the links' clock (seconds since the emulation began, the logs' time): the
    /// goodput counts the data the link delivered for the first time in between (`crate::segments`).
    pub measured_from: f64,
    /// See `measured_from`.
    pub measured_to: f64,
    /// The sender's TCP_INFO at the end of the warm-up.
    pub at_warmup: TcpInfo,
    /// The sender's TCP_INFO at the end.
    pub at_end: TcpInfo,
}

fn set_congestion(stream: &TcpStream, name: &str) -> Result<()> {
    // SAFETY: TCP_CONGESTION reads `name.len()` bytes from a buffer we own.
    let r = unsafe {
        libc::setsockopt(stream.as_raw_fd(), libc::IPPROTO_TCP, libc::TCP_CONGESTION, name.as_ptr().cast(),
                         name.len() as libc::socklen_t)
    };
    if r != 0 {
        let available = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(", ");
        let allowed = format!("must be a congestion control this kernel offers: {available}");
        return Err(Error::invalid("congestion_control", format!("'{name}'"), &allowed));
    }
    Ok(())
}

/// A socket call that returned because its time slice ran out (or a signal came), not because of a failure.
fn slice_ended(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted)
}

/// Accept the sender's connection, publish its socket in `connection` (for [`received_in_order`]; the socket stays
/// open until `stop`, or until the sender has shut its side after its last measurement), and drain it.
fn receive(listener: TcpListener, connection: &AtomicI32, stop: &AtomicBool) -> Result<()> {
    listener.set_nonblocking(true).map_err(|e| Error::system("the receiver", e))?;
    let mut stream = loop {
        match listener.accept() {
            Ok((stream, _)) => break stream,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(e) => return Err(Error::system("the receiver could not accept", e)),
        }
    };
    stream
        .set_nonblocking(false)
        .and_then(|_| stream.set_read_timeout(Some(SLICE)))
        .map_err(|e| Error::system("the receiver", e))?;
    connection.store(stream.as_raw_fd(), Ordering::Release);
    let mut buf = vec![0u8; 1 << 18];
    while !stop.load(Ordering::Relaxed) {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if slice_ended(&e) => {}
            Err(e) => {
                connection.store(-1, Ordering::Release); // the socket closes with this function
                return Err(Error::system("the receiver could not read", e));
            }
        }
    }
    connection.store(-1, Ordering::Release);
    Ok(())
}

fn send(spec: &BulkSpec, connection: &AtomicI32, stop: &AtomicBool, clock: impl Fn() -> f64) -> Result<BulkOutcome> {
    let address: SocketAddr = format!("{RECEIVER_ADDR}:{PORT}").parse().expect("a valid address");
    let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(10))
        .map_err(|e| Error::system("the sender could not connect across the emulated link", e))?;
    set_congestion(&stream, &spec.congestion)?;
    stream.set_write_timeout(Some(SLICE)).map_err(|e| Error::system("the sender", e))?;
    let start = Instant::now();
    let chunk = vec![0x5a_u8; 1 << 16];
    let mut warm: Option<(Instant, f64, u64, TcpInfo)> = None;
    while !stop.load(Ordering::Relaxed) {
        let now = start.elapsed().as_secs_f64();
        if warm.is_none() && now >= spec.warmup {
            warm = Some((Instant::now(), clock(), received_in_order(connection)?, tcp_info(&stream)?));
        }
        if now >= spec.duration {
            break;
        }
        match stream.write(&chunk) {
            Ok(_) => {}
            Err(e) if slice_ended(&e) => {}
            Err(e) => return Err(Error::system("the sender could not write", e)),
        }
    }
    if stop.load(Ordering::Relaxed) {
        return Err(Error::Stopped);
    }
    let (warm_at, measured_from, warm_bytes, at_warmup) = warm.expect("the warm-up ends before the duration");
    let (end_at, measured_to) = (Instant::now(), clock());
    let (end_bytes, at_end) = (received_in_order(connection)?, tcp_info(&stream)?);
    let _ = stream.shutdown(Shutdown::Both);
    Ok(BulkOutcome {
        received_bytes: end_bytes - warm_bytes,
        measured: (end_at - warm_at).as_secs_f64(),
        measured_from,
        measured_to,
        at_warmup,
        at_end,
    })
}

/// Run a bulk transfer over `emulation`; `watch` is told the fraction done and may stop it (Ctrl-C).
pub fn run_bulk(emulation: &Emulation, spec: &BulkSpec, watch: &mut Watch<'_>) -> Result<BulkOutcome> {
    if !(spec.warmup >= 0.0 && spec.warmup < spec.duration) {
        return Err(Error::invalid("warmup", spec.warmup, &format!("must be in [0, duration = {})", spec.duration)));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let connection = Arc::new(AtomicI32::new(-1));
    std::thread::scope(|scope| {
        let listener = std::thread::scope(|s| {
            s.spawn(|| {
                emulation.receiver().enter_this_thread()?;
                TcpListener::bind((RECEIVER_ADDR, PORT)).map_err(|e| Error::system("the receiver could not listen", e))
            })
            .join()
            .map_err(|_| Error::system("the receiver", "its thread panicked"))?
        })?;
        // The listening socket belongs to the receiver's namespace whichever thread uses it.
        let receiver = scope.spawn(|| receive(listener, &connection, &stop));
        let sender = scope.spawn(|| {
            emulation.sender().enter_this_thread()?;
            send(spec, &connection, &stop, || emulation.elapsed())
        });
        let started = Instant::now();
        let mut outcome = Ok(());
        while !sender.is_finished() {
            std::thread::sleep(SLICE);
            if emulation.failed() {
                break; // a link thread stopped on an error: finish() reports it
            }
            if let Err(e) = watch.look_now(|| started.elapsed().as_secs_f64() / spec.duration) {
                outcome = Err(e);
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
        let sent = sender.join().map_err(|_| Error::system("the sender", "its thread panicked"))?;
        receiver.join().map_err(|_| Error::system("the receiver", "its thread panicked"))??;
        outcome?;
        sent
    })
}
