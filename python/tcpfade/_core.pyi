# Type stub of the compiled module tcpfade._core, every function and class of it (the Python package wraps them).
# tests/test_one_engine.py runs mypy's stubtest against the built module, so a binding whose signature changes
# without this file fails CI.
from collections.abc import Callable, Sequence
from typing import Any, final

import numpy as np
import numpy.typing as npt

__version__: str
__all__ = [
    "FastRecoveryPhase2",
    "RECEIVER_ADDR",
    "SENDER_ADDR",
    "TIMESTAMP_OPTION_BYTES",
    "__version__",
    "bit_level_error_rates",
    "block_errors",
    "continuous_bad_time",
    "continuous_packet_losses",
    "continuous_states",
    "conv_encode",
    "emulate_bulk",
    "emulate_command",
    "fading_gain",
    "fast_recovery_cycle_model",
    "fast_recovery_phase2",
    "gth_stationary",
    "link_chain_persistence_sums",
    "link_chain_split_levels",
    "link_chain_stationary",
    "parse_trace_binary",
    "parse_trace_text",
    "simulate_link",
    "simulate_slotted",
    "simulate_system",
    "simulate_transfer",
    "slot_trace",
    "tahoe_cycle_model",
    "tcp_over_bearer",
    "trace_stats",
    "variant_names",
    "viterbi_decode",
]
SENDER_ADDR: str
RECEIVER_ADDR: str
TIMESTAMP_OPTION_BYTES: int

_Progress = Callable[[float], object] | None
_Matrix2 = Sequence[Sequence[float]]
_Table = tuple[list[tuple[int, float, float, int]], npt.NDArray[np.float64]]

# -- channels and traces (channels.rs) -------------------------------------------------------------------------
def slot_trace(spec: dict[str, Any], slots: int, seed: int, with_states: bool = False
               ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8] | None]: ...
def trace_stats(losses: npt.NDArray[np.uint8]) -> dict[str, Any]: ...
def parse_trace_text(text: str) -> npt.NDArray[np.uint8]: ...
def parse_trace_binary(data: bytes) -> npt.NDArray[np.uint8]: ...
def fading_gain(fading_model: str, fdt: float, oscillators: int, samples: int, samples_per_packet: int, seed: int
                ) -> npt.NDArray[np.float64]: ...
def bit_level_error_rates(fading_model: str, fdt: float, oscillators: int, snrs: list[float], packet_bits: int,
                          modulation: str, samples_per_packet: int, packets: int, batches: int, seed: int,
                          progress: _Progress) -> dict[str, Any]: ...
def continuous_packet_losses(mean_good: float, mean_bad: float, loss_rule: str, loss_good: float, loss_bad: float,
                             starts: npt.NDArray[np.float64], duration: float, seed: int) -> npt.NDArray[np.uint8]: ...
def continuous_states(mean_good: float, mean_bad: float, times: npt.NDArray[np.float64], seed: int
                      ) -> npt.NDArray[np.uint8]: ...
def continuous_bad_time(mean_good: float, mean_bad: float, window: float, windows: int, seed: int
                        ) -> npt.NDArray[np.float64]: ...

# -- the drivers (simulate.rs, link.rs, transfer.rs); `args` is a model's checked arguments, read by field name ------
def variant_names() -> list[str]: ...
def simulate_slotted(spec: dict[str, Any], args: dict[str, Any], progress: _Progress) -> dict[str, Any]: ...
def simulate_link(args: dict[str, Any], channel: dict[str, Any], progress: _Progress,
                  trace: tuple[float, int] | None = None) -> dict[str, Any]: ...
def simulate_transfer(args: dict[str, Any], channel: dict[str, Any],
                      decision: tuple[float, float] | Callable[..., bool], progress: _Progress,
                      trace: tuple[float, int] | None = None) -> dict[str, Any]: ...

# -- analyses (analysis.rs) --------------------------------------------------------------------------------------
def fast_recovery_phase2(success: _Matrix2, failure: _Matrix2, newreno: bool, wmax: int, dupthresh: int, rto: int,
                         window: int, next_ssthresh: int) -> _Table: ...
def fast_recovery_cycle_model(success: _Matrix2, failure: _Matrix2, newreno: bool, wmax: int, dupthresh: int, rto: int,
                              progress: _Progress = None) -> tuple[Any, Any, Any]: ...
def tahoe_cycle_model(success: _Matrix2, failure: _Matrix2, wmax: int, dupthresh: int, rto: int,
                      progress: _Progress = None) -> tuple[Any, Any, Any]: ...
def gth_stationary(transition: Any, progress: _Progress = None) -> npt.NDArray[np.float64]: ...
def link_chain_persistence_sums(wp: int, entries: Any, weight: Any, columns: Any, ncol: int) -> Any: ...
def link_chain_split_levels(wp: int, levels: int, entries: Any, o: Any, rest: Any, outcome: Any, into: Any,
                            exits: Any) -> Any: ...
def link_chain_stationary(blocks: Any, level: Any, gate: Any, progress: _Progress = None) -> Any: ...

@final
class FastRecoveryPhase2:
    def __new__(cls, success: _Matrix2, failure: _Matrix2, newreno: bool, wmax: int, dupthresh: int,
                rto: int) -> FastRecoveryPhase2: ...
    def outcomes(self, window: int, next_ssthresh: int) -> _Table: ...

# -- WCDMA (wcdma.rs, coding.rs) -----------------------------------------------------------------------------------
def simulate_system(args: dict[str, Any], progress: _Progress) -> dict[str, Any]: ...
def tcp_over_bearer(errors: npt.NDArray[np.bool_], tti: float, power_w: npt.NDArray[np.float64], slot: float,
                    args: dict[str, Any],
                    progress: _Progress) -> dict[str, Any]: ...
def conv_encode(bits: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]: ...
def viterbi_decode(llr: npt.NDArray[np.float64], info_bits: int) -> npt.NDArray[np.uint8]: ...
def block_errors(es_n0: list[float], tti_frames: int, info_bits: int, bits_per_frame: int, blocks: int, seed: int,
                 progress: _Progress) -> int: ...

# -- the emulator (emulate.rs) -------------------------------------------------------------------------------------
def emulate_bulk(forward: tuple[Any, ...], reverse: tuple[Any, ...], stack: tuple[Any, ...], congestion: str,
                 duration: float, warmup: float, progress: _Progress) -> dict[str, Any]: ...
def emulate_command(forward: tuple[Any, ...], reverse: tuple[Any, ...], stack: tuple[Any, ...], argv: list[str],
                    server: list[str] | None = None) -> dict[str, Any]: ...
