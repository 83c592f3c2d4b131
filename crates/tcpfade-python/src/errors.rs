//! Mapping of core errors and panics to the Python exceptions of `tcpfade.errors`.

use pyo3::prelude::*;
use pyo3::types::PyType;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;
use tcpfade_core::watch::Watch;
use tcpfade_core::Error;

/// How often a run looks at Python: for Ctrl-C and to call its progress callback.
const WATCH_EVERY: Duration = Duration::from_millis(100);

/// The `tcpfade.errors` class for a core error.
fn class_name(error: &Error) -> &'static str {
    match error {
        Error::InvalidParameter { .. } | Error::TimeWentBackwards { .. } => "ParameterError",
        Error::TraceFormat { .. } => "TraceFormatError",
        Error::TraceExhausted { .. } => "TraceExhaustedError",
        // Raised in place of the Python exception that stopped the run only if that exception was lost.
        Error::Stopped => "InternalError",
        Error::System { .. } => "EmulatorError",
    }
}

fn raise(class: &str, message: String) -> PyErr {
    Python::with_gil(|py| {
        let lookup = py
            .import("tcpfade.errors")
            .and_then(|m| m.getattr(class))
            .and_then(|c| c.downcast_into::<PyType>().map_err(PyErr::from));
        match lookup {
            Ok(cls) => PyErr::from_type(cls, message),
            Err(import_error) => import_error,
        }
    })
}

/// Convert a core error to its Python exception.
pub fn to_py(error: Error) -> PyErr {
    raise(class_name(&error), error.to_string())
}

/// Run `work` without the GIL, turning core errors into Python exceptions and a panic into
/// `tcpfade.errors.InternalError`, so no Rust failure can abort the interpreter.
pub fn run<T: Send>(py: Python<'_>, work: impl FnOnce() -> Result<T, Error> + Send) -> PyResult<T> {
    let outcome = py.allow_threads(|| catch_unwind(AssertUnwindSafe(work)));
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(to_py(error)),
        Err(payload) => {
            let detail = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(raise("InternalError", format!("internal error in tcpfade-core (please report): {detail}")))
        }
    }
}

/// [`run`] for a simulation that may take minutes: about every 0.1 s it takes the GIL to let Python handle
/// its signals (so Ctrl-C raises KeyboardInterrupt at once rather than when the run ends) and to call
/// `progress(fraction done)` if given. An exception from either stops the run and is raised as it was.
pub fn run_watched<T: Send>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    work: impl FnOnce(&mut Watch<'_>) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let mut raised: Option<PyErr> = None;
    let outcome = run(py, || {
        let mut watch = Watch::new(WATCH_EVERY, |done| {
            Python::with_gil(|py| {
                py.check_signals()?;
                match &progress {
                    Some(callback) => callback.call1(py, (done,)).map(drop),
                    None => Ok(()),
                }
            })
            .map_err(|exception| {
                raised = Some(exception);
                Error::Stopped
            })
        });
        work(&mut watch)
    });
    match (outcome, raised) {
        (Err(_), Some(exception)) => Err(exception),
        (outcome, _) => outcome,
    }
}
