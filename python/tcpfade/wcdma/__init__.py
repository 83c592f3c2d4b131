"""The WCDMA uplink of zorzi-rossi-mazzini: the channel code and the block errors it turns a SIR string into
(:mod:`.coding`). The system simulator, the effective-SINR mapping and TCP over radio blocks are to come (see
the issue tracker)."""

from .coding import BlockErrorRate, FORMAT, awgn_curve, block_error_rate, conv_encode, viterbi_decode

__all__ = ["BlockErrorRate", "FORMAT", "awgn_curve", "block_error_rate", "conv_encode", "viterbi_decode"]
