"""The validation scripts (``validation/*.py``) as modules, for the tests that check what they compute: each script is
loaded once by file path (the folder is not a package), so a test and the script share one definition of a study."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType

VALIDATION = Path(__file__).resolve().parent.parent / "validation"


@cache
def load(name: str) -> ModuleType:
    """``validation/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, VALIDATION / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
