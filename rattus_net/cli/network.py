"""The network commands: ``host``, ``join``, ``tables`` and ``resume``, any game.

A table's game and its options come from the command line through the game's own options
(``rattus_net/cli/args.py``); with ``--bot`` the seat is played headless, without it the TUI
opens in the lobby. Every refusal is one line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TypeVar

from protocol.safetext import safetext
from protocol.wire import PROTOCOL_VERSION
from rattus_net.cli.args import (
    UsageError,
    add_game_argument,
    add_game_flags,
    address,
    game_values,
    name_of,
    positive,
    seat_number,
    seconds,
)
from rattus_net.cli.signals import goodbyes_on_signals, leave_on_interrupt
from rattus_net.kit.cells import pad
from rattus_net.kit.interface import BOT_KINDS
from rattus_net.kit.registry import game_names, get_game
from rattus_net.net.lobby import SEAT_COLOURS, LobbyRefusal, TableOptions, network_game
from rattus_net.net.ports import port_arg
from rattus_net.net.transport import DEFAULT_TRANSPORT, TransportLimits
from rattus_net.paths import GAMES_DIR, data_dir

NETWORK_COMMANDS = ("host", "join", "tables", "resume")

T = TypeVar("T")

_STALL_HELP = (
    "if a player's program stops, the others wait this many seconds for him to come back "
    "(rattus resume; default 300: time to restart a computer); a waiting player may wait "
    "longer (w at the table); then the game ends and the record names who stalled it"
)

_LINGER_HELP = (
    "when the game is stopped (aborted), keep answering this many seconds so that a player "
    "who is away learns it when he comes back (default 120; Ctrl+C leaves sooner: the record "
    "is written); with --bot only"
)

_IDLE_HELP = (
    "a link to another player that stays silent this many seconds (no move, no keepalive) is "
    "dropped and dialled again (default 30); with --bot only"
)


def _limits(args: argparse.Namespace) -> TransportLimits:
    """The transport's limits with the link idle timeout of ``--idle-timeout``."""
    idle = args.idle_timeout
    if idle == DEFAULT_TRANSPORT.idle_timeout:
        return DEFAULT_TRANSPORT
    return TransportLimits(idle_timeout=idle, keepalive=min(DEFAULT_TRANSPORT.keepalive, idle / 3))


def add_network_parsers(sub: Any) -> None:
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--bot",
            choices=BOT_KINDS,
            help="let a bot play this seat, without the screen (default: you, in the TUI)",
        )
        p.add_argument("--seed", type=int, help="seed the bot's choices (default: random)")
        p.add_argument(
            "--player",
            type=name_of("player name"),
            help="the name to sit with, at most 24 characters (default: the bot's kind, or your "
            "login name)",
        )
        p.add_argument(
            "--colour",
            choices=SEAT_COLOURS,
            help="the disc colour to sit with (default: the first one free)",
        )
        _timeouts(p)

    hp = sub.add_parser("host", help="open a table on the local network and play at it")
    hp.add_argument(
        "--name",
        required=True,
        type=name_of("table name"),
        help="the table's name, as others will see it (required; at most 24 characters)",
    )
    hp.add_argument(
        "--players", type=positive, required=True, help="how many, you included (required)"
    )
    add_game_argument(hp, "the game played at the table")
    hp.add_argument("--port", type=port_arg, default=0, help="TCP port (default: any free one)")
    add_game_flags(hp, "host")
    hp.add_argument(
        "--no-advertise",
        action="store_true",
        help="do not announce the table with zeroconf (default: announce it)",
    )
    common(hp)

    jp = sub.add_parser("join", help="join a table: HOST:PORT, or --table NAME found on the LAN")
    jp.add_argument("address", nargs="?", type=address, help="HOST:PORT of the table's host")
    jp.add_argument(
        "--table",
        type=name_of("table name"),
        help="the name (or the start of the key fingerprint) of a table on the LAN",
    )
    jp.add_argument(
        "--wait", type=seconds, default=5.0, help="how long to look for --table (default: 5 s)"
    )
    jp.add_argument(
        "--game",
        choices=game_names(),
        help="only join a table of this game (default: the game the table plays)",
    )
    common(jp)

    tp = sub.add_parser("tables", help="list the tables announced on the local network now")
    tp.add_argument("--wait", type=seconds, default=2.0, help="how long to listen (default: 2 s)")
    tp.add_argument("--json", action="store_true", help="print the tables as JSON")

    up = sub.add_parser("resume", help="resume a network game after a crash (its game id)")
    up.add_argument(
        "game_id",
        nargs="?",
        help="the game id printed when the game started (without it: the games left unfinished)",
    )
    up.add_argument(
        "--bot",
        choices=BOT_KINDS,
        help="let this bot play the seat from now on (a seat a person played reopens in the TUI)",
    )
    up.add_argument(
        "--seat",
        type=seat_number,
        help="which seat of the game (1-5), when several were played from this data directory",
    )
    _timeouts(up)


def _timeouts(p: argparse.ArgumentParser) -> None:
    p.add_argument("--stall-timeout", type=seconds, default=300.0, help=_STALL_HELP)
    p.add_argument("--linger-after-abort", type=seconds, default=120.0, help=_LINGER_HELP)
    p.add_argument("--idle-timeout", type=seconds, default=30.0, help=_IDLE_HELP)


def host_options(args: argparse.Namespace, name: str) -> TableOptions:
    """The options of the table ``rattus host`` opens: its game, players and the game's own
    table options from their flags (one line for a flag of another game, a bad value, a
    player count the game does not take)."""
    game = get_game(args.game)
    values = game_values(args, game, "host")
    table = {o.name for o in game.options.table}
    chosen = TableOptions(args.players, game.name, {k: v for k, v in values.items() if k in table})
    try:
        return chosen.check()
    except LobbyRefusal as exc:
        raise UsageError(f"{name}: {exc}") from None


def cmd_network(args: argparse.Namespace) -> int:
    from rattus_net.net.seats import NodeError

    name = f"rattus {args.command}"
    if args.command == "join" and (args.address is None) == (args.table is None):
        raise UsageError(f"{name}: give either HOST:PORT or --table NAME")
    if args.command in ("host", "join") and args.game is not None:
        try:
            network_game(args.game)  # the game's network play flag: one line if it is off
        except LobbyRefusal as exc:
            raise UsageError(f"{name}: {exc}") from None
    if args.command == "host":
        args.options = host_options(args, name)
    if args.command == "resume" and args.game_id is not None:
        args.game_id = _resume_id(name, args.game_id, args.seat)
    if args.command in ("host", "join") and args.bot is None:
        return _network_tui(args, name)
    if args.command == "resume" and args.game_id is None:
        return _unfinished_games()
    if args.command == "resume" and args.bot is None:
        from rattus_net.net.seats import HUMAN, read_setup

        try:
            if read_setup(args.game_id, seat=args.seat).bot == HUMAN:
                return _resume_tui(args, name)
        except NodeError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            return 1

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        return _run_network(args, name, say)
    except _Stopped as exc:
        print(
            f"{name}: stopped by {exc.signal_name}; the table is withdrawn "
            "(a game that had started continues with: rattus resume)",
            file=sys.stderr,
        )
        return 1


class _Stopped(Exception):
    """The headless command was stopped by SIGTERM or SIGHUP (and cleaned up after itself)."""

    def __init__(self, signal_name: str) -> None:
        self.signal_name = signal_name
        super().__init__(signal_name)


def _until_signal(coro: Any) -> Any:
    """Run ``coro`` with asyncio; SIGTERM and SIGHUP cancel it, so that its ``finally``
    blocks run (the advert is withdrawn with a goodbye, links and journal are closed), then
    raise _Stopped."""
    import asyncio
    import signal

    async def guarded() -> Any:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        got: list[str] = []

        def stop(sig: signal.Signals) -> None:
            got.append(sig.name)
            task.cancel()

        for sig in (signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, stop, sig)
        try:
            return await coro
        except asyncio.CancelledError:
            if got:
                raise _Stopped(got[0]) from None
            raise

    return asyncio.run(guarded())


def _run_network(args: argparse.Namespace, name: str, say: Any) -> int:
    import asyncio

    from protocol.errors import ProtocolError
    from rattus_net.net.seats import NodeError
    from rattus_net.net.transport import TransportError

    try:
        if args.command == "tables":
            return asyncio.run(_cmd_tables(args))
        from rattus_net.net import play

        if args.command == "host":
            outcome = _until_signal(
                play.host_game(
                    args.name,
                    args.options,
                    bot=args.bot,
                    name=args.player,
                    colour=args.colour,
                    port=args.port,
                    bot_seed=args.seed,
                    advertise=not args.no_advertise,
                    stall_timeout=args.stall_timeout,
                    abort_linger=args.linger_after_abort,
                    limits=_limits(args),
                    say=say,
                    lingering=leave_on_interrupt,
                )
            )
        elif args.command == "join":
            outcome = _until_signal(
                play.join_game(
                    args.address,
                    table=args.table,
                    game=args.game,
                    bot=args.bot,
                    name=args.player,
                    colour=args.colour,
                    bot_seed=args.seed,
                    stall_timeout=args.stall_timeout,
                    abort_linger=args.linger_after_abort,
                    limits=_limits(args),
                    find_seconds=args.wait,
                    say=say,
                    lingering=leave_on_interrupt,
                )
            )
        else:
            from rattus_net.bots import make_game_bot
            from rattus_net.net.seats import read_setup

            bot = None
            if args.bot is not None:  # (a bot of the game's own kind)
                game = read_setup(args.game_id, seat=args.seat).params.game
                bot = make_game_bot(game, args.bot, None)
            outcome = _until_signal(
                play.resume_game(
                    args.game_id,
                    seat=args.seat,
                    stall_timeout=args.stall_timeout,
                    abort_linger=args.linger_after_abort,
                    limits=_limits(args),
                    say=say,
                    bot=bot,
                    lingering=leave_on_interrupt,
                )
            )
    except (LobbyRefusal, NodeError) as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    except (TransportError, ProtocolError) as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    if outcome.alone:  # nobody of the game reached: no record, the game stays resumable
        say(play.describe(outcome))
        return 3
    say(play.verdict_line(outcome))  # (the last line stays the one that says where the record is)
    say(play.describe(outcome))
    return 0 if outcome.finished else 1


def _network_tui(args: argparse.Namespace, name: str) -> int:
    """``rattus host``/``rattus join`` without ``--bot``: the TUI, in the table's lobby."""
    import asyncio

    from rattus_net.net.play import find_advert
    from rattus_net.net.tables import GuestLobby, HostLobby, join_by_advert
    from tui.app import run_lobby
    from tui.shell.forms import default_player_name

    player = args.player or default_player_name()
    lobby: HostLobby | GuestLobby
    try:
        if args.command == "host":
            lobby = HostLobby(
                args.name,
                args.options,
                player,
                colour=args.colour,
                port=args.port,
                advertise=not args.no_advertise,
                stall_timeout=args.stall_timeout,
            )
        elif args.address is not None:
            lobby = GuestLobby(
                args.address, player, colour=args.colour, stall_timeout=args.stall_timeout
            )
        else:
            advert = asyncio.run(find_advert(args.table, args.wait))
            if args.game is not None and advert.game != args.game:
                raise LobbyRefusal(
                    f"table {advert.name!r} plays {safetext(advert.game_title)}, not "
                    f"{get_game(args.game).title}"
                )
            refused = advert.why_not()  # another game, or another version of one
            if refused is not None:
                raise LobbyRefusal(refused)
            lobby = join_by_advert(advert, player, args.colour)
            lobby.stall_timeout = args.stall_timeout
    except LobbyRefusal as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    with goodbyes_on_signals():
        return run_lobby(lobby)


def _unfinished_games() -> int:
    """``rattus resume`` without a game id: the games of this data directory still playing."""
    from rattus_net.net.persist import REFUSED, game_of, shown_game_id, unfinished_games

    playing = unfinished_games()
    if not playing:
        print(f"no unfinished network game in {data_dir() / GAMES_DIR}")
        return 0
    from rattus_net.net.persist import is_locked

    print("unfinished network games (rattus resume GAME_ID [--seat N] continues one):")
    for gid, meta in playing:
        if REFUSED in meta:  # (one line: the reason, never the file's content)
            print(f"{gid}  {meta.get('dir')}: {meta[REFUSED]}: it cannot be resumed")
            continue
        players = meta.get("players") or []
        seat = meta.get("seat")
        who = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"
        where = f"  --seat {seat + 1}" if isinstance(seat, int) else ""
        busy = "  (being played now)" if is_locked(Path(str(meta.get("dir", "")))) else ""
        game = game_of(meta)
        if game is None:  # one line for a seat this version cannot resume
            print(f"{gid}  its seat names no game this program plays: it cannot be resumed")
            continue
        print(
            f"{shown_game_id(gid, game)}  {get_game(game).title} at table "
            f"{meta.get('table', '?')!r}, seat of {who}, {len(players)} players{where}{busy}"
        )
    return 0


def _resume_id(name: str, text: str, seat: int | None) -> str:
    """The bare id of the game ``text`` names (``cartus-1f2e...`` as listed, or bare);
    UsageError if it is not a game id, or names another game than the one saved."""
    from rattus_net.net.persist import (
        JournalError,
        check_game_id,
        game_of,
        list_games,
        split_game_id,
    )

    game, _ = split_game_id(text)
    try:
        digits = check_game_id(text)
    except JournalError as exc:
        raise UsageError(f"{name}: {exc}") from None
    saved = {
        g
        for gid, meta in list_games()
        if gid == digits
        and (seat is None or meta.get("seat") == seat)
        and (g := game_of(meta)) is not None
    }
    if game is not None and saved and game not in saved:
        raise UsageError(
            f"{name}: game {digits[:16]} is a game of {get_game(saved.pop()).title}, "
            f"not {get_game(game).title}"
        )
    return digits


def _resume_tui(args: argparse.Namespace, name: str) -> int:
    """``rattus resume`` of a seat a person played: the TUI, at the table, where it stopped."""
    from rattus_net.net.node import PeerNode
    from tui.app import run_network_game

    print(f"{name}: reloading game {args.game_id} from its journal...", file=sys.stderr)
    node = PeerNode.load(args.game_id, seat=args.seat, stall_timeout=args.stall_timeout)
    with goodbyes_on_signals():
        return run_network_game(node)


async def _cmd_tables(args: argparse.Namespace) -> int:
    from rattus_net.net.discovery import browse

    tables = await browse(args.wait)
    if args.json:
        rows = [
            {
                "name": t.name,
                "address": t.address,
                "seats_taken": t.seats_taken,
                "seats_free": t.seats_free,
                "state": t.state,
                "version": t.version,
                "game": t.game,
                "game_version": t.game_version,
                "compatible": t.compatible,
                "fingerprint": t.fingerprint,
            }
            for t in tables
        ]
        print(json.dumps(rows, indent=1))
        return 0
    if not tables:
        print("no tables found on the local network (a manual join: rattus join HOST:PORT)")
    for t in tables:
        version = "" if t.compatible else f"  INCOMPATIBLE (protocol version {t.version})"
        if t.version == PROTOCOL_VERSION and t.incompatibility is not None:
            version = f"  INCOMPATIBLE ({safetext(t.incompatibility)})"
        seats = f"{t.seats_taken}/{t.seats_taken + t.seats_free}"
        print(
            f"{pad(safetext(t.name), 24)} {pad(safetext(t.game_title), 14)} {t.address:<21} "
            f"{seats} seated"
            f"  {safetext(t.state):<8} key {t.fingerprint}{version}"
        )
    return 0
