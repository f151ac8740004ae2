"""The ``rattus web`` subcommand: its arguments, adding a player, running the server.

Kept apart from :mod:`rattus_net.cli` so that aiohttp and textual-serve are imported only when
the server is started.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from rattus_net.net.ports import port_arg
from rattus_net.serve.command import _count, _seconds

DEFAULT_PORT = 8000
LOCAL = ("127.0.0.1", "::1", "localhost")


def add_web_parser(sub: Any) -> None:
    """Add ``web`` to the subcommands (``sub`` is the CLI's subparsers object)."""
    wp = sub.add_parser(
        "web", help="let people play in a browser with nothing installed (http://HOST:8000/)"
    )
    wp.add_argument(
        "--port", metavar="P", type=port_arg, default=DEFAULT_PORT, help="TCP port (default: 8000)"
    )
    wp.add_argument(
        "--listen",
        metavar="ADDR",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this machine only)",
    )
    wp.add_argument(
        "--players",
        metavar="FILE",
        type=Path,
        help="only the players in this file may enter, each keeping his games (without it: "
        "guests, nothing kept)",
    )
    wp.add_argument(
        "--add-player",
        metavar="NAME",
        help="add NAME to the --players file (asks for the password), then stop",
    )
    wp.add_argument(
        "--max-sessions", metavar="N", type=_count, default=16, help="games at once (default: 16)"
    )
    wp.add_argument(
        "--per-address",
        metavar="N",
        type=_count,
        default=20,
        help="logins and game connections allowed per address per minute (default: 20)",
    )
    wp.add_argument(
        "--idle-timeout",
        metavar="S",
        type=_seconds,
        default=1800.0,
        help="close idle games (default: 1800 s)",
    )
    wp.add_argument(
        "--allow-join-address",
        action="store_true",
        help="let players join a table by a typed HOST:PORT (default: only tables announced "
        "on the LAN or hosted here)",
    )
    wp.add_argument(
        "--no-preload",
        action="store_true",
        help="start every session as a fresh Python (slower and bigger: for comparison)",
    )
    wp.add_argument(
        "--state-dir",
        metavar="DIR",
        type=Path,
        help="players' folders and names, shared with rattus serve (default: rattus-net/serve "
        "in the user data dir)",
    )


def _add_player(args: argparse.Namespace) -> int:
    from rattus_net.serve.identity import NAMES_FILE, WEB_OWNER, NameClaims
    from rattus_net.web.players import PlayersFile

    if args.players is None:
        print("rattus web: --add-player needs --players FILE", file=sys.stderr)
        return 2
    password = getpass.getpass(f"Password for {args.add_player}: ")
    if getpass.getpass("Again: ") != password:
        print("rattus web: the two passwords differ; nothing written", file=sys.stderr)
        return 1
    try:
        new = PlayersFile(args.players).add(args.add_player, password)
    except (ValueError, OSError) as exc:
        print(f"rattus web: {exc}", file=sys.stderr)
        return 1
    print(
        f"rattus web: {'added' if new else 'new password for'} {args.add_player} in {args.players}"
    )
    owner = NameClaims(args.state_dir / NAMES_FILE).owner(args.add_player)
    if owner not in (None, WEB_OWNER):
        print(
            f"rattus web: {args.add_player} is also the SSH name of key {owner}: in the browser "
            "he plays in that folder too (one folder whichever way he comes in)"
        )
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    """Add a player, or run the server until interrupted; 1 with a clear line if it cannot."""
    import asyncio

    import platformdirs

    default_state = Path(platformdirs.user_data_dir("rattus-net", appauthor=False)) / "serve"
    args.state_dir = args.state_dir or default_state
    if args.add_player is not None:
        return _add_player(args)
    from rattus_net.web.server import WebError, WebOptions, serve

    if args.listen not in LOCAL:
        print(
            f"rattus web: WARNING: listening on {args.listen or 'every address'}: anyone who "
            "can reach it may play here"
            + ("" if args.players else " (as a guest)")
            + "; the connection is not encrypted (put it behind HTTPS for passwords)",
            file=sys.stderr,
        )
    options = WebOptions(
        state_dir=args.state_dir,
        port=args.port,
        listen=args.listen or "0.0.0.0",
        players=args.players,
        max_sessions=args.max_sessions,
        per_address=args.per_address,
        idle_timeout=args.idle_timeout,
        allow_join_address=args.allow_join_address,
        preload=not args.no_preload,
    )
    try:
        asyncio.run(serve(options))
    except WebError as exc:
        print(f"rattus web: {exc}", file=sys.stderr)
        return 1
    return 0
