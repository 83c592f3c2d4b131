//! Parameter checks shared by every constructor, so each model rejects bad input where it enters
//! with the same wording.

use crate::error::{Error, Result};

/// A probability in [0, 1].
pub fn probability(name: &str, value: f64) -> Result<f64> {
    if value.is_finite() && (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(Error::invalid(name, value, "must be a probability in [0, 1]"))
    }
}

/// A finite number > 0.
pub fn positive(name: &str, value: f64) -> Result<f64> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(Error::invalid(name, value, "must be a finite number > 0"))
    }
}

/// A finite number >= 0.
pub fn non_negative(name: &str, value: f64) -> Result<f64> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(Error::invalid(name, value, "must be a finite number >= 0"))
    }
}

/// An integer in [lo, hi].
pub fn int_in(name: &str, value: u64, lo: u64, hi: u64) -> Result<u64> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(Error::invalid(name, value, &format!("must be an integer in [{lo}, {hi}]")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_parameter_value_and_range() {
        let e = probability("p", 1.5).unwrap_err();
        assert_eq!(e.to_string(), "p = 1.5 is not allowed: must be a probability in [0, 1]");
        assert!(positive("fdt", 0.0).is_err());
        assert!(positive("fdt", f64::NAN).is_err());
        assert!(non_negative("x", -1e-300).is_err());
        assert!(int_in("oscillators", 0, 1, 4096).is_err());
        assert_eq!(probability("p", 0.0), Ok(0.0));
    }
}
