"""The in-memory twin of a sweep: run a tcpfade function over a grid of parameters and several seeds, in a
notebook, and get one DataFrame back (no experiment file, no store).

>>> import tcpfade
>>> ch = tcpfade.GilbertElliott.from_fading(error_rate=0.05, fdt=0.01)
>>> table = tcpfade.runs(tcpfade.simulate, variant=["tahoe", "newreno"], channel=ch, slots=100_000, seeds=3)
>>> table[["variant", "seed", "throughput", "throughput_low", "throughput_high"]].shape
(6, 5)
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from .. import _validate as v
from .experiment import seed_from

if TYPE_CHECKING:
    import pandas as pd

#: How many points :func:`runs` accepts (each one a call): beyond it, write an experiment file and use a sweep.
MAX_POINTS = 100_000


def _is_axis(value: Any) -> bool:
    # Lists, tuples and ranges are axes; a string, a channel, an array of samples (a trace) are single values.
    return isinstance(value, (list, tuple, range))


def _identity(params: dict[str, Any]) -> dict[str, str]:
    """What a point's seeds are drawn from: its parameters by value (a channel's repr gives its parameters); an
    object whose repr is its address (a function, say) counts by its type, so the seeds stay the same from run
    to run."""
    out = {}
    for k in sorted(params):
        text = repr(params[k])
        out[k] = type(params[k]).__name__ if " at 0x" in text else text
    return out


@v.checked()
def runs(function: Callable[..., Any], *, seeds: int | Iterable[int] | None = 1, master_seed: int = 1,
         workers: int = 1, dask: str | None = None, progress: bool | None = None,
         **parameters: Any) -> pd.DataFrame:
    """Call ``function`` (``tcpfade.simulate``, ``simulate_link``, ``analyze``, ``tcpfade.wcdma.simulate``, ... or
    any callable returning a result record or a dict) at every combination of the ``parameters`` given as lists
    (the grid's axes; other values are passed as they are), once per seed, and return one row per call: the
    axes, the seed, then the record's ``to_dict()`` (its metrics with ``<metric>_low``/``_high``).

    Parameters
    ----------
    function : the tcpfade function to call.
    seeds : a number of replications n (seeds drawn from ``master_seed`` and each point's parameters, as a sweep
        draws them: the same whatever ``workers`` is), an explicit list of seeds, or None for a function that
        takes no seed (the analyses).
    master_seed : the master seed of the drawn seeds.
    workers : threads calling ``function`` at once (the simulations release the GIL); the rows are the same and
        in the same order whatever the number.
    dask : address of a running Dask scheduler ("tcp://host:8786"; needs ``pip install 'tcpfade[dask]'``): the
        calls run on its workers instead (``workers`` is then ignored); the rows are the same as a local run's.
    progress : a progress bar (default: on a terminal).
    **parameters : the function's keyword arguments; a list, tuple or range is an axis. A numpy array is one
        value (a trace is an array); where the function refuses it, the error says to give a list for an axis.

    Returns
    -------
    pandas.DataFrame, one row per (point, seed) in grid order (the axes in the order given, the last varying
    fastest), seeds within a point in order.

    Raises
    ------
    ParameterError
        a bad ``seeds``, ``workers`` or an empty axis; more than 100,000 calls; a ``dask`` address where no
        scheduler answers; and whatever the function raises for a point.

    Examples
    --------
    >>> ch = tcpfade.GilbertElliott.from_fading(error_rate=0.05, fdt=0.01)
    >>> t = tcpfade.runs(tcpfade.simulate, variant=["tahoe", "newreno"], channel=ch, slots=50_000, seeds=2)
    >>> t[["variant", "seed", "throughput", "throughput_low", "throughput_high"]].shape
    (4, 5)
    """
    import pandas as pd
    from tqdm import tqdm

    if not callable(function):
        raise v.fail("function", function, "must be a tcpfade function (or any callable)")
    workers = v.integer("workers", workers, 1, 1024)
    if dask is not None:
        v.Instance(str, "must be a Dask scheduler's address, such as \"tcp://host:8786\"").check("dask", dask)
    for name in ("trace_seconds", "trace_slots"):
        given = parameters.get(name)
        asked = given if _is_axis(given) else [given]
        if any(not (x is None or (isinstance(x, (int, float)) and not isinstance(x, bool) and x == 0)) for x in asked):
            raise v.fail(name, given, "is not kept by runs, whose table has a row per call (a trace is no row): call "
                                      "the function itself for its trace")
    if "seed" in parameters and seeds is not None:
        raise v.fail("seed", parameters["seed"], "is drawn by runs: give seeds (a number of replications or a list "
                                                 "of seeds), or seeds=None to pass seed as it is",
                     kind=v.ParameterTypeError)
    axes = {k: list(val) for k, val in parameters.items() if _is_axis(val)}
    fixed = {k: val for k, val in parameters.items() if not _is_axis(val)}
    for name, values in axes.items():
        if not values:
            raise v.fail(name, "an empty list", "must hold at least one value (an axis of the grid)")
    try:
        signature = inspect.signature(function).parameters
    except (TypeError, ValueError):  # a builtin without a signature: its own call will say what it takes
        signature = {"kwargs": inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)}
    takes_seed = "seed" in signature
    if not any(q.kind is inspect.Parameter.VAR_KEYWORD for q in signature.values()):
        for key in parameters:
            if key not in signature:
                raise v.fail(key, parameters[key], f"{getattr(function, '__name__', function)} has no parameter "
                                                   f"{key!r} (it takes {', '.join(signature)})",
                             kind=v.ParameterTypeError)
    if seeds is None:
        replications: list[int | None] = [None]
    elif isinstance(seeds, (list, tuple, range)):
        replications = [v.seed(s) for s in seeds]
        if not replications:
            raise v.fail("seeds", "an empty list", "must hold at least one seed, or be a number of replications")
    else:
        count = v.integer("seeds", seeds, 1, MAX_POINTS)
        replications = list(range(count))
    if replications != [None] and not takes_seed:
        raise v.fail("seeds", seeds, f"must be None: {getattr(function, '__name__', function)} takes no seed")
    points = [dict(zip(axes, combo)) for combo in itertools.product(*axes.values())]
    total = len(points) * len(replications)
    if total > MAX_POINTS:
        raise v.fail("parameters", f"{total} calls", f"must be at most {MAX_POINTS:,}: write an experiment file and "
                                                     "run it with tcpfade sweep")
    explicit = isinstance(seeds, (list, tuple, range))
    name = getattr(function, "__name__", "function")
    tasks = []
    for point in points:
        for r in replications:
            if r is None:
                seed = None
            elif explicit:
                seed = r
            else:
                seed = seed_from(v.SEED.check("master_seed", master_seed), name, _identity({**fixed, **point}), r)
            tasks.append((point, seed))

    def call(task):
        point, seed = task
        kwargs = {**fixed, **point, **({"seed": seed} if seed is not None else {})}
        try:
            result = function(**kwargs)
        except v.ParameterError as error:
            # An array is one value (a trace, a power trace), not an axis: when the function refuses one, the user
            # most likely meant an axis, and the function's own words would not say so.
            arrays = [k for k, x in fixed.items() if getattr(x, "ndim", 0) >= 1 and str(error).startswith(f"{k} = ")]
            if not arrays:
                raise
            raise v.fail(arrays[0], fixed[arrays[0]], f"{str(error).split(' is not allowed: ', 1)[-1]} (runs passes an "
                                                      "array as one value; for an axis give a list: "
                                                      f"{arrays[0]}=array.tolist())", kind=type(error)) from None
        if hasattr(result, "to_dict"):
            row = result.to_dict()
        elif isinstance(result, Mapping):
            row = dict(result)
        else:
            raise v.fail("function", name, f"must return a result record or a dict; it returned "
                                           f"{type(result).__name__} for {kwargs}")
        return {**point, **({"seed": seed} if seed is not None else {}),
                **{k: val for k, val in row.items() if k not in point and k != "seed"}}

    with tqdm(total=total, desc=name, unit="run", disable=(not progress) if progress is not None else None) as bar:
        if dask is not None:
            return pd.DataFrame(_on_dask(dask, call, tasks, bar))
        if workers == 1:
            rows = []
            for task in tasks:
                rows.append(call(task))
                bar.update(1)
        else:
            with ThreadPoolExecutor(workers) as pool:
                rows = []
                for row in pool.map(call, tasks):
                    rows.append(row)
                    bar.update(1)
    return pd.DataFrame(rows)


def _on_dask(address: str, call: Callable[[Any], dict], tasks: list, bar) -> list[dict]:
    """``call`` over ``tasks`` on a Dask cluster, the rows in the tasks' order; Ctrl-C cancels what is left."""
    from .runner import dask_client

    client, as_completed = dask_client(address)
    with client:
        futures = client.map(call, tasks, pure=False)
        where = {future.key: i for i, future in enumerate(futures)}
        rows: list[Any] = [None] * len(tasks)
        try:
            for future in as_completed(futures):
                rows[where[future.key]] = future.result()
                bar.update(1)
        except BaseException:
            client.cancel(futures)
            raise
    return rows
