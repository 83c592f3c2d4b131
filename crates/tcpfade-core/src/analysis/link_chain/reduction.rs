//! The dense solve of a small block of the link chain's states (abouzeid §IV) by state reduction, as Grassmann,
//! Taksar and Heyman do it (Oper. Res. 33(5), 1985): the sweep solves each level's states with it (its lowest
//! levels as one block), the split by backoff level its lowest h.

/// Largest block of states solved densely (O(m³)). The link chain's lowest block has about a dozen.
pub const BLOCK_LIMIT: usize = 256;

/// x = b + x Q for a small block, by state reduction (GTH): `q` is m × m (row-major, from → to; its
/// diagonal is ignored), `exit[i]` the chance of leaving state i for outside the block. Each state
/// is censored out in turn, its inflow and transitions passed on to the states left; a state's total
/// out of itself is always a sum (exit + the transitions to the states left), never 1 − a self-loop.
/// None if a state never leaves itself (its total is 0) while mass comes in.
pub fn reduce(m: usize, q: &mut [f64], exit: &mut [f64], b: &mut [f64]) -> Option<Vec<f64>> {
    let mut total = vec![0.0; m];
    for k in 0..m {
        let t = exit[k] + (k + 1..m).map(|j| q[k * m + j]).sum::<f64>();
        total[k] = t;
        if t <= 0.0 {
            if b[k] > 0.0 || (k + 1..m).any(|i| q[i * m + k] > 0.0) {
                return None;
            }
            continue;
        }
        for i in k + 1..m {
            let via = q[i * m + k] / t;
            if via == 0.0 {
                continue;
            }
            for j in k + 1..m {
                if j != i {
                    q[i * m + j] += via * q[k * m + j];
                }
            }
            exit[i] += via * exit[k];
        }
        let bk = b[k] / t;
        if bk != 0.0 {
            for j in k + 1..m {
                b[j] += bk * q[k * m + j];
            }
        }
    }
    let mut x = vec![0.0; m];
    for k in (0..m).rev() {
        if total[k] > 0.0 {
            let inflow = b[k] + (k + 1..m).map(|i| x[i] * q[i * m + k]).sum::<f64>();
            x[k] = inflow / total[k];
        }
    }
    Some(x)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // the references index as the equations do
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn reduce_solves_a_small_system() {
        // x = b + xQ against Gaussian elimination of x (I − Q) = b with the diagonal from the row sums.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let m = 6;
        let q: Vec<f64> = (0..m * m).map(|_| rng.random::<f64>() / m as f64).collect();
        let exit: Vec<f64> = (0..m).map(|_| rng.random::<f64>()).collect();
        let b: Vec<f64> = (0..m).map(|_| rng.random::<f64>()).collect();
        let x = reduce(m, &mut q.clone(), &mut exit.clone(), &mut b.clone()).unwrap();
        for j in 0..m {
            let total = exit[j] + (0..m).filter(|&k| k != j).map(|k| q[j * m + k]).sum::<f64>();
            let inflow = b[j] + (0..m).filter(|&i| i != j).map(|i| x[i] * q[i * m + j]).sum::<f64>();
            assert!((x[j] * total - inflow).abs() < 1e-14, "state {j}");
        }
    }
}
