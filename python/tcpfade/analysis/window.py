"""The window function w(n, W, Wth) of zorzi-rao §4.2 and its quantization into classes.

Between two losses every transmission of the slotted model is ACKed at the end of its slot, and
each ACK acknowledges new data, so after k ACKs the window is a deterministic function of k, the
starting window and Wth (decision D3 of docs/models.md): W += 1 while W < Wth, else W += 1/W, never above Wmax.
zorzi-rao footnote 6 says it "can be tabulated by a simple program"; this is that program.

What happens after the loss depends on the window W at the loss only through ⌊W⌋ (how many
packets the window lets out after the lost one) and ⌈W/2⌉ (the next slow-start threshold). The
pair (⌊W⌋, ⌈W/2⌉) is the exact, finite quantization of Ω_Y that zorzi-rao §4.1 asks for.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np


def grow(cwnd: float, ssthresh: float, wmax: int) -> float:
    """W after one ACK of new data: slow start below Wth, congestion avoidance above, capped."""
    cwnd = cwnd + 1.0 if cwnd < ssthresh else cwnd + 1.0 / cwnd
    return min(cwnd, float(wmax))


@lru_cache(maxsize=4096)
def window_sequence(ssthresh: int, wmax: int, start: float = 1.0) -> np.ndarray:
    """w_k, the window after k ACKs from W = ``start``, for k = 0 .. k* where w_(k*) = Wmax first.

    Beyond k* the window stays at Wmax. The array is read-only (it is shared through the cache).
    """
    values = [min(float(start), float(wmax))]
    while values[-1] < wmax:
        values.append(grow(values[-1], ssthresh, wmax))
    out = np.array(values)
    out.setflags(write=False)
    return out


def window_class(cwnd: float) -> tuple[int, int]:
    """(⌊W⌋, ⌈W/2⌉): the packets the window allows after a loss, and the next Wth."""
    return int(math.floor(cwnd)), int(math.ceil(cwnd / 2.0))
