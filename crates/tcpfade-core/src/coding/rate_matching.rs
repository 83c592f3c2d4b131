//! TS 25.212 §4.2.7.5: rate matching by repetition, the pattern of which coded bits are sent twice (or more)
//! to bring a block of X_i bits to X_i + ΔN bits.

use crate::error::{Error, Result};

/// How many times each of `bits` coded bits is sent so that `delta` extra bits are added (§4.2.7.5 with
/// e_ini = 1, e_plus = 2·X_i, e_minus = 2·|ΔN|; for uplink, §4.2.7.2.1, e_ini = 1).
pub fn repetition_pattern(bits: usize, delta: usize) -> Result<Vec<u32>> {
    if bits == 0 {
        return Err(Error::invalid("bits", bits, "must be at least 1"));
    }
    let (x, dn) = (bits as i64, delta as i64);
    let (e_plus, e_minus) = (2 * x, 2 * dn);
    let mut e = 1i64; // e_ini
    let mut times = vec![1u32; bits];
    for t in times.iter_mut() {
        e -= e_minus;
        while e <= 0 {
            *t += 1;
            e += e_plus;
        }
    }
    Ok(times)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetition_adds_exactly_delta_bits_evenly() {
        // The paper's block: 1050 + 16 CRC + 8 tail bits, ×2 = 2148 coded bits brought to 2400.
        let times = repetition_pattern(2148, 252).unwrap();
        assert_eq!(times.iter().map(|&t| t as usize).sum::<usize>(), 2400);
        assert!(times.iter().all(|&t| t == 1 || t == 2));
        // Evenly spread: between two repeated bits there are 2148 / 252 ≈ 8.5 bits.
        let at: Vec<usize> = times.iter().enumerate().filter(|(_, &t)| t == 2).map(|(i, _)| i).collect();
        assert!(at.windows(2).all(|w| (8..=9).contains(&(w[1] - w[0]))), "{:?}", &at[..10]);
        assert_eq!(repetition_pattern(10, 0).unwrap(), vec![1; 10]);
        assert_eq!(repetition_pattern(4, 8).unwrap(), vec![3; 4]);
    }
}
