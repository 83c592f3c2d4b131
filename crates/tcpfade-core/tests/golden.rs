//! Golden digests: every count and output of the three drivers over a grid of variants, channels, timers and
//! options, hashed and compared with the values recorded from the code before the sender was split into parts
//! (issue 33). The reference is that older code itself: a refactor that changes any bit of any outcome (a
//! count, a float's last bit, a frame's time) fails here. `GOLDEN_WRITE=1` rewrites
//! tests/golden/*.txt; never do that to make a refactor pass.
//!
//! The digest is FNV-1a over the outcome's `Debug` text: Rust prints an f64 as the shortest text that reads
//! back to the same bits, so equal text is equal bits.

use tcpfade_core::channel::{ContinuousLossRule, ContinuousTwoState, GilbertElliott, PacketClocked, PerPacket};
use tcpfade_core::driver::{
    run_link, run_slotted, run_transfer, LinkChannel, LinkConfig, Metering, PerfectChannel, SlottedConfig,
    TransferConfig,
};
use tcpfade_core::tcp::{BestRtt, Rfc6298, RttRange, SenderConfig, Variant};
use tcpfade_core::watch::Watch;

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

const TCP: [Variant; 4] = [Variant::OldTahoe, Variant::Tahoe, Variant::Reno, Variant::NewReno];

/// (guard, byte counting) pairs worth running for a variant: the guard only matters for NewReno.
fn options(variant: Variant) -> Vec<(bool, bool)> {
    if variant == Variant::NewReno {
        vec![(false, false), (true, false), (false, true), (true, true)]
    } else {
        vec![(false, false), (false, true)]
    }
}

fn slotted_cases(out: &mut Vec<(String, u64)>) {
    let channels = [("ge_slow", 0.997518, 0.754305), ("ge_fast", 0.90182, 0.116376)];
    for variant in TCP {
        for (guard, bc) in options(variant) {
            for (name, p, q) in channels {
                for (ack_loss, ack_delay, trace) in [(0.0, 0, 0), (0.0, 0, 300), (0.05, 0, 0), (0.0, 2, 0), (0.1, 3, 50)] {
                    for seed in [1u64, 7] {
                        let sender = SenderConfig::new(variant, 24, 3, 30.0, 24.0)
                            .unwrap()
                            .with_recover_guard(guard)
                            .unwrap()
                            .with_byte_counting(bc);
                        let cfg = SlottedConfig { sender, slots: 60_000, ack_loss, ack_delay, batches: 7, trace_slots: trace };
                        let mut ch = GilbertElliott::new(p, q, 0.0, 1.0, seed).unwrap();
                        let o = run_slotted(&cfg, &mut ch, seed).unwrap();
                        let key = format!(
                            "slotted/{}/guard={guard}/bc={bc}/{name}/ackloss={ack_loss}/delay={ack_delay}/trace={trace}/seed={seed}",
                            variant.name()
                        );
                        out.push((key, fnv(&format!("{o:?}"))));
                    }
                }
            }
        }
    }
}

fn link_cases(out: &mut Vec<(String, u64)>) {
    for variant in TCP {
        for (guard, bc) in options(variant) {
            for timer in ["rfc6298", "fixed"] {
                for delack in [None, Some(0.1)] {
                    for channel in ["perfect", "abouzeid", "abouzeid_fast", "packet_clocked", "per_packet"] {
                        for seed in [1u64, 2] {
                            let base = SenderConfig::new(variant, 64, 3, 1.5, 1e9).unwrap();
                            let base = if timer == "rfc6298" { base.with_rfc6298(Rfc6298::ns2()).unwrap() } else { base };
                            let sender = base.with_recover_guard(guard).unwrap().with_byte_counting(bc);
                            let cfg = LinkConfig {
                                sender,
                                rate: 100.0,
                                tau: 0.05,
                                buffer: 6,
                                duration: 200.0,
                                warmup: 20.0,
                                batches: 5,
                                delayed_ack: delack,
                            };
                            let rule = ContinuousLossRule::AnyInstant([0.0, 1.0]);
                            let o = match channel {
                                "perfect" => run_link(&cfg, PerfectChannel),
                                "abouzeid" => run_link(&cfg, ContinuousTwoState::new(0.8, 0.2, rule, seed).unwrap()),
                                "abouzeid_fast" => run_link(&cfg, ContinuousTwoState::new(0.05, 0.01, rule, seed).unwrap()),
                                "packet_clocked" => run_link(
                                    &cfg,
                                    PacketClocked::new(ContinuousTwoState::new(0.5, 0.05, rule, seed).unwrap()),
                                ),
                                _ => run_link(&cfg, PerPacket(Box::new(GilbertElliott::new(0.99, 0.5, 0.0, 1.0, seed).unwrap()))),
                            }
                            .unwrap();
                            let key = format!(
                                "link/{}/guard={guard}/bc={bc}/{timer}/delack={delack:?}/{channel}/seed={seed}",
                                variant.name()
                            );
                            out.push((key, fnv(&as_recorded(&format!("{o:?}"), LINK_ADDED))));
                        }
                    }
                }
            }
        }
    }
}

fn transfer_config(sender: SenderConfig, delayed_ack: Option<f64>, drop_acks: bool, loss_on_air: bool) -> TransferConfig {
    TransferConfig {
        sender,
        size: 400_000,
        mss: 1000,
        header_bytes: 20,
        syn_option_bytes: 4,
        probe_option_bytes: 8,
        rate: 1_000_000.0,
        metering: Metering::Frame,
        delay: 0.01,
        delayed_ack,
        drop_acks,
        loss_on_air,
        time_limit: 2_000.0,
        record_frames: true,
    }
}

fn transfer_cases(out: &mut Vec<(String, u64)>) {
    let rfc = Rfc6298 { initial: 1.0, min: 0.2, max: 64.0, granularity: 0.01, max_backoff: 64 };
    let mut senders: Vec<(String, SenderConfig)> = Vec::new();
    for variant in TCP {
        for (guard, bc) in options(variant) {
            let s = SenderConfig::new(variant, 20, 3, 1.0, 20.0).unwrap().with_rfc6298(rfc).unwrap();
            senders.push((format!("{}/guard={guard}/bc={bc}", variant.name()), s.with_recover_guard(guard).unwrap().with_byte_counting(bc)));
        }
    }
    for reading in [BestRtt::Earlier, BestRtt::Data, BestRtt::Probes] {
        for bc in [false, true] {
            let s = SenderConfig::new(Variant::Probing, 20, 3, 1.0, 20.0).unwrap().with_rfc6298(rfc).unwrap();
            senders.push((format!("probing/{reading:?}/bc={bc}"), s.with_best_rtt(reading).with_byte_counting(bc)));
        }
    }
    for (name, sender) in senders {
        for delack in [None, Some(0.05)] {
            for (drop_acks, on_air) in [(false, false), (true, false), (true, true)] {
                for channel in ["perfect", "onoff_slow", "onoff_fast"] {
                    for (rule_name, low, high) in [("paper", 1.0, 1.0), ("wide", 0.5, 2.0)] {
                        if channel == "perfect" && rule_name == "wide" {
                            continue;
                        }
                        let seeds: &[u64] = if channel == "perfect" { &[0] } else { &[3, 4] };
                        for &seed in seeds {
                            let cfg = transfer_config(sender, delack, drop_acks, on_air);
                            let mut rule = RttRange::new(low, high).unwrap();
                            let o = match channel {
                                "perfect" => run_transfer(&cfg, PerfectChannel, &mut rule, &mut Watch::quiet()),
                                "onoff_slow" => {
                                    let ch = ContinuousTwoState::new(1.0, 1.0, ContinuousLossRule::StateAtStart([0.0, 0.5]), seed)
                                        .unwrap();
                                    run_transfer(&cfg, ch, &mut rule, &mut Watch::quiet())
                                }
                                _ => {
                                    let ch = ContinuousTwoState::new(0.1, 0.05, ContinuousLossRule::StateAtStart([0.01, 0.3]), seed)
                                        .unwrap();
                                    run_transfer(&cfg, ch, &mut rule, &mut Watch::quiet())
                                }
                            }
                            .unwrap();
                            let key = format!(
                                "transfer/{name}/delack={delack:?}/drop_acks={drop_acks}/on_air={on_air}/{channel}/{rule_name}/seed={seed}"
                            );
                            out.push((key, fnv(&as_recorded(&format!("{o:?}"), &[", spurious_timeouts: "]))));
                        }
                    }
                }
            }
        }
    }
}

/// Keep the type check of the channel trait objects honest (a boxed channel drives the link too).
#[allow(dead_code)]
fn boxed(cfg: &LinkConfig, ch: Box<dyn LinkChannel + Send>) {
    let _ = run_link(cfg, ch);
}

/// Compare with tests/golden/<driver>.txt, one `case digest` line each (written by `GOLDEN_WRITE=1` at the
/// baseline commit).
fn check(driver: &str, cases: Vec<(String, u64)>) {
    let path = format!("{}/tests/golden/{driver}.txt", env!("CARGO_MANIFEST_DIR"));
    let lines: Vec<String> = cases.iter().map(|(k, d)| format!("{k} {d:016x}")).collect();
    if std::env::var_os("GOLDEN_WRITE").is_some() {
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap();
    let recorded: Vec<&str> = recorded.lines().collect();
    assert_eq!(recorded.len(), lines.len(), "{driver}: number of cases");
    let changed: Vec<String> = lines
        .iter()
        .zip(&recorded)
        .filter(|(now, then)| now.as_str() != **then)
        .map(|(now, then)| format!("{then} -> {now}"))
        .collect();
    assert!(changed.is_empty(), "{driver}: {} of {} outcomes changed:\n{}", changed.len(), lines.len(), changed.join("\n"));
}

#[test]
fn slotted_outcomes_are_unchanged() {
    let mut cases = Vec::new();
    slotted_cases(&mut cases);
    check("slotted", cases);
}

#[test]
fn link_outcomes_are_unchanged() {
    let mut cases = Vec::new();
    link_cases(&mut cases);
    check("link", cases);
}

#[test]
fn transfer_outcomes_are_unchanged() {
    let mut cases = Vec::new();
    transfer_cases(&mut cases);
    check("transfer", cases);
}

/// The fields `LinkCounts` gained since the digests were recorded (see [`as_recorded`]).
const LINK_ADDED: &[&str] = &[", retransmissions: ", ", new_received: ", ", acks: ", ", timer_acks: ", ", spurious_timeouts: "];

/// An outcome's text as it was when the digests were recorded: `LinkCounts` has since gained `retransmissions` (issue
/// 33: every simulator reports them), `new_received` (issue 35: what a measurement at the link counts), `acks` and
/// `timer_acks`, and `SenderCounters` (in both drivers' outcomes) `spurious_timeouts` (F-RTO's undone timeouts), which
/// are taken out again (`added`, each field's ", name: " as it prints) so that every count the digests hold is still
/// compared.
fn as_recorded(text: &str, added: &[&str]) -> String {
    let mut text = text.to_string();
    for field in added {
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(i) = rest.find(field) {
            out.push_str(&rest[..i]);
            let tail = &rest[i + field.len()..];
            let digits = tail.find(|c: char| !c.is_ascii_digit()).unwrap_or(tail.len());
            rest = &tail[digits..];
        }
        out.push_str(rest);
        text = out;
    }
    text
}
