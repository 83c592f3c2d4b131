//! Closed-loop power control of one uplink (zorzi-rossi-mazzini §2.1, Table 1): every slot (0.667 ms) the
//! base station compares the SIR it measured (perfectly) with the target and commands the mobile one step Δ up
//! or down; the command takes effect in the next slot (the paper's one-unit delay: "the transmitted power is
//! updated according to the SIR resulting from the previous update"). The power stays within
//! [max − range, max].
//!
//! The paper writes the threshold as "SIR_th = t + Δ dB": t is the target, Δ the step. A step of 0 dB leaves
//! the power where it starts, at the maximum (the loop does nothing).

use crate::check;
use crate::error::Result;

/// The loop of one link, in dB.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerControl {
    /// Transmit power now \[dBW\].
    pub power_db: f64,
    /// Target SIR t \[dB\].
    pub target_db: f64,
    /// Step Δ \[dB\].
    pub step_db: f64,
    /// Largest power \[dBW\].
    pub max_db: f64,
    /// Smallest power \[dBW\].
    pub min_db: f64,
}

impl PowerControl {
    /// A loop starting at the maximum power (checked: finite values, a non-negative step, min ≤ max).
    pub fn new(target_db: f64, step_db: f64, max_db: f64, range_db: f64) -> Result<Self> {
        for (name, value) in [("target_sir_db", target_db), ("max_power_dbw", max_db)] {
            if !value.is_finite() {
                return Err(crate::error::Error::invalid(name, value, "must be a finite number"));
            }
        }
        check::non_negative("step_db", step_db)?;
        check::non_negative("power_range_db", range_db)?;
        Ok(PowerControl { power_db: max_db, target_db, step_db, max_db, min_db: max_db - range_db })
    }

    /// The SIR measured in this slot \[dB\]: set the power for the next slot and return it.
    #[inline]
    pub fn update(&mut self, measured_sir_db: f64) -> f64 {
        let step = if measured_sir_db < self.target_db { self.step_db } else { -self.step_db };
        self.power_db = (self.power_db + step).clamp(self.min_db, self.max_db);
        self.power_db
    }

    /// Whether the power is at its maximum.
    pub fn at_max(&self) -> bool {
        self.power_db >= self.max_db
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_link_without_interference_settles_within_a_step_of_the_target() {
        // SIR = P + c in dB, with c such that the target (5 dB) needs a power 37.3 dB below the maximum:
        // c = 5 + 16 + 37.3. From the maximum the loop steps down 74 times, then toggles between 5.3 and 4.8 dB.
        let gain_minus_noise = 5.0 + 16.0 + 37.3;
        let mut pc = PowerControl::new(5.0, 0.5, -16.0, 80.0).unwrap();
        let mut sir = pc.power_db + gain_minus_noise;
        for _ in 0..200 {
            pc.update(sir);
            sir = pc.power_db + gain_minus_noise;
        }
        // After the descent the loop toggles around the target, within one step.
        for _ in 0..20 {
            pc.update(sir);
            sir = pc.power_db + gain_minus_noise;
            assert!((sir - 5.0).abs() <= 0.5 + 1e-9, "{sir}");
        }
    }

    #[test]
    fn the_power_stays_in_its_range_and_a_zero_step_does_nothing() {
        let mut pc = PowerControl::new(5.0, 1.0, -16.0, 80.0).unwrap();
        for _ in 0..200 {
            pc.update(-100.0); // never enough: stays at the maximum
        }
        assert!(pc.at_max() && pc.power_db == -16.0);
        for _ in 0..200 {
            pc.update(100.0); // always too much: down to the minimum
        }
        assert_eq!(pc.power_db, -96.0);
        let mut idle = PowerControl::new(5.0, 0.0, -16.0, 80.0).unwrap();
        for s in [-50.0, 50.0, 5.0] {
            assert_eq!(idle.update(s), -16.0);
        }
        assert!(PowerControl::new(f64::NAN, 0.5, -16.0, 80.0).is_err());
        assert!(PowerControl::new(5.0, -0.5, -16.0, 80.0).is_err());
    }
}
