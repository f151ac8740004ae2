"""The `rattus` command: its parser and what each command runs.

Every user mistake (bad arguments, a missing or malformed file) ends with one clear line on
stderr and a non-zero exit code, never a traceback. No game is named here: a game's own
flags come from its options (``args.py``), everything else through the game interface.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from rattus_net.cli.args import (
    Parser,
    UsageError,
    add_game_argument,
    add_game_flags,
    bot_list,
    positive,
)
from rattus_net.cli.local import cmd_play, cmd_replay, cmd_selfplay
from rattus_net.cli.network import NETWORK_COMMANDS, add_network_parsers, cmd_network
from rattus_net.cli.signals import goodbyes_on_signals
from rattus_net.cli.verify import cmd_verify
from rattus_net.kit.errors import RattusNetError
from rattus_net.kit.interface import BOT_KINDS
from rattus_net.kit.registry import game_titles


def build_parser() -> argparse.ArgumentParser:
    from rattus_net import __version__

    p = Parser(
        prog="rattus",
        description="`rattus` alone opens the menu: play against bots, host or join a table on "
        "the network, verify a record, read the rules. The commands below do one of these "
        f"straight away, or run without a screen. The games: {game_titles()}, in the "
        "terminal, peer to peer.",
        epilog="`rattus COMMAND --help` describes a command and its options.",
    )
    p.add_argument("--version", action="version", version=f"rattus {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")

    pp = sub.add_parser("play", help="play against bots straight away (offline)")
    add_game_argument(pp)
    pp.add_argument(
        "--players", type=positive, default=None, help="how many, you included (default: 3)"
    )
    pp.add_argument(
        "--bots",
        choices=BOT_KINDS,
        default=None,
        help="the bots' kind (default: the strongest installed, heuristic)",
    )
    pp.add_argument(
        "--seed", type=int, default=None, help="fix the cards and the bots (default: random)"
    )
    add_game_flags(pp, "play")

    sp = sub.add_parser("selfplay", help="play whole games between bots and print the results")
    add_game_argument(sp)
    sp.add_argument("--players", type=positive, default=4, help="how many (default: 4)")
    sp.add_argument("--games", type=positive, default=10, help="how many games (default: 10)")
    sp.add_argument(
        "--seed", type=int, default=0, help="seed of the first game, then +1 each (default: 0)"
    )
    sp.add_argument(
        "--bots",
        type=bot_list,
        default=["random"],
        help=f"one kind for every seat, or one per seat, comma-separated ({', '.join(BOT_KINDS)}; "
        "default: random)",
    )
    add_game_flags(sp, "selfplay")
    sp.add_argument("--json", action="store_true", help="print JSON instead of text")
    sp.add_argument("--record-dir", type=Path, help="write each game's record there")
    sp.add_argument(
        "--secure",
        action="store_true",
        help="every seat a separate protocol endpoint (full cryptography); records are signed",
    )

    vp = sub.add_parser("verify", help="check that a signed game record was played fairly")
    vp.add_argument("record", type=Path, help="the signed record a network game wrote")
    vp.add_argument("--json", action="store_true", help="print the verdict as JSON")
    vp.add_argument("--export", type=Path, help="write the face-level game record there")

    rp = sub.add_parser("replay", help="replay a game record and print where it ends")
    rp.add_argument(
        "record",
        type=Path,
        help="a game record, or the signed record a network game wrote (aborted games too)",
    )
    rp.add_argument("--json", action="store_true", help="print the final state as JSON")
    rp.add_argument("--moves", type=int, help="stop after this many moves (default: all)")
    add_game_flags(rp, "replay")
    add_network_parsers(sub)
    from rattus_net.serve.command import add_serve_parser

    add_serve_parser(sub)
    from rattus_net.web.command import add_web_parser

    add_web_parser(sub)
    for choice in sub._choices_actions:  # each command's --help starts with what it does
        command = sub.choices[choice.dest]
        if not command.description and choice.help:
            command.description = choice.help[:1].upper() + choice.help[1:] + "."
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if not argv:  # the menu: no parser built (every served session starts here)
            from tui.app import run_menu

            with goodbyes_on_signals():
                return run_menu()
        args = build_parser().parse_args(argv)
        if args.command == "selfplay":
            return cmd_selfplay(args)
        if args.command == "replay":
            return cmd_replay(args)
        if args.command == "verify":
            return cmd_verify(args)
        if args.command == "play":
            return cmd_play(args)
        if args.command in NETWORK_COMMANDS:
            return cmd_network(args)
        if args.command == "serve":
            from rattus_net.serve.command import cmd_serve

            return cmd_serve(args)
        if args.command == "web":
            from rattus_net.web.command import cmd_web

            return cmd_web(args)
        from tui.app import run_menu

        with goodbyes_on_signals():
            return run_menu()
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (``rattus verify R | head``): say nothing more, and keep the
        # interpreter's last flush from failing on the closed pipe too
        _silence_stdout()
        return 1
    except (RattusNetError, OSError) as exc:
        print(f"rattus: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rattus: interrupted", file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    """Point standard output at the null device (its reader has gone)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
