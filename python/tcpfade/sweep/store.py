"""The results store: one SQLite file, a row per computed point, addressed by content.

A row's key hashes the model's identity (name, tcpfade version, fingerprint of the code that computes),
the point's parameters, its replication and its seed, so a rerun of the same sweep by the same code finds
its points done, and a run by changed code never mixes with them. Rows are written by one process (the
runner) in transactions; SQLite's write-ahead log with full sync makes each commit durable, so a sweep
killed at any moment (SIGKILL, power loss) leaves only whole rows, each once.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any


from .. import _validate as v
from .._io import TABLE_FORMATS, write_table
from .._record import interval_columns

if TYPE_CHECKING:
    import pandas as pd

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    experiment TEXT NOT NULL,
    model TEXT NOT NULL,
    identity TEXT NOT NULL,
    version TEXT NOT NULL,
    params TEXT NOT NULL,
    replication INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    metrics TEXT NOT NULL,
    intervals TEXT NOT NULL,
    seconds REAL NOT NULL,
    created TEXT NOT NULL,
    master_seed INTEGER,
    point INTEGER
);
CREATE INDEX IF NOT EXISTS results_experiment ON results (experiment);
"""

#: Columns added since the first stores: (name, type); an older store gets them (empty) on its next write.
ADDED_COLUMNS = (("master_seed", "INTEGER"), ("point", "INTEGER"))
#: The columns a store must have to be read (the oldest schema's; the added ones may be missing and read as null).
REQUIRED_COLUMNS = ("key", "experiment", "model", "identity", "version", "params", "replication", "seed", "metrics",
                    "intervals", "seconds", "created")

#: The formats :meth:`Store.export` writes, by suffix.
EXPORT_FORMATS = TABLE_FORMATS

#: The columns a row has besides the parameters and metrics, in the order exports put them first: the point's
#: place in its experiment (``point``, the grid's order) and its replication, the master seed and the point's
#: seed, then the code that computed it.
ROW_COLUMNS = ("experiment", "point", "replication", "master_seed", "seed", "model", "version", "identity", "key",
               "seconds", "created")


def store_path(name: str, path: str | Path) -> Path:
    """A store's path, refused at once when no SQLite file can live there: a directory, a path whose nearest
    existing ancestor is not a writable directory."""
    if not isinstance(path, (str, Path)) or not str(path):
        raise v.fail(name, path, "must be a file path (str or pathlib.Path)", kind=v.ParameterTypeError)
    p = Path(path)
    if p.is_dir():
        raise v.fail(name, str(p), "is a directory; a store is a file (e.g. results.sqlite)")
    why = None if p.exists() else v.uncreatable(p)
    if why:
        raise v.fail(name, str(p), why)
    return p


class Store:
    """A results store at ``path`` (created on the first write)."""

    @v.checked()
    def __init__(self, path: str | Path) -> None:
        self.path = store_path("store", path)

    def _connect(self, *, write: bool) -> sqlite3.Connection:
        if not write and not self.path.exists():
            raise v.fail("store", str(self.path), "does not exist (run the sweep first)")
        if write:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            con = sqlite3.connect(self.path, timeout=60.0)
        else:
            con = self._open_for_reading()
        try:
            if write:
                con.execute("PRAGMA journal_mode=WAL")
                con.execute("PRAGMA synchronous=FULL")
                con.executescript(SCHEMA)
                have = {r[1] for r in con.execute("PRAGMA table_info(results)")}
                for name, kind in ADDED_COLUMNS:
                    if name not in have:
                        con.execute(f"ALTER TABLE results ADD COLUMN {name} {kind}")
            have = {r[1] for r in con.execute("PRAGMA table_info(results)")}
            if not have:
                raise v.fail("store", str(self.path), "is not a tcpfade results store (it has no results table)")
            missing = [c for c in REQUIRED_COLUMNS if c not in have]
            if missing:
                raise v.fail("store", str(self.path), "is not a tcpfade results store of a version this one reads: "
                                                      f"its results table lacks {', '.join(missing)}")
        except sqlite3.DatabaseError as exc:
            con.close()
            if write and "readonly" in str(exc).replace("-", "").replace(" ", ""):
                raise v.fail("store", str(self.path), f"cannot be written ({exc}); it can still be read") from None
            raise v.fail("store", str(self.path), f"is not a tcpfade results store ({exc})") from None
        except BaseException:
            con.close()
            raise
        return con

    def _open_for_reading(self) -> sqlite3.Connection:
        """A read-only connection: a store on a read-only disk, or one the user may not write, is still read
        (SQLite's immutable mode where even its shared-memory file cannot be made)."""
        uri = self.path.resolve().as_uri()
        for mode in ("?mode=ro", "?mode=ro&immutable=1"):
            con = sqlite3.connect(uri + mode, uri=True, timeout=60.0)
            try:
                con.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
                return con
            except sqlite3.OperationalError:
                con.close()
            except sqlite3.DatabaseError as exc:
                con.close()
                raise v.fail("store", str(self.path), f"is not a tcpfade results store ({exc})") from None
        return sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, timeout=60.0)

    def keys(self) -> set[str]:
        """Keys of the rows present (none if the store does not exist yet)."""
        if not self.path.exists():
            return set()
        with closing(self._connect(write=False)) as con:
            return {k for (k,) in con.execute("SELECT key FROM results")}

    def writer(self) -> StoreWriter:
        """A writer that commits rows in small transactions (use as a context manager)."""
        return StoreWriter(self._connect(write=True))

    def rows(self, experiment: str | None = None) -> list[dict[str, Any]]:
        """Every row (of one experiment, if given) as a dict, parameters and metrics decoded, in key order."""
        with closing(self._connect(write=False)) as con:
            con.row_factory = sqlite3.Row
            query, args = "SELECT * FROM results", ()
            if experiment is not None:
                query, args = query + " WHERE experiment = ?", (experiment,)
            if experiment is not None and con.execute("SELECT 1 FROM results WHERE experiment = ? LIMIT 1",
                                                      (experiment,)).fetchone() is None:
                # A misspelt name would read as an empty result, and export an empty file.
                names = [r[0] for r in con.execute("SELECT DISTINCT experiment FROM results ORDER BY experiment")]
                raise v.fail("experiment", experiment, f"must be one of the store's experiments "
                                                       f"({', '.join(names) or 'none yet'})")
            out = []
            # Experiments by name, then each in its grid's order (rows of older stores, without it, last).
            have = {r[1] for r in con.execute("PRAGMA table_info(results)")}
            order = (" ORDER BY experiment, point IS NULL, point, replication, key" if "point" in have
                     else " ORDER BY experiment, replication, key")
            for row in con.execute(query + order, args):
                d = {**{c: None for c, _kind in ADDED_COLUMNS}, **dict(row)}
                for column in ("params", "metrics", "intervals"):
                    d[column] = json.loads(d[column])
                out.append(d)
            return out

    def experiments(self) -> dict[str, int]:
        """Experiment names in the store and their row counts."""
        with closing(self._connect(write=False)) as con:
            return dict(con.execute("SELECT experiment, COUNT(*) FROM results GROUP BY experiment ORDER BY 1"))

    def dataframe(self, experiment: str | None = None) -> pd.DataFrame:
        """The store as a table: a row per point in its experiment's order (``point``, then ``replication``), with
        :data:`ROW_COLUMNS` first (the master seed and the point's seed, the version and identity of the code),
        then every parameter the point ran with, set or left at its default (in the call's order), then each
        metric with its interval (``<metric>_low``, ``<metric>_high``: the confidence interval of a simulation,
        the bounds of an analysis ordered by value). Counts are integers."""
        from .models import CHANNEL_PARAMETERS, MODEL_PARAMETERS, defaults, profile_defaults

        per_model: dict[str, tuple[dict[str, Any], dict[str, int]]] = {}
        records = []
        for row in self.rows(experiment):
            rec = {c: row.get(c) for c in ROW_COLUMNS}
            if row["model"] not in per_model:    # its defaults (from the call's signature) and its column order
                order = [*MODEL_PARAMETERS.get(row["model"], {}), *CHANNEL_PARAMETERS]
                per_model[row["model"]] = (defaults(row["model"]) if row["model"] in MODEL_PARAMETERS else {},
                                           {k: i for i, k in enumerate(order)})
            given, rank = per_model[row["model"]]
            params = {**given, **profile_defaults(row["model"], row["params"]), **row["params"]}
            ranked = sorted(params, key=lambda k: (rank.get(k, len(rank)), k))
            # a parameter named like a row column keeps its value under param_<name> (older stores
            # hold analyze_link's reading under its former name ``model``)
            rec.update({f"param_{k}" if k in ROW_COLUMNS else k: params[k] for k in ranked})
            for name, value in row["metrics"].items():
                rec[name] = value
                if name in row["intervals"]:
                    rec.update(interval_columns(name, row["intervals"][name]))
            records.append(rec)
        import pandas as pd

        frame = pd.DataFrame.from_records(records)
        for column in ("point", "master_seed"):
            if column in frame and frame[column].notna().all():
                frame[column] = frame[column].astype("int64")
            elif column in frame:
                frame[column] = frame[column].astype("Int64")
        return frame

    def export(self, path: str | Path, experiment: str | None = None) -> Path:
        """Write :meth:`dataframe` to ``path``: CSV or Parquet by its suffix; CSV to standard output or a device."""
        out = Path(path)
        if not v.streamed(out):
            v.choice("out", out.suffix.lower(), EXPORT_FORMATS)
        return write_table(self.dataframe(experiment), out, "out")


class StoreWriter:
    """Adds rows and commits them in small transactions: when ``rows`` are pending or the oldest pending row
    has waited ``seconds`` (the runner calls :meth:`commit_if_due` while it waits), and on exit. A crash loses
    at most the uncommitted rows, which a rerun computes again; one fsync per row would cap fast sweeps."""

    def __init__(self, con: sqlite3.Connection, rows: int = 50, seconds: float = 0.25) -> None:
        self.con, self.rows, self.seconds = con, rows, seconds
        self.pending, self.since = 0, 0.0

    def add(self, row: dict[str, Any], *, replace: bool = False) -> None:
        """Store one point's row (kept if its key is already there, unless ``replace``); committed with the
        next batch (:meth:`commit_if_due`)."""
        values = dict(row)
        for column in ("params", "metrics", "intervals"):
            values[column] = json.dumps(values[column], sort_keys=True)
        values.setdefault("created", datetime.now(timezone.utc).isoformat(timespec="seconds"))
        values.setdefault("master_seed", None)
        values.setdefault("point", None)
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        columns = ("key", "experiment", "model", "identity", "version", "params", "replication", "seed", "metrics",
                   "intervals", "seconds", "created", "master_seed", "point")
        self.con.execute(f"{verb} INTO results ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                         [values[c] for c in columns])
        if not self.pending:
            self.since = time.monotonic()
        self.pending += 1
        self.commit_if_due()

    def commit_if_due(self) -> None:
        """Commit if enough rows are pending or the oldest has waited long enough."""
        if self.pending and (self.pending >= self.rows or time.monotonic() - self.since >= self.seconds):
            self.commit()

    def commit(self) -> None:
        """Commit every pending row now."""
        self.con.commit()
        self.pending = 0

    def __enter__(self) -> StoreWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.commit()
        finally:
            self.con.close()
