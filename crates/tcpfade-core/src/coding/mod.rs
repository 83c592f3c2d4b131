//! The UMTS channel coding chain of a dedicated channel (3GPP TS 25.212), as far as the WCDMA block-error
//! mapping needs it (zorzi-rossi-mazzini §2.2): the rate-1/2 convolutional code and a soft-decision Viterbi
//! decoder ([`convolutional`]), repetition rate matching ([`rate_matching`]) and the first (inter-frame) and
//! second (intra-frame) interleavers ([`interleaver`]).
//!
//! The decoder is the reference the block-error mapping is calibrated against; it is checked against the
//! code's distance spectrum (a union bound at high SNR) and against an independent decoder in the tests.

pub mod block;
pub mod convolutional;
pub mod interleaver;
pub mod rate_matching;

pub use block::{BlockChain, BlockFormat};
pub use convolutional::{encode, Viterbi, CONSTRAINT_LENGTH, GENERATORS, TAIL_BITS};
pub use interleaver::{first_interleaver, second_interleaver, FIRST_PERMUTATIONS, SECOND_PERMUTATION};
pub use rate_matching::repetition_pattern;
