//! Finite transfers of `tcpfade._core` (see tcpfade_core::driver::transfer), with TCP-Probing's decision
//! rule either the core's [`RttRange`] or a Python callable.

use crate::errors::run_watched;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use crate::channels::link_spec_from_dict;
use tcpfade_core::channel::continuous::ContinuousTwoState;
use tcpfade_core::channel::LinkChannelSpec;
use tcpfade_core::driver::{run_transfer_traced, Metering, PerfectChannel, TransferConfig, TransferOutcome, WindowTrace, KIND_NAMES};
use tcpfade_core::error::{Error, Result};
use crate::args::{SenderArgs, TimerArgs, TransferArgs};
use tcpfade_core::tcp::{BestRtt, ProbeDecision, ProbeMeasurement, ProbeOutcome, ProbeTrigger, RttRange};

/// A decision rule written in Python: called with the cycle's measurements as keyword arguments, it must
/// return True (Immediate Recovery) or False (Slow Start). Its exception, or a wrong return type, stops the
/// run and is raised to the caller.
struct PythonDecision {
    callback: Py<PyAny>,
    raised: Option<PyErr>,
}

impl ProbeDecision for PythonDecision {
    fn immediate_recovery(&mut self, m: &ProbeMeasurement) -> Result<bool> {
        let answer = Python::with_gil(|py| -> PyResult<bool> {
            let kwargs = PyDict::new(py);
            let trigger = if m.trigger == ProbeTrigger::Timeout { "timeout" } else { "dupacks" };
            kwargs.set_item("trigger", trigger)?;
            for (name, value) in [
                ("rtt1", m.rtt1),
                ("rtt2", m.rtt2),
                ("best_rtt", m.best_rtt),
                ("last_rtt", m.last_rtt),
                ("duration", m.duration),
                ("cwnd", m.cwnd),
                ("ssthresh", m.ssthresh),
            ] {
                kwargs.set_item(name, value)?;
            }
            kwargs.set_item("dupacks", m.dupacks)?;
            kwargs.set_item("exchanges", m.exchanges)?;
            let result = self.callback.call(py, (), Some(&kwargs))?;
            let result = result.bind(py);
            if result.is_instance_of::<pyo3::types::PyBool>() {
                result.extract::<bool>()
            } else {
                let class = py.import("tcpfade.errors")?.getattr("ParameterError")?;
                let shown = result.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
                Err(PyErr::from_value(class.call1((format!(
                    "decision = {shown} (returned by the decision rule) is not allowed: it must return True \
                     (Immediate Recovery) or False (Slow Start)"
                ),))?))
            }
        });
        answer.map_err(|exception| {
            self.raised = Some(exception);
            Error::Stopped
        })
    }
}

fn outcome_dict<'py>(py: Python<'py>, out: &TransferOutcome) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("completed", out.completed)?;
    d.set_item("time", out.time)?;
    d.set_item("delivered", out.delivered)?;
    let kinds = PyDict::new(py);
    for (name, k) in KIND_NAMES.iter().zip(out.by_kind.iter()) {
        kinds.set_item(*name, (k.segments, k.bytes, k.dropped))?;
    }
    d.set_item("by_kind", kinds)?;
    let radios: Vec<(f64, f64, u64, u64, u64, u64)> =
        out.radios.iter().map(|r| (r.tx_time, r.rx_time, r.tx_frames, r.tx_bytes, r.rx_frames, r.rx_bytes)).collect();
    d.set_item("radios", radios)?;
    d.set_item("syn_retransmissions", out.syn_retransmissions)?;
    let s = out.sender;
    d.set_item("transmissions", s.transmissions)?;
    d.set_item("retransmissions", s.retransmissions)?;
    d.set_item("timeouts", s.timeouts)?;
    d.set_item("fast_retransmits", s.fast_retransmits)?;
    d.set_item("spurious_timeouts", s.spurious_timeouts)?;
    let p = out.probes;
    d.set_item(
        "probes",
        (p.cycles_after_timeout, p.cycles_after_dupacks, p.immediate_recoveries, p.slow_starts, p.probes_sent, p.restarts),
    )?;
    let cycles = PyDict::new(py);
    let c = &out.cycles;
    let column = |f: &dyn Fn(&tcpfade_core::driver::CycleRecord) -> f64| c.iter().map(f).collect::<Vec<f64>>();
    cycles.set_item("end", column(&|r| r.end).into_pyarray(py))?;
    cycles.set_item("trigger", c.iter().map(|r| if r.measurement.trigger == ProbeTrigger::Timeout { "timeout" } else { "dupacks" }).collect::<Vec<_>>())?;
    cycles.set_item("rtt1", column(&|r| r.measurement.rtt1).into_pyarray(py))?;
    cycles.set_item("rtt2", column(&|r| r.measurement.rtt2).into_pyarray(py))?;
    cycles.set_item("best_rtt", column(&|r| r.measurement.best_rtt).into_pyarray(py))?;
    cycles.set_item("last_rtt", column(&|r| r.measurement.last_rtt).into_pyarray(py))?;
    cycles.set_item("duration", column(&|r| r.measurement.duration).into_pyarray(py))?;
    cycles.set_item("dupacks", c.iter().map(|r| r.measurement.dupacks).collect::<Vec<_>>().into_pyarray(py))?;
    cycles.set_item("exchanges", c.iter().map(|r| r.measurement.exchanges).collect::<Vec<_>>().into_pyarray(py))?;
    cycles.set_item(
        "outcome",
        c.iter()
            .map(|r| if r.outcome == ProbeOutcome::ImmediateRecovery { "immediate_recovery" } else { "slow_start" })
            .collect::<Vec<_>>(),
    )?;
    d.set_item("cycles", cycles)?;
    if out.frames.is_empty() {
        d.set_item("frames", py.None())?;
    } else {
        let f = &out.frames;
        let frames = PyDict::new(py);
        frames.set_item("time", f.iter().map(|r| r.time).collect::<Vec<_>>().into_pyarray(py))?;
        frames.set_item("sender", f.iter().map(|r| r.from == 0).collect::<Vec<_>>().into_pyarray(py))?;
        frames.set_item("kind", f.iter().map(|r| KIND_NAMES[r.kind as usize]).collect::<Vec<_>>())?;
        frames.set_item("number", f.iter().map(|r| r.number).collect::<Vec<_>>().into_pyarray(py))?;
        frames.set_item("bytes", f.iter().map(|r| r.bytes).collect::<Vec<_>>().into_pyarray(py))?;
        frames.set_item("dropped", f.iter().map(|r| r.dropped).collect::<Vec<_>>().into_pyarray(py))?;
        d.set_item("frames", frames)?;
    }
    d.set_item("srtt", out.srtt)?;
    Ok(d)
}

/// A finite transfer. `args` holds `transfer_arguments`' result (read by field name: [`SenderArgs`],
/// [`TimerArgs`], [`TransferArgs`]); `channel` a link channel spec (`channels::link_spec_from_dict`, from the
/// channel's `link_spec()`); `decision` a (low, high) pair for the paper's RTT-range rule or a Python callable. Returns the
/// outcome as a dict.
#[pyfunction]
#[pyo3(signature = (args, channel, decision, progress, trace=None))]
fn simulate_transfer<'py>(
    py: Python<'py>,
    args: Bound<'py, PyDict>,
    channel: Bound<'py, PyDict>,
    decision: &Bound<'py, PyAny>,
    progress: Option<Py<PyAny>>,
    trace: Option<(f64, usize)>,
) -> PyResult<Bound<'py, PyDict>> {
    let trace = trace.map(|(seconds, rows)| WindowTrace::new(seconds, rows));
    let sender: SenderArgs = args.extract()?;
    let timer: TimerArgs = args.extract()?;
    let a: TransferArgs = args.extract()?;
    let best_rtt = BestRtt::from_name(&a.best_rtt).map_err(crate::errors::to_py)?;
    let seed = a.seed;
    let channel = link_spec_from_dict(&channel)?;
    let mut python_rule = if decision.is_callable() {
        Some(PythonDecision { callback: decision.clone().unbind(), raised: None })
    } else {
        None
    };
    let range: Option<(f64, f64)> = if python_rule.is_none() { Some(decision.extract()?) } else { None };
    let outcome = run_watched(py, progress, |watch| {
        let metering = match a.metering.as_str() {
            "frame" => Metering::Frame,
            "payload" => Metering::Payload,
            other => return Err(Error::invalid("metering", other, "must be 'frame' or 'payload'")),
        };
        let cfg = TransferConfig {
            sender: sender.config_with_acks(&timer, &a.delayed_ack_rule, &a.rwnd_rule, a.mss, a.receive_buffer)?.with_best_rtt(best_rtt),
            size: a.size_bytes,
            mss: a.mss,
            header_bytes: a.header_bytes,
            syn_option_bytes: a.syn_option_bytes,
            probe_option_bytes: a.probe_option_bytes,
            rate: a.rate_bps,
            metering,
            delay: a.delay,
            delayed_ack: a.delayed_ack,
            drop_acks: a.drop_acks,
            loss_on_air: a.loss_on_air,
            time_limit: a.time_limit,
            record_frames: a.record_frames,
        };
        let mut paper_rule = match range {
            Some((low, high)) => Some(RttRange::new(low, high)?),
            None => None,
        };
        let rule: &mut dyn ProbeDecision = match (&mut paper_rule, &mut python_rule) {
            (Some(r), _) => r,
            (None, Some(p)) => p,
            (None, None) => unreachable!("one rule is set"),
        };
        match &channel {
            // The channels of tsaoussidis-badr's table run without the box's indirect call.
            LinkChannelSpec::Perfect => run_transfer_traced(&cfg, PerfectChannel, rule, trace, watch),
            LinkChannelSpec::Continuous { mean_good, mean_bad, rule: loss, packet_clock: false } => {
                run_transfer_traced(&cfg, ContinuousTwoState::new(*mean_good, *mean_bad, *loss, seed)?, rule, trace,
                                    watch)
            }
            other => run_transfer_traced(&cfg, other.build(seed)?, rule, trace, watch),
        }
    });
    let (outcome, trace) = match (outcome, python_rule.and_then(|p| p.raised)) {
        (Err(_), Some(exception)) => return Err(exception),
        (outcome, _) => outcome?,
    };
    let out = outcome_dict(py, &outcome)?;
    if let Some(trace) = trace {
        out.set_item("trace", crate::link::trace_columns(py, &trace)?)?;
        out.set_item("trace_truncated", trace.truncated())?;
    }
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_transfer, m)?)?;
    // The option's size, for the Python side's MTU check: written once, in the core.
    m.add("TIMESTAMP_OPTION_BYTES", tcpfade_core::driver::TIMESTAMP_OPTION_BYTES)?;
    Ok(())
}
