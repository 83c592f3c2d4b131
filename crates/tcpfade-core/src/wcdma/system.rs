//! The uplink, slot by slot (zorzi-rossi-mazzini §2.1, Table 1).
//!
//! In slot t, user u (power P_u, served by station b) is received at b with S_u = P_u·G_ub·f_u(t), where G is
//! the mean path gain (path loss and shadowing, fixed for the run) and f_u(t) = Σ_r p_r |h_ur(t)|² is the RAKE's
//! maximal-ratio combination of its rays, each an independent Jakes Rayleigh process (8 oscillators) at the
//! Doppler f_d, p_r the ray profile's powers (sum 1). Its SIR after despreading is
//!
//!   SIR_u = SF · S_u / (Σ_{v ≠ u} R_vb + N),
//!
//! with SF = 16 (3.84 Mcps, 240 kb/s) and R_vb what b receives from v: S_v for users it serves (their fading
//! included: the intra-cell interference fluctuates with it), P_v·G_vb for the others. That is the SIR per coded
//! symbol, what the decoder sees (the traces keep it). The power control compares the target with the SIR in its
//! [`SirReference`] (decision D13): per coded symbol as above, or per information bit with the processing gain
//! W/R instead of SF (W = 3.84 Mcps, R = 1050 bits per 10 ms, §2.3), i.e. SIR_bit = SIR_sym · W / (SF·R), +3.59 dB
//! at SF = 16. Fast fading is on each
//! user's link to its serving station only: with dozens of interferers at every station the fading of the other
//! links averages out, and giving each of the users × stations × rays links its own Jakes process would cost
//! 25 times as much for little. Then every user's power control acts on its SIR (one slot late).

use super::layout::Layout;
use super::power_control::PowerControl;
use crate::channel::jakes::{JakesBank, JakesFading};
use crate::check;
use crate::error::{Error, Result};
use crate::rng::{stream, Stream};
use crate::watch::Watch;

/// A multipath intensity profile: the rays' relative powers.
#[derive(Debug, Clone, PartialEq)]
pub enum RayProfile {
    /// ITU-R M.1225 Vehicular A without its weakest tap (−20 dB, 0.4% of the power): five rays, as the paper
    /// has, at 0, −1, −9, −10, −15 dB. The default.
    VehicularA5,
    /// ITU-R M.1225 Vehicular A: 0, −1, −9, −10, −15, −20 dB.
    VehicularA,
    /// ITU-R M.1225 Pedestrian A: 0, −9.7, −19.2, −22.8 dB.
    PedestrianA,
    /// ITU-R M.1225 Pedestrian B: 0, −0.9, −4.9, −8.0, −7.8, −23.9 dB.
    PedestrianB,
    /// Any powers in dB.
    Custom(Vec<f64>),
}

impl RayProfile {
    /// The names [`RayProfile::from_name`] takes.
    pub const NAMES: [&'static str; 4] = ["vehicular-a-5", "vehicular-a", "pedestrian-a", "pedestrian-b"];

    /// A named profile.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "vehicular-a-5" => Ok(RayProfile::VehicularA5),
            "vehicular-a" => Ok(RayProfile::VehicularA),
            "pedestrian-a" => Ok(RayProfile::PedestrianA),
            "pedestrian-b" => Ok(RayProfile::PedestrianB),
            _ => Err(Error::invalid("rays", name, &format!("must be one of {} (or powers in dB)", Self::NAMES.join(", ")))),
        }
    }

    /// The rays' powers in dB.
    pub fn powers_db(&self) -> Vec<f64> {
        match self {
            RayProfile::VehicularA5 => vec![0.0, -1.0, -9.0, -10.0, -15.0],
            RayProfile::VehicularA => vec![0.0, -1.0, -9.0, -10.0, -15.0, -20.0],
            RayProfile::PedestrianA => vec![0.0, -9.7, -19.2, -22.8],
            RayProfile::PedestrianB => vec![0.0, -0.9, -4.9, -8.0, -7.8, -23.9],
            RayProfile::Custom(p) => p.clone(),
        }
    }

    /// The rays' powers, linear, summing to 1.
    pub fn weights(&self) -> Result<Vec<f64>> {
        let db = self.powers_db();
        if db.is_empty() || db.len() > 32 || db.iter().any(|x| !x.is_finite() || x.abs() > 100.0) {
            return Err(Error::invalid("rays", format!("{db:?}"), "must be 1 to 32 finite powers in [-100, 100] dB"));
        }
        let lin: Vec<f64> = db.iter().map(|x| 10f64.powf(x / 10.0)).collect();
        let total: f64 = lin.iter().sum();
        Ok(lin.into_iter().map(|x| x / total).collect())
    }
}

/// The chip rate W of UTRA [chip/s] (Table 1).
pub const CHIP_RATE: f64 = 3.84e6;

/// The information bit rate R of the paper's bearer [bit/s]: a 1050-bit transport block every 10 ms (§2.3).
pub const PAPER_BIT_RATE: f64 = 105_000.0;

/// Which SIR the power control compares with its target (decision D13; the paper, §2.1, says "SIR" only).
///
/// The decoder always sees the SIR per coded symbol (SF·S/(I + N)); the reference only moves the loop's
/// measurement by a constant: SIR_bit = SIR_sym · W/(SF·R). With the paper's figures (§2.3) the 1050-bit block
/// becomes 2·(1050 + 16 + 8) = 2148 coded bits, repeated to 2400 symbols a frame, so each information bit is
/// carried by 2400/1050 symbols: W/(SF·R) = 3.84e6/(16 · 105e3) = 2400/1050 = 2.2857, +3.590 dB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SirReference {
    /// Per coded symbol, after despreading by SF: what the decoder sees.
    CodedSymbol,
    /// Per information bit (Eb/I0), with the processing gain W/R.
    InformationBit,
}

impl SirReference {
    /// The names [`SirReference::from_name`] takes.
    pub const NAMES: [&'static str; 2] = ["symbol", "bit"];

    /// A named reference: "symbol" or "bit".
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "symbol" => Ok(SirReference::CodedSymbol),
            "bit" => Ok(SirReference::InformationBit),
            _ => Err(Error::invalid("sir_reference", name, "must be \"symbol\" or \"bit\"")),
        }
    }

    /// dB added to the SIR per coded symbol to give the SIR in this reference: 0, or 10·log10(W/(SF·R)).
    pub fn offset_db(self, spreading_factor: f64, bit_rate: f64) -> f64 {
        match self {
            SirReference::CodedSymbol => 0.0,
            SirReference::InformationBit => 10.0 * (CHIP_RATE / (spreading_factor * bit_rate)).log10(),
        }
    }
}

/// Parameters of a run (defaults: [`SystemConfig::paper`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SystemConfig {
    /// Users N_u.
    pub users: usize,
    /// Cells per side of the torus (5: 25 cells).
    pub cells_per_side: usize,
    /// Cell side \[m\].
    pub cell_side: f64,
    /// A of the path loss A·r^−β \[dB\].
    pub path_loss_db: f64,
    /// β.
    pub path_loss_exponent: f64,
    /// Shadowing spread σ \[dB\].
    pub shadowing_db: f64,
    /// Doppler frequency f_d \[Hz\].
    pub doppler_hz: f64,
    /// Slot (power-control period) \[s\].
    pub slot: f64,
    /// Jakes oscillators N0.
    pub oscillators: u64,
    /// The rays.
    pub rays: RayProfile,
    /// Spreading factor (processing gain).
    pub spreading_factor: f64,
    /// Thermal noise \[dBW\].
    pub noise_dbw: f64,
    /// Largest transmit power \[dBW\].
    pub max_power_dbw: f64,
    /// Power control range below the maximum \[dB\].
    pub power_range_db: f64,
    /// Power control step Δ \[dB\].
    pub step_db: f64,
    /// Power control target t \[dB\], in the SIR of `sir_reference`.
    pub target_sir_db: f64,
    /// The SIR the power control compares with its target (D13).
    pub sir_reference: SirReference,
    /// The information bit rate R for [`SirReference::InformationBit`] [bit/s].
    pub bit_rate: f64,
    /// Slots to simulate.
    pub slots: u64,
    /// Rayleigh fading on the rays (off: every ray at its mean power, for checks).
    pub fading: bool,
}

impl SystemConfig {
    /// Table 1 of zorzi-rossi-mazzini with `users` users, Doppler `doppler_hz` and target `target_sir_db`.
    pub fn paper(users: usize, doppler_hz: f64, target_sir_db: f64, slots: u64) -> Self {
        SystemConfig {
            users,
            cells_per_side: 5,
            cell_side: 200.0,
            path_loss_db: -30.0,
            path_loss_exponent: 3.5,
            shadowing_db: 4.0,
            doppler_hz,
            slot: 0.01 / 15.0,
            oscillators: 8,
            rays: RayProfile::VehicularA5,
            spreading_factor: 16.0,
            noise_dbw: -132.0,
            max_power_dbw: -16.0,
            power_range_db: 80.0,
            step_db: 0.5,
            target_sir_db,
            sir_reference: SirReference::CodedSymbol,
            bit_rate: PAPER_BIT_RATE,
            slots,
            fading: true,
        }
    }
}

/// What a run produced: per-user traces (row-major, `users` × `slots`) and summaries.
#[derive(Debug, Clone)]
pub struct SystemOutcome {
    /// SIR after despreading \[dB\].
    pub sir_db: Vec<f32>,
    /// Transmit power \[dBW\].
    pub power_dbw: Vec<f32>,
    /// Own-link RAKE fading gain Σ p_r |h_r|² \[dB\].
    pub fading_db: Vec<f32>,
    /// Slots each user spent at the maximum power.
    pub max_power_slots: Vec<u64>,
    /// The layout (positions, gains, serving stations).
    pub layout: Layout,
}

/// 10^(x/10) for the power control's levels, remembered: the loop moves on a grid of steps below the maximum,
/// so a few hundred values serve a whole run and `powf` (a fifth of the run's time) is called once for each.
/// An entry is used only when its key is the very same level (bit for bit), so the values are `powf`'s.
struct LevelPowers {
    top: f64,
    step: f64,
    keys: Vec<f64>,
    values: Vec<f64>,
}

impl LevelPowers {
    /// Levels from `top` down by `step` over `range` dB (no memory when the grid would be too fine).
    fn new(top: f64, step: f64, range: f64) -> Self {
        let levels = if step > 0.0 { (range / step).ceil() + 2.0 } else { 1.0 };
        let n = if levels <= 65_536.0 { levels as usize } else { 0 };
        LevelPowers { top, step: if step > 0.0 { step } else { 1.0 }, keys: vec![f64::NAN; n], values: vec![0.0; n] }
    }

    #[inline]
    fn linear(&mut self, db: f64) -> f64 {
        // The nearest level's index (a cast, not `round`, which is a libm call here).
        let i = ((self.top - db) / self.step + 0.5) as isize;
        if i >= 0 && (i as usize) < self.keys.len() {
            let i = i as usize;
            if self.keys[i].to_bits() != db.to_bits() {
                (self.keys[i], self.values[i]) = (db, 10f64.powf(db / 10.0));
            }
            self.values[i]
        } else {
            10f64.powf(db / 10.0)
        }
    }
}

/// Simulate the uplink for `cfg.slots` slots (traces of every slot kept).
pub fn run_system(cfg: &SystemConfig, seed: u64, watch: &mut Watch) -> Result<SystemOutcome> {
    check::int_in("slots", cfg.slots, 1, 1 << 40)?;
    if !(cfg.doppler_hz.is_finite() && cfg.doppler_hz > 0.0 && cfg.doppler_hz <= 1e4) {
        return Err(Error::invalid("doppler_hz", cfg.doppler_hz, "must be a finite number in (0, 1e4] Hz"));
    }
    check::positive("slot", cfg.slot)?;
    check::positive("spreading_factor", cfg.spreading_factor)?;
    check::positive("bit_rate", cfg.bit_rate)?;
    let reference_db = cfg.sir_reference.offset_db(cfg.spreading_factor, cfg.bit_rate);
    let weights = cfg.rays.weights()?;
    let mut rng = stream(seed, Stream::ChannelState);
    let layout = Layout::new(cfg.users, cfg.cells_per_side, cfg.cell_side, cfg.path_loss_db, cfg.path_loss_exponent,
                             cfg.shadowing_db, &mut rng)?;
    let (users, stations, slots) = (cfg.users, layout.stations.len(), cfg.slots as usize);
    let fdt = cfg.doppler_hz * cfg.slot;
    // Simulator (u, r) at index u·rays + r, all advanced together.
    let rays = weights.len();
    let mut fading = JakesBank::new(&(0..users * rays)
        .map(|k| {
            let (u, r) = (k / rays, k % rays);
            JakesFading::new(fdt, cfg.oscillators, 1, seed ^ (((u as u64) << 8 | r as u64) + 1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15))
        })
        .collect::<Result<Vec<_>>>()?)?;
    let mut ray_power = vec![0.0; users * rays];
    let mut levels = LevelPowers::new(cfg.max_power_dbw, cfg.step_db, cfg.power_range_db);
    let mut control: Vec<PowerControl> = (0..users)
        .map(|_| PowerControl::new(cfg.target_sir_db, cfg.step_db, cfg.max_power_dbw, cfg.power_range_db))
        .collect::<Result<_>>()?;
    let noise = 10f64.powf(cfg.noise_dbw / 10.0);
    let mut out = SystemOutcome {
        sir_db: vec![0.0; users * slots],
        power_dbw: vec![0.0; users * slots],
        fading_db: vec![0.0; users * slots],
        max_power_slots: vec![0; users],
        layout,
    };
    let layout = &out.layout;
    let (mut power, mut own, mut received) = (vec![0.0; users], vec![0.0; users], vec![0.0; stations]);
    let mut f = vec![0.0; users];
    for t in 0..slots {
        received.fill(0.0);
        if cfg.fading {
            fading.next_powers(&mut ray_power);
        }
        for u in 0..users {
            power[u] = levels.linear(control[u].power_db);
            f[u] = if cfg.fading {
                ray_power[u * rays..(u + 1) * rays].iter().zip(&weights).map(|(h, w)| w * h).sum::<f64>()
            } else {
                1.0
            };
            let b = layout.serving[u];
            own[u] = power[u] * layout.gain[u][b] * f[u];
            // Both sides computed, one kept: a select, not a branch, so the loop vectorizes.
            let (p, o) = (power[u], own[u]);
            for (s, (r, g)) in received.iter_mut().zip(&layout.gain[u]).enumerate() {
                let other = p * g;
                *r += if s == b { o } else { other };
            }
        }
        for u in 0..users {
            let b = layout.serving[u];
            let interference = (received[b] - own[u]).max(0.0) + noise;
            let sir_db = 10.0 * (cfg.spreading_factor * own[u] / interference).log10();
            let k = u * slots + t;
            out.sir_db[k] = sir_db as f32;
            out.power_dbw[k] = control[u].power_db as f32;
            out.fading_db[k] = (10.0 * f[u].log10()) as f32;
            out.max_power_slots[u] += u64::from(control[u].at_max());
            // The loop measures in its reference; the trace keeps the per-symbol SIR the decoder sees.
            control[u].update(sir_db + reference_db);
        }
        watch.tick(|| t as f64 / slots as f64)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_user_without_fading_or_interference_settles_within_a_step_of_the_target() {
        let mut cfg = SystemConfig::paper(1, 6.0, 5.0, 3000);
        cfg.fading = false;
        let out = run_system(&cfg, 3, &mut Watch::quiet()).unwrap();
        // The descent from the maximum takes (SIR at the maximum − target) / Δ slots; then every slot's SIR
        // is within a step of the target.
        let first = out.sir_db[0] as f64;
        let descent = ((first - 5.0) / 0.5).ceil() as usize;
        assert!(first > 5.0 && descent < 2000, "{first}");
        assert!(out.sir_db[descent + 1..].iter().all(|&s| (s as f64 - 5.0).abs() <= 0.5 + 1e-4));
        assert_eq!(out.max_power_slots[0], 1);
    }

    #[test]
    fn power_control_tracks_the_fading_and_interference_raises_powers() {
        // With fading at 6 Hz the loop follows it: the transmit power mirrors the fading gain (their sum in
        // dB varies far less than the fading alone) and the SIR stays near the target.
        let cfg = SystemConfig::paper(1, 6.0, 5.0, 30_000);
        let out = run_system(&cfg, 4, &mut Watch::quiet()).unwrap();
        let n = out.sir_db.len();
        let tail = n / 10..n;
        let sum: Vec<f64> = tail.clone().map(|t| out.power_dbw[t] as f64 + out.fading_db[t] as f64).collect();
        let fade: Vec<f64> = tail.clone().map(|t| out.fading_db[t] as f64).collect();
        let sd = |x: &[f64]| {
            let m = x.iter().sum::<f64>() / x.len() as f64;
            (x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / x.len() as f64).sqrt()
        };
        assert!(sd(&sum) < 0.5 * sd(&fade), "{} {}", sd(&sum), sd(&fade));
        let sir: Vec<f64> = tail.map(|t| out.sir_db[t] as f64).collect();
        let mean = sir.iter().sum::<f64>() / sir.len() as f64;
        assert!((mean - 5.0).abs() < 1.0, "{mean}");
        // Ninety users interfere: the same user needs more power than alone, on average.
        let mut many = SystemConfig::paper(90, 6.0, 5.0, 3000);
        many.fading = false;
        let alone = { let mut c = many.clone(); c.users = 1; c };
        let a = run_system(&alone, 5, &mut Watch::quiet()).unwrap();
        let m = run_system(&many, 5, &mut Watch::quiet()).unwrap();
        // User 0 has the same position and shadowing in both runs (the layout's draws come first for user 0).
        assert_eq!(a.layout.users[0], m.layout.users[0]);
        assert!(m.power_dbw[2999] > a.power_dbw[2999]);
    }

    #[test]
    fn a_zero_step_keeps_full_power_and_the_sir_is_the_link_budget() {
        let mut cfg = SystemConfig::paper(1, 6.0, 5.0, 300);
        cfg.step_db = 0.0;
        let out = run_system(&cfg, 1, &mut Watch::quiet()).unwrap();
        assert!(out.power_dbw.iter().all(|&p| p == -16.0));
        assert_eq!(out.max_power_slots[0], 300);
        // SIR = SF·P·G·f / N exactly, slot by slot.
        let g = out.layout.gain[0][out.layout.serving[0]];
        for t in 0..300 {
            let expected = 10.0 * (16.0 * 10f64.powf(-1.6) * g / 10f64.powf(-13.2)).log10() + out.fading_db[t] as f64;
            assert!((out.sir_db[t] as f64 - expected).abs() < 1e-3);
        }
    }

    #[test]
    fn the_bit_reference_is_the_symbol_reference_with_the_target_lowered_by_the_coding_gain() {
        // By hand: 10·log10(3.84e6 / 105e3) − 10·log10(16) = 15.6314 − 12.0412 = 3.5902 dB = 10·log10(2400/1050).
        let off = SirReference::InformationBit.offset_db(16.0, 105_000.0);
        assert!((off - 3.5902).abs() < 1e-4, "{off}");
        assert!((off - 10.0 * (2400.0f64 / 1050.0).log10()).abs() < 1e-12);
        assert_eq!(SirReference::CodedSymbol.offset_db(16.0, 105_000.0), 0.0);
        // One user without fading: a 5.5-dB target per bit settles its per-symbol SIR within a step of 1.91 dB.
        let mut cfg = SystemConfig::paper(1, 6.0, 5.5, 3000);
        cfg.fading = false;
        cfg.sir_reference = SirReference::InformationBit;
        let out = run_system(&cfg, 3, &mut Watch::quiet()).unwrap();
        assert!(out.sir_db[2000..].iter().all(|&s| (s as f64 - (5.5 - 3.5902)).abs() <= 0.5 + 1e-4));
        assert!(SirReference::from_name("chip").is_err());
        assert_eq!(SirReference::from_name("bit").unwrap(), SirReference::InformationBit);
    }

    #[test]
    fn bad_input_is_refused() {
        let mut cfg = SystemConfig::paper(10, -1.0, 5.0, 10);
        assert!(run_system(&cfg, 1, &mut Watch::quiet()).unwrap_err().to_string().starts_with("doppler_hz = -1"));
        cfg.doppler_hz = 6.0;
        cfg.users = 0;
        assert!(run_system(&cfg, 1, &mut Watch::quiet()).unwrap_err().to_string().starts_with("users = 0"));
        cfg.users = 10;
        cfg.rays = RayProfile::Custom(vec![]);
        assert!(run_system(&cfg, 1, &mut Watch::quiet()).is_err());
        assert!(RayProfile::from_name("typical-urban").is_err());
    }
}

