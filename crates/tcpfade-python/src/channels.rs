//! Channel functions of `tcpfade._core`.

use crate::errors::{run, run_watched};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;
use tcpfade_core::channel::continuous::{ContinuousLossRule, ContinuousTwoState};
use tcpfade_core::channel::fading_errors::{bit_level_error_rate_batches, Modulation};
use tcpfade_core::channel::trace::{parse_binary, parse_text};
use tcpfade_core::channel::{FadingModel, FadingSpec, LinkChannelSpec, SlotChannelSpec};
use tcpfade_core::metrics::TraceStats;
use tcpfade_core::Error;

/// A one-dimensional NumPy array handed to Python.
type Array<'py, T> = Bound<'py, PyArray1<T>>;

fn get<'py, T: FromPyObject<'py>>(spec: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match spec.get_item(key)? {
        Some(value) => value.extract(),
        None => Err(crate::errors::to_py(Error::invalid(key, "missing", "is required for this channel"))),
    }
}

fn fading_from_dict(spec: &Bound<'_, PyDict>) -> PyResult<FadingSpec> {
    let model: String = get(spec, "fading_model")?;
    fading_spec(&model, get(spec, "fdt")?, get(spec, "oscillators")?)
}

/// Build a core channel spec from the dict made by a Python channel's `_spec()`.
pub fn spec_from_dict(spec: &Bound<'_, PyDict>) -> PyResult<SlotChannelSpec> {
    let kind: String = get(spec, "kind")?;
    Ok(match kind.as_str() {
        "bernoulli" => SlotChannelSpec::Bernoulli { error_rate: get(spec, "error_rate")? },
        "gilbert-elliott" => SlotChannelSpec::GilbertElliott {
            p: get(spec, "p")?,
            q: get(spec, "q")?,
            loss_good: get(spec, "loss_good")?,
            loss_bad: get(spec, "loss_bad")?,
        },
        "threshold" => {
            SlotChannelSpec::Threshold { fading: fading_from_dict(spec)?, fading_margin: get(spec, "fading_margin")? }
        }
        "bit-level" => {
            let name: String = get(spec, "modulation")?;
            SlotChannelSpec::BitLevel {
                fading: fading_from_dict(spec)?,
                snr: get(spec, "snr")?,
                packet_bits: get(spec, "packet_bits")?,
                modulation: Modulation::from_name(&name).map_err(crate::errors::to_py)?,
                samples_per_packet: get(spec, "samples_per_packet")?,
            }
        }
        "trace" => {
            let losses: PyReadonlyArray1<'_, u8> = get(spec, "losses")?;
            SlotChannelSpec::Trace { losses: Arc::from(losses.as_slice()?), wrap: get(spec, "wrap")? }
        }
        other => {
            return Err(crate::errors::to_py(Error::invalid(
                "kind",
                other,
                "must be one of bernoulli, gilbert-elliott, threshold, bit-level, trace",
            )))
        }
    })
}

/// Build a link channel spec (tcpfade_core::channel::clocked) from the dict made by
/// `tcpfade.tcp.link.link_channel_spec`: {"kind": "perfect" | "continuous" | "per-packet" | "timed" | "blocks",
/// ...}; "per-packet" and "timed" carry a slot channel's `_spec()` as "slot" ("timed": its fdt is fD in Hz).
pub fn link_spec_from_dict(spec: &Bound<'_, PyDict>) -> PyResult<LinkChannelSpec> {
    let kind: String = get(spec, "kind")?;
    let to_py = crate::errors::to_py;
    Ok(match kind.as_str() {
        "perfect" => LinkChannelSpec::Perfect,
        "continuous" => {
            let rule: String = get(spec, "loss_rule")?;
            LinkChannelSpec::Continuous {
                mean_good: get(spec, "mean_good")?,
                mean_bad: get(spec, "mean_bad")?,
                rule: loss_rule(&rule, get(spec, "loss_good")?, get(spec, "loss_bad")?).map_err(to_py)?,
                packet_clock: get(spec, "packet_clock")?,
            }
        }
        "per-packet" => LinkChannelSpec::PerPacket(spec_from_dict(&get(spec, "slot")?)?),
        "timed" => LinkChannelSpec::Timed(spec_from_dict(&get(spec, "slot")?)?),
        "blocks" => {
            let errors: PyReadonlyArray1<'_, u8> = get(spec, "errors")?;
            LinkChannelSpec::Blocks {
                errors: Arc::from(errors.as_slice()?),
                interval: get(spec, "interval")?,
                wrap: get(spec, "wrap")?,
            }
        }
        other => {
            return Err(to_py(Error::invalid(
                "kind",
                other,
                "must be one of perfect, continuous, per-packet, timed, blocks",
            )))
        }
    })
}

/// Loss sequence (and optionally the state sequence) of `slots` slots of a channel (Ctrl-C stops it).
#[pyfunction]
#[pyo3(signature = (spec, slots, seed, with_states=false))]
fn slot_trace<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyDict>,
    slots: u64,
    seed: u64,
    with_states: bool,
) -> PyResult<(Array<'py, u8>, Option<Array<'py, u8>>)> {
    let spec = spec_from_dict(spec)?;
    let (losses, states) = run_watched(py, None, |watch| {
        let mut channel = spec.build(seed)?;
        let n = usize::try_from(slots).map_err(|_| Error::invalid("slots", slots, "too large for memory"))?;
        let mut losses = Vec::with_capacity(n);
        let mut states = if with_states { Vec::with_capacity(n) } else { Vec::new() };
        for i in 0..n {
            watch.tick(|| i as f64 / n as f64)?;
            losses.push(u8::from(channel.next_slot()?));
            if with_states {
                states.push(channel.state());
            }
        }
        Ok((losses, states))
    })?;
    Ok((losses.into_pyarray(py), with_states.then(|| states.into_pyarray(py))))
}

/// Statistics of a 0/1 loss trace as a dict.
#[pyfunction]
fn trace_stats<'py>(py: Python<'py>, losses: PyReadonlyArray1<'py, u8>) -> PyResult<Bound<'py, PyDict>> {
    let data = losses.as_slice()?;
    let stats = run(py, || Ok(TraceStats::from_losses(data)))?;
    let out = PyDict::new(py);
    out.set_item("slots", stats.slots)?;
    out.set_item("losses", stats.losses)?;
    out.set_item("transitions", stats.transitions.map(|row| row.to_vec()).to_vec())?;
    out.set_item("burst_lengths", stats.burst_lengths)?;
    out.set_item("gap_lengths", stats.gap_lengths)?;
    Ok(out)
}

/// Parse a text trace into a uint8 array.
#[pyfunction]
fn parse_trace_text<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyArray1<u8>>> {
    Ok(run(py, || parse_text(text))?.into_pyarray(py))
}

/// Parse a binary trace (one byte per slot) into a uint8 array.
#[pyfunction]
fn parse_trace_binary<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyArray1<u8>>> {
    Ok(run(py, || parse_binary(data))?.into_pyarray(py))
}

fn fading_spec(model: &str, fdt: f64, oscillators: u64) -> PyResult<FadingSpec> {
    Ok(FadingSpec { model: FadingModel::from_name(model).map_err(crate::errors::to_py)?, fdt, oscillators })
}

/// Complex gain of a fading simulator: (real parts, imaginary parts) (Ctrl-C stops it).
#[pyfunction]
fn fading_gain<'py>(
    py: Python<'py>,
    fading_model: &str,
    fdt: f64,
    oscillators: u64,
    samples: u64,
    samples_per_packet: u64,
    seed: u64,
) -> PyResult<(Array<'py, f64>, Array<'py, f64>)> {
    let spec = fading_spec(fading_model, fdt, oscillators)?;
    let (re, im) = run_watched(py, None, |watch| {
        let mut fading = spec.build(samples_per_packet, seed)?;
        let n = samples as usize;
        let (mut re, mut im) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for i in 0..n {
            watch.tick(|| i as f64 / n as f64)?;
            let (a, b) = fading.next_gain();
            re.push(a);
            im.push(b);
        }
        Ok((re, im))
    })?;
    Ok((re.into_pyarray(py), im.into_pyarray(py)))
}

/// Batch means of the bit-level average packet error rate, one row per SNR. `progress`, if given, is called
/// with the fraction of the packets done about every 0.1 s; an exception from it (or Ctrl-C) stops the run.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn bit_level_error_rates<'py>(
    py: Python<'py>,
    fading_model: &str,
    fdt: f64,
    oscillators: u64,
    snrs: Vec<f64>,
    packet_bits: u64,
    modulation: &str,
    samples_per_packet: u64,
    packets: u64,
    batches: u64,
    seed: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let modulation = Modulation::from_name(modulation).map_err(crate::errors::to_py)?;
    let fading = fading_spec(fading_model, fdt, oscillators)?;
    let rows = run_watched(py, progress, |watch| {
        bit_level_error_rate_batches(
            fading,
            &snrs,
            packet_bits,
            modulation,
            samples_per_packet,
            packets,
            batches,
            seed,
            watch,
        )
    })?;
    PyArray2::from_vec2(py, &rows).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
}

fn continuous_channel(
    mean_good: f64,
    mean_bad: f64,
    rule: &str,
    loss_good: f64,
    loss_bad: f64,
    seed: u64,
) -> Result<ContinuousTwoState, Error> {
    ContinuousTwoState::new(mean_good, mean_bad, loss_rule(rule, loss_good, loss_bad)?, seed)
}

/// The loss rule named `rule` with the loss probabilities of the good and bad states.
pub(crate) fn loss_rule(rule: &str, loss_good: f64, loss_bad: f64) -> Result<ContinuousLossRule, Error> {
    let loss = [loss_good, loss_bad];
    match rule {
        "any-instant" => Ok(ContinuousLossRule::AnyInstant(loss)),
        "vdeldrop" => Ok(ContinuousLossRule::StateAtStart(loss)),
        other => Err(Error::invalid("loss_rule", other, "must be 'any-instant' or 'vdeldrop'")),
    }
}

/// Loss (1) or not (0) of packets starting at `starts` (non-decreasing), each lasting `duration`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn continuous_packet_losses<'py>(
    py: Python<'py>,
    mean_good: f64,
    mean_bad: f64,
    loss_rule: &str,
    loss_good: f64,
    loss_bad: f64,
    starts: PyReadonlyArray1<'py, f64>,
    duration: f64,
    seed: u64,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let starts = starts.as_slice()?;
    let out = run(py, || {
        let mut ch = continuous_channel(mean_good, mean_bad, loss_rule, loss_good, loss_bad, seed)?;
        starts.iter().map(|&t| ch.packet_lost(t, duration).map(u8::from)).collect::<Result<Vec<_>, _>>()
    })?;
    Ok(out.into_pyarray(py))
}

/// State (0 good, 1 bad) of the continuous-time channel at `times` (non-decreasing).
#[pyfunction]
fn continuous_states<'py>(
    py: Python<'py>,
    mean_good: f64,
    mean_bad: f64,
    times: PyReadonlyArray1<'py, f64>,
    seed: u64,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let times = times.as_slice()?;
    let out = run(py, || {
        let mut ch = continuous_channel(mean_good, mean_bad, "any-instant", 0.0, 1.0, seed)?;
        times.iter().map(|&t| ch.state_at(t)).collect::<Result<Vec<_>, _>>()
    })?;
    Ok(out.into_pyarray(py))
}

/// Time spent bad in each of `windows` consecutive windows of length `window`, from time 0.
#[pyfunction]
fn continuous_bad_time<'py>(
    py: Python<'py>,
    mean_good: f64,
    mean_bad: f64,
    window: f64,
    windows: u64,
    seed: u64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let out = run(py, || {
        tcpfade_core::check::positive("window", window)?;
        let mut ch = continuous_channel(mean_good, mean_bad, "any-instant", 0.0, 1.0, seed)?;
        (0..windows).map(|i| ch.bad_time(i as f64 * window, (i + 1) as f64 * window)).collect::<Result<Vec<_>, _>>()
    })?;
    Ok(out.into_pyarray(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(slot_trace, m)?)?;
    m.add_function(wrap_pyfunction!(trace_stats, m)?)?;
    m.add_function(wrap_pyfunction!(parse_trace_text, m)?)?;
    m.add_function(wrap_pyfunction!(parse_trace_binary, m)?)?;
    m.add_function(wrap_pyfunction!(fading_gain, m)?)?;
    m.add_function(wrap_pyfunction!(bit_level_error_rates, m)?)?;
    m.add_function(wrap_pyfunction!(continuous_packet_losses, m)?)?;
    m.add_function(wrap_pyfunction!(continuous_states, m)?)?;
    m.add_function(wrap_pyfunction!(continuous_bad_time, m)?)?;
    Ok(())
}
