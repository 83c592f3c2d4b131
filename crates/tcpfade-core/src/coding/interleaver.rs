//! TS 25.212's block interleavers, as permutations: `out[k] = input[perm[k]]`.
//!
//! - The first (inter-frame) interleaver, §4.2.5: C1 = TTI / 10 ms columns, written row by row, the columns
//!   permuted by Table 4, read column by column; each column then goes to one radio frame.
//! - The second (intra-frame) interleaver, §4.2.11: 30 columns, rows R2 = ⌈U / 30⌉ written row by row
//!   (padded at the end), the columns permuted by Table 7, read column by column without the padding.

use crate::error::{Error, Result};

/// Table 4's inter-column permutations of the first interleaver, for a TTI of 1, 2, 4 and 8 frames.
pub const FIRST_PERMUTATIONS: [&[usize]; 4] = [&[0], &[0, 1], &[0, 2, 1, 3], &[0, 4, 2, 6, 1, 5, 3, 7]];

/// Table 7's inter-column permutation of the second interleaver (30 columns).
pub const SECOND_PERMUTATION: [usize; 30] =
    [0, 20, 10, 5, 15, 25, 3, 13, 23, 8, 18, 28, 1, 11, 21, 6, 16, 26, 4, 14, 24, 19, 9, 29, 12, 2, 7, 22, 27, 17];

/// The first interleaver for `bits` bits (a multiple of the number of frames) over `frames` = 1, 2, 4 or 8
/// radio frames.
pub fn first_interleaver(bits: usize, frames: usize) -> Result<Vec<usize>> {
    let perm = match frames {
        1 => FIRST_PERMUTATIONS[0],
        2 => FIRST_PERMUTATIONS[1],
        4 => FIRST_PERMUTATIONS[2],
        8 => FIRST_PERMUTATIONS[3],
        _ => return Err(Error::invalid("tti_frames", frames, "must be 1, 2, 4 or 8 (a TTI of 10, 20, 40 or 80 ms)")),
    };
    if bits % frames != 0 {
        return Err(Error::invalid("bits", bits, &format!("must be a multiple of the {frames} frames")));
    }
    let rows = bits / frames;
    let mut out = Vec::with_capacity(bits);
    for &column in perm {
        out.extend((0..rows).map(|row| row * frames + column));
    }
    Ok(out)
}

/// The second interleaver for the `bits` bits of one radio frame.
pub fn second_interleaver(bits: usize) -> Vec<usize> {
    let columns = SECOND_PERMUTATION.len();
    let rows = bits.div_ceil(columns);
    let mut out = Vec::with_capacity(bits);
    for &column in &SECOND_PERMUTATION {
        for row in 0..rows {
            let k = row * columns + column;
            if k < bits {
                out.push(k);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_permutation(p: &[usize]) -> bool {
        let mut seen = vec![false; p.len()];
        p.iter().all(|&k| k < p.len() && !std::mem::replace(&mut seen[k], true))
    }

    #[test]
    fn interleavers_are_permutations_and_follow_the_tables() {
        for frames in [1, 2, 4, 8] {
            let p = first_interleaver(16 * frames, frames).unwrap();
            assert!(is_permutation(&p));
        }
        // 8 bits over 4 frames: rows [0 1 2 3], [4 5 6 7]; columns 0, 2, 1, 3: frame k gets column k.
        assert_eq!(first_interleaver(8, 4).unwrap(), vec![0, 4, 2, 6, 1, 5, 3, 7]);
        assert!(first_interleaver(9, 2).is_err() && first_interleaver(8, 3).is_err());
        let p = second_interleaver(2400);
        assert!(is_permutation(&p));
        // Column 20 comes second: the first 80 bits are column 0 (rows 0..80), then 20, 50, 80, ...
        assert_eq!(&p[..3], &[0, 30, 60]);
        assert_eq!(p[80], 20);
        // Padding: 31 bits leave one bit in row 1 (column 0); nothing out of range.
        assert_eq!(second_interleaver(31), {
            let mut v = vec![0, 30];
            v.extend(SECOND_PERMUTATION[1..].iter().copied());
            v
        });
    }
}
