"""Rattus on a plain-text table: ``rattus play --game rattus --text`` (or outside a terminal).

Seat 0 types its moves (or their numbers in the list ``moves`` prints); bots play the other
seats. Reads and writes the streams it is given, nothing else: standard input ending is an
``EOFError`` (the command says the game is abandoned).
"""

from __future__ import annotations

from typing import IO

from rattus_net.games.rattus.components import Components
from rattus_net.games.rattus.game import Kind, RattusConfig, RattusGame
from rattus_net.games.rattus.moves import Move, format_move, parse_move
from rattus_net.games.rattus.report import event_text, neighbours_text, state_text, table_text
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.errors import IllegalMove, MoveSyntaxError
from rattus_net.kit.interface import Budget
from rattus_net.kit.local import LocalTable
from rattus_net.kit.numbers import ascii_int
from rattus_net.kit.play import play_to_end

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
        raise EOFError
    return line.strip()


def list_moves(moves: list[Move], width: int = 96) -> str:
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
    from rattus_net.games.rattus.bots import RattusBot, make_bot

    names = (name, *(f"Bot {i}" for i in range(1, players)))
    game = RattusGame(RattusConfig(names, comps))
    table = LocalTable(seed)
    bots: list[RattusBot | None] = [None] + [
        make_bot(bot_kind, None if seed is None else seed * 31 + s, Budget(seconds=0.5))
        for s in range(1, players)
    ]
    me = RattusView(game, 0)
    shown = 0

    def tell() -> None:
        nonlocal shown
        for e in me.events(shown):
            line = event_text(e, names, 0)
            if line:
                out.write(line + "\n")
        shown = len(game.log)

    def choose(_: RattusGame, seat: int) -> Move:
        tell()
        bot = bots[seat]
        if bot is not None:
            return bot.choose(RattusView(game, seat))
        out.write("\n" + state_text(me, 0) + "\n")
        d = game.decision
        if d is not None and d.kind is Kind.TURN:
            out.write(f"your cards: {', '.join(me.cards_of(0)) or 'none'}\n")
        return _human_move(game, me, stdin, out)

    out.write(f"Rattus, {players} players: you against {players - 1} {bot_kind} bot(s).\n")
    out.write("\n".join(HELP.splitlines()[:2]) + "\n")
    play_to_end(game, table, choose)
    tell()
    out.write("\n" + state_text(me, 0) + "\n")
    return game


def _human_move(game: RattusGame, me: RattusView, stdin: IO[str], out: IO[str]) -> Move:
    """Read lines until one is a legal move of seat 0 (tried on a copy of the game)."""
    while True:
        text = _read(stdin, out)
        if not text:
            continue
        word = text.lower()
        if word in ("quit", "exit"):
            raise EOFError
        if word in ("help", "?"):
            out.write(HELP + "\n")
            continue
        if word == "moves":
            out.write(list_moves(me.legal()) + "\n")
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
            move = legal[number - 1] if number is not None else parse_move(text)
            game.clone().apply(0, move)  # (the rules say whether it may be played)
        except (IllegalMove, MoveSyntaxError) as exc:
            out.write(f"not allowed: {exc}\n")
            continue
        return move
