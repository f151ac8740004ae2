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

from rattus_net.serve.command import add_server_options, process_limits, run_server

DEFAULT_PORT = 8000
LOCAL = ("127.0.0.1", "::1", "localhost")


def add_web_parser(sub: Any) -> None:
    """Add ``web`` to the subcommands (``sub`` is the CLI's subparsers object)."""
    wp = sub.add_parser(
        "web", help="let people play in a browser with nothing installed (http://HOST:8000/)"
    )
    wp.add_argument(
        "--listen",
        metavar="ADDR",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this machine only)",
    )
    wp.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        help="also answer requests for this host name (as in the browser's address bar, e.g. "
        "a reverse proxy's); repeatable. Without it: only the --listen address's own names",
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
    add_server_options(
        wp,
        port=DEFAULT_PORT,
        per_address="logins and game connections",
        state_dir="players' folders and names, shared with rattus serve",
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
    from rattus_net.paths import serve_state_dir

    default_state = serve_state_dir()
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
        limits=process_limits(args),
        allow_hosts=tuple(args.allow_host or ()),
    )
    return run_server("web", serve(options), WebError)
