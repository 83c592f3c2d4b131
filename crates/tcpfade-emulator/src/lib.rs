//! A fading-link emulator for the kernel's own TCP (and any program): two network namespaces, a sender and a
//! receiver, joined through TUN devices by a user-space link in each direction ([`link`]) whose losses come
//! from tcpfade's channels (the one `LinkChannel` interface of the simulator's link driver).
//!
//! ```text
//!  sender namespace                 this process                    receiver namespace
//!  10.77.0.1  tfade0  ──► forward link: DropTail B, rate, channel, delay ──►  tfade0  10.77.0.2
//!                     ◄── reverse link: (ACK path; a channel is optional) ◄──
//! ```
//!
//! No packet goes through Python. Nothing is created outside the two namespaces, which live only as long as the
//! process that made them ([`netns`]). It needs root, `/dev/net/tun` and network namespaces, and says which is
//! missing when it cannot run.

pub mod bulk;
pub mod link;
pub mod netns;
pub mod segments;
pub mod tun;

pub use bulk::{run_bulk, BulkOutcome, BulkSpec, TcpInfo};
pub use link::{Activity, Decision, Fate, LinkSpec, Timing};
pub use netns::Namespace;
pub use tun::Tun;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
use tcpfade_core::{Error, Result};

/// The sender's address, inside its namespace.
pub const SENDER_ADDR: &str = "10.77.0.1";
/// The receiver's address, inside its namespace.
pub const RECEIVER_ADDR: &str = "10.77.0.2";
/// The TUN device's name in each namespace.
const DEVICE: &str = "tfade0";

/// What to emulate.
#[derive(Debug, Clone, PartialEq)]
pub struct EmulatorConfig {
    /// Sender to receiver (the data path).
    pub forward: LinkSpec,
    /// Receiver to sender (the ACK path).
    pub reverse: LinkSpec,
    /// MTU of both devices \[bytes\]: the largest IP packet, so a full TCP segment is MTU − 40 − options bytes.
    pub mtu: u32,
    /// net.ipv4.tcp_sack in both namespaces.
    pub sack: bool,
    /// net.ipv4.tcp_timestamps in both namespaces.
    pub timestamps: bool,
    /// Further `net.*` sysctls of both namespaces, as (path under /proc/sys, value): "net/ipv4/tcp_frto", "0".
    pub sysctls: Vec<(String, String)>,
}

/// Every decision of both links, and how late their writes were.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Logs {
    /// The forward link's decisions.
    pub forward: Vec<Decision>,
    /// The reverse link's decisions.
    pub reverse: Vec<Decision>,
    /// The forward link's write lateness.
    pub forward_timing: Timing,
    /// The reverse link's write lateness.
    pub reverse_timing: Timing,
}

type LinkThread = JoinHandle<Result<(Vec<Decision>, Timing)>>;

/// A running emulation: the namespaces, their devices and the two link threads.
pub struct Emulation {
    sender: Namespace,
    receiver: Namespace,
    stop: Arc<AtomicBool>,
    threads: Vec<LinkThread>,
    activity: [Arc<Activity>; 2],
    epoch: Instant,
}

/// Refuse at once on a machine that cannot run the emulator, saying what is missing.
pub fn check_machine() -> Result<()> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Err(Error::system(
            "the link emulator cannot run",
            "it needs root (network namespaces and TUN devices): run it as root",
        ));
    }
    if !std::path::Path::new("/dev/net/tun").exists() {
        return Err(Error::system("the link emulator cannot run", "this machine has no /dev/net/tun (modprobe tun)"));
    }
    if !std::path::Path::new("/proc/self/ns/net").exists() {
        return Err(Error::system("the link emulator cannot run", "this kernel has no network namespaces"));
    }
    Ok(())
}

impl Emulation {
    /// Set up the namespaces and devices and start both links.
    pub fn start(config: &EmulatorConfig) -> Result<Self> {
        check_machine()?;
        let sender = Namespace::new()?;
        let receiver = Namespace::new()?;
        for ns in [&sender, &receiver] {
            ns.sysctl("net/ipv4/tcp_sack", if config.sack { "1" } else { "0" })?;
            ns.sysctl("net/ipv4/tcp_timestamps", if config.timestamps { "1" } else { "0" })?;
            // Each run starts from the kernel's defaults, not from metrics cached by an earlier connection.
            ns.sysctl("net/ipv4/tcp_no_metrics_save", "1")?;
            for (key, value) in &config.sysctls {
                if !key.starts_with("net/") || key.contains("..") {
                    return Err(Error::invalid("sysctls", format!("'{key}'"), "must be a network setting (net.*)"));
                }
                if !std::path::Path::new("/proc/sys").join(key).exists() {
                    let name = key.replace('/', ".");
                    return Err(Error::invalid("sysctls", format!("'{name}'"), "is not a setting of this kernel"));
                }
                ns.sysctl(key, value)?;
            }
            // IPv4 only: no IPv6 autoconfiguration or MLD packets on the links (a kernel without IPv6 has no key).
            for key in ["net/ipv6/conf/all/disable_ipv6", "net/ipv6/conf/default/disable_ipv6"] {
                if std::path::Path::new("/proc/sys").join(key).exists() {
                    ns.sysctl(key, "1")?;
                }
            }
        }
        let to_receiver = Arc::new(Tun::create(&sender, DEVICE, SENDER_ADDR, RECEIVER_ADDR, config.mtu)?);
        let to_sender = Arc::new(Tun::create(&receiver, DEVICE, RECEIVER_ADDR, SENDER_ADDR, config.mtu)?);
        let stop = Arc::new(AtomicBool::new(false));
        let epoch = Instant::now();
        let activity = [Arc::new(Activity::default()), Arc::new(Activity::default())];
        let spawn = |spec: &LinkSpec, from: &Arc<Tun>, to: &Arc<Tun>, activity: &Arc<Activity>| -> LinkThread {
            let (spec, from, to) = (spec.clone(), from.clone(), to.clone());
            let (stop, activity) = (stop.clone(), activity.clone());
            std::thread::spawn(move || link::run_link(&spec, from.file(), to.file(), epoch, &stop, &activity))
        };
        let threads = vec![
            spawn(&config.forward, &to_receiver, &to_sender, &activity[0]),
            spawn(&config.reverse, &to_sender, &to_receiver, &activity[1]),
        ];
        Ok(Emulation { sender, receiver, stop, threads, activity, epoch })
    }

    /// The sender's namespace.
    pub fn sender(&self) -> &Namespace {
        &self.sender
    }

    /// The receiver's namespace.
    pub fn receiver(&self) -> &Namespace {
        &self.receiver
    }

    /// Seconds since the links started (the time of the logs and of time-clocked channels).
    pub fn elapsed(&self) -> f64 {
        self.epoch.elapsed().as_secs_f64()
    }

    /// Seconds both links have been empty and have seen no packet (0 while either holds one).
    pub fn quiet_for(&self) -> f64 {
        if self.activity.iter().any(|a| a.holding.load(Ordering::Relaxed) > 0) {
            return 0.0;
        }
        let last = self.activity.iter().map(|a| a.last.load(Ordering::Relaxed)).max().unwrap_or(0);
        (self.epoch.elapsed().as_nanos() as u64).saturating_sub(last) as f64 * 1e-9
    }

    /// Whether a link thread has stopped on an error (it is then reported by [`Emulation::finish`]).
    pub fn failed(&self) -> bool {
        self.threads.iter().any(|t| t.is_finished())
    }

    /// Stop both links and return their logs; the namespaces go when `self` does.
    pub fn finish(mut self) -> Result<Logs> {
        self.stop.store(true, Ordering::Relaxed);
        let mut parts = Vec::new();
        for thread in self.threads.drain(..) {
            parts.push(thread.join().map_err(|_| Error::system("the emulated link", "its thread panicked"))??);
        }
        let (reverse, reverse_timing) = parts.pop().expect("two links");
        let (forward, forward_timing) = parts.pop().expect("two links");
        Ok(Logs { forward, reverse, forward_timing, reverse_timing })
    }
}

impl Drop for Emulation {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}
