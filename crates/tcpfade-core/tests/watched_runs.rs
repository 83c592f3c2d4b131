//! Both drivers under a [`Watch`]: a watch that reports at every look changes nothing in the results,
//! the fractions it is told grow from 0 to 1, and an error from it stops the run with that error.

use std::time::Duration;
use tcpfade_core::channel::{ContinuousLossRule, ContinuousTwoState, SlotChannelSpec};
use tcpfade_core::driver::{run_link, run_link_watched, run_slotted, run_slotted_watched, LinkConfig, SlottedConfig};
use tcpfade_core::error::Error;
use tcpfade_core::tcp::{Rfc6298, SenderConfig, Variant};
use tcpfade_core::watch::Watch;

fn slotted_config() -> SlottedConfig {
    SlottedConfig {
        sender: SenderConfig::new(Variant::Reno, 24, 3, 100.0, 24.0).unwrap(),
        slots: 20_000_000,
        ack_loss: 0.0,
        ack_delay: 0,
        batches: 10,
        trace_slots: 0,
    }
}

fn slotted_channel() -> SlotChannelSpec {
    SlotChannelSpec::GilbertElliott { p: 0.995, q: 0.8, loss_good: 0.0, loss_bad: 1.0 }
}

fn link_config() -> LinkConfig {
    let sender =
        SenderConfig::new(Variant::NewReno, 1 << 16, 3, 1.0, 1e9).unwrap().with_rfc6298(Rfc6298::ns2()).unwrap();
    LinkConfig {
        sender,
        rate: 100.0,
        tau: 0.01,
        buffer: 16,
        duration: 200_000.0,
        warmup: 1000.0,
        batches: 10,
        delayed_ack: None,
    }
}

fn link_channel() -> ContinuousTwoState {
    ContinuousTwoState::new(0.8, 0.2, ContinuousLossRule::AnyInstant([0.0, 1.0]), 7).unwrap()
}

/// The fractions a watch reporting at every look is told, and whether they rose from near 0 to near 1.
fn check_fractions(seen: &[f64]) {
    assert!(seen.len() > 10, "only {} reports", seen.len());
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "fractions went down: {seen:?}");
    assert!(seen[0] < 0.1 && *seen.last().unwrap() > 0.9, "from {} to {}", seen[0], seen.last().unwrap());
}

#[test]
fn a_watched_slotted_run_is_the_same_run() {
    let cfg = slotted_config();
    let plain = run_slotted(&cfg, slotted_channel().build(3).unwrap().as_mut(), 3).unwrap();
    let mut seen = Vec::new();
    let watched = {
        let mut watch = Watch::new(Duration::ZERO, |done| {
            seen.push(done);
            Ok(())
        });
        run_slotted_watched(&cfg, slotted_channel().build(3).unwrap().as_mut(), 3, &mut watch).unwrap()
    };
    assert_eq!(plain, watched);
    check_fractions(&seen);
}

#[test]
fn a_watched_link_run_is_the_same_run() {
    let cfg = link_config();
    let plain = run_link(&cfg, link_channel()).unwrap();
    let mut seen = Vec::new();
    let watched = {
        let mut watch = Watch::new(Duration::ZERO, |done| {
            seen.push(done);
            Ok(())
        });
        run_link_watched(&cfg, link_channel(), &mut watch).unwrap()
    };
    assert_eq!(plain.totals, watched.totals);
    assert_eq!(plain.batches, watched.batches);
    assert_eq!(plain.visits, watched.visits);
    check_fractions(&seen);
}

#[test]
fn an_error_from_the_watch_stops_either_run_where_it_is() {
    let stop_at_half = |done: f64| if done >= 0.5 { Err(Error::Stopped) } else { Ok(()) };
    let mut watch = Watch::new(Duration::ZERO, stop_at_half);
    let slotted = run_slotted_watched(&slotted_config(), slotted_channel().build(3).unwrap().as_mut(), 3, &mut watch);
    assert_eq!(slotted.unwrap_err(), Error::Stopped);
    let mut watch = Watch::new(Duration::ZERO, stop_at_half);
    assert_eq!(run_link_watched(&link_config(), link_channel(), &mut watch).unwrap_err(), Error::Stopped);
}
