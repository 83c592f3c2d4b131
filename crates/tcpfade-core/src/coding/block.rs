//! Monte-Carlo block errors of one transport block through the whole chain: CRC-protected transport block →
//! convolutional code with tail → repetition rate matching → first interleaver over the TTI's frames →
//! second interleaver in each frame → BPSK symbols, 160 a slot, each slot at its own SNR → the receiver's
//! soft combining of repeated bits → Viterbi decoding. A block is in error when any of its bits is decoded
//! wrong (the CRC is taken to detect every error). This is the reference the WCDMA block-error mapping is
//! calibrated against (zorzi-rossi-mazzini §2.2).
//!
//! The block follows the paper's arithmetic (§2.3): one code block of `info_bits` (transport block and CRC),
//! 8 tail bits, rate 1/2, repeated up to `bits_per_frame` × TTI frames. TS 25.212 §4.2.2.2 would split a
//! convolutionally coded block above 504 bits into code blocks; the paper encodes the block whole, and so do
//! we.

use super::convolutional::{encode, Viterbi, TAIL_BITS};
use super::interleaver::{first_interleaver, second_interleaver};
use super::rate_matching::repetition_pattern;
use crate::check;
use crate::error::{Error, Result};
use crate::rng::Rng;
use rand::Rng as _;
use rand_distr::{Distribution, StandardNormal};

/// The transport format of one TTI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockFormat {
    /// Information bits of the code block: the transport block and its CRC (paper: 1050 + 16).
    pub info_bits: usize,
    /// Radio frames the TTI spans (1, 2, 4 or 8: inter-frame interleaving depth).
    pub tti_frames: usize,
    /// Coded bits a frame carries after rate matching (paper: 2400 at 240 kb/s).
    pub bits_per_frame: usize,
    /// Slots per frame (15 in UTRA: one power-control period of 0.667 ms each).
    pub slots_per_frame: usize,
}

impl BlockFormat {
    /// The paper's format for a TTI of `tti_frames` frames: a transport block of 1050 bits per frame (1034 at
    /// the IP level and 16 of RLC/MAC), a 16-bit CRC, 2400 coded bits per frame, 15 slots.
    pub fn paper(tti_frames: usize) -> Self {
        BlockFormat { info_bits: 1050 * tti_frames + 16, tti_frames, bits_per_frame: 2400, slots_per_frame: 15 }
    }

    /// Coded bits before rate matching, 2·(info + 8).
    pub fn coded_bits(&self) -> usize {
        2 * (self.info_bits + TAIL_BITS)
    }

    /// Slots of one TTI.
    pub fn slots(&self) -> usize {
        self.tti_frames * self.slots_per_frame
    }
}

/// The chain of one format, built once and reused for every block.
#[derive(Debug, Clone)]
pub struct BlockChain {
    format: BlockFormat,
    /// For each coded bit, the slots its copies are sent in.
    copies: Vec<Vec<u16>>,
    viterbi: Viterbi,
    bits: Vec<u8>,
    llr: Vec<f32>,
    decoded: Vec<u8>,
}

impl BlockChain {
    /// The chain for `format` (checked: the frame must hold the coded block without puncturing).
    pub fn new(format: BlockFormat) -> Result<Self> {
        check::int_in("info_bits", format.info_bits as u64, 1, 1 << 20)?;
        check::int_in("slots_per_frame", format.slots_per_frame as u64, 1, 1 << 10)?;
        let total = format.bits_per_frame * format.tti_frames;
        let coded = format.coded_bits();
        if total < coded {
            return Err(Error::invalid("bits_per_frame", format.bits_per_frame, &format!(
                "{} frames of it must hold the {coded} coded bits (puncturing is not modelled)", format.tti_frames)));
        }
        if format.bits_per_frame % format.slots_per_frame != 0 {
            return Err(Error::invalid("bits_per_frame", format.bits_per_frame, "must be a multiple of slots_per_frame"));
        }
        // Rate matching: which coded bit each of the `total` transmitted bits repeats.
        let times = repetition_pattern(coded, total - coded)?;
        let mut source = Vec::with_capacity(total);
        for (i, &t) in times.iter().enumerate() {
            source.extend(std::iter::repeat(i).take(t as usize));
        }
        // First interleaver over the TTI, then frame f is the f-th block of bits_per_frame bits, each through
        // the second interleaver; bit j of a frame (after it) goes out in slot j / (bits per slot).
        let first = first_interleaver(total, format.tti_frames)?;
        let second = second_interleaver(format.bits_per_frame);
        let per_slot = format.bits_per_frame / format.slots_per_frame;
        let mut copies = vec![Vec::new(); coded];
        for frame in 0..format.tti_frames {
            for (j, &k) in second.iter().enumerate() {
                let position = first[frame * format.bits_per_frame + k];
                let slot = frame * format.slots_per_frame + j / per_slot;
                copies[source[position]].push(slot as u16);
            }
        }
        Ok(BlockChain {
            format,
            copies,
            viterbi: Viterbi::new(format.info_bits),
            bits: vec![0; format.info_bits],
            llr: vec![0.0; coded],
            decoded: Vec::with_capacity(format.info_bits),
        })
    }

    /// The format.
    pub fn format(&self) -> BlockFormat {
        self.format
    }

    /// For each coded bit, the slots its copies are sent in (the rate matching and both interleavers).
    pub fn copies(&self) -> &[Vec<u16>] {
        &self.copies
    }

    /// Send one random block with symbol SNR `es_n0[s]` (linear) in slot s of the TTI; whether it is decoded
    /// wrong. Each copy of a coded bit is BPSK with LLR 4γ(±1 + n), n ~ N(0, 1/(2γ)), and copies add.
    pub fn block_error(&mut self, es_n0: &[f64], rng: &mut Rng) -> Result<bool> {
        if es_n0.len() != self.format.slots() {
            return Err(Error::invalid("sir", es_n0.len(), &format!("must hold one value per slot of the TTI ({})",
                                                                    self.format.slots())));
        }
        if let Some((s, g)) = es_n0.iter().enumerate().find(|(_, g)| !(g.is_finite() && **g >= 0.0)) {
            return Err(Error::invalid("sir", g, &format!("slot {s}: must be a finite linear SNR >= 0")));
        }
        for b in self.bits.iter_mut() {
            *b = rng.random::<bool>() as u8;
        }
        let coded = encode(&self.bits);
        for (i, (&c, slots)) in coded.iter().zip(&self.copies).enumerate() {
            let sign = if c == 0 { 1.0 } else { -1.0 };
            let mut l = 0.0f64;
            for &s in slots {
                let g = es_n0[s as usize];
                let n: f64 = StandardNormal.sample(rng);
                l += 4.0 * g * sign + (8.0 * g).sqrt() * n;
            }
            self.llr[i] = l as f32;
        }
        self.viterbi.decode(&self.llr, &mut self.decoded);
        Ok(self.decoded != self.bits)
    }

    /// Block errors in `blocks` blocks at the same slot SNRs.
    pub fn block_errors(&mut self, es_n0: &[f64], blocks: u64, rng: &mut Rng) -> Result<u64> {
        let mut errors = 0;
        for _ in 0..blocks {
            errors += u64::from(self.block_error(es_n0, rng)?);
        }
        Ok(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, Stream};

    #[test]
    fn every_transmitted_bit_has_one_place_and_repeats_land_apart() {
        for frames in [1, 2, 4, 8] {
            let chain = BlockChain::new(BlockFormat::paper(frames)).unwrap();
            let f = chain.format();
            let sent: usize = chain.copies().iter().map(Vec::len).sum();
            assert_eq!(sent, f.bits_per_frame * frames);
            // Each slot carries 160 bits.
            let mut per_slot = vec![0usize; f.slots()];
            for slots in chain.copies() {
                for &s in slots {
                    per_slot[s as usize] += 1;
                }
            }
            assert!(per_slot.iter().all(|&n| n == 160), "{frames}: {per_slot:?}");
            // With inter-frame interleaving, a coded bit sent once and the first copy of the next one are
            // neighbours in the first interleaver's rows, so they go to different frames.
            if frames > 1 {
                let frames_of = |i: usize| chain.copies()[i].iter().map(|&s| s as usize / 15).collect::<Vec<_>>();
                let single: Vec<usize> = (0..200).filter(|&i| chain.copies()[i].len() == 1).collect();
                assert!(single.len() > 150);
                assert!(single.iter().all(|&i| frames_of(i + 1).iter().any(|&f| f != frames_of(i)[0])));
            }
        }
    }

    #[test]
    fn high_snr_never_errs_and_zero_snr_always_does() {
        let mut rng = stream(7, Stream::ChannelLoss);
        let mut chain = BlockChain::new(BlockFormat::paper(1)).unwrap();
        assert_eq!(chain.block_errors(&[10.0; 15], 20, &mut rng).unwrap(), 0);
        // No signal: the decoded block is a guess; a 1066-bit guess is never right.
        assert_eq!(chain.block_errors(&[0.0; 15], 20, &mut rng).unwrap(), 20);
        assert!(chain.block_errors(&[1.0; 14], 1, &mut rng).is_err());
        assert!(chain.block_errors(&[f64::NAN; 15], 1, &mut rng).is_err());
    }
}
