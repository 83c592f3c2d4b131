//! The link emulator of `tcpfade._core` (see tcpfade_emulator): a kernel TCP bulk transfer, or a user's program,
//! over the emulated fading link. Runs without the GIL; Ctrl-C stops it and tears everything down.

use crate::channels::link_spec_from_dict;
use crate::errors::run_watched;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::os::unix::process::CommandExt;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use tcpfade_core::watch::Watch;
use tcpfade_core::{Error, Result};
use tcpfade_emulator::{
    run_bulk, BulkSpec, Decision, Emulation, EmulatorConfig, LinkSpec, Logs, TcpInfo, Timing, RECEIVER_ADDR,
    SENDER_ADDR,
};

/// After the program ends, how long the links must have been empty and quiet before the server is stopped [s].
const QUIET: f64 = 0.3;
/// The longest that wait lasts.
const DRAIN_LIMIT: Duration = Duration::from_secs(30);

/// (rate_bps, delay, buffer, channel spec, seed) of one direction.
type Direction<'py> = (f64, f64, u64, Bound<'py, PyDict>, u64);

fn link_spec(d: Direction<'_>) -> PyResult<LinkSpec> {
    let (rate_bps, delay, buffer, channel, seed) = d;
    Ok(LinkSpec { rate_bps, delay, buffer, channel: link_spec_from_dict(&channel)?, seed })
}

/// (mtu, sack, timestamps, further sysctls as (path under /proc/sys, value)) of both namespaces.
type Stack = (u32, bool, bool, Vec<(String, String)>);

fn config(forward: Direction<'_>, reverse: Direction<'_>, stack: Stack) -> PyResult<EmulatorConfig> {
    let (mtu, sack, timestamps, sysctls) = stack;
    Ok(EmulatorConfig { forward: link_spec(forward)?, reverse: link_spec(reverse)?, mtu, sack, timestamps, sysctls })
}

/// The run's own error first; a link thread's error (what made the run stop) before a plain "stopped".
fn settle<T>(outcome: Result<T>, logs: Result<Logs>) -> Result<(T, Logs)> {
    match (outcome, logs) {
        (Ok(value), Ok(logs)) => Ok((value, logs)),
        (Err(Error::Stopped), Err(link)) => Err(link),
        (Err(e), _) | (Ok(_), Err(e)) => Err(e),
    }
}

fn info_dict<'py>(py: Python<'py>, info: &TcpInfo) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("retransmissions", info.retransmissions)?;
    d.set_item("timeouts", info.timeouts)?;
    d.set_item("rtt", info.rtt)?;
    d.set_item("rttvar", info.rttvar)?;
    d.set_item("min_rtt", info.min_rtt)?;
    d.set_item("rto", info.rto)?;
    d.set_item("mss", info.mss)?;
    d.set_item("cwnd", info.cwnd)?;
    d.set_item("bytes_sent", info.bytes_sent)?;
    d.set_item("bytes_retransmitted", info.bytes_retransmitted)?;
    d.set_item("sack", info.sack)?;
    d.set_item("timestamps", info.timestamps)?;
    Ok(d)
}

fn log_dict<'py>(py: Python<'py>, log: &[Decision], timing: &Timing) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("time", log.iter().map(|x| x.time).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("bytes", log.iter().map(|x| x.bytes).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("fate", log.iter().map(|x| x.fate as u8).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("queue", log.iter().map(|x| x.queue).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("departed", log.iter().map(|x| x.departed).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("new_bytes", log.iter().map(|x| x.new_bytes).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("lateness", timing.lateness.clone().into_pyarray(py))?;
    d.set_item("cpu_seconds", timing.cpu_seconds)?;
    Ok(d)
}

fn logs_into<'py>(py: Python<'py>, out: &Bound<'py, PyDict>, logs: &Logs) -> PyResult<()> {
    out.set_item("forward", log_dict(py, &logs.forward, &logs.forward_timing)?)?;
    out.set_item("reverse", log_dict(py, &logs.reverse, &logs.reverse_timing)?)?;
    Ok(())
}

/// A kernel TCP bulk transfer with congestion control `congestion` for `duration` seconds (the first `warmup`
/// unmeasured) over the emulated link. Returns {"received_bytes", "measured", "measured_from", "measured_to" (on
/// the logs' clock), "at_warmup", "at_end" (the sender's TCP_INFO), "forward", "reverse" (each link's log: time,
/// bytes, fate 0 delivered / 1 lost / 2 dropped, queue, departed, new_bytes, and the lateness of each delivery)}.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn emulate_bulk<'py>(
    py: Python<'py>,
    forward: Direction<'py>,
    reverse: Direction<'py>,
    stack: Stack,
    congestion: String,
    duration: f64,
    warmup: f64,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let cfg = config(forward, reverse, stack)?;
    let spec = BulkSpec { congestion, duration, warmup };
    let (bulk, logs) = run_watched(py, progress, |watch| {
        let emulation = Emulation::start(&cfg)?;
        let outcome = run_bulk(&emulation, &spec, watch);
        settle(outcome, emulation.finish())
    })?;
    let out = PyDict::new(py);
    out.set_item("received_bytes", bulk.received_bytes)?;
    out.set_item("measured", bulk.measured)?;
    out.set_item("measured_from", bulk.measured_from)?;
    out.set_item("measured_to", bulk.measured_to)?;
    out.set_item("at_warmup", info_dict(py, &bulk.at_warmup)?)?;
    out.set_item("at_end", info_dict(py, &bulk.at_end)?)?;
    logs_into(py, &out, &logs)?;
    Ok(out)
}

/// Start `argv` in `namespace`'s network, in a process group of its own (so that it and its children can be
/// stopped together), with the two addresses in its environment.
fn spawn(emulation: &Emulation, in_sender: bool, argv: &[String]) -> Result<Child> {
    let namespace = if in_sender { emulation.sender() } else { emulation.receiver() };
    let mut command = namespace.command(&argv[0]);
    command
        .args(&argv[1..])
        .env("TCPFADE_SENDER", SENDER_ADDR)
        .env("TCPFADE_RECEIVER", RECEIVER_ADDR)
        .process_group(0);
    if !in_sender {
        command.stdin(Stdio::null());
    }
    command.spawn().map_err(|e| Error::system(format!("{:?} could not be started", argv[0]), e))
}

/// Stop a program's whole process group: SIGTERM, then SIGKILL after a grace period.
fn stop(child: &mut Child) {
    let group = -(child.id() as i32);
    // SAFETY: kill(2) on a process group we created.
    unsafe { libc::kill(group, libc::SIGTERM) };
    let deadline = Instant::now() + Duration::from_secs(1);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            // Its children may linger in the group; they go too.
            unsafe { libc::kill(group, libc::SIGKILL) };
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    unsafe { libc::kill(group, libc::SIGKILL) };
    let _ = child.wait();
}

fn run_command(
    emulation: &Emulation,
    argv: &[String],
    server: Option<&[String]>,
    watch: &mut Watch<'_>,
) -> Result<i32> {
    let mut server = match server {
        Some(s) => {
            let child = spawn(emulation, false, s)?;
            std::thread::sleep(Duration::from_millis(200)); // let it listen before the client starts
            Some(child)
        }
        None => None,
    };
    let mut client = match spawn(emulation, true, argv) {
        Ok(c) => c,
        Err(e) => {
            if let Some(s) = server.as_mut() {
                stop(s);
            }
            return Err(e);
        }
    };
    let outcome = loop {
        match client.try_wait() {
            Ok(Some(status)) => break Ok(status.code().unwrap_or(-1)),
            Ok(None) => {}
            Err(e) => break Err(Error::system("waiting for the program", e)),
        }
        if emulation.failed() {
            break Err(Error::Stopped);
        }
        if let Err(e) = watch.look_now(|| 0.0) {
            break Err(e);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    stop(&mut client);
    if let Some(s) = server.as_mut() {
        // What the program sent last may still be on its way to the server: let the links drain (both empty and
        // quiet for QUIET s), or the server end by itself, before stopping it.
        let deadline = Instant::now() + DRAIN_LIMIT;
        while outcome.is_ok() && Instant::now() < deadline && emulation.quiet_for() < QUIET {
            if matches!(s.try_wait(), Ok(Some(_))) || watch.look_now(|| 1.0).is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        stop(s);
    }
    outcome
}

/// Run the program `argv` in the sender's namespace (and `server` in the receiver's) over the emulated link
/// until it exits. Returns {"returncode", "seconds", "forward", "reverse"}.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (forward, reverse, stack, argv, server=None))]
fn emulate_command<'py>(
    py: Python<'py>,
    forward: Direction<'py>,
    reverse: Direction<'py>,
    stack: Stack,
    argv: Vec<String>,
    server: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyDict>> {
    let cfg = config(forward, reverse, stack)?;
    if argv.is_empty() {
        return Err(crate::errors::to_py(Error::invalid("command", "nothing", "give the program to run after --")));
    }
    let ((code, seconds), logs) = run_watched(py, None, |watch| {
        let emulation = Emulation::start(&cfg)?;
        let outcome = run_command(&emulation, &argv, server.as_deref(), watch).map(|c| (c, emulation.elapsed()));
        settle(outcome, emulation.finish())
    })?;
    let out = PyDict::new(py);
    out.set_item("returncode", code)?;
    out.set_item("seconds", seconds)?;
    logs_into(py, &out, &logs)?;
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(emulate_bulk, m)?)?;
    m.add_function(wrap_pyfunction!(emulate_command, m)?)?;
    m.add("SENDER_ADDR", SENDER_ADDR)?;
    m.add("RECEIVER_ADDR", RECEIVER_ADDR)?;
    Ok(())
}
