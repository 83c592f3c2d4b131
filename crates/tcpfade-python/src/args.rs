//! The arguments of a model as the Python declaration names them (`tcpfade._params`, `tcpfade.tcp.parameters`):
//! the checked arguments arrive as one dict, and each struct here takes its fields from it by name. A parameter is
//! thus written once on each side of the boundary: its `Param` in Python, its field here.

use pyo3::prelude::*;
use tcpfade_core::error::Result;
use tcpfade_core::tcp::{
    CubicAlpha, DelayedAckRule, PartialAck, PrrBound, RackTimers, Rfc6298, RwndRule, SenderConfig, SsthreshRule, Variant,
};

/// The sender's window rules (`tcpfade.tcp.parameters.SENDER`) and its variant.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct SenderArgs {
    pub variant: String,
    pub wmax: u64,
    pub dupthresh: u64,
    pub initial_ssthresh: f64,
    pub initial_window: u64,
    pub recover_guard: bool,
    pub byte_counting: bool,
    pub ssthresh_rule: String,
    pub limited_transmit: bool,
    pub sack: bool,
    pub prr: bool,
    pub prr_bound: String,
    pub prr_partial_ack: String,
    pub rack: bool,
    pub rack_timers: String,
    pub frto: bool,
    pub hystart: bool,
    pub hold_ssthresh_on_rto: bool,
    pub cubic_alpha: String,
    pub integer_window: bool,
    pub ssthresh_once_per_window: bool,
    pub cwnd_limited: bool,
}

/// RFC 6298's timer, or a fixed RTO (`tcpfade.tcp.parameters.TIMER`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct TimerArgs {
    pub rto: Option<f64>,
    pub initial_rto: f64,
    pub min_rto: f64,
    pub max_rto: f64,
    pub clock_granularity: f64,
    pub max_backoff: u32,
    pub rto_rule: String,
    pub timestamps: bool,
}

impl SenderArgs {
    /// The core's sender configuration with `timer`.
    pub(crate) fn config(&self, timer: &TimerArgs) -> Result<SenderConfig> {
        let sender = self.window(timer.rto.unwrap_or(1.0))?;
        let params = Rfc6298 {
            initial: timer.initial_rto,
            min: timer.min_rto,
            max: timer.max_rto,
            granularity: timer.clock_granularity,
            max_backoff: timer.max_backoff,
        };
        let sender = sender.with_timestamps(timer.timestamps);
        match (timer.rto, timer.rto_rule.as_str()) {
            (Some(_), _) => Ok(sender),
            (None, "linux") => sender.with_linux_rto(params),
            (None, _) => sender.with_rfc6298(params),
        }
    }

    /// [`SenderArgs::config`] with the receiver's rules, for the drivers that model its ACKs (the link and the
    /// transfer; `delayed_ack_rule` and `rwnd_rule` are declared beside `delayed_ack`): delayed ACKs ruled by
    /// `ack_rule` and the window by `rwnd_rule` (by name), for segments of `mss` bytes of payload.
    /// `receive_buffer`: the receiver's buffer in segments, at least `wmax` (which the sender's buffer may hold lower).
    pub(crate) fn config_with_acks(&self, timer: &TimerArgs, ack_rule: &str, rwnd_rule: &str, mss: u64,
                                   receive_buffer: u64) -> Result<SenderConfig> {
        self.config(timer)?.with_delayed_ack_rule(DelayedAckRule::from_name(ack_rule)?)
            .with_rwnd_rule(RwndRule::from_name(rwnd_rule, mss)?).with_receive_buffer(receive_buffer)
    }

    /// The sender's window rules with a fixed timeout of `rto` (seconds, or slots in the slotted model).
    pub(crate) fn window(&self, rto: f64) -> Result<SenderConfig> {
        let variant = Variant::from_name(&self.variant)?;
        Ok(SenderConfig::new(variant, self.wmax, self.dupthresh, rto, self.initial_ssthresh)?
            .with_initial_window(self.initial_window)?
            .with_recover_guard(self.recover_guard)?
            .with_byte_counting(self.byte_counting)
            .with_ssthresh_rule(SsthreshRule::from_name(&self.ssthresh_rule)?)
            .with_limited_transmit(self.limited_transmit)?
            .with_sack(self.sack)?
            .with_prr_bound(if self.prr { Some(PrrBound::from_name(&self.prr_bound)?) } else { None })?
            .with_rack(self.rack)?
            .with_rack_timers(RackTimers::from_name(&self.rack_timers)?)
            .with_frto(self.frto)?
            .with_prr_partial_ack(PartialAck::from_name(&self.prr_partial_ack)?)
            .with_hystart(self.hystart)
            .with_hold_ssthresh_on_rto(self.hold_ssthresh_on_rto)
            .with_cubic_alpha(CubicAlpha::from_name(&self.cubic_alpha)?)
            .with_integer_window(self.integer_window)
            .with_ssthresh_once_per_window(self.ssthresh_once_per_window)
            .with_cwnd_limited(self.cwnd_limited))
    }
}

/// The event-driven link's run (`tcpfade.tcp.link.LINK`, after `link_arguments`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct LinkArgs {
    pub rate: f64,
    pub tau: f64,
    pub buffer: u64,
    pub duration: f64,
    pub warmup: f64,
    pub batches: u64,
    pub delayed_ack: Option<f64>,
    pub delayed_ack_rule: String,
    pub rwnd_rule: String,
    /// The bytes of payload a packet carries, for `rwnd_rule` (computed by `tcpfade.tcp.link`, not a parameter).
    pub rwnd_mss: u64,
    /// The receiver's buffer in packets, Wmax before the sender's buffer caps it (computed, not a parameter).
    pub receive_buffer: u64,
    pub seed: u64,
}

/// A finite transfer's workload and link (`tcpfade.tcp.transfer.TRANSFER`, after `transfer_arguments`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct TransferArgs {
    pub size_bytes: u64,
    pub mss: u64,
    pub header_bytes: u64,
    pub syn_option_bytes: u64,
    pub probe_option_bytes: u64,
    pub rate_bps: f64,
    pub metering: String,
    pub delay: f64,
    pub delayed_ack: Option<f64>,
    pub delayed_ack_rule: String,
    pub rwnd_rule: String,
    /// The receiver's buffer in segments, rwnd_bytes // mss (computed by `tcpfade.tcp.transfer`, not a parameter).
    pub receive_buffer: u64,
    pub drop_acks: bool,
    pub loss_on_air: bool,
    pub time_limit: f64,
    pub best_rtt: String,
    pub record_frames: bool,
    pub seed: u64,
}

/// The slotted model's run (`tcpfade.tcp.slotted.SLOTTED`, after `simulation_arguments`): T0 and the ACK delay in
/// slots.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct SlottedArgs {
    pub rto_slots: u64,
    pub slots: u64,
    pub ack_loss: f64,
    pub ack_delay_slots: u64,
    pub batches: u64,
    pub trace_slots: u64,
    pub seed: u64,
}

/// The WCDMA uplink's run, layout and radio (`tcpfade.wcdma.simulate_system`'s checked arguments; the ray profile
/// and the SIR reference are read beside, as names or powers).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct SystemArgs {
    pub users: usize,
    pub doppler_hz: f64,
    pub target_sir_db: f64,
    pub step_db: f64,
    pub slots: u64,
    pub fading: bool,
    pub cells_per_side: usize,
    pub cell_side: f64,
    pub path_loss_db: f64,
    pub path_loss_exponent: f64,
    pub shadowing_db: f64,
    pub spreading_factor: f64,
    pub noise_dbw: f64,
    pub max_power_dbw: f64,
    pub power_range_db: f64,
    pub oscillators: u64,
    pub sir_reference: String,
    pub seed: u64,
}
