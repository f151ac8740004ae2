"""The `rattus` commands for Rattus (the board game): play, selfplay and replay.

Kept apart from ``cli.py`` (which dispatches here for ``--game rattus`` and for records that
name the game ``rattus``). Every user mistake ends with one clear line, never a traceback:
the CLI's ``main`` prints ``RattusError`` messages (components, records, illegal moves).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from rattus_net.bots.rattus import RATTUS_BOTS, RattusBot, make_rattus_bot
from rattus_net.engine.errors import IllegalMove, SetupError
from rattus_net.engine.numbers import ascii_int
from rattus_net.games.rattus.components import Components
from rattus_net.games.rattus.decision import CUBES_OUT, SUPPLY
from rattus_net.games.rattus.game import Kind, RattusConfig, RattusGame
from rattus_net.games.rattus.loader import load_components
from rattus_net.games.rattus.local import RattusTable
from rattus_net.games.rattus.moves import Move, format_move, parse_move
from rattus_net.games.rattus.record import RattusRecord
from rattus_net.games.rattus.report import (
    event_text,
    neighbours_text,
    state_dict,
    state_text,
    table_text,
)
from rattus_net.games.rattus.view import RattusView


class InputEnded(Exception):
    """Standard input ended before the game did."""


def _check_players(n: int | None, default: int) -> int:
    n = default if n is None else n
    if not 2 <= n <= 4:
        raise SetupError("Rattus is for 2 to 4 players (--players 2, 3 or 4)")
    return n


def _custom(path: Path | None) -> tuple[Components, Any]:
    """The components and, for a user's file, its content to embed in records."""
    comps = load_components(path)
    if path is None:
        return comps, None
    return comps, json.loads(path.read_text(encoding="utf-8"))


# --- selfplay -----------------------------------------------------------------------------------


def play_bots(
    kinds: list[str],
    seed: int,
    comps: Components,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
) -> tuple[RattusGame, RattusTable]:
    """One game between bots on a seeded local table (seat ``i`` played by ``kinds[i]``)."""
    n = len(kinds)
    game = RattusGame(RattusConfig(RattusConfig.default_names(n), comps))
    table = RattusTable(seed)
    bots = [
        make_rattus_bot(k, seed * 7919 + s, seconds=seconds, iterations=iterations)
        for s, k in enumerate(kinds)
    ]
    views = [RattusView(game, s) for s in range(n)]
    while not game.is_over:
        d = game.decision
        if d is None:
            table.answer(game)
            continue
        game.apply(d.player, bots[d.player].choose(views[d.player]))
    return game, table


def play_secure_bots(kinds: list[str], seed: int) -> tuple[RattusGame, bytes]:
    """One game between bots over the network table, every peer in this process (in memory,
    seeded: ``protocol/seeded.py``): seat 0's own game and the signed record."""
    from protocol.memnet import MemoryNetwork
    from protocol.seeded import seeded_params
    from rattus_net.games.rattus.loader import default_components

    n = len(kinds)
    config = RattusConfig(RattusConfig.default_names(n), default_components())
    params, secrets = seeded_params(config, seed, "rattus")
    bots = [make_rattus_bot(k, seed * 7919 + s) for s, k in enumerate(kinds)]
    net = MemoryNetwork(params, secrets)
    net.run(lambda game, seat: bots[seat].choose(RattusView(game, seat)))
    peer = net.peers[0]
    if not peer.finished or peer.game is None:
        raise SetupError(f"the secure game of seed {seed} stopped: {peer.abort}")
    return peer.game, peer.record_bytes()


def cmd_selfplay(args: argparse.Namespace) -> int:
    players = _check_players(args.players, 4)
    if args.secure and args.components is not None:
        raise SetupError("--secure plays the shipped components (a network table does too)")
    kinds = list(args.bots)
    for k in kinds:
        if k not in RATTUS_BOTS:
            raise SetupError(f"unknown bot {k!r}; choose from {', '.join(RATTUS_BOTS)}")
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        raise SetupError(f"give one bot kind, or one per seat ({players})")
    comps, custom = _custom(args.components)
    if args.record_dir is not None:
        args.record_dir.mkdir(parents=True, exist_ok=True)
    wins = [0] * players
    cubes = [0] * players
    endings = {SUPPLY: 0, CUBES_OUT: 0}
    ties = 0
    games: list[dict[str, Any]] = []
    elapsed = 0.0
    for i in range(args.games):
        seed = args.seed + i
        start = time.perf_counter()
        signed = None
        if args.secure:
            game, signed = play_secure_bots(kinds, seed)
        else:
            game, table = play_bots(kinds, seed, comps)
        elapsed += time.perf_counter() - start
        r = game.result
        assert r is not None
        names = game.config.players
        wins[r.winner] += 1
        endings[r.reason] += 1
        ties += r.tied
        for s in range(players):
            cubes[s] += r.totals[s]
        entry: dict[str, Any] = {
            "seed": seed,
            "winner": names[r.winner],
            "cubes": list(r.totals),
            "reason": r.reason,
            "tied": r.tied,
            "moves": len(game.history),
        }
        if args.record_dir is not None and signed is not None:
            path = args.record_dir / f"game-{seed}.rattus"  # the signed record: rattus verify
            path.write_bytes(signed)
            entry["record"] = str(path)
        elif args.record_dir is not None:
            path = args.record_dir / f"game-{seed}.json"
            path.write_text(RattusRecord.from_game(game, table, custom).dumps(), encoding="utf-8")
            entry["record"] = str(path)
        games.append(entry)
        if not args.json:
            totals = " ".join(f"{c:>3}" for c in r.totals)
            print(f"game {i + 1:>4} seed {seed:<6} cubes {totals}  winner: {names[r.winner]}")
    rate = args.games / elapsed if elapsed > 0 else float("inf")
    labels = [f"seat {s + 1} ({kinds[s]})" for s in range(players)]
    summary = {
        "game": "rattus",
        "players": players,
        "games": args.games,
        "bots": kinds,
        "wins": dict(zip(labels, wins, strict=True)),
        "average_cubes": {lb: c / args.games for lb, c in zip(labels, cubes, strict=True)},
        # How the games ended (rules section 4): (a) the rat supply ran out, (b) the active
        # player had all his cubes out (rare by the rules); and how often a tie decided.
        "ended_by": {
            "supply": share(endings[SUPPLY], args.games),
            "all_cubes_out": share(endings[CUBES_OUT], args.games),
        },
        "tie_rate": share(ties, args.games),
        "seconds": round(elapsed, 4),
        "games_per_second": round(rate, 1),
    }
    if args.json:
        print(json.dumps({"games": games, "summary": summary}, indent=1))
        return 0
    print(f"{args.games} game(s) of Rattus, {players} players, in {elapsed:.2f} s: {rate:.1f}/s")
    for s in range(players):
        print(
            f"  {labels[s]:<22} wins {wins[s]:>4} ({100 * wins[s] / args.games:5.1f}%)  "
            f"average cubes {cubes[s] / args.games:5.1f}"
        )
    print(
        f"  ended by (a) the rat supply running out: {endings[SUPPLY]} "
        f"({100 * share(endings[SUPPLY], args.games):.1f}%), by (b) all cubes out: "
        f"{endings[CUBES_OUT]} ({100 * share(endings[CUBES_OUT], args.games):.1f}%); "
        f"ties decided by the tie-break: {ties} ({100 * share(ties, args.games):.1f}%)"
    )
    return 0


def share(count: int, total: int) -> float:
    """``count`` out of ``total`` as a fraction (0 for no games), rounded for reports."""
    return round(count / total, 4) if total else 0.0


# --- replay -------------------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace, text: str) -> int:
    comps = load_components(getattr(args, "components", None))
    record = RattusRecord.loads(text, comps)
    if args.moves is not None and args.moves < 0:
        raise SetupError("rattus replay: --moves must be 0 or more")
    game, _ = record.replay(args.moves)
    return print_game(game, args.json)


def print_game(game: RattusGame, as_json: bool, note: str | None = None) -> int:
    """Print a replayed game's state (``note``: why only its public part was replayed)."""
    if as_json:
        out = state_dict(game)
        if note:
            out["note"] = note
        print(json.dumps(out, indent=1))
    else:
        from rattus_net.games.rattus.report import spectator_view

        if note:
            print(note)
        print(state_text(spectator_view(game)))
    return 0


# --- play in the terminal -----------------------------------------------------------------------

HELP = """\
Type a move, or: moves (list the legal moves, numbered: type a number), board, neighbours
(which regions neighbour which), help, quit.
  take CARD                    take a class card (King Knight Monk Merchant Peasant Witch)
  place REGION [peasant REGION]  place cubes (+ the Peasant's cube anywhere)
  king REGION | monk REGION SLOT REGION | merchant REGION REGION COUNT
  witch REGION SLOT REGION SLOT, then swap or keep
  plague REGION [via REGION] [knight]   move the plague piece (ends your turn)
  spread REGION [REGION] | turn SLOT | done (final round)
  at setup: place REGION REGION (your 2 start cubes)"""


def _read(stdin: IO[str], out: IO[str]) -> str:
    out.write("> ")
    out.flush()
    line = stdin.readline()
    if not line:
        raise InputEnded
    return line.strip()


def _list_moves(moves: list[Move], width: int = 96) -> str:
    """The legal moves, numbered (typing the number plays the move), wrapped to ``width``."""
    lines: list[str] = []
    line = ""
    for i, m in enumerate(moves, 1):
        entry = f"{i}. {format_move(m)}"
        if line and len(line) + 2 + len(entry) > width:
            lines.append(line)
            line = ""
        line = f"{line}  {entry}" if line else entry
    return "\n".join([*lines, line])


def play_terminal(
    players: int,
    bot_kind: str,
    seed: int | None,
    comps: Components,
    stdin: IO[str],
    out: IO[str],
    name: str = "You",
) -> RattusGame:
    """A game in the terminal: seat 0 reads moves from ``stdin``, bots play the others."""
    names = (name, *(f"Bot {i}" for i in range(1, players)))
    game = RattusGame(RattusConfig(names, comps))
    table = RattusTable(seed)
    bots: list[RattusBot | None] = [None] + [
        make_rattus_bot(bot_kind, None if seed is None else seed * 31 + s, seconds=0.5)
        for s in range(1, players)
    ]
    me = RattusView(game, 0)
    shown = 0
    out.write(f"Rattus, {players} players: you against {players - 1} {bot_kind} bot(s).\n")
    out.write("\n".join(HELP.splitlines()[:2]) + "\n")
    while not game.is_over:
        d = game.decision
        if d is None:
            table.answer(game)
            continue
        for e in me.events(shown):
            line = event_text(e, names, 0)
            if line:
                out.write(line + "\n")
        shown = len(game.log)
        bot = bots[d.player]
        if bot is not None:
            move = bot.choose(RattusView(game, d.player))
            game.apply(d.player, move)
            continue
        out.write("\n" + state_text(me, 0) + "\n")
        if d.kind is Kind.TURN:
            out.write(f"your cards: {', '.join(me.cards_of(0)) or 'none'}\n")
        while True:
            text = _read(stdin, out)
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit"):
                raise InputEnded
            if word in ("help", "?"):
                out.write(HELP + "\n")
                continue
            if word == "moves":
                out.write(_list_moves(me.legal()) + "\n")
                continue
            if word == "board":
                out.write(table_text(me) + "\n")
                continue
            if word in ("neighbours", "neighbors"):
                out.write(neighbours_text(me) + "\n")
                continue
            try:
                legal = me.legal()
                number = ascii_int(text, 1, len(legal))
                if number is not None:
                    game.apply(0, legal[number - 1])
                else:
                    game.apply(0, parse_move(text))
            except IllegalMove as exc:
                out.write(f"not allowed: {exc}\n")
                continue
            break
    for e in me.events(shown):
        line = event_text(e, names, 0)
        if line:
            out.write(line + "\n")
    out.write("\n" + state_text(me, 0) + "\n")
    return game


def cmd_play(args: argparse.Namespace) -> int:
    players = _check_players(args.players, 3)
    kind = args.bots or "heuristic"
    if kind not in RATTUS_BOTS:
        raise SetupError(f"unknown bot {kind!r}; choose from {', '.join(RATTUS_BOTS)}")
    if not getattr(args, "text", False) and sys.stdin.isatty() and sys.stdout.isatty():
        from tui.rattus.app import run_rattus

        comps, custom = _custom(args.components)
        try:
            return run_rattus(players, kind, args.seed, comps, custom)
        except ValueError as exc:
            raise SetupError(str(exc)) from None
    comps = load_components(args.components)
    try:
        play_terminal(players, kind, args.seed, comps, sys.stdin, sys.stdout)
    except InputEnded:
        print("\nrattus play: input ended; the game is abandoned", file=sys.stderr)
        return 1
    return 0
