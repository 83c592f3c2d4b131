"""``tcpfade.runs``, the in-memory twin of a sweep: a grid of parameters times seeds, one DataFrame."""

from __future__ import annotations

import pytest

import tcpfade

CH = tcpfade.GilbertElliott.from_fading(error_rate=0.05, fdt=0.01)


def test_a_grid_of_seeds_gives_the_direct_calls_rows_in_order_whatever_the_workers():
    one = tcpfade.runs(tcpfade.simulate, variant=["tahoe", "newreno"], channel=CH, wmax=[6, 24], slots=100_000,
                       seeds=2)
    two = tcpfade.runs(tcpfade.simulate, variant=["tahoe", "newreno"], channel=CH, wmax=[6, 24], slots=100_000,
                       seeds=2, workers=2)
    assert one.equals(two)
    assert list(zip(one.variant, one.wmax)) == [(v, w) for v in ("tahoe", "newreno") for w in (6, 24) for _ in "ab"]
    # Each row is the direct call with its seed: the table adds nothing and loses nothing.
    for _, row in one.iterrows():
        direct = tcpfade.simulate(row.variant, CH, wmax=int(row.wmax), slots=100_000, seed=int(row.seed))
        assert (row.throughput, row.throughput_low, row.throughput_high) == (direct.throughput,
                                                                             *direct.ci["throughput"])
    # Seeds depend on the master seed and the point's parameters, not on the grid around it: the point alone
    # gets the seeds it had in the grid, and another master seed other seeds.
    alone = tcpfade.runs(tcpfade.simulate, variant="newreno", channel=CH, wmax=[24], slots=100_000, seeds=2)
    assert list(alone.seed) == list(one[(one.variant == "newreno") & (one.wmax == 24)].seed)
    other = tcpfade.runs(tcpfade.simulate, variant="newreno", channel=CH, wmax=[24], slots=100_000, seeds=2,
                         master_seed=2)
    assert set(other.seed).isdisjoint(alone.seed)
    assert len(set(one.seed)) == len(one)


def test_a_dask_cluster_gives_the_local_rows():
    distributed = pytest.importorskip("distributed")
    local = tcpfade.runs(tcpfade.simulate, variant=["tahoe", "reno"], channel=CH, wmax=[6, 24], slots=50_000, seeds=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = tcpfade.runs(tcpfade.simulate, variant=["tahoe", "reno"], channel=CH, wmax=[6, 24], slots=50_000,
                              seeds=2, dask=cluster.scheduler_address)
    assert remote.equals(local)


def test_explicit_seeds_and_analyses_without_seeds():
    t = tcpfade.runs(tcpfade.simulate, variant="reno", channel=CH, slots=50_000, seeds=[3, 4])
    assert list(t.seed) == [3, 4]
    a = tcpfade.runs(tcpfade.analyze, variant=["reno", "newreno"], channel=CH, seeds=None)
    assert list(a.variant) == ["reno", "newreno"] and "seed" not in a
    assert a.throughput_low.iloc[1] == tcpfade.analyze("newreno", CH).throughput.low


@pytest.mark.parametrize("kwargs, needle", [
    (dict(function=tcpfade.simulate, variant=[], channel=CH), "variant = an empty list"),
    (dict(function=tcpfade.analyze, variant="reno", channel=CH, seeds=3), "analyze takes no seed"),
    (dict(function=tcpfade.simulate, variant="reno", channel=CH, seeds=0), "seeds = 0"),
    (dict(function=tcpfade.simulate, variant="reno", channel=CH, workers=0), "workers = 0"),
    (dict(function=tcpfade.simulate, variant="reno", channel=CH, wmax=list(range(1, 1001)), seeds=101),
     "at most 100,000"),
    (dict(function=42), "function = 42"),
    (dict(function=tcpfade.simulate, variant="reno", channel=CH, dask=8786), "dask = 8786 .* scheduler's address"),
    (dict(function=tcpfade.simulate, variant="reno", channel=CH, dask="tcp://127.0.0.1:9"), "no Dask scheduler"),
])
def test_bad_input_is_refused(kwargs, needle, monkeypatch):
    # Nothing listens at the address of the last case: the client would wait its whole 20 s for an answer that
    # cannot come; a second gives the same refusal.
    monkeypatch.setattr(tcpfade.sweep.runner, "CONNECT_TIMEOUT", 1.0)
    function = kwargs.pop("function")
    with pytest.raises(tcpfade.ParameterError, match=needle):
        tcpfade.runs(function, **kwargs)
