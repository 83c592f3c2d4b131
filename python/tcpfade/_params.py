"""One declaration per model: each model's parameters written once, with their rule, default, unit and doc.

A :class:`Model` is a frozen record of :class:`Param` declarations. Everything that used to repeat the parameter
list derives from it:

- the checks at entry (:meth:`Model.entry` gives the public function its signature, its *Parameters* section and
  the :func:`~tcpfade._validate.checked` rules; a model's ``*_arguments`` function checks a call without running
  it);
- what the Rust bindings read: the checked arguments travel as one dict, and the binding's ``#[derive(FromPyObject)]``
  structs take their fields from it by name (``crates/tcpfade-python/src/args.rs``);
- the command line's options (:meth:`Model.options`);
- the sweep's table of what a point may set (:meth:`Model.sweep_types`);
- the parameter tables of the docs (:meth:`Model.table`, gathered in ``docs/parameters.md`` and checked current by
  the tests).

A :class:`Profile` is a named choice of several parameters' values at once (the sender's "papers", "rfc" and
"linux" profiles, ``tcp/profiles.py``): a model that lists profiles takes a ``profile`` parameter, and every
parameter the call does not give takes the chosen profile's value before its declared default.

Adding a parameter to a model is one :class:`Param` here and, if the core reads it, one field of the binding's
struct (docs/models.md, "Adding a parameter").
"""

from __future__ import annotations

import functools
import inspect
import textwrap
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from . import _validate as v

#: What an option given as the word ``none`` reaches the command as, before it becomes the parameter's None: unlike an
#: option left out (None), it sets a profile's value aside.
EXPLICIT_NONE = object()

#: The default of a parameter that must be given.
REQUIRED = inspect.Parameter.empty


@dataclass(frozen=True)
class Param:
    """One parameter of a model.

    ``rule`` checks it (the one validation mechanism); ``default`` is :data:`REQUIRED` when it must be given;
    ``unit`` is the field's unit in the glossary's words ("s", "packets", "bytes", "bit/s"; "" for a count or a
    name); ``doc`` is the sentence the API docs, the CLI help and the docs table share. ``cli`` is False for a
    parameter the command line does not offer (a callable, an object) and ``sweep`` False for one a sweep point
    cannot set; ``short`` is an extra short option (``-K``); ``positional`` lets it be passed by position
    (``variant``)."""

    name: str
    rule: v.Rule
    default: Any = REQUIRED
    doc: str = ""
    unit: str = ""
    cli: bool = True
    sweep: bool = True
    short: str | None = None
    positional: bool = False
    #: Shown in help as the default when the real default is computed (None: ``default`` itself).
    default_words: str | None = None
    #: Former names, still accepted for one release with a FutureWarning (the glossary's renames).
    old_names: tuple[str, ...] = ()
    #: For a setting that refines a part or a variant: given a call's arguments (defaults filled in), why the run
    #: would not read it (that part off, another variant), or None when it does. A value given explicitly that the run
    #: would not read is answered by an :class:`tcpfade.errors.InertParameterWarning`, never ignored in silence.
    unread_when: Callable[[dict[str, Any]], str | None] | None = field(default=None, compare=False, repr=False)

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def kind(self) -> type:
        """The plain type a sweep file or a CLI option gives it (int, float, str or bool)."""
        return _kind(self.rule)

    @property
    def option(self) -> str:
        """The command line's spelling, ``--packet-bytes`` for ``packet_bytes``."""
        return "--" + self.name.replace("_", "-")

    def but(self, **changes: Any) -> Param:
        """This parameter with some fields changed (another default in one model, say)."""
        return replace(self, **changes)

    def help(self, default: bool = True) -> str:
        """The CLI help: the doc, its unit, and (unless `default` is False: a profile's option says its own) the default
        when it is computed."""
        text = self.doc + (f" [{self.unit}]" if self.unit and f"[{self.unit}]" not in self.doc else "")
        if self.default_words and default:
            text += f" (default {self.default_words})"
        return text


@dataclass(frozen=True)
class Profile:
    """A named choice of parts: ``values`` for some parameters of a model (those it does not give keep their declared
    defaults). A call's explicit keywords win over the profile. ``refused`` names variants the profile cannot run,
    with the reason; ``sources`` says, per parameter, what defines the value (an RFC section, a kernel file)."""

    name: str
    values: dict[str, Any]
    doc: str
    sources: dict[str, str] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)
    #: A part whose value holds only with another part on (PRR is SACK's window rule): when the call turns that
    #: one off, the profile leaves this one at its declared default instead of contradicting the call.
    requires: dict[str, str] = field(default_factory=dict)
    #: A part that holds only for some variants (NewReno's guard): for any other the profile leaves it at its declared
    #: default, so that the variant runs as its own definition has it (RFC 5681's Reno has no guard to set).
    only_for: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Parameters of ``values`` that only some of the profile's models declare (a transfer's receive buffer in bytes,
    #: where the link model counts its window in packets): set where a model declares them, absent elsewhere. Any
    #: other name a model lacks is a bug of ours, refused at import.
    where_declared: frozenset[str] = frozenset()


def warn_unread(label: str, params: Iterable[Param], given: dict[str, Any], values: dict[str, Any], *,
                stacklevel: int = 3) -> None:
    """An :class:`tcpfade.errors.InertParameterWarning` for each of ``params`` that the call ``label`` set explicitly
    (``given``) to other than its default and that the run will not read (its ``unread_when``, judged on ``values``:
    every argument of the call, defaults filled in)."""
    from .errors import InertParameterWarning

    values = dict(values)
    if isinstance(values.get("variant"), str):
        values["variant"] = values["variant"].strip().lower().replace("-", "").replace("_", "")
    for p in params:
        if p.unread_when is None or p.name not in given:
            continue
        try:
            if given[p.name] == p.default:
                continue
            p.rule.check(p.name, given[p.name])   # a value its rule refuses gets that error, not a note first
            why = p.unread_when(values)
        except Exception:   # a value its rule is about to refuse: the error will say so
            continue
        if why:
            warnings.warn(f"{label}: {p.name} = {given[p.name]!r} has no effect here: {why}", InertParameterWarning,
                          stacklevel=stacklevel)


def _kind(rule: v.Rule) -> type:
    if isinstance(rule, v.Optional):
        return _kind(rule.rule)
    if isinstance(rule, v.Integer):
        return int
    if isinstance(rule, v.Flag):
        return bool
    if isinstance(rule, v.Choice):
        return str
    if isinstance(rule, v.Real):
        return float
    if isinstance(rule, v.Instance) and str in (rule.types if isinstance(rule.types, tuple) else (rule.types,)):
        return str   # a preset's name (a device), or the object itself
    return object


def _shown(value: Any) -> str:
    if value is REQUIRED:
        return "required"
    if value is None:
        return "None"
    if isinstance(value, float):
        return f"{value:g}"
    return repr(value) if isinstance(value, str) else str(value)


@dataclass(frozen=True)
class Model:
    """A model's parameters, in the order of its signature. ``name`` is the function's name (the label of its
    errors); ``doc`` one line for the docs table's heading."""

    name: str
    params: tuple[Param, ...]
    doc: str = ""
    #: The profiles the ``profile`` parameter chooses from (empty: the model has none).
    profiles: tuple[Profile, ...] = ()
    _index: dict[str, Param] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {p.name: p for p in self.params}
        if len(index) != len(self.params):
            seen: set[str] = set()
            twice = [p.name for p in self.params if p.name in seen or seen.add(p.name)]
            raise RuntimeError(f"model {self.name}: parameters declared twice: {twice}")
        object.__setattr__(self, "_index", index)
        if self.profiles and "profile" not in index:
            raise RuntimeError(f"model {self.name}: profiles without a profile parameter")
        for pr in self.profiles:   # a part a model lacks would be dropped without a word: a bug of ours, at import
            if set(pr.values) - set(index) - pr.where_declared:
                raise RuntimeError(f"model {self.name}: profile {pr.name} sets "
                                   f"{sorted(set(pr.values) - set(index) - pr.where_declared)}, which it does not have")

    # -- reading the declaration -------------------------------------------------------------------------------

    def __getitem__(self, name: str) -> Param:
        return self._index[name]

    def __contains__(self, name: object) -> bool:
        return name in self._index

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    @property
    def rules(self) -> dict[str, v.Rule]:
        return {p.name: p.rule for p in self.params}

    def sweep_types(self) -> dict[str, type]:
        """What a sweep point may set, with the type a parameter file gives it."""
        return {p.name: p.kind for p in self.params if p.sweep}

    def sweep_choices(self) -> dict[str, str]:
        """What a sweep point may give each parameter that takes one of a set of names (its rule's own words), for
        a parameter file that gives one a value of another type."""
        return {p.name: p.rule.describe() for p in self.params if p.sweep and isinstance(p.rule, v.Choice)}

    def optional_names(self) -> frozenset[str]:
        """The parameters None is a value of (a parameter file writes it \"none\": TOML has no null)."""
        return frozenset(p.name for p in self.params if isinstance(p.rule, v.Optional))

    def pick(self, values: dict[str, Any]) -> dict[str, Any]:
        """The entries of ``values`` that are this model's parameters."""
        return {k: x for k, x in values.items() if k in self._index}

    # -- the signature and its checks --------------------------------------------------------------------------

    def signature(self, extra: Iterable[Param] = (), rest: str | None = None) -> inspect.Signature:
        """The public function's signature: the positional parameters first, then keyword-only ones, then
        ``**rest`` when the function forwards further keywords."""
        out = []
        for p in (*self.params, *extra):
            kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if p.positional else inspect.Parameter.KEYWORD_ONLY
            out.append(inspect.Parameter(p.name, kind, default=p.default))
        if rest:
            out.append(inspect.Parameter(rest, inspect.Parameter.VAR_KEYWORD))
        return inspect.Signature(out)

    def renamed(self, kwargs: dict[str, Any], extra: Iterable[Param] = ()) -> dict[str, Any]:
        """``kwargs`` with former names replaced by the current ones, each with a FutureWarning (giving both is an
        error naming them)."""
        out = dict(kwargs)
        for p in (*self.params, *extra):
            for old in p.old_names:
                if old in out:
                    if p.name in out:
                        raise v.fail(old, out[old], f"is the former name of {p.name}; give {p.name} only",
                                     kind=v.ParameterTypeError)
                    warnings.warn(f"{self.name}: {old} is now called {p.name} (the old name goes in the next "
                                  "release)", FutureWarning, stacklevel=4)
                    out[p.name] = out.pop(old)
        return out

    @property
    def profiled_names(self) -> frozenset[str]:
        """The parameters some profile of this model sets (their command-line default is "the profile's")."""
        return frozenset(k for pr in self.profiles for k in pr.values if k in self._index)

    def profile(self, name: Any) -> Profile:
        """The profile ``name`` (checked by the ``profile`` parameter's rule)."""
        chosen = self["profile"].rule.check("profile", name)
        return next(pr for pr in self.profiles if pr.name == chosen)

    def profile_values(self, name: Any) -> dict[str, Any]:
        """What profile ``name`` sets in this model: its values less those only other models declare
        (:attr:`Profile.where_declared`)."""
        return {k: x for k, x in self.profile(name).values.items() if k in self._index}

    def profiled(self, args: tuple, kwargs: dict[str, Any]) -> dict[str, Any]:
        """``kwargs`` with every parameter the call leaves out set from the chosen profile (explicit keywords win);
        a variant the profile refuses is an error naming both."""
        if not self.profiles:
            return kwargs
        chosen = self.profile(kwargs.get("profile", self["profile"].default))
        out = {**{k: x for k, x in self.profile_values(chosen.name).items() if k not in kwargs}, **kwargs,
               "profile": chosen.name}
        for part, needs in chosen.requires.items():
            if part not in kwargs and needs in kwargs and not kwargs[needs]:
                out[part] = self[part].default
        variant = args[0] if args else out.get("variant", self["variant"].default if "variant" in self else None)
        if isinstance(variant, str):
            key = variant.strip().lower().replace("-", "").replace("_", "")
            for part, variants in chosen.only_for.items():
                if part not in kwargs and part in out and key not in variants:
                    out[part] = self[part].default
        if isinstance(variant, str) and variant.strip().lower() in chosen.refused:
            raise v.fail("profile", chosen.name, f"cannot run {variant.strip().lower()}: "
                                                 f"{chosen.refused[variant.strip().lower()]}")
        return out

    def warn_unread(self, args: tuple, given: dict[str, Any], values: dict[str, Any]) -> None:
        """:func:`warn_unread` for a call of this model: ``values`` are its arguments after its profile, the declared
        defaults filled in here (and the positional ``variant`` from ``args``)."""
        if not any(p.unread_when is not None and p.name in given for p in self.params):
            return
        full = {p.name: p.default for p in self.params if not p.required} | values
        if args and self.params and self.params[0].positional:
            full[self.params[0].name] = args[0]
        warn_unread(self.name, self.params, given, full, stacklevel=4)

    def entry(self, *extra: Param, rest: str | None = None,
              forwards: Callable[..., Any] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Make ``fn`` the model's public function: its signature is the declaration's (plus ``extra`` parameters
        that only the function takes, such as ``progress``, and ``**rest`` when it forwards further keywords to
        ``forwards``, whose names are then checked here, so that a misspelt keyword is blamed on the function the
        user called, with both lists of names), every
        argument is checked by its rule before the body runs, and the ``{parameters}`` line of its docstring becomes
        the numpy-style list of the parameters. The body itself stays reachable as ``.unchecked``, for a caller that
        holds arguments this model's checks have already passed (a public function handing them to its
        ``*_arguments``), so that no argument is checked twice."""

        def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
            fn.__signature__ = self.signature(extra, rest)  # type: ignore[attr-defined]
            if fn.__doc__ and "{parameters}" in fn.__doc__:
                fn.__doc__ = fn.__doc__.replace("{parameters}", self.docstring(extra, _indent(fn.__doc__)))
            rules = {p.name: p.rule for p in (*self.params, *extra)}
            checked = v.checked(**rules)(fn)
            out = checked
            if forwards is not None:
                own = [p.name for p in (*self.params, *extra)]
                theirs = [n for n, q in inspect.signature(forwards).parameters.items()
                          if q.kind is not q.VAR_KEYWORD and n not in own]
                label = fn.__qualname__

                def known(kwargs: dict[str, Any]) -> dict[str, Any]:
                    for name in kwargs:
                        if name not in own and name not in theirs:
                            raise v.fail(name, kwargs[name],
                                         f"{label} has no parameter {name!r} (it takes {', '.join(own)}; and, for "
                                         f"{forwards.__qualname__}, {', '.join(theirs)})", kind=v.ParameterTypeError)
                    return kwargs
            else:
                def known(kwargs: dict[str, Any]) -> dict[str, Any]:
                    return kwargs
            if self.profiles or forwards is not None or any(p.old_names for p in (*self.params, *extra)):
                @functools.wraps(fn)
                def out(*args: Any, **kwargs: Any) -> Any:
                    given = known(self.renamed(kwargs, extra))
                    values = self.profiled(args, given)
                    # Every argument meets its rule before a note on what the run leaves unread: a call refused is
                    # answered by its one error (the CLI's one line), not a note and then the error.
                    for p in self.params:
                        if p.name in values:
                            p.rule.check(p.name, values[p.name])
                    self.warn_unread(args, given, values)
                    return checked(*args, **values)

            out.__signature__ = fn.__signature__  # type: ignore[attr-defined]
            out.model = self  # type: ignore[attr-defined]
            out.unchecked = fn  # type: ignore[attr-defined]
            return out

        return decorate

    def docstring(self, extra: Iterable[Param] = (), indent: str = "    ") -> str:
        """The numpy-style *Parameters* entries of the declaration; ``indent`` is that of a description (the
        docstring's body indentation plus four), and the first line goes where the placeholder stands."""
        base = indent[:-4]
        lines = []
        for p in (*self.params, *extra):
            unit = f" [{p.unit}]" if p.unit else ""
            lines.append(f"{base}{p.name} : {p.kind.__name__}{unit}, default {p.default_words or _shown(p.default)}")
            lines.append(textwrap.fill(f"{p.doc} {_allowed(p.rule)}".strip(), width=116, initial_indent=indent,
                                       subsequent_indent=indent, break_on_hyphens=False))
        return "\n".join(lines).lstrip()

    # -- the command line ----------------------------------------------------------------------------------------

    def options(self, *, skip: Iterable[str] = (), names: Iterable[str] | None = None,
                help: dict[str, str] | None = None,
                defaults: dict[str, Any] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """A decorator adding the declaration's command-line options to a click command (``skip`` some, or only
        ``names``; ``help`` overrides a parameter's help text, ``defaults`` its default on the command line). Values
        reach the command under their parameter names and are checked by the API's rules when the command calls the
        model."""
        import click

        from .cli.options import COUNT

        skipped = set(skip)
        wanted = None if names is None else list(names)
        params = [p for p in self.params if p.cli and p.name not in skipped and (wanted is None or p.name in wanted)]
        extra_help = help or {}
        params = [p.but(default=defaults[p.name]) if defaults and p.name in defaults else p for p in params]
        profiled = self.profiled_names

        def profile_help(p: Param) -> str:
            shown = "; ".join(f"{pr.name}: {_shown(pr.values.get(p.name, p.default))}" for pr in self.profiles)
            return f" (default: the --profile's; {shown})"

        def option(p: Param):
            decls = [p.option, *("--" + o.replace("_", "-") for o in p.old_names), *([p.short] if p.short else []),
                     p.name]
            text = extra_help.get(p.name, p.help(default=p.name not in profiled))
            optional = isinstance(p.rule, v.Optional)
            rule = p.rule.rule if optional else p.rule
            default = None if p.required else p.default
            if isinstance(rule, v.Choice):
                kind: Any = _choice(click, rule)
            elif isinstance(rule, v.Integer):
                kind = COUNT
            elif isinstance(rule, v.Real):
                kind = float
            else:
                kind = str
            if optional and not isinstance(rule, v.Flag):
                kind = _or_none(click, kind)
                text += " Write none for None."
            # A size in bytes says so in the usage line (not COUNT).
            extra = {"metavar": "BYTES"} if p.unit == "bytes" and not isinstance(rule, v.Flag) else {}
            if p.name in profiled:
                # Left out, the profile decides: the command passes nothing (see `given`), as a call would.
                text += profile_help(p)
                if isinstance(rule, v.Flag):
                    return click.option(f"{p.option}/--no-{p.option[2:]}", p.name, default=None, help=text)
                return click.option(*decls, type=kind, default=None, help=text, **extra)
            if isinstance(rule, v.Flag):
                # A switch can be said both ways (a script may spell out the default), unless it keeps former names.
                if p.default is True or len(decls) == 2:
                    decls = [f"{p.option}/--no-{p.option[2:]}", p.name]
                return click.option(*decls, is_flag=True, default=bool(default), help=text)
            if p.required:   # click 8.4 takes an explicit default=None as a value, and stops requiring the option
                return click.option(*decls, type=kind, required=True, help=text, **extra)
            return click.option(*decls, type=kind, default=default, show_default=default is not None, help=text,
                                **extra)

        def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
            # One wrapper per command, however many declarations add options to it: a second would take the first's
            # None (an option given as none) for one left out.
            if hasattr(fn, "_profiled_names"):
                fn._profiled_names |= profiled
            else:
                inner = fn

                @functools.wraps(inner)
                def fn(*args: Any, **kwargs: Any) -> Any:
                    # An option left out reaches the command not at all, so the call's profile fills it in; one given
                    # as none is the parameter's None, which sets the profile's value aside.
                    left_out = fn._profiled_names
                    return inner(*args, **{k: (None if x is EXPLICIT_NONE else x) for k, x in kwargs.items()
                                           if not (k in left_out and x is None)})

                fn._profiled_names = set(profiled)

            for p in reversed(params):
                fn = option(p)(fn)
            return fn

        return decorate

    # -- the docs ------------------------------------------------------------------------------------------------


    def table(self) -> str:
        """The declaration as a Markdown table (docs/parameters.md)."""
        rows = ["| parameter | unit | default | allowed | meaning |", "| --- | --- | --- | --- | --- |"]
        for p in self.params:
            default = p.default_words or _shown(p.default)
            rows.append(f"| `{p.name}` | {p.unit or ''} | {default} | {_allowed(p.rule)} | {p.doc} |"
                        .replace("\n", " "))
        return "\n".join(rows)


def _choice(click: Any, rule: v.Choice) -> Any:
    """click's Choice of the rule's options; a name the rule refuses with a reason passes through, so that the
    model's check says why (TCP-Probing on the slotted model), while help lists only what runs."""

    class Choice(click.Choice):
        def convert(self, value: Any, param: Any, ctx: Any) -> Any:
            key = str(value).lower().replace("-", "").replace("_", "") if rule.loose else value
            return key if key in rule.refused else super().convert(value, param, ctx)

    return Choice(rule.options, case_sensitive=not rule.loose)


def _or_none(click: Any, kind: Any) -> Any:
    """``kind`` (a click type, or a Python type click converts by), or the word none: :data:`EXPLICIT_NONE`."""
    inner = click.types.convert_type(kind)

    class OrNone(click.ParamType):
        name = inner.name

        def convert(self, value: Any, param: Any, ctx: Any) -> Any:
            if isinstance(value, str) and value.strip().lower() == "none":
                return EXPLICIT_NONE
            return inner.convert(value, param, ctx)

        def get_metavar(self, param: Any, ctx: Any = None) -> Any:
            try:
                return inner.get_metavar(param, ctx)
            except TypeError:   # click < 8.2 takes no ctx
                return inner.get_metavar(param)

    return OrNone()


def _allowed(rule: v.Rule) -> str:
    text = rule.describe()
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".") if text else ""


def _indent(doc: str) -> str:
    """The indentation of a docstring's body (its second non-empty line's)."""
    lines = [line for line in doc.splitlines()[1:] if line.strip()]
    return (lines[0][: len(lines[0]) - len(lines[0].lstrip())] if lines else "") + "    "


def render(models: Iterable[Model]) -> str:
    """docs/parameters.md: every model's table, under its name."""
    parts = ["# Parameters\n",
             "Every model's parameters as its one declaration states them (`tcpfade._params`); this page is generated "
             "from the declarations by `python docs/make_parameters.py` and a test keeps it current. The "
             "same declaration gives the function's signature and checks, the command's options and what a sweep point "
             "may set. Units are the glossary's.\n"]
    profiles: tuple[Profile, ...] = ()
    for model in models:
        parts.append(f"## `{model.name}`\n")
        if model.doc:
            parts.append(model.doc + "\n")
        parts.append(model.table() + "\n")
        profiles = profiles or model.profiles
    if profiles:
        takers = ", ".join(f"`{m.name}`" for m in models if m.profiles)
        parts.append("## Profiles\n")
        parts.append(f"The sender's profiles ({takers} take `profile`): each sets the parts below where the call does "
                     "not; an explicit keyword wins, and a part no profile sets keeps its declared default.\n")
        parts.append(profiles_table(profiles) + "\n")
    return "\n".join(parts)


def profiles_table(profiles: tuple[Profile, ...]) -> str:
    """The profiles against their sources, as Markdown: one row per parameter a profile sets, then what each
    refuses."""
    order: list[str] = []
    for pr in profiles:
        order += [k for k in pr.values if k not in order]
    rows = ["| part | " + " | ".join(pr.name for pr in profiles) + " | sources |",
            "| --- |" + " --- |" * len(profiles) + " --- |"]
    for k in order:
        values = " | ".join(f"`{_shown(pr.values[k])}`" if k in pr.values else "(default)" for pr in profiles)
        sources = "; ".join(f"{pr.name}: {pr.sources[k]}" for pr in profiles if k in pr.sources)
        rows.append(f"| `{k}` | {values} | {sources} |")
    rows.append("")
    rows += [f"- `{pr.name}`: {pr.doc}" + ("" if not pr.refused else " Refuses " + "; ".join(
        f"`{x}` ({why})" for x, why in pr.refused.items()) + ".") for pr in profiles]
    return "\n".join(rows)


def all_models() -> list[Model]:
    """Every declared model, in the docs' order (the modules that declare them, imported on demand)."""
    from .analysis.analyze import ANALYSIS
    from .analysis.link import LINK_ANALYSIS
    from .emulator import EMULATE
    from .tcp.link import LINK
    from .tcp.slotted import SLOTTED
    from .tcp.transfer import TRANSFER
    from .wcdma.tcp import WCDMA

    return [SLOTTED, ANALYSIS, LINK, LINK_ANALYSIS, TRANSFER, WCDMA, EMULATE]
