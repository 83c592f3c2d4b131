//! Analysis kernels of `tcpfade._core`.

use crate::errors::{run, run_watched};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray1};
use pyo3::prelude::*;
use tcpfade_core::analysis::cycle::{
    fast_recovery_cycle_model as reno_cycle_model, tahoe_cycle_model as tahoe_model, CycleModel,
};
use tcpfade_core::analysis::link_chain::{
    persistence_sums, split_backoff_levels, stationary_by_levels, Persistence, Triplets,
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
/// matrix P, rewards an n × 8 array in the order of tcpfade.analysis.cycle.REWARDS. `progress` gets the
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

/// A float array handed to Python.
type Array<'py> = Bound<'py, PyArray1<f64>>;

/// (rows, cols, vals) of one block of a chain's transitions.
type Block<'py> = (PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, f64>);

/// The stationary law of the link analysis' expanded chain, by a sweep over its windows (see
/// tcpfade_core::analysis::link_chain): the chain as blocks of triplets (rows, cols, vals; fastest when each
/// block's rows run through the levels one way, as the chain's builder appends them), each state's level and
/// each level's gate. Returns (pi, residual ‖πP − π‖₁), or None where the chain is not shaped for the sweep.
/// `progress` gets the share of the levels done; Ctrl-C stops the sweep.
#[pyfunction]
#[pyo3(signature = (blocks, level, gate, progress=None))]
fn link_chain_stationary<'py>(
    py: Python<'py>,
    blocks: Vec<Block<'py>>,
    level: PyReadonlyArray1<'py, u32>,
    gate: PyReadonlyArray1<'py, i64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Option<(Array<'py>, f64)>> {
    let blocks = blocks
        .iter()
        .map(|(r, c, v)| Ok(Triplets { rows: r.as_slice()?, cols: c.as_slice()?, vals: v.as_slice()? }))
        .collect::<PyResult<Vec<_>>>()?;
    let (level, gate) = (level.as_slice()?, gate.as_slice()?);
    let solved = run_watched(py, progress, |watch| stationary_by_levels(&blocks, level, gate, watch))?;
    Ok(solved.map(|s| (s.pi.into_pyarray(py), s.residual)))
}

/// The persistence entries (h, w', mass) of the link chain's backed-off starts, by h from the largest down.
type Entries<'py> = (PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, f64>);

/// The link chain's backed-off starts split by backoff level (see tcpfade_core::analysis::link_chain):
/// levels × w_p masses, from the persistence entries (h, w, mass), their outstanding counts o, the chance
/// `rest` of passing Karn's point first, the outcomes by window, the inflows of known level (levels × w_p,
/// flattened) and the exit laws ((levels − 1) × width × levels, flattened).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn link_chain_split_levels<'py>(
    py: Python<'py>,
    wp: usize,
    levels: usize,
    entries: Entries<'py>,
    o: PyReadonlyArray1<'py, i64>,
    rest: PyReadonlyArray1<'py, f64>,
    outcome: (PyReadonlyArray1<'py, f64>, PyReadonlyArray1<'py, f64>, PyReadonlyArray1<'py, f64>),
    into: PyReadonlyArray1<'py, f64>,
    exits: PyReadonlyArray1<'py, f64>,
) -> PyResult<Array<'py>> {
    let (h, w, mass) = (entries.0.as_slice()?, entries.1.as_slice()?, entries.2.as_slice()?);
    let p = Persistence { h, w, o: o.as_slice()?, mass, rest: rest.as_slice()? };
    let outcome = [outcome.0.as_slice()?, outcome.1.as_slice()?, outcome.2.as_slice()?];
    let (into, exits) = (into.as_slice()?, exits.as_slice()?);
    let split = run(py, || split_backoff_levels(wp, levels, &p, outcome, into, exits))?;
    Ok(split.into_pyarray(py))
}

/// Sums over the link chain's persistence entries (see tcpfade_core::analysis::link_chain::persistence_sums):
/// per h, Σ mass · columns[w] (columns: width × ncol, flattened), and per window Σ weight[h] · mass.
#[pyfunction]
fn link_chain_persistence_sums<'py>(
    py: Python<'py>,
    wp: usize,
    entries: Entries<'py>,
    weight: PyReadonlyArray1<'py, f64>,
    columns: PyReadonlyArray1<'py, f64>,
    ncol: usize,
) -> PyResult<(Array<'py>, Array<'py>)> {
    let (h, w, mass) = (entries.0.as_slice()?, entries.1.as_slice()?, entries.2.as_slice()?);
    let (weight, columns) = (weight.as_slice()?, columns.as_slice()?);
    let (by_h, by_w) = run(py, || persistence_sums(wp, (h, w, mass), weight, columns, ncol))?;
    Ok((by_h.into_pyarray(py), by_w.into_pyarray(py)))
}

/// The stationary law of a dense chain (an n × n C-contiguous array) by GTH state reduction (see
/// tcpfade_core::analysis::gth): π, or the state that cannot reach the states before it in double precision
/// (an int). `progress` gets the share of the states reduced; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (transition, progress=None))]
fn gth_stationary<'py>(
    py: Python<'py>,
    transition: numpy::PyReadonlyArray2<'py, f64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = transition.as_array().shape().to_vec();
    let n = shape[0];
    if shape[1] != n || n == 0 {
        return Err(crate::errors::to_py(tcpfade_core::error::Error::invalid(
            "transition",
            format!("{}x{}", shape[0], shape[1]),
            "must be a non-empty square matrix",
        )));
    }
    let mut p = transition.as_slice()?.to_vec();
    let solved = run_watched(py, progress, |watch| tcpfade_core::analysis::gth::gth_stationary(n, &mut p, watch))?;
    Ok(match solved {
        Ok(pi) => pi.into_pyarray(py).into_any(),
        Err(state) => state.into_pyobject(py)?.into_any(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(gth_stationary, m)?)?;
    m.add_function(wrap_pyfunction!(link_chain_stationary, m)?)?;
    m.add_function(wrap_pyfunction!(link_chain_split_levels, m)?)?;
    m.add_function(wrap_pyfunction!(link_chain_persistence_sums, m)?)?;
    m.add_function(wrap_pyfunction!(fast_recovery_phase2, m)?)?;
    m.add_class::<FastRecoveryPhase2>()?;
    m.add_function(wrap_pyfunction!(fast_recovery_cycle_model, m)?)?;
    m.add_function(wrap_pyfunction!(tahoe_cycle_model, m)?)?;
    Ok(())
}
