"""The one mechanism by which input is checked where it enters tcpfade.

Every public function and constructor declares, next to its signature, a :class:`Rule` per parameter
(``@checked(slots=Integer(1), seed=SEED, ...)``). :func:`checked` binds the call to the signature, applies
each rule and hands the function the normalized values, so the function body never sees a wrong type, a
NaN, an out-of-range number or a missing argument. A rejected value raises
:class:`~tcpfade.errors.ParameterError` (a ``ValueError``; :class:`~tcpfade.errors.ParameterTypeError`, also a
``TypeError``, for a value of the wrong kind) whose message is always
``<parameter> = <value> is not allowed: <what is allowed>``, the same wording as the Rust core's.

Requests that cannot fit are refused up front by the same errors: :func:`memory` for an allocation a request
implies (a trace of 2**62 slots) and :func:`work` for the simulated work a request implies (a link run whose
timer would fire 10^16 times). The fuzzing suite (``tests/fuzz``) checks that every public function and command
answers hostile input this way.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any

from .errors import ParameterError, ParameterTypeError

def _show(value: object) -> str:
    """The value as a message shows it: repr, cut short (a 10^6-element list must not flood the terminal)."""
    try:
        text = " ".join(repr(value).split())   # one line: a 2-d array's repr has several
    except Exception:  # noqa: BLE001 - a user object whose repr fails still gets a message
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:60] + " ... " + text[-12:]


def fail(name: str, value: object, allowed: str, *, kind: type[Any] = ParameterError) -> Any:
    """The error for ``name = value`` outside ``allowed`` (``parameter`` names the parameter, ``value`` holds it);
    ``kind`` is a ParameterError or another project error (TraceFormatError for an array that is not a trace)."""
    shown = value if isinstance(value, str) and value.startswith(("a ", "an ")) else _show(value)
    error = kind(f"{name} = {shown} is not allowed: {allowed}")
    error.parameter = name
    error.value = value
    return error


# -- rules ------------------------------------------------------------------------------------------------------

class Rule:
    """What one parameter accepts. ``check(name, value)`` returns the normalized value or raises."""

    def check(self, name: str, value: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def __call__(self, name: str, value: Any) -> Any:
        return self.check(name, value)

    def describe(self) -> str:
        """What is allowed, in words (for docs and messages)."""
        return type(self).__name__


def _as_float(name: str, value: Any, allowed: str = "must be a finite number") -> float:
    """``value`` as a float, or the project's error naming ``name`` and what is ``allowed`` (a rule's own words, so
    that a NaN or a string hears the range it missed, not only that it is not a number)."""
    if type(value).__name__ == "MaskedConstant":   # numpy.ma.masked: no value at all (float() would give 0.0)
        raise fail(name, "numpy.ma.masked", f"{allowed} (a masked value has none)", kind=ParameterTypeError)
    if isinstance(value, (bool, str, bytes)) or not isinstance(value, numbers.Real):
        # numpy's 0-d arrays are numbers too
        if not (hasattr(value, "ndim") and getattr(value, "ndim", 1) == 0 and hasattr(value, "item")):
            raise fail(name, value, allowed, kind=ParameterTypeError)
        return _as_float(name, value.item(), allowed)
    try:
        out = float(value)
    except (OverflowError, ValueError, TypeError):
        raise fail(name, value, f"{allowed} (this one does not fit a double)") from None
    if not math.isfinite(out):
        raise fail(name, value, allowed)
    return out


class Real(Rule):
    """A finite real number in a range; ``low``/``high`` may be open (``low_open``/``high_open``)."""

    def __init__(self, low: float | None = None, high: float | None = None, *, low_open: bool = False,
                 high_open: bool = False, words: str | None = None) -> None:
        self.low, self.high, self.low_open, self.high_open, self.words = low, high, low_open, high_open, words

    def describe(self) -> str:
        if self.words:
            return self.words
        if self.low is None and self.high is None:
            return "must be a finite number"
        if self.high is None:
            return f"must be a finite number {'>' if self.low_open else '>='} {self.low:g}"
        if self.low is None:
            return f"must be a finite number {'<' if self.high_open else '<='} {self.high:g}"
        lo = "(" if self.low_open else "["
        hi = ")" if self.high_open else "]"
        return f"must be a finite number in {lo}{self.low:g}, {self.high:g}{hi}"

    def check(self, name: str, value: Any) -> float:
        v = _as_float(name, value, self.describe())
        low_bad = self.low is not None and (v <= self.low if self.low_open else v < self.low)
        high_bad = self.high is not None and (v >= self.high if self.high_open else v > self.high)
        if low_bad or high_bad:
            raise fail(name, value, self.describe())
        return v


class Probability(Real):
    """A probability in [0, 1], or with an open end."""

    def __init__(self, *, open_low: bool = False, open_high: bool = False) -> None:
        lo = "(0" if open_low else "[0"
        hi = "1)" if open_high else "1]"
        super().__init__(0.0, 1.0, low_open=open_low, high_open=open_high, words=f"must be a probability in {lo}, {hi}")


class Integer(Rule):
    """An integer in [low, high]. A float is accepted when it is a whole number (``slots=1e6``), since users
    write counts that way; anything else, booleans and strings included, is refused."""

    def __init__(self, low: int, high: int | None = None) -> None:
        # counts end at 2**63 - 1 (what the core's integers hold): 10**400 slots is refused here, not by an overflow
        self.low, self.high = low, (2**63 - 1 if high is None else high)

    def describe(self) -> str:
        high = "2**63 - 1" if self.high == 2**63 - 1 else str(self.high)
        return f"must be an integer in [{self.low}, {high}]"

    def check(self, name: str, value: Any) -> int:
        if type(value).__name__ == "MaskedConstant":
            _as_float(name, value)   # refused there, in the same words
        if isinstance(value, bool) or isinstance(value, (str, bytes)):
            raise fail(name, value, self.describe(), kind=ParameterTypeError)
        if isinstance(value, numbers.Integral):
            v = int(value)
        elif isinstance(value, numbers.Real):
            f = _as_float(name, value)
            if not f.is_integer():
                raise fail(name, value, self.describe() + " (a whole number)")
            v = int(f)
        elif hasattr(value, "ndim") and getattr(value, "ndim", 1) == 0 and hasattr(value, "item"):
            return self.check(name, value.item())
        else:
            raise fail(name, value, self.describe(), kind=ParameterTypeError)
        if not self.low <= v <= self.high:
            raise fail(name, value, self.describe())
        return v


class Choice(Rule):
    """One of a fixed set of names; ``loose`` matches case-insensitively and ignores '-' and '_'
    (``"New-Reno"`` is ``"newreno"``). ``refused`` maps names the user may expect but this entry cannot take to the
    reason (TCP-Probing on the bulk link): they are not listed as allowed, and giving one says why."""

    def __init__(self, options: Sequence[str], *, loose: bool = False, refused: dict[str, str] | None = None) -> None:
        self.options, self.loose, self.refused = tuple(options), loose, dict(refused or {})

    def describe(self) -> str:
        return "must be one of " + ", ".join(self.options)

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str):
            raise fail(name, value, self.describe(), kind=ParameterTypeError)
        key = value.lower().replace("-", "").replace("_", "") if self.loose else value
        if key in self.refused:
            raise fail(name, value, f"{self.describe()}: {self.refused[key]}")
        if key not in self.options:
            raise fail(name, value, self.describe())
        return key


class Flag(Rule):
    """True or False (numpy booleans too)."""

    def describe(self) -> str:
        return "must be True or False"

    def check(self, name: str, value: Any) -> bool:
        kind = type(value)
        if isinstance(value, bool) or (kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool")):
            return bool(value)   # numpy 1's numpy.bool_ and numpy 2's numpy.bool
        if getattr(value, "ndim", None) == 0 and getattr(getattr(value, "dtype", None), "kind", None) == "b":
            return bool(value.item())   # a 0-d boolean array, as numbers take 0-d arrays
        raise fail(name, value, self.describe(), kind=ParameterTypeError)


class Nothing(Rule):
    """Only None: a parameter a shared declaration gives this entry but that it cannot take another way (``words``
    say why)."""

    def __init__(self, words: str) -> None:
        self.words = words

    def describe(self) -> str:
        return self.words

    def check(self, name: str, value: Any) -> None:
        if value is not None:
            raise fail(name, value, self.words)
        return None


class Optional(Rule):
    """None, or what ``rule`` accepts."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule

    def describe(self) -> str:
        return self.rule.describe() + " (or None)"

    def check(self, name: str, value: Any) -> Any:
        return None if value is None else self.rule.check(name, value)


class Instance(Rule):
    """An instance of one of ``types`` (``words`` says which, in the user's terms)."""

    def __init__(self, types: type | tuple[type, ...], words: str) -> None:
        self.types, self.words = types, words

    def describe(self) -> str:
        return self.words

    def check(self, name: str, value: Any) -> Any:
        if not isinstance(value, self.types):
            raise fail(name, value, self.words, kind=ParameterTypeError)
        return value


class _Unset:
    """The default of a parameter that has no default value but may be left out when others stand in for it (a link's
    channel, given as mean_good and mean_bad): the function then decides, and says so when nothing stands in."""

    def __repr__(self) -> str:
        return "<not given>"

    def __reduce__(self) -> str:   # one object, also across processes
        return "UNSET"


#: See :class:`_Unset`.
UNSET = _Unset()


class OrUnset(Rule):
    """:data:`UNSET`, or what ``rule`` accepts."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule

    def describe(self) -> str:
        return self.rule.describe()

    def check(self, name: str, value: Any) -> Any:
        return value if value is UNSET else self.rule.check(name, value)


class Callback(Rule):
    """A progress argument: None, True/False, or a callable that gets the fraction done."""

    def describe(self) -> str:
        return "must be None, True, False or a callable taking the fraction done"

    def check(self, name: str, value: Any) -> Any:
        if value is None or isinstance(value, bool) or callable(value):
            return value
        raise fail(name, value, self.describe(), kind=ParameterTypeError)


class Name(Rule):
    """A short identifier: a string of lower-case letters, digits and underscores, at most ``length`` long (a
    kernel module's name, say), so that it can be echoed in a message or a hint as it is."""

    def __init__(self, length: int, words: str) -> None:
        self.length, self.words = length, words

    def describe(self) -> str:
        return self.words

    def check(self, name: str, value: Any) -> Any:
        if not isinstance(value, str):
            raise fail(name, value, self.words, kind=ParameterTypeError)
        if not (0 < len(value) <= self.length and value.isascii() and all(c.islower() or c.isdigit() or c == "_"
                                                                           for c in value)):
            raise fail(name, value, self.words)
        return value


class Function(Rule):
    """A callable the call will invoke (a rule, a callback), not a flag."""

    def __init__(self, words: str = "must be a callable") -> None:
        self.words = words

    def describe(self) -> str:
        return self.words

    def check(self, name: str, value: Any) -> Any:
        if callable(value) and not isinstance(value, type):
            return value
        raise fail(name, value, self.words, kind=ParameterTypeError)


def not_numbers(raw: Any, *, bools: bool = False) -> bool:
    """Whether the array ``raw`` holds text or (unless ``bools``: an array of bits) True/False, which numpy would
    turn into numbers ('0.5' → 0.5, True → 1.0) without a word; or complex numbers, dates and durations, which it
    would turn into real numbers by dropping the imaginary part or reading the ticks of the clock."""
    import numpy as np

    kind = raw.dtype.kind
    if kind in "USVcmM" or (kind == "b" and not bools):
        return True
    return kind == "O" and any(isinstance(x, (str, bytes, bool, np.bool_, complex, np.complexfloating))
                               for x in raw.ravel()[:10_000])


class Array(Rule):
    """A one-dimensional array of finite numbers (a list, a tuple or a numpy array), returned as a contiguous
    float64 array; ``low`` bounds its values, ``sorted`` asks for a non-decreasing sequence, ``min_size`` for a
    least length."""

    def __init__(self, *, low: float | None = None, high: float | None = None, sorted: bool = False,
                 min_size: int = 0, bools: bool = False) -> None:
        self.low, self.high, self.sorted, self.min_size = low, high, sorted, min_size
        #: Whether an array of True/False is taken as 1/0 (bits, block errors); a lone True/False never is.
        self.bools = bools

    def describe(self) -> str:
        parts = ["must be a one-dimensional array of finite numbers"]
        if self.low is not None and self.high is not None:
            parts.append(f"in [{self.low:g}, {self.high:g}]")
        elif self.low is not None:
            parts.append(f">= {self.low:g}")
        if self.sorted:
            parts.append("in non-decreasing order")
        if self.min_size:
            parts.append(f"with at least {self.min_size} element{'s' if self.min_size > 1 else ''}")
        return " ".join(parts)

    def check(self, name: str, value: Any) -> Any:
        import numpy as np

        if isinstance(value, (str, bytes, dict, bool, np.bool_)) or value is None:
            raise fail(name, value, self.describe(), kind=ParameterTypeError)
        if np.ma.isMaskedArray(value):
            # numpy would read the values under the mask as if it were not there.
            raise fail(name, "a masked array", self.describe() + "; fill it first (its .filled(value))",
                       kind=ParameterTypeError)
        try:
            raw = np.asarray(value)
        except (TypeError, ValueError, OverflowError):
            raise fail(name, value, self.describe(), kind=ParameterTypeError) from None
        # Text is not a number ('0.5' would convert), nor True/False unless the array is one of bits.
        if not_numbers(raw, bools=self.bools):
            raise fail(name, value if raw.size < 8 else f"an array of {raw.dtype}", self.describe(),
                       kind=ParameterTypeError)
        try:
            arr = np.ascontiguousarray(value, dtype=float)
        except (TypeError, ValueError, OverflowError):
            raise fail(name, value, self.describe(), kind=ParameterTypeError) from None
        if arr.ndim == 0:
            arr = arr.reshape(1)
        if arr.ndim != 1:
            raise fail(name, f"an array of shape {arr.shape}", self.describe())
        if arr.size < self.min_size:
            raise fail(name, value, self.describe())
        finite = np.isfinite(arr)
        if not finite.all():
            i = int(np.flatnonzero(~finite)[0])
            raise fail(name, f"an array whose element {i} is {arr[i]}", self.describe())
        if self.low is not None and arr.size and arr.min() < self.low:
            i = int(np.argmin(arr))
            raise fail(name, f"an array whose element {i} is {arr[i]:g}", self.describe())
        if self.high is not None and arr.size and arr.max() > self.high:
            i = int(np.argmax(arr))
            raise fail(name, f"an array whose element {i} is {arr[i]:g}", self.describe())
        if self.sorted and arr.size > 1 and np.any(np.diff(arr) < 0):
            i = int(np.flatnonzero(np.diff(arr) < 0)[0]) + 1
            raise fail(name, f"an array whose element {i} ({arr[i]:g}) is below the one before it",
                       self.describe())
        return arr


#: Shared rules, so the same parameter is checked the same way everywhere.
SEED = Integer(0, 2**64 - 1)
PROBABILITY = Probability()
POSITIVE = Real(0.0, low_open=True)
NON_NEGATIVE = Real(0.0)
FINITE = Real()
CONFIDENCE = Probability(open_low=True, open_high=True)
PROGRESS = Callback()
#: Energies (any unit, used consistently): within 1e-30..1e30 so that ratios of them stay finite.


ENERGY = Real(1e-30, 1e30)
CIRCUIT_ENERGY = Real(0.0, 1e30)
#: Times on a channel's clock: from 0 on, non-decreasing.
TIMES = Array(low=0.0, sorted=True)


# -- resource limits: the budget of a request (``_budget``), here for every caller that says ``v.memory``, ``v.work`` --

from ._budget import SPEED, memory, memory_limit, work, work_limit  # noqa: E402  (after fail, which it uses)

# -- files and directories (``_paths``), here for every caller that says ``v.FilePath``, ``v.unwritable`` -------------

from ._paths import (Destination, FilePath, destination, path, standard_stream,  # noqa: E402,F401  (after fail)
                     streamed, uncreatable, unreadable, unwritable, unwritable_directory)


# -- the decorator ------------------------------------------------------------------------------------------------

def checked(**rules: Rule) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Check a function's arguments against ``rules`` (one :class:`Rule` per parameter name) on every call.

    The call is bound to the signature first: an unknown keyword, a missing required argument or too many
    positional arguments raise :class:`~tcpfade.errors.ParameterTypeError` naming the parameter. Then each rule
    checks its argument (explicit or default) and the function receives the normalized values. Parameters
    without a rule are passed as given (channels checked by their own constructors, ``**kwargs`` forwarded)."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(fn)
        unknown = set(rules) - set(signature.parameters)
        if unknown:  # a rule for a parameter that does not exist is a bug of ours; say so at import
            raise RuntimeError(f"{fn.__qualname__}: rules for unknown parameters {sorted(unknown)}")
        label = fn.__qualname__.replace(".__init__", "")
        binder = _binder(signature)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound, arguments = None, None
            if binder is not None:
                try:
                    arguments = binder(*args, **kwargs)
                except TypeError:   # a call that does not bind: signature.bind's error, said as ours, below
                    pass
            if arguments is None:
                bound = _bind(signature, label, args, kwargs)
                arguments = bound.arguments
            for name, rule in rules.items():
                if name in arguments:
                    arguments[name] = rule.check(name, arguments[name])
            return fn(**arguments) if bound is None else fn(*bound.args, **bound.kwargs)

        return wrapper

    return decorate


def _binder(signature: inspect.Signature) -> Callable[..., dict[str, Any]] | None:
    """A function with the signature's parameters and defaults that returns every argument by name, as
    ``signature.bind`` with ``apply_defaults`` does, bound by the interpreter instead of in Python (a tenth of the
    time: a call with forty parameters spent more binding its arguments than simulating a small transfer). None for
    a signature with positional-only, ``*args`` or ``**kwargs`` parameters, which :func:`_bind` handles alone."""
    params = list(signature.parameters.values())
    if any(p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in params):
        return None
    defaults = {p.name: p.default for p in params if p.default is not p.empty}
    parts, star = [], False
    for p in params:
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        parts.append(p.name if p.name not in defaults else f"{p.name}=_tcpfade_defaults[{p.name!r}]")
    body = ", ".join(f"{p.name!r}: {p.name}" for p in params)
    namespace: dict[str, Any] = {"_tcpfade_defaults": defaults}
    exec(f"def bind({', '.join(parts)}):\n    return {{{body}}}\n", namespace)  # noqa: S102  (our own signatures)
    return namespace["bind"]


def _bind(signature: inspect.Signature, label: str, args: tuple, kwargs: dict) -> inspect.BoundArguments:
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as exc:
        text = str(exc)
        missing = [n for n, p in signature.parameters.items()
                   if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                   and n not in kwargs and n != "self"]
        if "missing" in text and missing:
            name = next((n for n in missing if f"'{n}'" in text), missing[0])
            raise fail(name, "a missing value", f"{label} needs {name}", kind=ParameterTypeError) from None
        if "unexpected keyword" in text or "got an unexpected" in text:
            name = text.rsplit("'", 2)[-2] if "'" in text else "?"
            accepted = ", ".join(n for n in signature.parameters if n != "self")
            raise fail(name, kwargs.get(name), f"{label} has no parameter {name!r} (it takes {accepted})",
                       kind=ParameterTypeError) from None
        raise fail("arguments", f"a call with {len(args)} positional arguments", f"{label}: {text}",
                   kind=ParameterTypeError) from None
    bound.apply_defaults()
    return bound


def checked_fields(**rules: Rule) -> Callable[[type], type]:
    """:func:`checked` for a dataclass: its generated ``__init__`` checks the fields named in ``rules`` and stores
    the normalized values (frozen dataclasses included)."""

    def decorate(cls: type) -> type:
        cls.__init__ = checked(**rules)(cls.__init__)  # type: ignore[misc]
        return cls

    return decorate


# -- the helpers the bodies use for checks that involve several parameters ---------------------------------------

def real(name: str, value: object) -> float:
    """A finite real number."""
    return FINITE.check(name, value)


def probability(name: str, value: object, *, open_low: bool = False, open_high: bool = False) -> float:
    """A probability in [0, 1] (or an open end when asked)."""
    return Probability(open_low=open_low, open_high=open_high).check(name, value)


def positive(name: str, value: object) -> float:
    """A finite number > 0."""
    return POSITIVE.check(name, value)


def at_least(name: str, value: object, low: float) -> float:
    """A finite number >= low."""
    return Real(low).check(name, value)


def integer(name: str, value: object, low: int, high: int | None = None) -> int:
    """An integer in [low, high]."""
    return Integer(low, high).check(name, value)


def seed(value: object) -> int:
    """A seed: an integer in [0, 2**64)."""
    return SEED.check("seed", value)


def choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    """One of a fixed set of names."""
    return Choice(allowed).check(name, value)


def db_to_linear(db: float) -> float:
    """10^(dB/10); an overflow is an error naming nothing (callers bound dB first)."""
    return 10.0 ** (db / 10.0)


def linear_to_db(x: float) -> float:
    """10 log10(x)."""
    return 10.0 * math.log10(x)
