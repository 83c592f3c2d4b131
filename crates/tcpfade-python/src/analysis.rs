//! Analysis kernels of `tcpfade._core`.

use crate::errors::{run, run_watched};
use numpy::{IntoPyArray, PyArray2, PyArray3};
use pyo3::prelude::*;
use tcpfade_core::analysis::cycle::{
    fast_recovery_cycle_model as reno_cycle_model, tahoe_cycle_model as tahoe_model, CycleModel,
};
use tcpfade_core::analysis::fast_recovery::{explore, Ending, FastRecovery, Outcome, Phase2Query, REWARDS};
use tcpfade_core::analysis::phase2::Phase2;
use tcpfade_core::analysis::SlotMatrices;

/// (states as (channel, ssthresh, cwnd), transition matrix, rewards).
type ChainArrays<'py> = (Vec<(usize, f64, f64)>, Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<f64>>);

type Table<'py> = (Vec<(u8, u32, f64, usize)>, Bound<'py, PyArray3<f64>>);

fn recovery_rule(newreno: bool) -> FastRecovery {
    if newreno {
        FastRecovery::NewReno
    } else {
        FastRecovery::Reno
    }
}

/// Phase 2 of Reno/NewReno by the explorer (see tcpfade_core::analysis::fast_recovery), the
/// reference for `FastRecoveryPhase2`. Returns (endings, rewards): endings a list of (kind, ssthresh,
/// cwnd, channel_state) with kind 0 timeout, 1 clean; rewards an array [outcome, reward, s0].
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn fast_recovery_phase2<'py>(
    py: Python<'py>,
    success: [[f64; 2]; 2],
    failure: [[f64; 2]; 2],
    newreno: bool,
    wmax: u32,
    dupthresh: u32,
    rto: u32,
    window: u32,
    next_ssthresh: u32,
) -> PyResult<Table<'py>> {
    let ch = SlotMatrices { success, failure };
    let q = Phase2Query { recovery: recovery_rule(newreno), wmax, dupthresh, rto, window, next_ssthresh };
    let outcomes = run(py, || explore(&ch, &q))?;
    Ok(table(py, &outcomes))
}

fn table<'py>(py: Python<'py>, outcomes: &[Outcome]) -> Table<'py> {
    let mut endings = Vec::with_capacity(outcomes.len());
    let mut flat = Vec::with_capacity(outcomes.len() * REWARDS * 2);
    for o in outcomes {
        endings.push(match o.ending {
            Ending::Timeout { ssthresh } => (0, ssthresh, 1.0, o.channel_state),
            Ending::Clean { ssthresh, cwnd_bits } => (1, ssthresh, f64::from_bits(cwnd_bits), o.channel_state),
        });
        for row in &o.rewards {
            flat.extend_from_slice(row);
        }
    }
    let array =
        numpy::ndarray::Array3::from_shape_vec((outcomes.len(), REWARDS, 2), flat).expect("shape matches the data");
    (endings, array.into_pyarray(py))
}

/// Phase 2 of Reno/NewReno over one channel for any window class, from loss patterns (see
/// tcpfade_core::analysis::phase2): what the classes share is computed once.
#[pyclass(module = "tcpfade._core")]
struct FastRecoveryPhase2 {
    model: Phase2,
}

#[pymethods]
impl FastRecoveryPhase2 {
    #[new]
    fn new(
        py: Python<'_>,
        success: [[f64; 2]; 2],
        failure: [[f64; 2]; 2],
        newreno: bool,
        wmax: u32,
        dupthresh: u32,
        rto: u32,
    ) -> PyResult<Self> {
        let ch = SlotMatrices { success, failure };
        let model = run(py, || Phase2::new(recovery_rule(newreno), ch, wmax, dupthresh, rto))?;
        Ok(FastRecoveryPhase2 { model })
    }

    /// (endings, rewards) for the class (⌊Y⌋, ⌈Y/2⌉) = (window, next_ssthresh), as fast_recovery_phase2.
    fn outcomes<'py>(&mut self, py: Python<'py>, window: u32, next_ssthresh: u32) -> PyResult<Table<'py>> {
        let model = &mut self.model;
        let outcomes = run(py, || model.outcomes(window, next_ssthresh))?;
        Ok(table(py, &outcomes))
    }
}

/// The embedded chain of Reno/NewReno cycles (see tcpfade_core::analysis::cycle). Returns
/// (states, transition, rewards): states a list of (channel, ssthresh, cwnd), transition the n × n
/// matrix P, rewards an n × 8 array in the order of tcpfade.analysis.tahoe.REWARDS. `progress` gets the
/// fraction done about every 100 ms, and Ctrl-C stops the computation.
#[pyfunction]
#[pyo3(signature = (success, failure, newreno, wmax, dupthresh, rto, progress=None))]
#[allow(clippy::too_many_arguments)]
fn fast_recovery_cycle_model<'py>(
    py: Python<'py>,
    success: [[f64; 2]; 2],
    failure: [[f64; 2]; 2],
    newreno: bool,
    wmax: u32,
    dupthresh: u32,
    rto: u32,
    progress: Option<Py<PyAny>>,
) -> PyResult<ChainArrays<'py>> {
    let ch = SlotMatrices { success, failure };
    let rule = recovery_rule(newreno);
    let model = run_watched(py, progress, |watch| reno_cycle_model(&ch, rule, wmax, dupthresh, rto, watch))?;
    Ok(chain_arrays(py, &model))
}

/// The embedded chain of Tahoe cycles, or OldTahoe's with `dupthresh` None (see
/// tcpfade_core::analysis::cycle): (states, transition, rewards) as fast_recovery_cycle_model.
#[pyfunction]
#[pyo3(signature = (success, failure, wmax, dupthresh, rto, progress=None))]
fn tahoe_cycle_model<'py>(
    py: Python<'py>,
    success: [[f64; 2]; 2],
    failure: [[f64; 2]; 2],
    wmax: u32,
    dupthresh: Option<u32>,
    rto: u32,
    progress: Option<Py<PyAny>>,
) -> PyResult<ChainArrays<'py>> {
    let ch = SlotMatrices { success, failure };
    let model = run_watched(py, progress, |watch| tahoe_model(&ch, dupthresh, wmax, rto, watch))?;
    Ok(chain_arrays(py, &model))
}

fn chain_arrays<'py>(py: Python<'py>, model: &CycleModel) -> ChainArrays<'py> {
    let n = model.states.len();
    let mut transition = numpy::ndarray::Array2::<f64>::zeros((n, n));
    for (i, row) in model.transitions.iter().enumerate() {
        for &(j, p) in row {
            transition[[i, j]] += p;
        }
    }
    let rewards = numpy::ndarray::Array2::from_shape_fn((n, 8), |(i, r)| model.rewards[i][r]);
    let states = model.states.iter().map(|s| (s.channel, s.ssthresh, s.cwnd)).collect();
    (states, transition.into_pyarray(py), rewards.into_pyarray(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fast_recovery_phase2, m)?)?;
    m.add_class::<FastRecoveryPhase2>()?;
    m.add_function(wrap_pyfunction!(fast_recovery_cycle_model, m)?)?;
    m.add_function(wrap_pyfunction!(tahoe_cycle_model, m)?)?;
    Ok(())
}
