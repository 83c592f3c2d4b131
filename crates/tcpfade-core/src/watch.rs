//! How a caller follows a long run and stops it.
//!
//! A run of 10¹¹ slots or 10⁸ simulated seconds takes minutes. The drivers call [`Watch::tick`] once per
//! step of their main loop (the link driver, once per ACK or timer it handles); about every interval given to [`Watch::new`] the watch hands the fraction
//! done to its caller's `report`, and an error from `report` ends the run with that error. That is how
//! the Python bindings draw a progress bar and answer Ctrl-C (a signal can only be seen with the GIL,
//! which a run does not hold). The results never depend on the watch: it reads the clock, never the
//! simulation's state, and the run carries on exactly as it would without it.

use crate::error::Result;
use std::time::{Duration, Instant};

/// Loop steps between two looks at the clock: a look costs about 25 ns, a step 10-100 ns, so the
/// clock costs under 0.1% and a report comes at most a few milliseconds late.
const STEPS_PER_LOOK: u32 = 4096;

/// A caller's view of a run: `report(fraction done)`, at most once per `every`.
pub struct Watch<'a> {
    report: Option<Box<dyn FnMut(f64) -> Result<()> + 'a>>,
    every: Duration,
    next_report: Instant,
    countdown: u32,
}

impl<'a> Watch<'a> {
    /// Report the fraction done to `report` about every `every` (the first time after `every`).
    pub fn new(every: Duration, report: impl FnMut(f64) -> Result<()> + 'a) -> Self {
        Watch { report: Some(Box::new(report)), every, next_report: Instant::now() + every, countdown: STEPS_PER_LOOK }
    }

    /// A watch that never reports: a run nobody follows.
    pub fn quiet() -> Self {
        Watch { report: None, every: Duration::MAX, next_report: Instant::now(), countdown: u32::MAX }
    }

    /// One step of a driver's loop; `done` (the fraction of the run done, 0 to 1) is evaluated only when
    /// a report is due. An error from the report ends the run.
    #[inline]
    pub fn tick(&mut self, done: impl FnOnce() -> f64) -> Result<()> {
        if self.countdown > 0 {
            self.countdown -= 1;
            return Ok(());
        }
        self.look(done)
    }

    /// For a loop whose steps are long (a real-time run waking every few milliseconds): report now if a
    /// report is due, without counting steps first.
    pub fn look_now(&mut self, done: impl FnOnce() -> f64) -> Result<()> {
        self.look(done)
    }

    #[cold]
    fn look(&mut self, done: impl FnOnce() -> f64) -> Result<()> {
        let Some(report) = self.report.as_mut() else {
            self.countdown = u32::MAX;
            return Ok(());
        };
        self.countdown = STEPS_PER_LOOK;
        let now = Instant::now();
        if now < self.next_report {
            return Ok(());
        }
        self.next_report = now + self.every;
        report(done().clamp(0.0, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn reports_only_when_due_and_passes_the_error_on() {
        let mut seen = Vec::new();
        {
            let mut watch = Watch::new(Duration::ZERO, |done| {
                seen.push(done);
                if seen.len() == 2 {
                    Err(Error::Stopped)
                } else {
                    Ok(())
                }
            });
            let mut outcome = Ok(());
            for i in 0..(3 * (STEPS_PER_LOOK + 1)) {
                outcome = watch.tick(|| f64::from(i) / 1e5);
                if outcome.is_err() {
                    break;
                }
            }
            assert_eq!(outcome, Err(Error::Stopped));
        }
        // The first look comes after STEPS_PER_LOOK steps, the next one STEPS_PER_LOOK + 1 steps later.
        let first = f64::from(STEPS_PER_LOOK) / 1e5;
        assert_eq!(seen, vec![first, first + f64::from(STEPS_PER_LOOK + 1) / 1e5]);
    }

    #[test]
    fn a_report_is_not_due_before_its_interval() {
        let mut calls = 0;
        let mut watch = Watch::new(Duration::from_secs(3600), |_| {
            calls += 1;
            Ok(())
        });
        for _ in 0..100_000 {
            watch.tick(|| 0.5).unwrap();
        }
        drop(watch);
        assert_eq!(calls, 0);
    }

    #[test]
    fn a_quiet_watch_never_reports() {
        let mut watch = Watch::quiet();
        for _ in 0..100_000 {
            watch.tick(|| panic!("a quiet watch asked for the fraction done")).unwrap();
        }
    }
}
