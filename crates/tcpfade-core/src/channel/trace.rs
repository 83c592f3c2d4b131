//! Trace channel: losses read from a recorded sequence (one 0/1 per slot).
//!
//! Formats, both validated whole before any slot is used (a malformed trace is never half-read):
//! - text: `0` and `1` characters, optionally separated by spaces, tabs or commas, on any number
//!   of lines; `#` starts a comment that runs to the end of the line.
//! - binary: one byte per slot, 0x00 or 0x01.

use super::SlotChannel;
use crate::error::{Error, Result};
use std::sync::Arc;

/// A channel replaying a recorded loss sequence.
#[derive(Debug, Clone)]
pub struct TraceChannel {
    losses: Arc<[u8]>,
    position: usize,
    wrap: bool,
    last: u8,
}

impl TraceChannel {
    /// Replay `losses` (each 0 or 1); with `wrap` it starts over when exhausted, otherwise asking
    /// for more slots than it holds is an error.
    pub fn new(losses: Arc<[u8]>, wrap: bool) -> Result<Self> {
        validate_losses(&losses)?;
        Ok(TraceChannel { losses, position: 0, wrap, last: 0 })
    }
}

/// Check that a loss sequence is non-empty and holds only 0 and 1.
pub fn validate_losses(losses: &[u8]) -> Result<()> {
    if losses.is_empty() {
        return Err(Error::invalid("trace", "an empty sequence", "must hold at least one slot"));
    }
    if let Some(i) = losses.iter().position(|&b| b > 1) {
        return Err(Error::invalid(
            "trace",
            format!("{} at index {i}", losses[i]),
            "every slot must be 0 (received) or 1 (lost)",
        ));
    }
    Ok(())
}

impl SlotChannel for TraceChannel {
    #[inline]
    fn next_slot(&mut self) -> Result<bool> {
        if self.position == self.losses.len() {
            if !self.wrap {
                return Err(Error::TraceExhausted { length: self.losses.len() });
            }
            self.position = 0;
        }
        self.last = self.losses[self.position];
        self.position += 1;
        Ok(self.last == 1)
    }

    fn state(&self) -> u8 {
        self.last
    }
}

/// Parse a text trace (see the module documentation).
pub fn parse_text(text: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for (line_index, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("");
        let mut field = 0;
        for ch in content.chars() {
            match ch {
                '0' | '1' => {
                    field += 1;
                    out.push(u8::from(ch == '1'));
                }
                ' ' | '\t' | ',' | '\r' => {}
                other => {
                    return Err(Error::TraceFormat {
                        line: line_index + 1,
                        field: field + 1,
                        message: format!("expected 0 or 1, found {other:?}"),
                    })
                }
            }
        }
    }
    validate_losses(&out).map_err(|_| Error::TraceFormat {
        line: 1,
        field: 1,
        message: "the trace holds no slot".into(),
    })?;
    Ok(out)
}

/// Parse a binary trace (one byte per slot, 0 or 1).
pub fn parse_binary(bytes: &[u8]) -> Result<Vec<u8>> {
    if let Some(i) = bytes.iter().position(|&b| b > 1) {
        return Err(Error::TraceFormat {
            line: 1,
            field: i + 1,
            message: format!("byte {:#04x} at offset {i}: expected 0x00 or 0x01", bytes[i]),
        });
    }
    if bytes.is_empty() {
        return Err(Error::TraceFormat { line: 1, field: 1, message: "the trace holds no slot".into() });
    }
    Ok(bytes.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_traces_parse_or_name_the_fault() {
        assert_eq!(parse_text("0 1 1\n# comment\n0,0 # x\n").unwrap(), vec![0, 1, 1, 0, 0]);
        assert_eq!(parse_text("0110\n").unwrap(), vec![0, 1, 1, 0]);
        let err = parse_text("0 1\n0 2 1\n").unwrap_err();
        assert_eq!(
            err,
            Error::TraceFormat { line: 2, field: 2, message: "expected 0 or 1, found '2'".into() }
        );
        assert!(parse_text("# nothing\n").is_err());
        assert!(parse_binary(&[0, 1, 7]).is_err());
    }

    #[test]
    fn exhausted_trace_errors_unless_it_wraps() {
        let data: Arc<[u8]> = Arc::from(vec![0u8, 1]);
        let mut once = TraceChannel::new(data.clone(), false).unwrap();
        assert!(!once.next_slot().unwrap());
        assert!(once.next_slot().unwrap());
        assert!(matches!(once.next_slot(), Err(Error::TraceExhausted { length: 2 })));
        let mut wrapping = TraceChannel::new(data, true).unwrap();
        let got: Vec<bool> = (0..5).map(|_| wrapping.next_slot().unwrap()).collect();
        assert_eq!(got, vec![false, true, false, true, false]);
    }
}
