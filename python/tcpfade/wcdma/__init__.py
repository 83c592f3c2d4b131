"""The WCDMA uplink of zorzi-rossi-mazzini: the channel code and the block errors it turns a SIR string into
(:mod:`.coding`), the effective-SINR mapping calibrated against it (:mod:`.mapping`), and the multicell uplink
with power control that produces the SIR traces (:mod:`.system`), and TCP over the radio bearer with the whole
chain (:mod:`.tcp`); the universal throughput curve of eqs. (3)-(6) and its fit (:mod:`.curve`)."""

from .curve import CurveFit, fit_universal_curve, universal_curve
from .coding import BlockErrorRate, FORMAT, awgn_curve, block_error_rate, conv_encode, viterbi_decode
from .mapping import Mapping, block_error_probability, mapping_for
from .system import DEFAULT_SIR_REFERENCE, RAY_PROFILES, SIR_REFERENCES, SystemResult, simulate_system, sir_reference_offset_db
from .tcp import BearerResult, WcdmaResult, simulate, tcp_over_blocks, tcp_over_system

__all__ = ["BlockErrorRate", "FORMAT", "awgn_curve", "block_error_rate", "conv_encode", "viterbi_decode", "Mapping",
           "block_error_probability", "mapping_for", "RAY_PROFILES", "SystemResult", "simulate_system",
           "SIR_REFERENCES", "DEFAULT_SIR_REFERENCE", "sir_reference_offset_db", "BearerResult", "WcdmaResult", "simulate",
           "tcp_over_blocks", "tcp_over_system", "CurveFit", "fit_universal_curve", "universal_curve"]
