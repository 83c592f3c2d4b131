//! Gilbert-Elliott channel against its own theory over 2·10^7 slots (fixed seeds, so exact and
//! repeatable). Tolerances are 4 standard errors derived from the chain's theory:
//! - error rate: the sample mean of a two-state chain's indicator has asymptotic variance
//!   π(1-π)(1+λ)/((1-λ) n), λ = p + q - 1 the second eigenvalue of the transition matrix;
//! - mean burst: bursts are i.i.d. geometric with mean 1/(1-q) and variance q/(1-q)^2.

use proptest::prelude::*;
use tcpfade_core::channel::{GilbertElliott, SlotChannel};

struct Counts {
    slots: u64,
    losses: u64,
    bursts: u64,
}

/// Count losses and bursts of `n` slots, using the skipping path (as a simulator would).
fn count(channel: &mut GilbertElliott, n: u64) -> Counts {
    let (mut slots, mut losses, mut bursts) = (0u64, 0u64, 0u64);
    let mut previous_lost = false;
    while slots < n {
        match channel.next_loss_within(n - slots).unwrap() {
            Some(k) => {
                if k > 0 || !previous_lost {
                    bursts += 1;
                }
                slots += k + 1;
                losses += 1;
                previous_lost = true;
            }
            None => slots = n,
        }
    }
    Counts { slots, losses, bursts }
}

fn check_chain(p: f64, q: f64, seed: u64) {
    let n = 20_000_000u64;
    let mut ch = GilbertElliott::new(p, q, 0.0, 1.0, seed).unwrap();
    let c = count(&mut ch, n);
    assert_eq!(c.slots, n);
    let pi = (1.0 - p) / (2.0 - p - q);
    let lambda = p + q - 1.0;
    let se_rate = (pi * (1.0 - pi) * (1.0 + lambda) / ((1.0 - lambda) * n as f64)).sqrt();
    let rate = c.losses as f64 / n as f64;
    assert!((rate - pi).abs() < 4.0 * se_rate, "p={p} q={q}: error rate {rate} vs {pi} (se {se_rate})");
    let burst_mean = 1.0 / (1.0 - q);
    let se_burst = (q / (1.0 - q).powi(2) / c.bursts as f64).sqrt();
    let burst = c.losses as f64 / c.bursts as f64;
    assert!((burst - burst_mean).abs() < 4.0 * se_burst, "p={p} q={q}: burst {burst} vs {burst_mean} (se {se_burst})");
}

#[test]
fn error_rate_and_mean_burst_match_theory() {
    // chockalingam Table 1 rows (fdT = 0.01, P_E = 0.1 and 0.001) and an i.i.d.-like chain.
    check_chain(0.991872, 0.926851, 1);
    check_chain(0.999329, 0.329452, 2);
    check_chain(0.90182, 0.116376, 3);
}

#[test]
fn bernoulli_error_rate_matches_theory() {
    let n = 20_000_000u64;
    let eps = 0.03;
    let mut ch = GilbertElliott::bernoulli(eps, 5).unwrap();
    let mut losses = 0u64;
    let mut slots = 0u64;
    while let Some(k) = ch.next_loss_within(n - slots).unwrap() {
        slots += k + 1;
        losses += 1;
        if slots == n {
            break;
        }
    }
    let se = (eps * (1.0 - eps) / n as f64).sqrt();
    assert!((losses as f64 / n as f64 - eps).abs() < 4.0 * se);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Skipping through error-free stretches is the same sample path as stepping slot by slot,
    /// for any parameters and any chunking.
    #[test]
    fn skipping_equals_stepping(p in 0.0f64..1.0, q in 0.0f64..1.0, lg in 0.0f64..0.2, lb in 0.5f64..=1.0,
                                seed in any::<u64>(), chunk in 1u64..50) {
        let mut a = GilbertElliott::new(p, q, lg, lb, seed).unwrap();
        let mut b = a.clone();
        let n = 3000u64;
        let stepped: Vec<bool> = (0..n).map(|_| a.next_slot().unwrap()).collect();
        let mut skipped = Vec::with_capacity(n as usize);
        while (skipped.len() as u64) < n {
            let limit = chunk.min(n - skipped.len() as u64);
            match b.next_loss_within(limit).unwrap() {
                Some(k) => { skipped.extend(std::iter::repeat(false).take(k as usize)); skipped.push(true); }
                None => skipped.extend(std::iter::repeat(false).take(limit as usize)),
            }
        }
        prop_assert_eq!(stepped, skipped);
    }
}
