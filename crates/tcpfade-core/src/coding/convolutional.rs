//! TS 25.212 §4.2.3.1: the rate-1/2 convolutional code of constraint length 9, generators 561 and 753
//! (octal), with 8 tail bits, and a soft-decision Viterbi decoder of it.
//!
//! zorzi-rossi-mazzini §2.2 say "constraint length 8": the standard's code has 9 taps (8 memory cells, 256
//! states), and "8" is read as its memory. docs/models.md discusses it.
//!
//! Bit conventions: the register holds the current input in bit 8 and the eight previous ones below it; a
//! generator's bit 8 taps the current input (the octal 561 = 1 0111 0001 taps the input, then delays 2, 3, 4
//! and 8). Output 0 (generator 561) and output 1 (753) alternate, output 0 first. The distance properties
//! (d_free = 12) do not depend on the direction of the taps.

/// Constraint length K (taps of each generator).
pub const CONSTRAINT_LENGTH: usize = 9;
/// The generators, octal 561 and 753.
pub const GENERATORS: [u32; 2] = [0o561, 0o753];
/// Tail bits appended to return the encoder to state 0.
pub const TAIL_BITS: usize = CONSTRAINT_LENGTH - 1;
const STATES: usize = 1 << TAIL_BITS;

#[inline]
fn outputs(register: u32) -> (u8, u8) {
    (((register & GENERATORS[0]).count_ones() & 1) as u8, ((register & GENERATORS[1]).count_ones() & 1) as u8)
}

/// Encode `bits` (0 or 1 each) followed by the 8 tail bits: 2·(len + 8) coded bits.
pub fn encode(bits: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * (bits.len() + TAIL_BITS));
    let mut state: u32 = 0;
    for &b in bits.iter().chain(std::iter::repeat(&0u8).take(TAIL_BITS)) {
        let register = (u32::from(b & 1) << TAIL_BITS) | state;
        let (c0, c1) = outputs(register);
        out.push(c0);
        out.push(c1);
        state = register >> 1;
    }
    out
}

/// A soft-decision Viterbi decoder of the terminated code, reusable across blocks of one length.
///
/// Input: one log-likelihood ratio per coded bit, ln P(bit = 0) / P(bit = 1) (positive favours 0; 0 is an
/// erasure, as for a punctured bit). The branch metric is the correlation Σ ±LLR, which makes the decoder
/// maximum-likelihood for BPSK over an AWGN channel with any per-bit SNR when the LLRs are scaled by it.
#[derive(Debug, Clone)]
pub struct Viterbi {
    info_bits: usize,
    /// Survivor decisions: for each step, one bit per state (which predecessor won), 4 words of 64.
    decisions: Vec<[u64; STATES / 64]>,
    metric: Vec<f32>,
    next: Vec<f32>,
    /// For each next state and each of its two predecessors: the coded bit pair, as a sign index.
    branch: Vec<[u8; 2]>,
}

impl Viterbi {
    /// A decoder of blocks of `info_bits` information bits (2·(info_bits + 8) LLRs each).
    pub fn new(info_bits: usize) -> Self {
        let steps = info_bits + TAIL_BITS;
        let mut branch = vec![[0u8; 2]; STATES];
        for (next, pair) in branch.iter_mut().enumerate() {
            let input = (next >> (TAIL_BITS - 1)) as u32; // the newest bit of the next state
            for (x, slot) in pair.iter_mut().enumerate() {
                let prev = (((next << 1) & (STATES - 1)) | x) as u32;
                let (c0, c1) = outputs((input << TAIL_BITS) | prev);
                *slot = (c0 << 1) | c1;
            }
        }
        Viterbi {
            info_bits,
            decisions: vec![[0u64; STATES / 64]; steps],
            metric: vec![0.0; STATES],
            next: vec![0.0; STATES],
            branch,
        }
    }

    /// Information bits per block.
    pub fn info_bits(&self) -> usize {
        self.info_bits
    }

    /// Decode one block: the maximum-likelihood information bits (the path from state 0 back to state 0).
    pub fn decode(&mut self, llr: &[f32], out: &mut Vec<u8>) {
        let steps = self.info_bits + TAIL_BITS;
        assert_eq!(llr.len(), 2 * steps, "a block of {} information bits has {} LLRs", self.info_bits, 2 * steps);
        const NONE: f32 = f32::NEG_INFINITY;
        self.metric.fill(NONE);
        self.metric[0] = 0.0;
        for t in 0..steps {
            let (l0, l1) = (llr[2 * t], llr[2 * t + 1]);
            // Correlation of each coded pair (c0, c1) with the LLRs: +L for a 0, −L for a 1.
            let gain = [l0 + l1, l0 - l1, -l0 + l1, -l0 - l1];
            let mut words = [0u64; STATES / 64];
            for next in 0..STATES {
                let base = (next << 1) & (STATES - 1);
                let [b0, b1] = self.branch[next];
                let m0 = self.metric[base] + gain[b0 as usize];
                let m1 = self.metric[base | 1] + gain[b1 as usize];
                let take1 = m1 > m0;
                self.next[next] = if take1 { m1 } else { m0 };
                words[next >> 6] |= u64::from(take1) << (next & 63);
            }
            self.decisions[t] = words;
            std::mem::swap(&mut self.metric, &mut self.next);
        }
        // Trace back from state 0 (the tail terminates the trellis).
        out.clear();
        out.resize(self.info_bits, 0);
        let mut state = 0usize;
        for t in (0..steps).rev() {
            let input = (state >> (TAIL_BITS - 1)) as u8;
            if t < self.info_bits {
                out[t] = input;
            }
            let x = ((self.decisions[t][state >> 6] >> (state & 63)) & 1) as usize;
            state = ((state << 1) & (STATES - 1)) | x;
        }
    }
}

/// The code's distance spectrum up to weight `max_weight`: for each output weight d, the number of paths
/// that leave state 0 and first return to it with that weight (A_d), and the total information weight of
/// those paths (B_d). By an exhaustive search of the trellis with the weight as a bound (a depth-first
/// enumeration, independent of [`Viterbi`]).
pub fn distance_spectrum(max_weight: u32) -> Vec<(u32, u64, u64)> {
    let mut a = vec![0u64; max_weight as usize + 1];
    let mut b = vec![0u64; max_weight as usize + 1];
    // Leave state 0 with input 1.
    let (c0, c1) = outputs(1 << TAIL_BITS);
    let first = u32::from(c0 + c1);
    let mut stack = vec![((1u32 << TAIL_BITS) >> 1, first, 1u64)];
    while let Some((state, weight, info)) = stack.pop() {
        for input in 0..2u32 {
            let register = (input << TAIL_BITS) | state;
            let (c0, c1) = outputs(register);
            let w = weight + u32::from(c0 + c1);
            if w > max_weight {
                continue;
            }
            let next = register >> 1;
            let i = info + u64::from(input);
            if next == 0 {
                a[w as usize] += 1;
                b[w as usize] += i;
            } else {
                stack.push((next, w, i));
            }
        }
    }
    (0..=max_weight).filter(|&d| a[d as usize] > 0).map(|d| (d, a[d as usize], b[d as usize])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoder_impulse_response_is_the_generators() {
        // A single 1 followed by zeros: output 0 reads 561's taps from the input down, output 1 753's.
        let coded = encode(&[1]);
        let o0: Vec<u8> = coded.iter().step_by(2).copied().collect();
        let o1: Vec<u8> = coded.iter().skip(1).step_by(2).copied().collect();
        let taps = |g: u32| (0..9).map(|k| ((g >> (8 - k)) & 1) as u8).collect::<Vec<u8>>();
        assert_eq!(o0, taps(0o561));
        assert_eq!(o1, taps(0o753));
        assert_eq!(coded.len(), 18);
    }

    #[test]
    fn noiseless_blocks_decode_exactly() {
        let bits: Vec<u8> = (0..200u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 31) as u8).collect();
        let coded = encode(&bits);
        let llr: Vec<f32> = coded.iter().map(|&c| if c == 0 { 1.0 } else { -1.0 }).collect();
        let mut decoder = Viterbi::new(bits.len());
        let mut out = Vec::new();
        decoder.decode(&llr, &mut out);
        assert_eq!(out, bits);
    }

    #[test]
    fn distance_spectrum_is_the_published_one() {
        // d_free = 12, and the information weights B_d of the paths at distance d = 12, 14, ..., 20 as
        // tabulated for this code (Proakis, Digital Communications, rate-1/2 codes of constraint length 9):
        // 33, 281, 2179, 15035, 105166.
        let spectrum = distance_spectrum(20);
        assert_eq!(spectrum[0].0, 12, "{spectrum:?}");
        let b: Vec<u64> = spectrum.iter().map(|s| s.2).collect();
        assert_eq!(b, vec![33, 281, 2179, 15035, 105166]);
        // An odd weight is impossible: both generators have an odd number of taps, so every output pair
        // of a path leaving and re-entering 0 adds up to an even weight.
        assert!(spectrum.iter().all(|&(d, _, _)| d % 2 == 0), "{spectrum:?}");
    }
}

