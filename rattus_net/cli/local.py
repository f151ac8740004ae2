"""The commands that play on this machine, any game: ``play``, ``selfplay`` and ``replay``.

Each takes its game through the kit's interface (``rattus_net/kit/interface.py``): the
options come from the game's schema, the words of the results and the state from the game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from typing import Any

from rattus_net.cli.args import UsageError, check_players, chosen_game, game_values
from rattus_net.kit.errors import RecordError
from rattus_net.kit.interface import AnyGame
from rattus_net.paths import RECORD_SUFFIX


def cmd_play(args: argparse.Namespace) -> int:
    game = chosen_game(args)
    values = game_values(args, game, "play")
    players = check_players(game, args.players or 3, "play")
    bots = args.bots or "heuristic"
    text = game.plain_table(values) or not (sys.stdin.isatty() and sys.stdout.isatty())
    if game.game_type.text_table and text:
        try:
            played = game.play_text(players, bots, args.seed, values, sys.stdin, sys.stdout)
        except EOFError:
            print("\nrattus play: input ended; the game is abandoned", file=sys.stderr)
            return 1
        if played is not None:
            return 0
    from tui.app import run_offline

    try:
        return run_offline(game.name, players, bots, args.seed, values)
    except ValueError as exc:  # SetupError included: bad options
        raise UsageError(f"rattus play: {exc}") from None


def cmd_selfplay(args: argparse.Namespace) -> int:
    from rattus_net.selfplay import play_game, play_secure_game, seat_bots

    game = chosen_game(args)
    values = game_values(args, game, "selfplay")
    players = check_players(game, args.players, "selfplay")
    try:
        kinds = seat_bots(args.bots, players)
    except ValueError as exc:
        raise UsageError(f"rattus selfplay: {exc}") from None
    missing = [k for k in kinds if k not in game.bot_kinds]
    if missing:
        raise UsageError(
            f"rattus selfplay: {game.title} has no {missing[0]} bot; choose from "
            f"{', '.join(game.bot_kinds)}"
        )
    if args.record_dir is not None:
        args.record_dir.mkdir(parents=True, exist_ok=True)
    words = game.selfplay_words(players)
    labels = [f"seat {s + 1} ({kinds[s]})" for s in range(players)]
    games: list[dict[str, Any]] = []
    elapsed = 0.0
    for i in range(args.games):
        seed = args.seed + i
        start = time.perf_counter()
        if args.secure:
            secure = play_secure_game(game, players, seed, kinds, values)
            state, signed = secure.game, secure.record
        else:
            local = play_game(game, players, seed, kinds, values)
            state, signed = local.game, None
        elapsed += time.perf_counter() - start
        entry: dict[str, Any] = {"seed": seed, **words.add(state), "moves": len(state.history)}
        if args.record_dir is not None:
            if signed is not None:  # the signed record: rattus verify reads it
                path = args.record_dir / f"game-{seed}{RECORD_SUFFIX}"
                path.write_bytes(signed)
            else:
                path = args.record_dir / f"game-{seed}.json"
                path.write_text(game.record_of(state, local.table, values), encoding="utf-8")
            entry["record"] = str(path)
        games.append(entry)
        if not args.json:
            print(f"game {i + 1:>4} seed {seed:<6} {words.line(entry)}")
    rate = args.games / elapsed if elapsed > 0 else float("inf")
    summary = {
        "game": game.name,
        "players": players,
        "games": args.games,
        "bots": kinds,
        **words.summary(labels),
        "seconds": round(elapsed, 4),
        "games_per_second": round(rate, 1),
    }
    if args.json:
        print(json.dumps({"games": games, "summary": summary}, indent=1))
        return 0
    print(
        f"{args.games} game(s) of {game.title}, {players} players, in {elapsed:.2f} s: "
        f"{rate:.1f} games/s"
    )
    for line in words.summary_lines(labels):
        print(line)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a face-level game record (text), or the signed record a network game wrote:
    a finished, fair one face by face; an aborted or unfinished one as every seat saw it, up
    to where it stopped (the cards still hidden stay hidden). In a terminal (and without
    ``--moves`` or ``--json``) the replay viewer opens on it; otherwise the state at the end
    is printed."""
    from protocol.record import MAX_RECORD_BYTES
    from rattus_net.cli.verify import check_size, read_record_file, replay_signed
    from rattus_net.replays import MAX_GAME_RECORD_BYTES, record_game

    if args.moves is not None and args.moves < 0:
        raise UsageError("rattus replay: --moves must be 0 or more")
    check_size(args.record, MAX_RECORD_BYTES)
    data = read_record_file(args.record)
    if args.moves is None and not args.json and sys.stdout.isatty() and sys.stdin.isatty():
        return open_viewer(args, data)
    note = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        game, state, note = replay_signed(args.record, data, args.moves)
    else:
        if len(data) > MAX_GAME_RECORD_BYTES:  # a text record: the smaller limit
            raise RecordError(
                f"{args.record}: {len(data)} bytes, more than any game record needs "
                f"({MAX_GAME_RECORD_BYTES} at most)"
            )
        try:
            game = record_game(text)
            values = game_values(args, game, "replay")
            state, _ = game.read_record(text, values).replay(args.moves)
        except RecursionError:
            raise RecordError(f"{args.record}: not a game record (nested too deeply)") from None
    print_state(game, state, args.json, note)
    return 0


def open_viewer(args: argparse.Namespace, data: bytes) -> int:
    """The replay viewer on the record ``data`` (``rattus replay`` in a terminal; a save
    too): the record is read first, so a bad one is said in a line before the screen is
    taken over."""
    from rattus_net.replays import open_replay, record_game
    from tui.app import run_replay

    values = None
    with contextlib.suppress(UnicodeDecodeError):  # (a signed record: its options in it)
        values = game_values(args, record_game(data.decode("utf-8")), "replay")
    return run_replay(open_replay(args.record, values))


def print_state(game: AnyGame, state: Any, as_json: bool, note: str | None) -> None:
    """A replayed game's state, as JSON or text (``note``: why only its public part was
    replayed)."""
    if as_json:
        out = game.state_dict(state)
        if note:
            out["note"] = note
        print(json.dumps(out, indent=1))
        return
    if note:
        print(note)
    print(game.state_text(state))
