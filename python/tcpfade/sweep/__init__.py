"""Sweeps at scale: an experiment file (TOML) names a model, fixed parameters and axes; the runner computes
every point the store lacks, on local processes or a Dask cluster; the store (SQLite) keeps one row per point,
addressed by content, safe against crashes.

>>> from tcpfade.sweep import Experiment
>>> e = Experiment.from_dict({"sweep": {"model": "analyze"}, "fixed": {"fdt": 0.016, "wmax": 6},
...                           "axes": {"variant": ["tahoe", "reno"], "error_rate": [0.01, 0.1]}})
>>> len(e.points()), e.points()[0].params
(4, {'fdt': 0.016, 'wmax': 6, 'variant': 'tahoe', 'error_rate': 0.01})
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as v
from .experiment import Experiment, ExperimentError, Point, load_experiment, point_seed
from .models import MODELS, model_identity
from .runner import SweepInterrupted, SweepReport, run_sweep
from .store import Store


@dataclass(frozen=True)
class SweepStatus:
    """How far an experiment's sweep is: its points, those in the store (computed by this code), those missing,
    and rows of the same experiment left by other code (kept, never mixed in)."""

    total: int
    done: int
    missing: int
    other_code: int


@v.checked(experiment=v.Instance(Experiment, "must be an Experiment (tcpfade.sweep.load_experiment)"))
def sweep_status(experiment: Experiment) -> SweepStatus:
    """Compare the experiment's points with its store."""
    keys = {p.key for p in experiment.points()}
    store = Store(experiment.store)
    present = store.keys()
    done = len(keys & present)
    identity = model_identity(experiment.model)
    other = 0
    if store.path.exists():
        other = sum(1 for r in store.rows(experiment.name) if r["identity"] != identity)
    return SweepStatus(total=len(keys), done=done, missing=len(keys) - done, other_code=other)


__all__ = ["Experiment", "ExperimentError", "Point", "load_experiment", "point_seed", "MODELS", "model_identity",
           "SweepInterrupted", "SweepReport", "run_sweep", "Store", "SweepStatus", "sweep_status"]
