//! The UMTS channel code of `tcpfade._core` (see tcpfade_core::coding): encoder, Viterbi decoder, the chain's
//! Monte-Carlo block errors.

use crate::errors::{run, run_watched};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use tcpfade_core::coding::{encode, BlockChain, BlockFormat, Viterbi};
use tcpfade_core::error::Error;
use tcpfade_core::rng::{stream, Stream};

/// Encode bits (0/1) with the rate-1/2 K = 9 code and its tail.
#[pyfunction]
fn conv_encode<'py>(py: Python<'py>, bits: PyReadonlyArray1<'py, u8>) -> PyResult<Bound<'py, PyArray1<u8>>> {
    Ok(encode(bits.as_slice()?).into_pyarray(py))
}

/// Viterbi-decode LLRs (2·(info_bits + 8) of them) into `info_bits` bits.
#[pyfunction]
fn viterbi_decode<'py>(py: Python<'py>, llr: PyReadonlyArray1<'py, f32>, info_bits: usize) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let llr = llr.as_slice()?.to_vec();
    let decoded = run(py, move || {
        if llr.len() != 2 * (info_bits + 8) {
            return Err(Error::invalid("llr", llr.len(), &format!("must hold 2·(info_bits + 8) = {} values", 2 * (info_bits + 8))));
        }
        let mut out = Vec::new();
        Viterbi::new(info_bits).decode(&llr, &mut out);
        Ok(out)
    })?;
    Ok(decoded.into_pyarray(py))
}

/// Block errors of the paper's transport format over `tti_frames` frames, `blocks` blocks with the per-slot
/// linear SNRs `es_n0` (one per slot of the TTI). Returns the number of blocks in error.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn block_errors(py: Python<'_>, es_n0: Vec<f64>, tti_frames: usize, info_bits: usize, bits_per_frame: usize,
                blocks: u64, seed: u64, progress: Option<Py<PyAny>>) -> PyResult<u64> {
    run_watched(py, progress, move |watch| {
        let format = BlockFormat { info_bits, tti_frames, bits_per_frame, slots_per_frame: 15 };
        let mut chain = BlockChain::new(format)?;
        let mut rng = stream(seed, Stream::ChannelLoss);
        let mut errors = 0;
        for done in 0..blocks {
            errors += u64::from(chain.block_error(&es_n0, &mut rng)?);
            watch.tick(|| done as f64 / blocks as f64)?;
        }
        Ok(errors)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(conv_encode, m)?)?;
    m.add_function(wrap_pyfunction!(viterbi_decode, m)?)?;
    m.add_function(wrap_pyfunction!(block_errors, m)?)?;
    Ok(())
}
