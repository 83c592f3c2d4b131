"""``python -m tcpfade``: the ``tcpfade`` command, for environments without the console script on PATH."""

import sys

from .cli import main

sys.exit(main())
