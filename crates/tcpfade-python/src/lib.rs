//! `tcpfade._core`: the thin PyO3 layer over tcpfade-core.
//!
//! Only conversions live here: Python values in, numpy arrays and dicts out, core errors mapped
//! to the `tcpfade.errors` hierarchy and panics turned into `tcpfade.errors.InternalError`
//! (never an abort). The Python package wraps these functions; users never see them directly.

mod analysis;
mod args;
mod channels;
mod coding;
mod emulate;
mod errors;
mod link;
mod simulate;
mod transfer;
mod wcdma;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    analysis::register(m)?;
    channels::register(m)?;
    coding::register(m)?;
    emulate::register(m)?;
    simulate::register(m)?;
    link::register(m)?;
    transfer::register(m)?;
    wcdma::register(m)?;
    Ok(())
}
