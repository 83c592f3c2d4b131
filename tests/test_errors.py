"""The error hierarchy, and that core errors cross into Python as the right exceptions."""

import numpy as np
import pytest

import tcpfade
from tcpfade import _core
from tcpfade.errors import InternalError, ParameterError, TcpfadeError, TraceExhaustedError, TraceFormatError


def test_hierarchy():
    for cls in (ParameterError, TraceFormatError):
        assert issubclass(cls, TcpfadeError) and issubclass(cls, ValueError)
    assert issubclass(TraceExhaustedError, TcpfadeError)
    assert issubclass(InternalError, TcpfadeError) and issubclass(InternalError, RuntimeError)


def test_core_errors_map_to_python_classes():
    with pytest.raises(ParameterError, match=r"^q = 1.5 is not allowed: must be a probability in \[0, 1\]$"):
        _core.slot_trace({"kind": "gilbert-elliott", "p": 0.5, "q": 1.5, "loss_good": 0.0, "loss_bad": 1.0}, 1, 0)
    with pytest.raises(ParameterError, match="kind = markov"):
        _core.slot_trace({"kind": "markov"}, 1, 0)
    with pytest.raises(ParameterError, match="p = missing"):
        _core.slot_trace({"kind": "gilbert-elliott"}, 1, 0)
    with pytest.raises(TraceFormatError, match="line 1, field 2"):
        _core.parse_trace_text("07")
    with pytest.raises(TraceExhaustedError):
        _core.slot_trace({"kind": "trace", "losses": np.array([0, 1], dtype=np.uint8), "wrap": False}, 3, 0)


def test_constructors_validate_where_input_enters():
    with pytest.raises(ParameterError, match="loss_bad"):
        tcpfade.GilbertElliott(p=0.5, q=0.5, loss_bad=2.0)
    with pytest.raises(ParameterError, match="error_rate"):
        tcpfade.Bernoulli(1.5)
    with pytest.raises(ParameterError, match="seed"):
        tcpfade.Bernoulli(0.1).trace(10, seed=-1)
    with pytest.raises(ParameterError, match="slots"):
        tcpfade.Bernoulli(0.1).trace(-5, seed=1)
