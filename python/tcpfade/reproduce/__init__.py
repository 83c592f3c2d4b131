"""Published figures and tables recomputed: ``tcpfade reproduce <id>``.

Each figure of the papers that tcpfade reproduces is a :class:`~tcpfade.reproduce.registry.Figure` in
:data:`FIGURES`, with the paper's parameters, a plot in the paper's style and the paper's claims as
automated checks (:mod:`.chockalingam`, :mod:`.zorzi_rao`, :mod:`.abouzeid`, :mod:`.tsaoussidis`), and the project's
own findings on Linux's TCP (:mod:`.kernel`, run only where the emulator can); :mod:`.report` writes the HTML
report.
"""

from . import abouzeid, chockalingam, tsaoussidis, zorzi_rao, zorzi_rossi_mazzini  # noqa: F401  (they register)
from . import kernel  # noqa: F401  (registers; needs the emulator to run, skipped where it cannot)
from . import modern  # noqa: F401  (registers)
from .registry import FIGURES, Claim, Figure, FigureResult, FigureSkipped, Settings, Verdict, reproduce

__all__ = ["FIGURES", "Claim", "Figure", "FigureResult", "FigureSkipped", "Settings", "Verdict", "reproduce"]
