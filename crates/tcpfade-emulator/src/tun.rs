//! TUN devices: IP packets of a namespace's kernel read and written as whole packets by the emulator.

use crate::netns::Namespace;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use tcpfade_core::{Error, Result};

/// TUNSETIFF = _IOW('T', 202, int) (linux/if_tun.h).
const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
const IFF_TUN: libc::c_short = 0x0001;
const IFF_NO_PI: libc::c_short = 0x1000;

/// struct ifreq as TUNSETIFF reads it: the name, the flags, and the rest of the union.
#[repr(C)]
struct IfReq {
    name: [u8; libc::IFNAMSIZ],
    flags: libc::c_short,
    _pad: [u8; 22],
}

/// A TUN device (no packet-information header: each read or write is one IP packet).
#[derive(Debug)]
pub struct Tun {
    file: File,
    name: String,
}

impl Tun {
    /// Create the device `name` inside `namespace`, with `local` and `peer` as its point-to-point addresses and
    /// `mtu` bytes as its MTU, and bring it up. Nothing of it ever appears outside the namespace.
    pub fn create(namespace: &Namespace, name: &str, local: &str, peer: &str, mtu: u32) -> Result<Self> {
        let file = std::thread::scope(|scope| {
            scope
                .spawn(|| -> Result<File> {
                    namespace.enter_this_thread()?;
                    open(name)
                })
                .join()
                .map_err(|_| Error::system("creating a TUN device", "its thread panicked"))?
        })?;
        namespace.ip(&["addr", "add", local, "peer", peer, "dev", name])?;
        namespace.ip(&["link", "set", name, "mtu", &mtu.to_string(), "up"])?;
        Ok(Tun { file, name: name.to_string() })
    }

    /// The device's name (inside its namespace).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The device's file: read one packet, write one packet.
    pub fn file(&self) -> &File {
        &self.file
    }
}

fn open(name: &str) -> Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open("/dev/net/tun")
        .map_err(|e| {
            let fix = match e.kind() {
                io::ErrorKind::NotFound => "this machine has no /dev/net/tun: load the tun module (modprobe tun)",
                io::ErrorKind::PermissionDenied => "opening /dev/net/tun needs root",
                _ => "",
            };
            Error::system("/dev/net/tun could not be opened", format!("{e}; {fix}"))
        })?;
    let mut request = IfReq { name: [0; libc::IFNAMSIZ], flags: IFF_TUN | IFF_NO_PI, _pad: [0; 22] };
    request.name[..name.len()].copy_from_slice(name.as_bytes());
    // SAFETY: TUNSETIFF reads an ifreq, which `request` is, for the lifetime of the call.
    if unsafe { libc::ioctl(file.as_raw_fd(), TUNSETIFF as _, &mut request) } != 0 {
        return Err(Error::system(format!("the TUN device {name} could not be created"), io::Error::last_os_error()));
    }
    Ok(file)
}
