//! 25 hexagonal cells on a torus (zorzi-rossi-mazzini §2.1: "wrapped onto itself to avoid border effects").
//!
//! Cells sit on a 5 × 5 rhombus of the hexagonal lattice: cell (q, r) has its base station at
//! √3·R·(q + r/2), 1.5·R·r for side R. The rhombus, spanned by a = 5·(√3 R, 0) and b = 5·(√3 R / 2, 1.5 R),
//! tiles the plane, so identifying its opposite sides makes a torus on which every cell has six neighbours at
//! √3·R. Distances are the shortest over the nine images of the rhombus. Users are uniform over it: u·a + v·b
//! with u, v uniform in [0, 1). Path gain A·d^−β (d in metres, at least 1 m) times a log-normal shadowing
//! term fixed per user and base station.

use crate::check;
use crate::error::Result;
use crate::rng::Rng;
use rand::Rng as _;
use rand_distr::{Distribution, StandardNormal};

/// The cells, the users and their mean path gains.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Cells per side of the rhombus (5: 25 cells).
    pub side: usize,
    /// Cell side R \[m\].
    pub cell_side: f64,
    /// Base station positions \[m\].
    pub stations: Vec<(f64, f64)>,
    /// User positions \[m\].
    pub users: Vec<(f64, f64)>,
    /// Mean path gain (linear) of each user to each base station, path loss and shadowing: `gain[u][b]`.
    pub gain: Vec<Vec<f64>>,
    /// The serving base station of each user: the best mean gain.
    pub serving: Vec<usize>,
}

impl Layout {
    /// Place `users` users uniformly and draw their shadowing; `a_db` is A in dB, `beta` the path-loss exponent,
    /// `sigma_db` the shadowing spread.
    pub fn new(users: usize, side: usize, cell_side: f64, a_db: f64, beta: f64, sigma_db: f64, rng: &mut Rng)
        -> Result<Self> {
        check::int_in("users", users as u64, 1, 100_000)?;
        check::int_in("cells_per_side", side as u64, 1, 100)?;
        check::positive("cell_side", cell_side)?;
        check::positive("path_loss_exponent", beta)?;
        check::non_negative("shadowing_db", sigma_db)?;
        let s3 = 3f64.sqrt();
        let mut stations = Vec::with_capacity(side * side);
        for r in 0..side {
            for q in 0..side {
                stations.push((s3 * cell_side * (q as f64 + r as f64 / 2.0), 1.5 * cell_side * r as f64));
            }
        }
        let a = (side as f64 * s3 * cell_side, 0.0);
        let b = (side as f64 * s3 * cell_side / 2.0, side as f64 * 1.5 * cell_side);
        let mut positions = Vec::with_capacity(users);
        let mut gain = Vec::with_capacity(users);
        let mut serving = Vec::with_capacity(users);
        for _ in 0..users {
            let (u, v): (f64, f64) = (rng.random(), rng.random());
            let p = (u * a.0 + v * b.0, u * a.1 + v * b.1);
            let row: Vec<f64> = stations
                .iter()
                .map(|&s| {
                    let d = torus_distance(p, s, a, b).max(1.0);
                    let shadow: f64 = StandardNormal.sample(rng);
                    10f64.powf((a_db + sigma_db * shadow) / 10.0) * d.powf(-beta)
                })
                .collect();
            let best = (0..row.len()).max_by(|&i, &j| row[i].total_cmp(&row[j])).expect("cells");
            positions.push(p);
            gain.push(row);
            serving.push(best);
        }
        Ok(Layout { side, cell_side, stations, users: positions, gain, serving })
    }
}

/// The distance from `p` to `s` on the torus spanned by `a` and `b`: the shortest over the nine images.
pub fn torus_distance(p: (f64, f64), s: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let mut best = f64::INFINITY;
    for i in -1..=1 {
        for j in -1..=1 {
            let (x, y) = (s.0 + i as f64 * a.0 + j as f64 * b.0, s.1 + i as f64 * a.1 + j as f64 * b.1);
            best = best.min(((p.0 - x).powi(2) + (p.1 - y).powi(2)).sqrt());
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, Stream};

    #[test]
    fn the_torus_gives_every_cell_six_neighbours_at_root3_r() {
        let mut rng = stream(1, Stream::ChannelState);
        let l = Layout::new(1, 5, 200.0, -30.0, 3.5, 0.0, &mut rng).unwrap();
        let s3 = 3f64.sqrt();
        let (a, b) = ((5.0 * s3 * 200.0, 0.0), (2.5 * s3 * 200.0, 1500.0));
        for &s in &l.stations {
            let near = l.stations.iter().filter(|&&t| (torus_distance(s, t, a, b) - s3 * 200.0).abs() < 1e-6).count();
            assert_eq!(near, 6);
            // No base station is nearer than a neighbour.
            assert!(l.stations.iter().all(|&t| t == s || torus_distance(s, t, a, b) > s3 * 200.0 - 1e-6));
        }
    }

    #[test]
    fn without_shadowing_a_user_is_served_by_the_nearest_station() {
        let mut rng = stream(2, Stream::ChannelState);
        let l = Layout::new(200, 5, 200.0, -30.0, 3.5, 0.0, &mut rng).unwrap();
        let s3 = 3f64.sqrt();
        let (a, b) = ((5.0 * s3 * 200.0, 0.0), (2.5 * s3 * 200.0, 1500.0));
        for (u, &p) in l.users.iter().enumerate() {
            let d: Vec<f64> = l.stations.iter().map(|&s| torus_distance(p, s, a, b)).collect();
            let nearest = (0..d.len()).min_by(|&i, &j| d[i].total_cmp(&d[j])).unwrap();
            assert_eq!(l.serving[u], nearest);
            // A user is within a cell's circumradius R of its station (a hexagonal cell).
            assert!(d[nearest] <= 200.0 + 1e-9);
            let expected = 1e-3 * d[nearest].max(1.0).powf(-3.5);
            assert!((l.gain[u][nearest] / expected - 1.0).abs() < 1e-12);
        }
    }
}
