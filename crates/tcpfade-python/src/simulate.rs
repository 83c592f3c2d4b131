//! Simulation functions of `tcpfade._core`.

use crate::channels::spec_from_dict;
use crate::errors::run_watched;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tcpfade_core::driver::{run_slotted_watched, Counts, SlottedConfig};
use crate::args::{SenderArgs, SlottedArgs};
use tcpfade_core::tcp::Variant;

/// Names of the columns of the per-batch count matrix, in order.
const COUNT_FIELDS: [&str; 9] = [
    "slots", "transmissions", "retransmissions", "successes", "delivered", "timeouts", "fast_retransmits", "losses",
    "cwnd_at_loss_sum",
];

fn count_row(c: &Counts) -> Vec<f64> {
    vec![
        c.slots as f64,
        c.transmissions as f64,
        c.retransmissions as f64,
        c.successes as f64,
        c.delivered as f64,
        c.timeouts as f64,
        c.fast_retransmits as f64,
        c.losses as f64,
        c.cwnd_at_loss_sum,
    ]
}

/// Slotted TCP simulation. Returns {"fields", "totals", "batches", "trace"}. `progress`, if given, is called
/// with the fraction of the slots done about every 0.1 s; an exception from it (or Ctrl-C) stops the run.
/// `args` holds `simulation_arguments`' result, read by field name ([`SenderArgs`], [`SlottedArgs`]).
#[pyfunction]
fn simulate_slotted<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyDict>,
    args: Bound<'py, PyDict>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = spec_from_dict(spec)?;
    let sender: SenderArgs = args.extract()?;
    let SlottedArgs { rto_slots, slots, ack_loss, ack_delay_slots: ack_delay, batches, trace_slots, seed } = args.extract()?;
    let outcome = run_watched(py, progress, |watch| {
        let cfg = SlottedConfig { sender: sender.window(rto_slots as f64)?, slots, ack_loss, ack_delay, batches, trace_slots };
        cfg.validate()?;
        let mut channel = spec.build(seed)?;
        run_slotted_watched(&cfg, channel.as_mut(), seed, watch)
    })?;
    let out = PyDict::new(py);
    out.set_item("fields", COUNT_FIELDS.to_vec())?;
    out.set_item("totals", count_row(&outcome.totals))?;
    let rows: Vec<Vec<f64>> = outcome.batches.iter().map(count_row).collect();
    out.set_item("batches", PyArray2::from_vec2(py, &rows).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?)?;
    if !outcome.trace.is_empty() {
        let t = &outcome.trace;
        let trace = PyDict::new(py);
        trace.set_item("slot", t.iter().map(|r| r.slot).collect::<Vec<_>>().into_pyarray(py))?;
        trace.set_item("seq", t.iter().map(|r| r.seq.map_or(-1, |s| s as i64)).collect::<Vec<_>>().into_pyarray(py))?;
        trace.set_item("retransmission", t.iter().map(|r| r.retransmission).collect::<Vec<_>>().into_pyarray(py))?;
        trace.set_item("lost", t.iter().map(|r| r.lost).collect::<Vec<_>>().into_pyarray(py))?;
        trace.set_item("cwnd", t.iter().map(|r| r.cwnd).collect::<Vec<_>>().into_pyarray(py))?;
        trace.set_item("ssthresh", t.iter().map(|r| r.ssthresh).collect::<Vec<_>>().into_pyarray(py))?;
        trace.set_item("una", t.iter().map(|r| r.una).collect::<Vec<_>>().into_pyarray(py))?;
        trace.set_item("channel_state", t.iter().map(|r| r.channel_state).collect::<Vec<_>>().into_pyarray(py))?;
        out.set_item("trace", trace)?;
    } else {
        out.set_item("trace", py.None())?;
    }
    Ok(out)
}

/// The TCP variant names of the registry.
#[pyfunction]
fn variant_names() -> Vec<&'static str> {
    Variant::NAMES.to_vec()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_slotted, m)?)?;
    m.add_function(wrap_pyfunction!(variant_names, m)?)?;
    Ok(())
}
