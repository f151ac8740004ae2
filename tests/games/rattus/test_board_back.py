"""The map of an earlier moment worked back from the view now (the end of the game told step
by step shows each step's map): undoing the events since gives the board as it was."""

from __future__ import annotations

import random
from dataclasses import fields

from rattus_net.games.rattus.game import RattusConfig, RattusGame
from rattus_net.games.rattus.loader import default_components
from rattus_net.games.rattus.moves import Move
from rattus_net.games.rattus.ui.board import Board, boards_at
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end

COMPS = default_components()


def drawn(board: Board) -> dict[str, object]:
    """What the map draws of a board (not the numbers the walk back gives the tokens)."""
    out = {f.name: getattr(board, f.name) for f in fields(board) if f.name != "components"}
    out["slots"] = [
        list(zip(board.tokens(r), board.rings(r), strict=True)) for r in range(len(board.slots))
    ]
    return out


Seen = list[tuple[int, list[dict[str, object]]]]


def played(seed: int) -> tuple[RattusGame, Seen]:
    """A random game at 2-4 players and, between any two of its actions, the log's size and
    each seat's board then."""
    n = 2 + seed % 3
    game = RattusGame(RattusConfig(RattusConfig.default_names(n), COMPS))
    rng = random.Random(seed)
    seen: Seen = []

    def snap(g: RattusGame) -> bool:
        seen.append((len(g.log), [drawn(Board.of(RattusView(g, s))) for s in range(n)]))
        return False

    def choose(g: RattusGame, seat: int) -> Move:
        moves = RattusView(g, seat).legal()
        return moves[rng.randrange(len(moves))]

    play_to_end(game, LocalTable(seed), choose, until=snap)
    snap(game)
    return game, seen


def test_boards_worked_back_match_the_boards_seen_then() -> None:
    """Over random games at 2-4 players (every ability used now and then), the board worked
    back from the game's end to any moment between two actions is the board seen then, for
    every seat (what the Witch showed him only once he looked); the second half of the game
    is undone."""
    kinds: set[str] = set()
    compared = 0
    for seed in range(9):
        game, seen = played(seed)
        start = seen[len(seen) // 2][0]
        kinds |= {e.kind for e in game.log[start:]}
        for seat in range(game.n):
            view = RattusView(game, seat)
            ends = []
            wanted = []
            for size, boards in seen:
                if size >= start:
                    shown = game.log[start:size]
                    ends.append(sum(e.private_to in (None, seat) for e in shown))
                    wanted.append(boards[seat])
            got = boards_at(view, start, ends)
            assert got is not None
            for board, want in zip(got, wanted, strict=True):
                assert drawn(board) == want
                compared += 1
    assert {"loss", "turn-up", "spread", "plague", "monk", "swap", "merchant", "king"} <= kinds
    assert {"witch-look", "final-outbreak"} <= kinds
    assert compared > 1000
