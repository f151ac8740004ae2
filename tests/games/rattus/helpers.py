"""Helpers for the Rattus engine tests: set up a game, then arrange a situation by hand.

The engine never knows a face it was not told, so a test chooses a token's face by telling
the local table (``table.face_of``) what the handle will show when it is turned up.
"""

from __future__ import annotations

from rattus_net.games.rattus.components import CARDS
from rattus_net.games.rattus.game import Kind, RattusConfig, RattusGame
from rattus_net.games.rattus.loader import default_components
from rattus_net.games.rattus.moves import StartPlace
from rattus_net.games.rattus.rules import FROM_SUPPLY, legal
from rattus_net.kit.local import LocalTable
from rattus_net.kit.registry import get_game
from rattus_net.selfplay import play_game

COMPS = default_components()


def new_game(n: int = 2, seed: int = 0) -> tuple[RattusGame, LocalTable]:
    """A game with its table answered up to the first start placement."""
    game = RattusGame(RattusConfig(RattusConfig.default_names(n), COMPS))
    table = LocalTable(seed)
    table.settle(game)
    return game, table


def after_setup(n: int = 2, seed: int = 0) -> tuple[RattusGame, LocalTable]:
    """A game whose start cubes are placed (each in the first two regions): first turn."""
    game, table = new_game(n, seed)
    while game.decision is not None and game.decision.kind is Kind.START:
        game.apply(game.decision.player, StartPlace((game.regions[0], game.regions[1])))
        table.settle(game)
    return game, table


def play_bots(kinds: list[str], seed: int) -> tuple[RattusGame, LocalTable]:
    """A whole seeded game between bots of ``kinds`` (seat order), as ``rattus selfplay``
    plays it: the finished game and its local table."""
    played = play_game(get_game("rattus"), len(kinds), seed, kinds, {})
    assert isinstance(played.table, LocalTable)
    return played.game, played.table


def face_id(text: str, start: bool = False) -> int:
    return next(i for i, t in enumerate(COMPS.tokens) if t.text() == text and t.start == start)


def empty_board(game: RattusGame) -> None:
    """No cubes and no tokens on the board: tokens go back under the rat supply."""
    for r in range(game.k):
        game.rat_supply[:0] = game.tokens[r]
        game.tokens[r] = []
        for s in range(game.n):
            game.supply[s] += game.cubes[r][s]
            game.cubes[r][s] = 0


def on_empty_board(n: int = 2, seed: int = 0) -> tuple[RattusGame, LocalTable, int]:
    """:func:`after_setup` with :func:`empty_board`: the game, its table, and the player whose
    first turn it is (each test then puts only what it needs on the board)."""
    game, table = after_setup(n, seed)
    p = turn_player(game)
    empty_board(game)
    return game, table, p


def put(
    game: RattusGame, table: LocalTable, region: str, *faces: str, ring: bool | None = None
) -> list[int]:
    """Put tokens of the given faces (face down) on ``region``, taken from the rat supply's
    bottom (``ring``: only tokens with, or without, the start tokens' ring); returns their
    handles. They count as spread there from the supply."""
    r = game.region(region)
    out = []
    for text in faces:
        h = next(x for x in game.rat_supply if ring is None or (x in game.start_handles) == ring)
        game.rat_supply.remove(h)
        game.origin[h] = FROM_SUPPLY
        start = h in game.start_handles
        table.face_of[h] = (
            face_id(text, start) if _exists(text, start) else face_id(text, not start)
        )
        game.tokens[r].append(h)
        out.append(h)
    return out


def _exists(text: str, start: bool) -> bool:
    return any(t.text() == text and t.start == start for t in COMPS.tokens)


def cubes(game: RattusGame, region: str, *counts: int) -> None:
    """Set the cubes of every seat in ``region`` (taken from or returned to their supply)."""
    r = game.region(region)
    for s, c in enumerate(counts):
        game.supply[s] += game.cubes[r][s] - c
        game.cubes[r][s] = c


def seat_cubes(game: RattusGame, region: str, counts: dict[int, int]) -> None:
    """:func:`cubes` for the seats of ``counts`` (seat -> cubes); every other seat has none
    there."""
    cubes(game, region, *(counts.get(s, 0) for s in range(game.n)))


def give(game: RattusGame, seat: int, *cards: str) -> None:
    for c in cards:
        game.holder[CARDS.index(c)] = seat


def seat_total(game: RattusGame, s: int) -> int:
    """Cubes on the board, in the palace and left: always 20 (struck cubes come back)."""
    on_board = sum(game.cubes[r][s] for r in range(game.k))
    return on_board + game.palace[s] + game.supply[s]


def leave(game: RattusGame, seat: int, left: int) -> None:
    """``seat`` keeps ``left`` cubes; the others go to the palace (out of the way: safe, and
    on the board for the end (b) and the score)."""
    game.palace[seat] += game.supply[seat] - left
    game.supply[seat] = left


def resolve(game: RattusGame, table: LocalTable) -> None:
    """Answer the table and take the first choice of spread and turn-up decisions, until a
    turn, setup, swap or final-round decision (or the end)."""
    while True:
        table.settle(game)
        d = game.decision
        if d is None or d.kind not in (Kind.SPREAD, Kind.TURN_UP):
            return
        game.apply(d.player, legal(game, d.player)[0])


def snapshot(game: RattusGame) -> tuple[object, ...]:
    """Everything a move could change."""
    return (
        [list(t) for t in game.tokens],
        [list(c) for c in game.cubes],
        list(game.palace),
        list(game.supply),
        list(game.struck),
        list(game.rat_supply),
        list(game.turned),
        list(game.holder),
        game.plague,
        game.took,
        game.placed,
        sorted(game.used),
        game.pending,
        len(game.log),
        len(game.history),
        dict(game.faces),
        game.knight_region,
    )


def turn_player(game: RattusGame) -> int:
    d = game.decision
    assert d is not None and d.kind is Kind.TURN
    return d.player
