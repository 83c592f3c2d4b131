"""The ``tcpfade`` command line.

Every command validates its input where it enters; a bad parameter prints one line naming it,
its value and what is allowed, and exits with status 2 (no traceback).
"""

from __future__ import annotations

import sys

import click

from ..errors import InternalError, TcpfadeError
from .analyze import analyze
from .channel import channel
from .link import analyze_link, simulate_link
from .reproduce import reproduce
from .simulate import simulate
from .sweep import plot, sweep


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="tcpfade")
def cli() -> None:
    """tcpfade: TCP throughput and energy over wireless links with bursty (fading) errors."""


cli.add_command(channel)
cli.add_command(simulate)
cli.add_command(simulate_link)
cli.add_command(analyze_link)
cli.add_command(analyze)
cli.add_command(reproduce)
cli.add_command(sweep)
cli.add_command(plot)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tcpfade`` command; returns the exit status."""
    try:
        cli.main(args=argv, prog_name="tcpfade", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("tcpfade: aborted", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return 2
    except InternalError as exc:
        click.echo(f"tcpfade: {exc}", err=True)
        return 1
    except TcpfadeError as exc:
        click.echo(f"tcpfade: error: {exc}", err=True)
        return 2
    return 0


def run() -> None:  # pragma: no cover - console script
    """The ``tcpfade`` console script: :func:`main` with the command line, its status as the exit code."""
    sys.exit(main())
