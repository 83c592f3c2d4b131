//! The event-driven link simulation of `tcpfade._core` (see tcpfade_core::driver::link).

use crate::errors::run_watched;
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use crate::channels::link_spec_from_dict;
use tcpfade_core::channel::{ContinuousTwoState, LinkChannelSpec};
use tcpfade_core::driver::{run_link_traced, LinkConfig, LinkCounts, PerfectChannel, WindowRow, WindowTrace};
use crate::args::{LinkArgs, SenderArgs, TimerArgs};

/// Names of the columns of the per-batch count matrix, in order.
pub(crate) const LINK_FIELDS: [&str; 16] = [
    "time",
    "delivered",
    "sent",
    "received",
    "channel_losses",
    "buffer_losses",
    "timeouts",
    "fast_retransmits",
    "rtt_samples",
    "rtt_sum",
    "busy",
    "retransmissions",
    "new_received",
    "acks",
    "timer_acks",
    "spurious_timeouts",
];

pub(crate) fn link_row(c: &LinkCounts) -> Vec<f64> {
    vec![
        c.time,
        c.delivered as f64,
        c.sent as f64,
        c.received as f64,
        c.channel_losses as f64,
        c.buffer_losses as f64,
        c.timeouts as f64,
        c.fast_retransmits as f64,
        c.rtt_samples as f64,
        c.rtt_sum,
        c.busy,
        c.retransmissions as f64,
        c.new_received as f64,
        c.acks as f64,
        c.timer_acks as f64,
        c.spurious_timeouts as f64,
    ]
}

/// TCP over a link with a buffer. `args` holds `link_arguments`' result (read by field name: [`SenderArgs`],
/// [`TimerArgs`], [`LinkArgs`]); `channel` a link channel spec (see `channels::link_spec_from_dict`). Returns
/// {"fields", "totals", "batches", "final_cwnd", "visits_by_window" (rows: window W' = 1, 2, ...; columns: no loss,
/// TD, TO), "effective_bad_sum", "effective_bad_count", "rto_sum", "backoff_sum"} (the last four per outcome).
/// `progress`, if given, is called with the fraction of the simulated time done about every 0.1 s; an exception
/// from it (or Ctrl-C) stops the run. `trace`, if given as (seconds, rows), adds "trace": the sender's window over
/// the first seconds, at most rows rows ([`WindowTrace`]: a dict of columns time, cwnd, ssthresh, una, high, pipe (−1 without SACK),
/// in_recovery, rto, timeouts, fast_retransmits), and "trace_truncated".
#[pyfunction]
#[pyo3(signature = (args, channel, progress, trace=None))]
fn simulate_link<'py>(
    py: Python<'py>,
    args: Bound<'py, PyDict>,
    channel: Bound<'py, PyDict>,
    progress: Option<Py<PyAny>>,
    trace: Option<(f64, usize)>,
) -> PyResult<Bound<'py, PyDict>> {
    let sender: SenderArgs = args.extract()?;
    let timer: TimerArgs = args.extract()?;
    let LinkArgs { rate, tau, buffer, duration, warmup, batches, delayed_ack, delayed_ack_rule, rwnd_rule, rwnd_mss, receive_buffer, seed } =
        args.extract()?;
    let channel = link_spec_from_dict(&channel)?;
    let trace = trace.map(|(seconds, rows)| WindowTrace::new(seconds, rows));
    let (outcome, trace) = run_watched(py, progress, |watch| {
        let sender = sender.config_with_acks(&timer, &delayed_ack_rule, &rwnd_rule, rwnd_mss, receive_buffer)?;
        let cfg = LinkConfig { sender, rate, tau, buffer, duration, warmup, batches, delayed_ack };
        match &channel {
            // The channels of abouzeid's figures run without the box's indirect call.
            LinkChannelSpec::Perfect => run_link_traced(&cfg, PerfectChannel, trace, watch),
            LinkChannelSpec::Continuous { mean_good, mean_bad, rule, packet_clock: false } => {
                run_link_traced(&cfg, ContinuousTwoState::new(*mean_good, *mean_bad, *rule, seed)?, trace, watch)
            }
            other => run_link_traced(&cfg, other.build(seed)?, trace, watch),
        }
    })?;
    let out = PyDict::new(py);
    out.set_item("fields", LINK_FIELDS.to_vec())?;
    out.set_item("totals", link_row(&outcome.totals))?;
    let rows: Vec<Vec<f64>> = outcome.batches.iter().map(link_row).collect();
    let rows = PyArray2::from_vec2(py, &rows).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    out.set_item("batches", rows)?;
    out.set_item("final_cwnd", outcome.final_cwnd)?;
    let visits: Vec<Vec<f64>> =
        outcome.visits.by_window.iter().map(|row| row.iter().map(|&c| c as f64).collect()).collect();
    out.set_item("visits_by_window", visits)?;
    out.set_item("effective_bad_sum", outcome.visits.effective_bad_sum.to_vec())?;
    out.set_item("effective_bad_count", outcome.visits.effective_bad_count.to_vec())?;
    out.set_item("rto_sum", outcome.visits.rto_sum.to_vec())?;
    out.set_item("backoff_sum", outcome.visits.backoff_sum.to_vec())?;
    if let Some(trace) = trace {
        out.set_item("trace", trace_columns(py, &trace)?)?;
        out.set_item("trace_truncated", trace.truncated())?;
    }
    Ok(out)
}

/// A window trace's rows as a dict of columns: time, cwnd, ssthresh, una, high, pipe (−1 without SACK), rwnd,
/// in_recovery, rto, timeouts, fast_retransmits (Python makes the DataFrame).
pub(crate) fn trace_columns<'py>(py: Python<'py>, trace: &WindowTrace) -> PyResult<Bound<'py, PyDict>> {
    let rows = trace.rows();
    let floats = |f: fn(&WindowRow) -> f64| rows.iter().map(f).collect::<Vec<f64>>();
    let counts = |f: fn(&WindowRow) -> u64| rows.iter().map(f).collect::<Vec<u64>>();
    let columns = PyDict::new(py);
    columns.set_item("time", floats(|r| r.time))?;
    columns.set_item("cwnd", floats(|r| r.cwnd))?;
    columns.set_item("ssthresh", floats(|r| r.ssthresh))?;
    columns.set_item("una", counts(|r| r.una))?;
    columns.set_item("high", counts(|r| r.high))?;
    columns.set_item("pipe", rows.iter().map(|r| r.pipe.map_or(-1, |p| p as i64)).collect::<Vec<i64>>())?;
    columns.set_item("rwnd", counts(|r| r.rwnd))?;
    columns.set_item("in_recovery", rows.iter().map(|r| r.in_recovery).collect::<Vec<bool>>())?;
    columns.set_item("rto", floats(|r| r.rto))?;
    columns.set_item("timeouts", counts(|r| r.timeouts))?;
    columns.set_item("fast_retransmits", counts(|r| r.fast_retransmits))?;
    Ok(columns)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_link, m)?)?;
    Ok(())
}
