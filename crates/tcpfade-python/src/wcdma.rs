//! The WCDMA uplink system simulation of `tcpfade._core` (see tcpfade_core::wcdma).

use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use crate::args::SystemArgs;
use tcpfade_core::wcdma::{run_system, RayProfile, SirReference, SystemConfig, PAPER_BIT_RATE};

fn array2<'py>(py: Python<'py>, data: Vec<f32>, rows: usize) -> PyResult<Bound<'py, PyAny>> {
    let cols = data.len().checked_div(rows).unwrap_or(0);
    PyArray1::from_vec(py, data).reshape([rows, cols]).map(|a| a.into_any())
}

/// Run the uplink. `args` holds `simulate_system`'s checked arguments, read by field name ([`SystemArgs`]), and
/// `rays`, a profile name or powers in dB; `sir_reference` is "symbol" or "bit" (the power control's SIR, D13;
/// R = 105 kb/s for "bit"). Returns a dict of arrays.
#[pyfunction]
fn simulate_system<'py>(
    py: Python<'py>,
    args: Bound<'py, PyDict>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let a: SystemArgs = args.extract()?;
    let sir_reference = SirReference::from_name(&a.sir_reference).map_err(crate::errors::to_py)?;
    let rays = args.get_item("rays")?.ok_or_else(|| pyo3::exceptions::PyKeyError::new_err("rays"))?;
    let rays = match rays.extract::<String>() {
        Ok(name) => RayProfile::from_name(&name).map_err(crate::errors::to_py)?,
        Err(_) => RayProfile::Custom(rays.extract::<Vec<f64>>()?),
    };
    let (users, seed) = (a.users, a.seed);
    let cfg = SystemConfig {
        users,
        cells_per_side: a.cells_per_side,
        cell_side: a.cell_side,
        path_loss_db: a.path_loss_db,
        path_loss_exponent: a.path_loss_exponent,
        shadowing_db: a.shadowing_db,
        doppler_hz: a.doppler_hz,
        slot: 0.01 / 15.0,
        oscillators: a.oscillators,
        rays,
        spreading_factor: a.spreading_factor,
        noise_dbw: a.noise_dbw,
        max_power_dbw: a.max_power_dbw,
        power_range_db: a.power_range_db,
        step_db: a.step_db,
        target_sir_db: a.target_sir_db,
        sir_reference,
        bit_rate: PAPER_BIT_RATE,
        slots: a.slots,
        fading: a.fading,
    };
    let out = crate::errors::run_watched(py, progress, move |watch| run_system(&cfg, seed, watch))?;
    let d = PyDict::new(py);
    d.set_item("sir_db", array2(py, out.sir_db, users)?)?;
    d.set_item("power_dbw", array2(py, out.power_dbw, users)?)?;
    d.set_item("fading_db", array2(py, out.fading_db, users)?)?;
    d.set_item("max_power_slots", out.max_power_slots.into_pyarray(py))?;
    let l = out.layout;
    d.set_item("serving", l.serving.iter().map(|&s| s as u64).collect::<Vec<_>>().into_pyarray(py))?;
    let gain_db: Vec<f64> = l.gain.iter().zip(&l.serving).map(|(g, &s)| 10.0 * g[s].log10()).collect();
    d.set_item("serving_gain_db", gain_db.into_pyarray(py))?;
    let xs: Vec<f64> = l.users.iter().map(|p| p.0).collect();
    let ys: Vec<f64> = l.users.iter().map(|p| p.1).collect();
    d.set_item("x", PyArray1::from_vec(py, xs))?;
    d.set_item("y", PyArray1::from_vec(py, ys))?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_system, m)?)?;
    m.add_function(wrap_pyfunction!(tcp_over_bearer, m)?)?;
    Ok(())
}

/// TCP over a radio bearer: `errors` one flag per TTI of `tti` s, `power_w` the transmit power per slot (may be
/// empty), `args` the sender, its timer and the bearer's link by field name ([`SenderArgs`], [`TimerArgs`],
/// [`LinkArgs`]: rate [packets/s], the return delay `tau` [s], duration [s], batches). Returns the link's totals and
/// batches (simulate_link's fields), the energy while sending [J] and the busy time [s].
#[pyfunction]
fn tcp_over_bearer<'py>(
    py: Python<'py>,
    errors: numpy::PyReadonlyArray1<'py, bool>,
    tti: f64,
    power_w: numpy::PyReadonlyArray1<'py, f64>,
    slot: f64,
    args: Bound<'py, PyDict>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    use crate::args::{LinkArgs, SenderArgs, TimerArgs};
    use tcpfade_core::driver::{run_link_watched, LinkConfig};
    use tcpfade_core::wcdma::RadioBearer;

    let sender: SenderArgs = args.extract()?;
    let timer: TimerArgs = args.extract()?;
    let LinkArgs { rate, tau, buffer, duration, warmup, batches, delayed_ack, delayed_ack_rule, rwnd_rule, rwnd_mss, receive_buffer, .. } =
        args.extract()?;
    // Arrays, not lists: a list of a minute's 45,000 power slots cost more to convert than the run itself.
    let (errors, power_w) = (errors.as_array().to_vec(), power_w.as_array().to_vec());
    let (outcome, energy, busy) = crate::errors::run_watched(py, progress, move |watch| {
        let sender = sender.config_with_acks(&timer, &delayed_ack_rule, &rwnd_rule, rwnd_mss, receive_buffer)?;
        let cfg = LinkConfig { sender, rate, tau, buffer, duration, warmup, batches, delayed_ack };
        let mut bearer = RadioBearer::new(errors, tti, power_w, slot)?;
        let outcome = run_link_watched(&cfg, &mut bearer, watch)?;
        Ok((outcome, bearer.energy, bearer.busy))
    })?;
    use crate::link::{link_row, LINK_FIELDS};

    let d = PyDict::new(py);
    d.set_item("fields", LINK_FIELDS.to_vec())?;
    d.set_item("totals", link_row(&outcome.totals))?;
    d.set_item("batches", outcome.batches.iter().map(link_row).collect::<Vec<_>>())?;
    d.set_item("energy", energy)?;
    d.set_item("busy", busy)?;
    Ok(d)
}
