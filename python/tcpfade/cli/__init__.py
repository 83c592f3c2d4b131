"""The ``tcpfade`` command line.

Every command validates its input where it enters; a bad parameter prints one line naming it,
its value and what is allowed, and exits with status 2 (no traceback).
"""

from __future__ import annotations

import errno
import os
import re
import sys
import warnings

import click

from .. import _validate as v

from ..errors import InertParameterWarning, InternalError, TcpfadeError, TraceExhaustedError, TraceFormatError
from ..sweep.experiment import ExperimentError
from .analyze import analyze
from .channel import channel
from .emulate import emulate
from .link import analyze_link, simulate_link
from .reproduce import reproduce
from .simulate import simulate
from .transfer import transfer
from .wcdma import wcdma
from .sweep import plot, sweep


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="tcpfade")
def cli() -> None:
    """tcpfade: TCP throughput and energy over wireless links with bursty (fading) errors."""


cli.add_command(channel)
cli.add_command(simulate)
cli.add_command(simulate_link)
cli.add_command(transfer)
cli.add_command(wcdma)
cli.add_command(analyze_link)
cli.add_command(analyze)
cli.add_command(reproduce)
cli.add_command(sweep)
cli.add_command(plot)
cli.add_command(emulate)


def _options() -> set[str]:
    """Every option name of every command ("--slots", "--trace-plot", ...)."""
    names: set[str] = set()

    def walk(command: click.Command) -> None:
        for param in command.params:
            names.update(o for o in getattr(param, "opts", []) if o.startswith("--"))
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(cli)
    return names


def _as_option(message: str, parameter: str | None, value: object = None, args: list[str] | None = None) -> str:
    """An API error names Python parameters (``batches``); on the command line they are options (``--batches``).
    A parameter no option is named after (a writer's ``path``) is named by the option the user gave its value to
    (``--out``)."""
    if not parameter:
        return message
    options = _options()
    parts = parameter.split("/")
    spelled = ["--" + p.replace("_", "-") if "--" + p.replace("_", "-") in options else p for p in parts]
    if len(parts) == 1 and not spelled[0].startswith("--") and isinstance(value, (str, os.PathLike)) and args:
        given = str(value)
        for i, arg in enumerate(args[:-1]):
            if arg.startswith("--") and args[i + 1] == given:
                spelled = [arg]
                break
    renamed = "/".join(spelled)
    if message.startswith(parameter + " "):
        message = renamed + message[len(parameter):]
    for p, o in zip(parts, spelled):
        if p != o:
            message = message.replace(f"one of {p}", f"one of {o}").replace(f", {p}", f", {o}")
    return message


def _given(argv: list[str], param: click.Parameter | None) -> str:
    """What the user gave for ``param`` on the command line (for the one-line message), or '(none)': the last time
    it is given, as click takes the last of a repeated option."""
    if param is None:
        return "(none)"
    opts = [o for o in getattr(param, "opts", [])]
    given = "(none)"
    for i, arg in enumerate(argv):
        for o in opts:
            if arg == o and i + 1 < len(argv):
                given = repr(argv[i + 1])
            elif arg.startswith(o + "="):
                given = repr(arg[len(o) + 1:])
    return given


def _usage_line(exc: click.UsageError, argv: list[str]) -> str:
    """click's own usage errors in the project's one-line form: <parameter> = <value> is not allowed: <why>."""
    if isinstance(exc, click.NoSuchOption):
        hint = f" (did you mean {', '.join(sorted(exc.possibilities))}?)" if exc.possibilities else ""
        return f"{exc.option_name} = (unknown option) is not allowed: no such option{hint}"
    if isinstance(exc, click.BadParameter):
        param = exc.param
        name = exc.param_hint if isinstance(exc.param_hint, str) else \
            (param.opts[0] if param is not None and getattr(param, "opts", None) else
             (param.human_readable_name if param is not None else "argument"))
        name = name.strip("'\"")
        if isinstance(exc, click.MissingParameter):
            return f"{name} = (none) is not allowed: it is required" + _stray_hint(argv)
        given = repr(str(exc.given)) if hasattr(exc, "given") else _given(argv, param)
        if isinstance(param, click.Argument):
            name = name.upper()
        return f"{name} = {given} is not allowed: {exc.message}"
    text = exc.format_message()
    if "No such command" in text:
        return f"command = {text.split(chr(39))[1]!r} is not allowed: no such command (tcpfade --help lists them)"
    if "unexpected extra argument" in text:
        extra = text.split("(", 1)[-1].rstrip(")") if "(" in text else ""
        return _extra_arguments(extra, argv)
    if "does not take a value" in text and text.count("'") >= 2:
        # A switch given a value (--frto=yes): name the switch and its value, and how to write it.
        option = text.split("'")[1]
        given = next((repr(a[len(option) + 1:]) for a in argv if a.startswith(option + "=")), "(a value)")
        command: click.Command = cli
        for token in argv:   # click gives no context here: the command is found from the words given
            if isinstance(command, click.Group) and token in command.commands:
                command = command.commands[token]
        params = command.params
        pair = next((p.opts + p.secondary_opts for p in params
                     if option in getattr(p, "opts", []) + getattr(p, "secondary_opts", [])), [option])
        spelled = " or ".join(pair) if len(pair) > 1 else f"{option} alone"
        return f"{option} = {given} is not allowed: a switch takes no value; write {spelled}"
    return f"arguments = {' '.join(argv)!r} is not allowed: {text}"


def _command_for(args: list[str]) -> click.Command:
    """The command ``args`` name, found by walking them down the groups (the group itself if they name none)."""
    command: click.Command = cli
    for token in args:
        if token.startswith("-") or not isinstance(command, click.Group) or token not in command.commands:
            break
        command = command.commands[token]
    return command


def _options_for(argv: list[str]) -> list[click.Option]:
    """The options of the command ``argv`` names."""
    return [p for p in _command_for(argv).params if isinstance(p, click.Option)]


def _stray_hint(argv: list[str]) -> str:
    """A word on the command line that is no option's value but one option's choice (``simulate reno`` for
    ``--variant reno``), said beside a missing option: click reports the missing one first."""
    options = _options_for(argv)
    taking = {o for p in options if not p.is_flag for o in p.opts}
    path = 0
    while path < len(argv) and not argv[path].startswith("-") and isinstance(_command_for(argv[:path]), click.Group):
        path += 1
    for i in range(path, len(argv)):
        token, before = argv[i], argv[i - 1] if i > 0 else ""
        if token.startswith("-") or before in taking:
            continue
        if forms := _choice_forms(options, token):
            return f"; and {token!r} alone is not an argument of this command: write {forms}"
    return ""


def _choice_forms(options: list[click.Option], token: str) -> str:
    """How to give ``token`` as the value of each option that has it among its choices (``--profile linux or
    --rto-rule linux``), or "" if none has."""
    named = [p.opts[0] for p in options if isinstance(p.type, click.Choice) and token in p.type.choices]
    return " or ".join(f"{opt} {token}" for opt in named)


def _extra_arguments(extra: str, argv: list[str]) -> str:
    """Words click found no place for, said as what the user most likely meant: a value after a switch (switches take
    none), or an option's value given without the option (``simulate-link cubic`` for ``--variant cubic``)."""
    options = _options_for(argv)
    for token in extra.split():
        at = argv.index(token) if token in argv else 0
        before = argv[at - 1] if at > 0 else ""
        switch = next((p for p in options if p.is_flag and before in p.opts + p.secondary_opts), None)
        if switch is not None:
            forms = " or ".join(switch.opts[:1] + switch.secondary_opts[:1])
            return f"{before} = {token!r} is not allowed: {before} is a switch and takes no value; write {forms}"
        if forms := _choice_forms(options, token):
            return (f"arguments = {token!r} is not allowed: it is not an argument of this command but an option's "
                    f"value; write {forms}")
    return f"arguments = {extra!r} is not allowed: unexpected extra arguments"


#: Option spellings kept for one release after a rename (docs/glossary.md): a declared parameter's former names and
#: --model, the channel kind's.
def _former_options() -> set[str]:
    from .._params import all_models

    names = {"--" + old.replace("_", "-") for m in all_models() for p in m.params for old in p.old_names}
    return names | {"--model"}


def _renamed_options(args: list[str]) -> None:
    """Say when a former option name is used (a note on stderr, as the API's FutureWarning), and refuse it beside
    its new name: the command is found by walking ``args`` down the groups, and its options' spellings tell which
    new name a former one stands for in it."""
    command = _command_for(args)
    if isinstance(command, click.Group):
        return
    former = _former_options()
    given = {a.split("=", 1)[0] for a in args if a.startswith("--")}
    for param in command.params:
        if not isinstance(param, click.Option):
            continue
        current, *others = param.opts
        for old in others:
            if old in former and old in given:
                if current in given:
                    at = next(i for i, t in enumerate(args) if t.split("=", 1)[0] == old)
                    value = args[at].split("=", 1)[1] if "=" in args[at] else \
                        (args[at + 1] if at + 1 < len(args) and not param.is_flag else True)
                    raise v.fail(old, value, f"is the former name of {current}; give {current} only")
                click.echo(f"tcpfade: note: {old} is now called {current} (the old name goes in the next release)",
                           err=True)


#: The errors of a write that failed: without a file name, the write was to standard output (``> /dev/full``, a
#: closed pipe, a full disk under a redirect).
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF})


def _option_words(message: str) -> str:
    """A model's note (``simulate_link: prr_bound = 'crb' has no effect ...``) in the command line's words
    (``--prr-bound = 'crb' has no effect ...``)."""
    return re.sub(r"^\w+: (\w+) = ", lambda m: "--" + m.group(1).replace("_", "-") + " = ", message)


def _key_words(message: str) -> str:
    """A model's note in an experiment file's words: its key as written there (``prr_bound = 'crb' has no effect ...``,
    the settings being the file's, not options)."""
    return re.sub(r"^\w+: (\w+) = ", lambda m: m.group(1) + " = ", message)


def _note_once(said: set[str], *, file_keys: bool = False):
    """``warnings.showwarning`` for the command line: each distinct note once, as one line on stderr, a setting named as
    the user wrote it (an option, or with ``file_keys`` a key of the experiment file)."""
    words = _key_words if file_keys else _option_words

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        text = words(str(message)) if issubclass(category, InertParameterWarning) else str(message)
        if text not in said:
            said.add(text)
            click.echo(f"tcpfade: note: {text}", err=True)
    return show


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tcpfade`` command; returns the exit status.

    Every error is one line on stderr: ``tcpfade: <parameter> = <value> is not allowed: <why>`` with status 2 for
    bad input (click's usage errors included); ``tcpfade: aborted`` with 130 for Ctrl-C, and for SIGTERM and SIGHUP
    (``kill``, a closed terminal), which stop the command as Ctrl-C does, so a file being written is not left half
    made and a sweep keeps its finished points; an internal error (a bug) with 1. ``--help`` still prints the usage."""
    import signal
    import threading

    owner = os.getpid()

    def interrupt(signum, _frame):
        if os.getpid() != owner:   # a forked worker (a sweep's) keeps the default: the pool ends it with SIGTERM
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise KeyboardInterrupt

    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            previous[sig] = signal.signal(sig, interrupt)
    try:
        return _main(argv)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _main(argv: list[str] | None) -> int:
    """:func:`main` with its signals set."""
    args = list(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None or getattr(sys.stdout, "closed", False):
        # Started with standard output closed (>&-): every result would vanish without a word.
        click.echo("tcpfade: output = 'standard output' is not allowed: it is closed (nothing could be shown)",
                   err=True)
        return 2
    # A warning (a former name in an experiment file, a setting the run does not read) is one line too, said once
    # however many points of a sweep raise it, and naming the option the user typed.
    warnings.formatwarning = lambda message, *_args, **_kw: f"tcpfade: note: {message}\n"
    # `tcpfade sweep` takes its settings from an experiment file, whose keys the notes name.
    warnings.showwarning = _note_once(set(), file_keys=args[:1] == ["sweep"])
    try:
        _renamed_options(args)
        cli.main(args=args, prog_name="tcpfade", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:   # a group without its command: one line naming them
        group = exc.ctx.command if exc.ctx is not None else cli
        path = exc.ctx.command_path if exc.ctx is not None else "tcpfade"
        names = ", ".join(sorted(getattr(group, "commands", {}))) or "(none)"
        click.echo(f"tcpfade: command = (none) is not allowed: name one of {names} ({path} --help says what each "
                   "does)", err=True)
        return 2
    except click.exceptions.Abort:
        click.echo("tcpfade: aborted", err=True)
        return 130
    except SystemExit as exc:   # a command's own status (sweep status: 1 when points are missing)
        return exc.code if isinstance(exc.code, int) else 1
    except click.UsageError as exc:
        click.echo(f"tcpfade: {_usage_line(exc, args)}", err=True)
        return 2
    except click.ClickException as exc:
        click.echo(f"tcpfade: {exc.format_message()}", err=True)
        return exc.exit_code
    except InternalError as exc:
        click.echo(f"tcpfade: {exc}", err=True)
        return 1
    except TraceExhaustedError as exc:   # the run outlasted the trace; the command line has no wrap to offer
        held = re.search(r"holds (\d+) slots", str(exc))
        click.echo(f"tcpfade: --trace-file = ({held.group(1) if held else 'its'} slots) is not allowed: the run needs "
                   "more slots than the trace holds (give a longer trace, or a shorter --duration or --slots)",
                   err=True)
        return 2
    except TraceFormatError as exc:   # a file's content: say which file, then the line and field
        path = getattr(exc, "path", None)
        text = str(exc)[len(path) + 2:] if path and str(exc).startswith(path + ": ") else str(exc)
        click.echo(f"tcpfade: trace file = {path or '(array)'!r} is not allowed: {text}", err=True)
        return 2
    except ExperimentError as exc:
        where = f"line {exc.line}, " if exc.line else ""
        click.echo(f"tcpfade: experiment file = {exc.file!r} is not allowed: {where}{exc.field}: {exc.message}",
                   err=True)
        return 2
    except TcpfadeError as exc:
        click.echo(f"tcpfade: {_as_option(str(exc), getattr(exc, 'parameter', None), getattr(exc, 'value', None), args)}",
                   err=True)
        return 2
    except InertParameterWarning as exc:   # the user's PYTHONWARNINGS=error made a note an error: one line still
        click.echo(f"tcpfade: {_option_words(str(exc))}", err=True)
        return 2
    except KeyboardInterrupt:
        click.echo("tcpfade: aborted", err=True)
        return 130
    except OSError as exc:   # a disk filled, a name too long, a file removed under us: say which, no traceback
        name = getattr(exc, "filename", None)
        if name:
            what = f"file = {str(name)!r}"
        elif exc.errno in _OUTPUT_ERRNOS:   # a write the system names no file for is the command's own output
            what = "output = 'standard output'"
        else:
            what = "file = (one the operating system did not name)"
        click.echo(f"tcpfade: {what} is not allowed: the operating system refused it ({exc.strerror or exc})",
                   err=True)
        return 2
    except Exception as exc:  # noqa: BLE001 - the last guard: a bug, reported in one line (the fuzzing suite counts these)
        click.echo(f"tcpfade: internal error (please report): {type(exc).__name__}: {exc}", err=True)
        return 1
    return 0


def run() -> None:  # pragma: no cover - console script
    """The ``tcpfade`` console script: :func:`main` with the command line, its status as the exit code."""
    sys.exit(main())
