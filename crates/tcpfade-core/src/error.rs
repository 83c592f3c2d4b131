//! The one error type of tcpfade-core. The bindings map each variant to its own Python exception
//! (`tcpfade.errors`), so messages are written for the user: they name the parameter, its value
//! and what is allowed.

/// Everything that can go wrong in tcpfade-core.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A parameter is outside its allowed range.
    #[error("{name} = {value} is not allowed: {allowed}")]
    InvalidParameter {
        /// The parameter's name, as the user spells it (Python keyword / CLI option).
        name: String,
        /// The offending value, formatted.
        value: String,
        /// What is allowed.
        allowed: String,
    },
    /// A trace file or buffer is malformed; nothing of it is used.
    #[error("malformed trace at line {line}, field {field}: {message}")]
    TraceFormat {
        /// 1-based line (for binary traces: 1).
        line: usize,
        /// 1-based field in the line (for binary traces: the 1-based byte offset).
        field: usize,
        /// What is wrong.
        message: String,
    },
    /// A trace channel was asked for more slots than it holds and may not wrap around.
    #[error("trace exhausted: it holds {length} slots and wrap is off (set wrap to repeat it)")]
    TraceExhausted {
        /// Number of slots in the trace.
        length: usize,
    },
    /// A query that goes back in time on a channel that only moves forward.
    #[error("time went backwards: query at t = {requested} after t = {current}; queries must be non-decreasing")]
    TimeWentBackwards {
        /// Time asked for.
        requested: f64,
        /// Latest time already asked for.
        current: f64,
    },
    /// The caller stopped the run through its [`crate::watch::Watch`] (a progress report returned an error).
    #[error("the run was stopped by its caller")]
    Stopped,
    /// The machine cannot do what was asked (the link emulator without root, TUN or network namespaces), or
    /// the operating system refused a step of it.
    #[error("{what}: {detail}")]
    System {
        /// What was being done.
        what: String,
        /// Why it failed, and what would fix it.
        detail: String,
    },
}

/// Result with the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Build an [`Error::System`].
    pub fn system(what: impl std::fmt::Display, detail: impl std::fmt::Display) -> Self {
        Error::System { what: what.to_string(), detail: detail.to_string() }
    }

    /// Build an [`Error::InvalidParameter`].
    pub fn invalid(name: &str, value: impl std::fmt::Display, allowed: &str) -> Self {
        Error::InvalidParameter {
            name: name.to_string(),
            value: value.to_string(),
            allowed: allowed.to_string(),
        }
    }
}
