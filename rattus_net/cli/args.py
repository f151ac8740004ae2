"""What the commands' arguments are: the checked types, and the games' own flags.

A game's options (``rattus_net/kit/options.py``) give ``play``, ``selfplay``, ``host`` (and
``replay``) their game-specific flags: each flag is added once, named by its game in its help,
and read back into the chosen game's option values by :func:`game_values`, which refuses in
one line a flag of another game. Every check here fails with ``argparse``'s one clear line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

from rattus_net.kit.interface import BOT_KINDS, AnyGame
from rattus_net.kit.numbers import ascii_int
from rattus_net.kit.options import Option, OptionValue
from rattus_net.kit.registry import default_game, game_names, games, get_game
from rattus_net.net.ports import port_arg, seconds_up_to, whole_number


class UsageError(Exception):
    """Bad command-line arguments (exit status 2, one line)."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


positive = whole_number(1, 10**9, "a whole number", "must be at least 1")


def bot_list(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    for k in kinds:
        if k not in BOT_KINDS:
            raise argparse.ArgumentTypeError(
                f"unknown bot {k!r}; choose from {', '.join(BOT_KINDS)}"
            )
    if not kinds:
        raise argparse.ArgumentTypeError("name a bot kind")
    return kinds


seconds = seconds_up_to(3600, "must be between 0 and 3600 seconds")


def address(text: str) -> tuple[str, int]:
    if not text.strip():
        raise argparse.ArgumentTypeError("the address is empty: give the host's HOST:PORT")
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT")
    value = port_arg(port)
    if value == 0:
        raise argparse.ArgumentTypeError("port 0 cannot be joined")
    return host, value


def name_of(what: str) -> Callable[[str], str]:
    """An argparse type: a name checked by the one rule for names (a clear error, exit 2)."""

    def check(text: str) -> str:
        from rattus_net.net.names import BadName, check_name

        try:
            return check_name(text, what)
        except BadName as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return check


def seat_number(text: str) -> int:
    value = positive(text)
    if value > 5:
        raise argparse.ArgumentTypeError("a seat is 1 to 5")
    return value - 1


# --- the games ------------------------------------------------------------------------------


def add_game_argument(p: argparse.ArgumentParser, what: str = "the game played") -> None:
    names = game_names()
    first = default_game().name
    p.add_argument(
        "--game",
        choices=names,
        default=first,
        help=f"{what}: {', '.join(names)} (default: {first})",
    )


def _option_type(option: Option) -> Callable[[str], OptionValue]:
    def parse(text: str) -> OptionValue:
        try:
            if option.kind is int:
                value = ascii_int(text)
                if value is None:
                    raise ValueError(f"{text!r} is not a whole number")
                return value
            return option.check(text)
        except ValueError as exc:  # (a SetupError is one)
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def add_game_flags(p: argparse.ArgumentParser, command: str) -> None:
    """The games' own flags of ``command``, each once (read back by :func:`game_values`)."""
    added: dict[str, Option] = {}
    for game in games():
        for option in game.options.for_command(command):
            assert option.flag is not None
            if option.flag in added:
                if added[option.flag].kind is not option.kind:
                    raise ValueError(f"two games give {option.flag} different meanings")
                continue
            added[option.flag] = option
            dest = _dest(option)
            if option.kind is bool:
                p.add_argument(option.flag, dest=dest, action="store_true", default=None,
                               help=option.help)  # fmt: skip
            else:
                p.add_argument(option.flag, dest=dest, type=_option_type(option), default=None,
                               metavar=option.name.upper(), help=option.help)  # fmt: skip


def _dest(option: Option) -> str:
    assert option.flag is not None
    return "game_" + option.flag.lstrip("-").replace("-", "_")


def game_values(args: argparse.Namespace, game: AnyGame, command: str) -> dict[str, OptionValue]:
    """The option values of ``game`` given on the command line (its defaults for
    ``command`` for the others); ``UsageError`` naming any flag given that belongs to
    another game."""
    mine = {_dest(o) for o in game.options.for_command(command)}
    foreign: dict[str, list[str]] = {}
    for other in games():
        for o in other.options.for_command(command):
            dest = _dest(o)
            if dest not in mine and getattr(args, dest, None) is not None:
                assert o.flag is not None
                foreign.setdefault(other.name, []).append(o.flag)
    if foreign:
        owner, flags = next(iter(foreign.items()))
        verb = "are" if len(flags) > 1 else "is"
        raise UsageError(f"rattus {command}: {' and '.join(flags)} {verb} for --game {owner}")
    values = game.options.defaults(command)
    for o in game.options.for_command(command):
        given = getattr(args, _dest(o), None)
        if given is not None:
            values[o.name] = given
    return values


def chosen_game(args: argparse.Namespace) -> AnyGame:
    return get_game(args.game)


def check_players(game: AnyGame, players: int, command: str) -> int:
    if not game.min_players <= players <= game.max_players:
        raise UsageError(
            f"rattus {command}: {game.title} is for {game.min_players} to {game.max_players} "
            "players"
        )
    return players
