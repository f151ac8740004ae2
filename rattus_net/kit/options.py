"""A game's options, declared once: what drives the command line, the forms, the settings and
the lobby.

Each game declares its options as an :class:`OptionSchema` of :class:`Option` values (name,
type, default, allowed values, help, command-line flag, lobby key, label). The shared code
reads nothing else of them: ``rattus play/selfplay/host`` get one flag per option
(``rattus_net/cli``), the host form one row, the settings file keeps the last values per game,
and a table's options travel in the lobby's wire form under their lobby keys. A value is a
bool, an int or a str; a str option may check and normalise its text (``check``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rattus_net.kit.errors import SetupError

OptionValue = bool | int | str
OptionValues = Mapping[str, OptionValue]

COMMANDS = frozenset({"play", "selfplay", "host"})
"""The commands whose flags come from the games' options (``replay`` may take some too)."""


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``kind``: ``bool``, ``int`` or ``str``. ``values``: the values menus and forms offer, in
    order (empty: a bool's two, or any text ``check`` accepts). ``check`` normalises a str
    option's text or raises (``ValueError``, ``SetupError``) saying what is wrong. ``flag``:
    its command-line flag (``None``: none), on ``commands``. ``lobby_key``: its key in a
    table's wire form (``None``: not a table option: network tables play without it).
    ``play_default``: the default of a game a person starts against bots (``rattus play``,
    the menu) when it differs from ``default``. ``configures``: ``False`` for an option that
    only the game's own table reads (Rattus's plain-text table), never its configuration.
    ``words`` says a value for a person (``str`` of it by default), ``phrase`` how a
    table's one-line summary puts it. ``key``: the key that changes a table option in the
    lobby of the table's host (``None``: only the host form sets it)."""

    name: str
    kind: type[bool] | type[int] | type[str]
    default: OptionValue
    help: str
    label: str = ""
    values: tuple[OptionValue, ...] = ()
    check: Callable[[str], str] = _same
    flag: str | None = None
    commands: frozenset[str] = COMMANDS
    lobby_key: str | None = None
    play_default: OptionValue | None = None
    configures: bool = True
    remember: bool = True
    words: Callable[[OptionValue], str] = str
    phrase: str = "{}"
    """How a table's summary says the value (``"supplies {}"``: ``supplies in turn``)."""
    key: str | None = None

    def __post_init__(self) -> None:
        if type(self.default) is not self.kind:
            raise TypeError(f"option {self.name}: its default is not a {self.kind.__name__}")

    def default_for(self, command: str) -> OptionValue:
        """The default of ``command`` (``play`` and the menu may start elsewhere)."""
        if command == "play" and self.play_default is not None:
            return self.play_default
        return self.default

    def summary(self, value: OptionValue) -> str:
        """The value as a table's one-line summary says it."""
        return self.phrase.format(self.words(value))

    def value(self, value: object) -> OptionValue:
        """``value`` checked: of the option's kind (a bool is no int here), a str normalised
        by ``check``; ``SetupError`` saying what is wrong."""
        if type(value) is not self.kind:
            raise SetupError(f"{self.label or self.name} must be a {self.kind.__name__}")
        assert isinstance(value, bool | int | str)
        if isinstance(value, str):
            try:
                return self.check(value)
            except ValueError as exc:  # (SetupError is one)
                raise SetupError(f"{self.label or self.name}: {exc}") from None
        return value


@dataclass(frozen=True)
class OptionSchema:
    """A game's options, in the order forms show them."""

    options: tuple[Option, ...] = ()
    by_name: dict[str, Option] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {o.name: o for o in self.options})
        if len(self.by_name) != len(self.options):
            raise ValueError("two options of one game share a name")

    def defaults(self, command: str = "") -> dict[str, OptionValue]:
        return {o.name: o.default_for(command) for o in self.options}

    def for_command(self, command: str) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.flag is not None and command in o.commands)

    @property
    def table(self) -> tuple[Option, ...]:
        """The options a network table plays (those with a lobby key)."""
        return tuple(o for o in self.options if o.lobby_key is not None)

    def complete(self, values: OptionValues, command: str = "") -> dict[str, OptionValue]:
        """Every option's value: those of ``values`` checked, the rest at their defaults.
        ``SetupError`` for a value that is not good or an option the game does not have."""
        unknown = sorted(set(values) - set(self.by_name))
        if unknown:
            raise SetupError(f"unknown option(s): {', '.join(unknown)}")
        out = self.defaults(command)
        for name, value in values.items():
            out[name] = self.by_name[name].value(value)
        return out

    def summary(self, players: int, values: OptionValues) -> str:
        """``4 players, random cards, supplies in turn``: a table in one line."""
        return ", ".join(
            [
                f"{players} players",
                *(o.summary(values[o.name]) for o in self.table if o.name in values),
            ]
        )
