"""Writing figures: one place for the allowed formats and the crash-safe save."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

#: Figure formats, chosen by the file suffix.
FORMATS = (".png", ".svg", ".pdf")


def checked_path(path: str | Path) -> Path:
    """The output path, or a ParameterError when its suffix is not one of :data:`FORMATS`."""
    from ..errors import ParameterError

    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise ParameterError(f"out = {str(out)!r} is not allowed: the suffix must be one of {', '.join(FORMATS)}")
    return out


def save(fig, out: Path) -> Path:
    """Save ``fig`` to a temporary name and rename it, so a crash never leaves half a file; close it."""
    tmp = out.with_name(out.name + ".part" + out.suffix)
    fig.savefig(tmp)
    plt.close(fig)
    tmp.replace(out)
    return out
