"""The documentation runs as written: every Python block of docs/guide.md and of the README, in
order, in a scratch directory, and the docstring examples of the public API."""

from __future__ import annotations

import doctest
import inspect
import re
from pathlib import Path

import matplotlib
import pytest

import tcpfade
import tcpfade.sweep
import tcpfade.sweep.table

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


@pytest.mark.parametrize("doc", ["docs/guide.md", "README.md"])
def test_python_blocks_run(doc, tmp_path, monkeypatch, capsys):
    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks(ROOT / doc)
    assert blocks, f"no python blocks in {doc}"
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, doc, "exec"), namespace)  # noqa: S102 - our own documentation


@pytest.mark.parametrize("obj", [tcpfade.analyze, tcpfade.GilbertElliott, tcpfade.sweep, tcpfade.analyze_link,
                                 tcpfade.simulate_link, tcpfade.simulate_transfer, tcpfade.sweep.table])
def test_docstring_examples(obj):
    from tcpfade import wcdma

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    # The public names, those loaded on first use (the analyses) included: what `from tcpfade import *` gives.
    public = {name: getattr(tcpfade, name) for name in tcpfade.__all__}
    tests = finder.find(obj, obj.__name__, globs={"tcpfade": tcpfade, "wcdma": wcdma, **public})
    assert any(t.examples for t in tests)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0


def _public_functions():
    from tcpfade import wcdma

    return ([getattr(tcpfade, n) for n in tcpfade.__all__ if inspect.isfunction(getattr(tcpfade, n, None))]
            + [getattr(wcdma, n) for n in wcdma.__all__ if inspect.isfunction(getattr(wcdma, n))] + [tcpfade.runs])


@pytest.mark.parametrize("function", _public_functions(), ids=lambda f: f.__name__)
def test_public_functions_document_returns_raises_and_a_running_example(function):
    """Every public function of tcpfade and tcpfade.wcdma documents its parameters, what it returns and raises
    (numpydoc sections) and has an example, which runs and gives what it shows."""
    doc = inspect.getdoc(function) or ""
    for section in ("Parameters\n----------", "Returns\n-------", "Raises\n------", "Examples\n--------"):
        if section.startswith("Returns") and "-> None" in str(inspect.signature(function)):
            continue
        assert section in doc, (function.__name__, section.split()[0])
    test_docstring_examples(function)


@pytest.mark.parametrize("cls", [tcpfade.Bernoulli, tcpfade.GilbertElliott, tcpfade.ThresholdFading,
                                 tcpfade.BitLevelFading, tcpfade.TraceChannel, tcpfade.ContinuousTwoState,
                                 tcpfade.Device], ids=lambda c: c.__name__)
def test_classes_built_from_parameters_document_them_raises_and_a_running_example(cls):
    doc = inspect.getdoc(cls) or ""
    for section in ("Parameters\n----------", "Raises\n------", "Examples\n--------"):
        assert section in doc, (cls.__name__, section.split()[0])
    test_docstring_examples(cls)


def _result_classes():
    from tcpfade import wcdma

    channels = {tcpfade.Bernoulli, tcpfade.GilbertElliott, tcpfade.ThresholdFading, tcpfade.BitLevelFading,
                tcpfade.TraceChannel, tcpfade.ContinuousTwoState}
    public = [getattr(tcpfade, n) for n in tcpfade.__all__] + [getattr(wcdma, n) for n in wcdma.__all__]
    return [c for c in public if inspect.isclass(c) and c not in channels and c is not tcpfade.Device]


@pytest.mark.parametrize("cls", _result_classes(), ids=lambda c: c.__name__)
def test_result_classes_document_their_attributes_and_a_running_example(cls):
    """Every other public class (results, records, errors) says what it holds and shows itself in use."""
    doc = inspect.getdoc(cls) or ""
    sections = ("Examples\n--------",) if issubclass(cls, Exception) else ("Attributes\n----------",
                                                                            "Examples\n--------")
    for section in sections:
        assert section in doc, (cls.__name__, section.split()[0])
    test_docstring_examples(cls)

