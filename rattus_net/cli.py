"""The `rattus` command.

Every user mistake (bad arguments, a missing or malformed file) ends with one clear line on
stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from protocol.safetext import safetext
from protocol.wire import PROTOCOL_VERSION
from rattus_net.bots import BOT_KINDS
from rattus_net.engine.cells import pad
from rattus_net.engine.errors import RattusError, RecordError
from rattus_net.engine.numbers import ascii_decimal, ascii_int
from rattus_net.games import DEFAULT_GAME, GAMES, get_game
from rattus_net.games.cartus.config import BuildingSelection
from rattus_net.games.cartus.data import COLOURS
from rattus_net.games.cartus.record import GameRecord
from rattus_net.net.ports import port_arg


class UsageError(Exception):
    """Bad command-line arguments."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def _positive(text: str) -> int:
    value = ascii_int(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _players(text: str) -> int:
    value = _positive(text)
    if not 2 <= value <= 5:
        raise argparse.ArgumentTypeError("Rattus Cartus is for 2 to 5 players")
    return value


def _bots(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    for k in kinds:
        if k not in BOT_KINDS:
            raise argparse.ArgumentTypeError(
                f"unknown bot {k!r}; choose from {', '.join(BOT_KINDS)}"
            )
    if not kinds:
        raise argparse.ArgumentTypeError("name a bot kind")
    return kinds


def _selection(text: str) -> BuildingSelection:
    try:
        return BuildingSelection.parse(text)
    except RattusError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    from rattus_net import __version__

    p = _Parser(
        prog="rattus",
        description="Rattus Cartus in the terminal, peer to peer. "
        "`rattus` alone opens the menu: play against bots, host or join a table on the "
        "network, verify a record, read the rules. The commands below do one of these "
        "straight away, or run without a screen.",
        epilog="`rattus COMMAND --help` describes a command and its options.",
    )
    p.add_argument("--version", action="version", version=f"rattus {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    pp = sub.add_parser("play", help="play against bots straight away (offline)")
    _add_game_options(pp)
    pp.add_argument(
        "--players", type=_players, default=None, help="2 to 5, you included (default: 3)"
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
    pp.add_argument(
        "--buildings",
        type=_selection,
        default=BuildingSelection.first_game(),
        help="first-game, random-buildings, random-cards, or six buildings / 30 cards "
        "(default: first-game)",
    )
    pp.add_argument(
        "--text",
        action="store_true",
        help="Rattus: the plain-text table instead of the map (also when not in a terminal)",
    )

    sp = sub.add_parser("selfplay", help="play whole games between bots and print the results")
    _add_game_options(sp)
    sp.add_argument("--players", type=_players, default=4, help="2 to 5 (default: 4)")
    sp.add_argument("--games", type=_positive, default=10, help="how many games (default: 10)")
    sp.add_argument(
        "--seed", type=int, default=0, help="seed of the first game, then +1 each (default: 0)"
    )
    sp.add_argument(
        "--bots",
        type=_bots,
        default=["random"],
        help=f"one kind for every seat, or one per seat, comma-separated ({', '.join(BOT_KINDS)}; "
        "default: random)",
    )
    sp.add_argument(
        "--buildings",
        type=_selection,
        default=BuildingSelection.random_cards(),
        help="first-game, random-buildings, random-cards, or six buildings / 30 cards "
        "(default: random-cards)",
    )
    sp.add_argument(
        "--simultaneous-supply",
        action="store_true",
        help="everyone chooses a supply action at once (default: in turn)",
    )
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
    rp.add_argument(
        "--components", type=Path, help="Rattus: the components a record without its own uses"
    )
    _add_network_parsers(sub)
    from rattus_net.serve.command import add_serve_parser

    add_serve_parser(sub)
    from rattus_net.web.command import add_web_parser

    add_web_parser(sub)
    for choice in sub._choices_actions:  # each command's --help starts with what it does
        command = sub.choices[choice.dest]
        if not command.description and choice.help:
            command.description = choice.help[:1].upper() + choice.help[1:] + "."
    return p


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", choices=GAMES, default=DEFAULT_GAME, help="cartus (default) or rattus")
    p.add_argument(
        "--components", type=Path, help="Rattus: a components file (map and tokens) of your own"
    )


def _record_game(text: str) -> str:
    """The game a record names (``"game"``; a record without it is Rattus Cartus)."""
    try:
        obj = json.loads(text)
    except ValueError:
        return DEFAULT_GAME
    game = obj.get("game", DEFAULT_GAME) if isinstance(obj, dict) else DEFAULT_GAME
    if game not in GAMES:
        raise RecordError(f"the record names an unknown game {game!r}")
    return str(game)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
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

        return run_menu()
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (``rattus verify R | head``): say nothing more, and keep the
        # interpreter's last flush from failing on the closed pipe too
        _silence_stdout()
        return 1
    except (RattusError, OSError) as exc:
        print(f"rattus: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rattus: interrupted", file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    """Point standard output at the null device (its reader has gone)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _components_only_for_rattus(args: argparse.Namespace) -> None:
    if args.components is not None and args.game != "rattus":
        raise UsageError(f"rattus {args.command}: --components is for --game rattus")


def cmd_play(args: argparse.Namespace) -> int:
    _components_only_for_rattus(args)
    if args.game == "rattus":
        from rattus_net import cli_rattus

        return cli_rattus.cmd_play(args)
    from tui.app import run_offline

    try:
        return run_offline(args.players or 3, args.bots, args.seed, args.buildings)
    except ValueError as exc:  # SetupError included: bad buildings
        raise UsageError(f"rattus play: {exc}") from None


def cmd_selfplay(args: argparse.Namespace) -> int:
    _components_only_for_rattus(args)
    if args.game == "rattus":
        from rattus_net import cli_rattus

        return cli_rattus.cmd_selfplay(args)
    from rattus_net.selfplay import SecureSelfplayGame, play_game, play_secure_game, seat_bots

    try:
        kinds = seat_bots(args.bots, args.players)
    except ValueError as exc:
        raise UsageError(f"rattus selfplay: {exc}") from None
    if args.record_dir is not None:
        args.record_dir.mkdir(parents=True, exist_ok=True)
    games: list[dict[str, Any]] = []
    wins = [0.0] * args.players
    deaths = [0] * args.players
    vp_total = [0] * args.players
    elapsed = 0.0
    for i in range(args.games):
        seed = args.seed + i
        start = time.perf_counter()
        play = play_secure_game if args.secure else play_game
        played = play(args.players, seed, kinds, args.buildings, args.simultaneous_supply)
        elapsed += time.perf_counter() - start
        game, r = played.game, played.game.result
        names = game.config.players
        for s in r.winners:
            wins[s] += 1 / len(r.winners)
        for s in range(args.players):
            deaths[s] += r.dead[s]
            vp_total[s] += r.totals[s]
        entry: dict[str, Any] = {
            "seed": seed,
            "winners": [names[s] for s in r.winners],
            "vp": list(r.totals),
            "rats": list(r.rats),
            "nuns": r.nuns,
            "dead": [names[s] for s in range(args.players) if r.dead[s]],
            "moves": len(game.history),
        }
        if args.record_dir is not None:
            if isinstance(played, SecureSelfplayGame):
                path = args.record_dir / f"game-{seed}.rattus"
                path.write_bytes(played.record)
            else:
                path = args.record_dir / f"game-{seed}.json"
                path.write_text(GameRecord.from_game(game, played.table).dumps())
            entry["record"] = str(path)
        games.append(entry)
        if not args.json:
            won = " and ".join(entry["winners"]) or "nobody (the plague killed everyone)"
            dead = ", ".join(entry["dead"]) or "none"
            vps = " ".join(f"{v:>3}" for v in r.totals)
            print(f"game {i + 1:>4} seed {seed:<6} VP {vps}  dead: {dead:<20} winner: {won}")
    rate = args.games / elapsed if elapsed > 0 else float("inf")
    summary = {
        "players": args.players,
        "games": args.games,
        "bots": kinds,
        "wins": {f"seat {s + 1} ({kinds[s]})": wins[s] for s in range(args.players)},
        "deaths": {f"seat {s + 1} ({kinds[s]})": deaths[s] for s in range(args.players)},
        "average_vp": {
            f"seat {s + 1} ({kinds[s]})": vp_total[s] / args.games for s in range(args.players)
        },
        "seconds": round(elapsed, 4),
        "games_per_second": round(rate, 1),
    }
    if args.json:
        print(json.dumps({"games": games, "summary": summary}, indent=1))
    else:
        print(
            f"{args.games} game(s) of {args.players} players in {elapsed:.2f} s: {rate:.1f} games/s"
        )
        for s in range(args.players):
            label = f"seat {s + 1} ({kinds[s]})"
            print(
                f"  {label:<22} wins {wins[s]:>6.1f} ({100 * wins[s] / args.games:5.1f}%)  "
                f"average VP {vp_total[s] / args.games:5.1f}  died {deaths[s]}"
            )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a face-level game record (text), or the signed record a network game wrote:
    a finished, fair one face by face; an aborted or unfinished one as every seat saw it, up
    to where it stopped (the cards still hidden stay hidden)."""
    from protocol.record import MAX_RECORD_BYTES
    from rattus_net.report import state_dict, state_text

    if args.moves is not None and args.moves < 0:
        raise UsageError("rattus replay: --moves must be 0 or more")
    _check_size(args.record, MAX_RECORD_BYTES)
    try:
        data = args.record.read_bytes()
    except FileNotFoundError:
        raise RecordError(f"{args.record}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{args.record}: is a directory, not a game record") from None
    note = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        game, note = _replay_signed(args.record, data, args.moves)
        from rattus_net.games.rattus.game import RattusGame

        if isinstance(game, RattusGame):  # a network game of Rattus
            from rattus_net import cli_rattus

            return cli_rattus.print_game(game, args.json, note)
    else:
        if len(data) > MAX_GAME_RECORD_BYTES:  # a text record: the smaller limit
            raise RecordError(
                f"{args.record}: {len(data)} bytes, more than any game record needs "
                f"({MAX_GAME_RECORD_BYTES} at most)"
            )
        try:
            if _record_game(text) == "rattus":
                from rattus_net import cli_rattus

                return cli_rattus.cmd_replay(args, text)
            game, _ = GameRecord.loads(text).replay(args.moves)
        except RecursionError:
            raise RecordError(f"{args.record}: not a game record (nested too deeply)") from None
    if args.json:
        out = state_dict(game)
        if note:
            out["note"] = note
        print(json.dumps(out, indent=1))
    else:
        if note:
            print(note)
        print(state_text(game))
    return 0


MAX_GAME_RECORD_BYTES = 2 << 20
"""A face-level game record (JSON) of the longest 5-player game is some tens of KiB."""


def _check_size(path: Path, limit: int) -> None:
    """Refuse a file larger than any record before reading it."""
    try:
        size = path.stat().st_size
    except OSError:
        return  # reading it says what is wrong
    if size > limit and path.is_file():
        raise RecordError(
            f"{path}: {size} bytes, more than any game record needs ({limit} at most)"
        )


def _replay_signed(path: Path, data: bytes, moves: int | None) -> tuple[Any, str | None]:
    """A network game's signed record: the game, and a note when only its public part could
    be replayed."""
    from protocol.errors import ProtocolError
    from protocol.record import public_replay, verify_record

    try:
        verdict = verify_record(data)
        if verdict.engine_record is not None:  # finished and fair: every face is known
            return verdict.engine_record.replay(moves)[0], None
        game, stopped = public_replay(data, moves)
    except ProtocolError as exc:
        raise RecordError(f"{path}: not a game record ({exc})") from None
    why = stopped or verdict.reason or "the record stops before the end of the game"
    return game, (
        f"This network game did not end fairly ({why}). Replayed as every seat saw it, up to "
        "where it stopped: cards or tokens still hidden (hands, the deck, the nun row, face-down "
        "rat tokens) are not shown."
    )


def cmd_verify(args: argparse.Namespace) -> int:
    from protocol.errors import ProtocolError
    from protocol.record import MAX_RECORD_BYTES, verify_record

    _check_size(args.record, MAX_RECORD_BYTES)
    try:
        data = args.record.read_bytes()
    except FileNotFoundError:
        raise RecordError(f"{args.record}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{args.record}: is a directory, not a game record") from None
    try:
        verdict = verify_record(data)
    except ProtocolError as exc:
        raise RecordError(f"{args.record}: {exc}") from None
    if args.export is not None and verdict.engine_record is not None:
        args.export.write_text(verdict.engine_record.dumps())
    if args.json:
        print(json.dumps(verdict.to_dict(), indent=1))
    else:
        print(verdict.text())
    return 0 if verdict.fair else 1


# --- network play: host, join, tables, resume ---------------------------------------------------

NETWORK_COMMANDS = ("host", "join", "tables", "resume")


def _seconds(text: str) -> float:
    value = ascii_decimal(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds")
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError("must be between 0 and 3600 seconds")
    return value


def _address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT")
    value = port_arg(port)
    if value == 0:
        raise argparse.ArgumentTypeError("port 0 cannot be joined")
    return host, value


def _name_of(what: str) -> Any:
    """An argparse type: a name checked by the one rule for names (a clear error, exit 2)."""

    def check(text: str) -> str:
        from rattus_net.net.names import BadName, check_name

        try:
            return check_name(text, what)
        except BadName as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return check


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


def _limits(args: argparse.Namespace) -> Any:
    """The transport's limits with the link idle timeout of ``--idle-timeout``."""
    from rattus_net.net.transport import DEFAULT_TRANSPORT, TransportLimits

    idle = args.idle_timeout
    if idle == DEFAULT_TRANSPORT.idle_timeout:
        return DEFAULT_TRANSPORT
    return TransportLimits(idle_timeout=idle, keepalive=min(DEFAULT_TRANSPORT.keepalive, idle / 3))


def _seat_number(text: str) -> int:
    value = _positive(text)
    if value > 5:
        raise argparse.ArgumentTypeError("a seat is 1 to 5")
    return value - 1


def _add_network_parsers(sub: Any) -> None:
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--bot",
            choices=BOT_KINDS,
            help="let a bot play this seat, without the screen (default: you, in the TUI)",
        )
        p.add_argument("--seed", type=int, help="seed the bot's choices (default: random)")
        p.add_argument(
            "--player",
            type=_name_of("player name"),
            help="the name to sit with, at most 24 characters (default: the bot's kind, or your "
            "login name)",
        )
        p.add_argument(
            "--colour",
            choices=COLOURS,
            help="the disc colour to sit with (default: the first one free)",
        )
        p.add_argument("--stall-timeout", type=_seconds, default=300.0, help=_STALL_HELP)
        p.add_argument("--linger-after-abort", type=_seconds, default=120.0, help=_LINGER_HELP)
        p.add_argument("--idle-timeout", type=_seconds, default=30.0, help=_IDLE_HELP)

    hp = sub.add_parser("host", help="open a table on the local network and play at it")
    hp.add_argument(
        "--name",
        required=True,
        type=_name_of("table name"),
        help="the table's name, as others will see it (required; at most 24 characters)",
    )
    hp.add_argument(
        "--players", type=_players, required=True, help="2 to 5, you included (required)"
    )
    hp.add_argument(
        "--game",
        choices=GAMES,
        default=DEFAULT_GAME,
        help="the game played at the table: cartus (default) or rattus (2 to 4 players; "
        "--buildings and --simultaneous-supply are Rattus Cartus options)",
    )
    hp.add_argument("--port", type=port_arg, default=0, help="TCP port (default: any free one)")
    hp.add_argument(
        "--buildings",
        type=_selection,
        default=BuildingSelection.random_cards(),
        help="first-game, random-buildings, random-cards, or six buildings / 30 cards "
        "(default: random-cards)",
    )
    hp.add_argument(
        "--simultaneous-supply",
        action="store_true",
        help="everyone chooses a supply action at once (default: in turn)",
    )
    hp.add_argument(
        "--no-advertise",
        action="store_true",
        help="do not announce the table with zeroconf (default: announce it)",
    )
    common(hp)

    jp = sub.add_parser("join", help="join a table: HOST:PORT, or --table NAME found on the LAN")
    jp.add_argument("address", nargs="?", type=_address, help="HOST:PORT of the table's host")
    jp.add_argument(
        "--table",
        type=_name_of("table name"),
        help="the name (or the start of the key fingerprint) of a table on the LAN",
    )
    jp.add_argument(
        "--wait", type=_seconds, default=5.0, help="how long to look for --table (default: 5 s)"
    )
    jp.add_argument(
        "--game",
        choices=GAMES,
        help="only join a table of this game (default: the game the table plays)",
    )
    common(jp)

    tp = sub.add_parser("tables", help="list the tables announced on the local network now")
    tp.add_argument("--wait", type=_seconds, default=2.0, help="how long to listen (default: 2 s)")
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
        type=_seat_number,
        help="which seat of the game (1-5), when several were played from this data directory",
    )
    up.add_argument("--stall-timeout", type=_seconds, default=300.0, help=_STALL_HELP)
    up.add_argument("--linger-after-abort", type=_seconds, default=120.0, help=_LINGER_HELP)
    up.add_argument("--idle-timeout", type=_seconds, default=30.0, help=_IDLE_HELP)


def cmd_network(args: argparse.Namespace) -> int:
    from rattus_net.net.node import NodeError

    name = f"rattus {args.command}"
    if args.command == "join" and (args.address is None) == (args.table is None):
        raise UsageError(f"{name}: give either HOST:PORT or --table NAME")
    if args.command in ("host", "join") and args.game is not None:
        from rattus_net.net.lobby import LobbyRefusal, network_game

        try:
            network_game(args.game)  # the game's network play flag: one line if it is off
        except LobbyRefusal as exc:
            raise UsageError(f"{name}: {exc}") from None
        if args.command == "host" and args.game != "cartus":
            from rattus_net.net.lobby import TableOptions

            chosen = TableOptions(args.players, args.buildings.describe(), args.simultaneous_supply)
            if chosen.cartus_options:
                raise UsageError(
                    f"{name}: --buildings and --simultaneous-supply are options of Rattus "
                    f"Cartus; a {get_game(args.game).title} table has none"
                )
    if args.command == "resume" and args.game_id is not None:
        args.game_id = _resume_id(name, args.game_id, args.seat)
    if args.command in ("host", "join") and args.bot is None:
        return _network_tui(args, name)
    if args.command == "resume" and args.game_id is None:
        return _unfinished_games()
    if args.command == "resume" and args.bot is None:
        from rattus_net.net.node import HUMAN, read_setup

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
    from rattus_net.net.lobby import LobbyRefusal, TableOptions
    from rattus_net.net.node import NodeError
    from rattus_net.net.transport import TransportError

    try:
        if args.command == "tables":
            return asyncio.run(_cmd_tables(args))
        from rattus_net.net import play

        if args.command == "host":
            options = TableOptions(
                args.players, args.buildings.describe(), args.simultaneous_supply, args.game
            ).check()
            outcome = _until_signal(
                play.host_game(
                    args.name,
                    options,
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
                )
            )
        else:
            from rattus_net.bots import make_game_bot
            from rattus_net.net.node import read_setup

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

    from rattus_net.net.lobby import LobbyRefusal, TableOptions
    from rattus_net.net.play import find_advert
    from rattus_net.net.tables import GuestLobby, HostLobby, join_by_advert
    from tui.app import run_lobby
    from tui.netscreens import default_player_name

    player = args.player or default_player_name()
    lobby: HostLobby | GuestLobby
    try:
        if args.command == "host":
            options = TableOptions(
                args.players, args.buildings.describe(), args.simultaneous_supply, args.game
            ).check()
            lobby = HostLobby(
                args.name,
                options,
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
    return run_lobby(lobby)


def _unfinished_games() -> int:
    """``rattus resume`` without a game id: the games of this data directory still playing."""
    from rattus_net.net.persist import data_dir, game_of, shown_game_id, unfinished_games

    playing = unfinished_games()
    if not playing:
        print(f"no unfinished network game in {data_dir() / 'games'}")
        return 0
    from rattus_net.net.persist import is_locked

    print("unfinished network games (rattus resume GAME_ID [--seat N] continues one):")
    for gid, meta in playing:
        players = meta.get("players") or []
        seat = meta.get("seat")
        who = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"
        where = f"  --seat {seat + 1}" if isinstance(seat, int) else ""
        busy = "  (being played now)" if is_locked(Path(str(meta.get("dir", "")))) else ""
        game = game_of(meta)
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
        game_of(meta)
        for gid, meta in list_games()
        if gid == digits and (seat is None or meta.get("seat") == seat)
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
            f"{seats} seated  {safetext(t.state):<8} key {t.fingerprint}{version}"
        )
    return 0
