"""The ``rattus serve`` subcommand: its arguments, and running the server from them.

Kept apart from :mod:`rattus_net.cli` so that the CLI only adds one parser and one dispatch
line, and asyncssh is imported only when the server is actually started.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from rattus_net.net.ports import port_arg, seconds_up_to, whole_number
from rattus_net.serve.limits import DEFAULT_MEMORY_MIB, DEFAULT_NICE, MIB, ProcessLimits

DEFAULT_PORT = 2222


_count = whole_number(1, 10000, "a whole number", "must be 1 to 10000")
_days = whole_number(0, 36500, "a whole number of days", "must be 0 to 36500 days")
_mib = whole_number(0, 1 << 20, "a whole number of MiB", "must be 0 (no cap) to 1048576 MiB")
_nice = whole_number(0, 19, "a whole number", "must be 0 to 19")
_seconds = seconds_up_to(7 * 24 * 3600, "must be more than 0 seconds (and at most a week)")


def add_server_options(
    parser: argparse.ArgumentParser, *, port: int, per_address: str, state_dir: str
) -> None:
    """The options ``rattus serve`` and ``rattus web`` share (a server of sessions that each run
    the TUI for one visitor): the port, the limits, joining by address, preloading and the
    state folder. ``per_address`` says what is counted per address, ``state_dir`` what the
    folder holds."""
    parser.add_argument(
        "--port", metavar="P", type=port_arg, default=port, help=f"TCP port (default: {port})"
    )
    parser.add_argument(
        "--max-sessions", metavar="N", type=_count, default=16, help="games at once (default: 16)"
    )
    parser.add_argument(
        "--per-address",
        metavar="N",
        type=_count,
        default=20,
        help=f"{per_address} allowed per address per minute (default: 20)",
    )
    parser.add_argument(
        "--idle-timeout",
        metavar="S",
        type=_seconds,
        default=1800.0,
        help="close idle sessions (default: 1800 s)",
    )
    parser.add_argument(
        "--allow-join-address",
        action="store_true",
        help="let players join a table by a typed HOST:PORT (default: only tables announced "
        "on the LAN or hosted here, so the server's network cannot be probed)",
    )
    parser.add_argument(
        "--session-memory",
        metavar="MIB",
        type=_mib,
        default=DEFAULT_MEMORY_MIB,
        help="memory (data) each game process may use, in MiB; 0: no cap "
        f"(default: {DEFAULT_MEMORY_MIB})",
    )
    parser.add_argument(
        "--session-nice",
        metavar="N",
        type=_nice,
        default=DEFAULT_NICE,
        help="the nice value game processes run at, 0 to 19: the higher, the more the server "
        f"and others go first (default: {DEFAULT_NICE})",
    )
    parser.add_argument(
        "--no-preload",
        action="store_true",
        help="start every session as a fresh Python (slower and bigger: for comparison)",
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        type=Path,
        help=f"{state_dir} (default: rattus-net/serve in the user data dir)",
    )


def process_limits(args: argparse.Namespace) -> ProcessLimits:
    """The limits of every game process, from ``--session-memory`` and ``--session-nice``."""
    return ProcessLimits(memory=args.session_memory * MIB, nice=args.session_nice)


def run_server(command: str, server: Coroutine[Any, Any, None], error: type[Exception]) -> int:
    """Run ``server`` until interrupted: 0, or 1 with one clear line when it fails with
    ``error`` (it cannot start: a port taken, a bad key file...)."""
    import asyncio

    try:
        asyncio.run(server)
    except error as exc:
        print(f"rattus {command}: {exc}", file=sys.stderr)
        return 1
    return 0


def add_serve_parser(sub: Any) -> None:
    """Add ``serve`` to the subcommands (``sub`` is the CLI's subparsers object)."""
    sp = sub.add_parser(
        "serve", help="let people play over SSH with nothing installed (ssh -p 2222 NAME@HOST)"
    )
    sp.add_argument(
        "--listen", metavar="ADDR", default="", help="the address to listen on (default: all)"
    )
    sp.add_argument(
        "--authorized-keys",
        metavar="FILE",
        type=Path,
        help="only the public keys in this file (OpenSSH authorized_keys format) may enter",
    )
    sp.add_argument(
        "--open",
        action="store_true",
        help="also let people in without a key, by user name alone (nothing is kept for them)",
    )
    sp.add_argument(
        "--login-timeout",
        metavar="S",
        type=_seconds,
        default=30.0,
        help="drop a client that has not logged in after this long (default: 30 s)",
    )
    sp.add_argument(
        "--names-per-key",
        metavar="N",
        type=_count,
        default=3,
        help="names one key may hold (claimed when first played; default: 3)",
    )
    sp.add_argument(
        "--sessions-per-key",
        metavar="M",
        type=_count,
        default=2,
        help="games one key may have running at once (default: 2)",
    )
    sp.add_argument(
        "--sessions-per-address",
        metavar="N",
        type=_count,
        default=3,
        help="without --authorized-keys: games one address may have running at once (default: 3)",
    )
    sp.add_argument(
        "--claims-per-address",
        metavar="N",
        type=_count,
        default=3,
        help="without --authorized-keys: new names one address may claim a day (default: 3)",
    )
    sp.add_argument(
        "--names-lapse",
        metavar="DAYS",
        type=_days,
        default=365,
        help="the names of a key not seen for this many days may be claimed again; its old "
        "folder is moved to lapsed/ in the state folder (0: never; default: 365)",
    )
    add_server_options(
        sp,
        port=DEFAULT_PORT,
        per_address="connections",
        state_dir="host key, names and players' folders",
    )


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted; 1 with a clear line if it cannot start."""
    from rattus_net.paths import serve_state_dir
    from rattus_net.serve.server import ServeError, ServeOptions, serve

    if args.open and args.authorized_keys is not None:
        print("rattus serve: --open and --authorized-keys exclude each other", file=sys.stderr)
        return 2
    default_state = serve_state_dir()
    options = ServeOptions(
        state_dir=args.state_dir or default_state,
        port=args.port,
        listen=args.listen,
        authorized_keys=args.authorized_keys,
        max_sessions=args.max_sessions,
        per_address=args.per_address,
        idle_timeout=args.idle_timeout,
        login_timeout=args.login_timeout,
        open=args.open,
        names_per_key=args.names_per_key,
        sessions_per_key=args.sessions_per_key,
        sessions_per_address=args.sessions_per_address,
        claims_per_address=args.claims_per_address,
        names_lapse=args.names_lapse or None,
        allow_join_address=args.allow_join_address,
        preload=not args.no_preload,
        limits=process_limits(args),
    )
    return run_server("serve", serve(options), ServeError)
