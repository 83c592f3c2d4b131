//! Analysis kernels of `tcpfade._core`.

use crate::errors::run;
use numpy::{IntoPyArray, PyArray3};
use pyo3::prelude::*;
use tcpfade_core::analysis::fast_recovery::{explore, Ending, FastRecovery, Phase2Query, REWARDS};
use tcpfade_core::analysis::SlotMatrices;

/// Phase 2 of Reno/NewReno (see tcpfade_core::analysis::fast_recovery). Returns
/// (endings, rewards): endings a list of (kind, ssthresh, cwnd, channel_state) with kind 0 timeout,
/// 1 clean; rewards an array [outcome, reward, s0].
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
) -> PyResult<(Vec<(u8, u32, f64, usize)>, Bound<'py, PyArray3<f64>>)> {
    let ch = SlotMatrices { success, failure };
    let recovery = if newreno { FastRecovery::NewReno } else { FastRecovery::Reno };
    let q = Phase2Query { recovery, wmax, dupthresh, rto, window, next_ssthresh };
    let outcomes = run(py, || explore(&ch, &q))?;
    let mut endings = Vec::with_capacity(outcomes.len());
    let mut flat = Vec::with_capacity(outcomes.len() * REWARDS * 2);
    for o in &outcomes {
        endings.push(match o.ending {
            Ending::Timeout { ssthresh } => (0, ssthresh, 1.0, o.channel_state),
            Ending::Clean { ssthresh, cwnd_bits } => (1, ssthresh, f64::from_bits(cwnd_bits), o.channel_state),
        });
        for row in &o.rewards {
            flat.extend_from_slice(row);
        }
    }
    let array = numpy::ndarray::Array3::from_shape_vec((outcomes.len(), REWARDS, 2), flat)
        .expect("shape matches the data");
    Ok((endings, array.into_pyarray(py)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fast_recovery_phase2, m)?)?;
    Ok(())
}
