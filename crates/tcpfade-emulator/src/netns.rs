//! Network namespaces that cannot outlive the emulator.
//!
//! A namespace is held by a child process (`sleep infinity`) that unshared it before exec and gets SIGKILL
//! when the thread that started it dies (PR_SET_PDEATHSIG). Nothing is named or mounted (no `ip netns add`), so
//! whatever ends the emulator (a return, an error, Ctrl-C, a crash, SIGKILL) ends its namespaces, their TUN
//! devices and addresses with them: the kernel removes a namespace once no process holds it. Commands run in
//! it through setns(2) on the holder's `/proc/PID/ns/net`.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use tcpfade_core::{Error, Result};

/// A network namespace of its own, with its loopback up.
#[derive(Debug)]
pub struct Namespace {
    holder: Child,
    handle: File,
}

/// Enter the network namespace of `fd` in the calling thread.
fn enter(fd: RawFd) -> io::Result<()> {
    // SAFETY: setns on a valid namespace descriptor affects only the calling thread.
    if unsafe { libc::setns(fd, libc::CLONE_NEWNET) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

impl Namespace {
    /// A new namespace, held by a child process of this thread.
    pub fn new() -> Result<Self> {
        let mut holder = Command::new("sleep");
        holder.arg("infinity").stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (prctl, unshare) between fork and exec.
        unsafe {
            holder.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) != 0
                    || libc::unshare(libc::CLONE_NEWNET) != 0
                {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let holder = holder.spawn().map_err(|e| match e.raw_os_error() {
            Some(libc::EPERM) => Error::system(
                "a network namespace could not be created",
                "the emulator needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN): run it as root",
            ),
            _ => Error::system("a network namespace could not be created", e),
        })?;
        let path = format!("/proc/{}/ns/net", holder.id());
        let mut namespace = Namespace { handle: File::open("/dev/null").expect("/dev/null opens"), holder };
        namespace.handle = File::open(&path).map_err(|e| Error::system(format!("{path} could not be opened"), e))?;
        namespace.ip(&["link", "set", "lo", "up"])?;
        Ok(namespace)
    }

    /// The holder's process id (`/proc/PID/ns/net` is the namespace).
    pub fn pid(&self) -> u32 {
        self.holder.id()
    }

    /// Move the calling thread into the namespace (for the sockets and TUN devices it then creates).
    pub fn enter_this_thread(&self) -> Result<()> {
        enter(self.handle.as_raw_fd()).map_err(|e| Error::system("the network namespace could not be entered", e))
    }

    /// `program` set to run inside the namespace.
    pub fn command(&self, program: &str) -> Command {
        let fd = self.handle.as_raw_fd();
        let mut command = Command::new(program);
        // SAFETY: setns is async-signal-safe; the descriptor stays open in the child until exec.
        unsafe {
            command.pre_exec(move || enter(fd));
        }
        command
    }

    /// Run `ip ARGS` inside the namespace; its error message if it fails.
    pub fn ip(&self, args: &[&str]) -> Result<()> {
        let out = self.command("ip").args(args).stdin(Stdio::null()).output().map_err(|e| {
            Error::system("`ip` (iproute2) could not be run", format!("{e}; install iproute2"))
        })?;
        if !out.status.success() {
            return Err(Error::system(
                format!("`ip {}` failed in the emulator's namespace", args.join(" ")),
                String::from_utf8_lossy(&out.stderr).trim(),
            ));
        }
        Ok(())
    }

    /// Set a `net.*` sysctl of this namespace (`key` as a path under /proc/sys, e.g. "net/ipv4/tcp_sack").
    pub fn sysctl(&self, key: &str, value: &str) -> Result<()> {
        let path = format!("/proc/sys/{key}");
        std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    self.enter_this_thread()?;
                    std::fs::write(&path, value).map_err(|e| Error::system(format!("{path} could not be set"), e))
                })
                .join()
                .map_err(|_| Error::system("setting a sysctl", "its thread panicked"))?
        })
    }

    /// Read a `net.*` sysctl of this namespace.
    pub fn read_sysctl(&self, key: &str) -> Result<String> {
        let path = format!("/proc/sys/{key}");
        std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    self.enter_this_thread()?;
                    std::fs::read_to_string(&path)
                        .map(|s| s.trim().to_string())
                        .map_err(|e| Error::system(format!("{path} could not be read"), e))
                })
                .join()
                .map_err(|_| Error::system("reading a sysctl", "its thread panicked"))?
        })
    }
}

impl Drop for Namespace {
    fn drop(&mut self) {
        // The holder is the namespace's last process once the emulator's own programs are gone.
        let _ = self.holder.kill();
        let _ = self.holder.wait();
    }
}
