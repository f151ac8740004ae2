"""The rules of Nibble, the tests' third game: a few rules on the kit's task-stack machine.

Nine cheese cards worth 1 to 9 are shuffled face down (``Shuffle``); a public random number
picks who starts (``PublicRandom``); each player is dealt two cards only he sees (``Reveal`` to
his seat). Then three rounds: in turn, from the starting player, each either draws the top
card (seen by him alone) or passes. At the end every hand is turned up (a public ``Reveal``):
a hand worth more than 15 is spoilt and scores nothing, the others score their total, and the
highest score wins (ties share the win).

The rules never see a face they are not shown: a card is a handle, and ``faces`` holds only
what this engine was shown, so the same rules run on every peer of a network table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rattus_net.kit.errors import BadChoice, MoveSyntaxError, SetupError
from rattus_net.kit.machine import Machine
from rattus_net.kit.table import Reveal, Shuffle

Move = Literal["draw", "pass"]
MOVES: tuple[Move, ...] = ("draw", "pass")
CARDS = tuple(range(1, 10))
"""The faces: one card of each value."""
HAND = 2
ROUNDS = 3
LIMIT = 15
"""A hand worth more is spoilt."""


def parse_move(text: str) -> Move:
    word = text.strip().lower()
    for move in MOVES:
        if word == move:
            return move
    raise MoveSyntaxError(f"a Nibble move is 'draw' or 'pass', not {text[:20]!r}")


def format_move(move: Move) -> str:
    return move


@dataclass(frozen=True)
class NibbleConfig:
    """The players, in seat order: the game has no options."""

    players: tuple[str, ...]

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 3:
            raise SetupError("Nibble is for 2 or 3 players")
        if len(set(self.players)) != len(self.players) or not all(self.players):
            raise SetupError("the players need different, non-empty names")


@dataclass(frozen=True)
class Turn:
    """``players[0]`` draws or passes."""

    players: tuple[int, ...]


@dataclass(frozen=True)
class Result:
    """Every hand's faces, the scores (0 for a spoilt hand) and the winners."""

    hands: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


def score(faces: tuple[int, ...]) -> int:
    total = sum(faces)
    return 0 if total > LIMIT else total


class NibbleGame(Machine[NibbleConfig, Turn, Result, Move]):
    """One game of Nibble (see the module docstring)."""

    face_range = range(1, 10)

    def __init__(self, config: NibbleConfig) -> None:
        super().__init__(config)
        self.deck: list[int] = list(self.new_handles(len(CARDS)))  # face down, top first
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.first = 0
        self.round = 0  # 1 to ROUNDS while playing
        self.active = 0
        self.over = False
        self._start((NibbleGame._t_shuffle, ()))

    @property
    def is_over(self) -> bool:
        return self.over

    # --- the flow ---------------------------------------------------------------------------

    def _t_shuffle(self) -> None:
        self.pending = Shuffle("deck", CARDS, tuple(self.deck))
        self._then(
            (NibbleGame._t_ask_random, (self.n, "starting player")),
            (NibbleGame._t_deal, ()),
        )

    def _t_deal(self) -> None:
        self.first = self._random
        self.emit("start", self.first)
        tasks = [(NibbleGame._t_give, (s, HAND)) for s in self.seats_from(self.first)]
        self._then(*tasks, (NibbleGame._t_round, (1,)))

    def _t_give(self, seat: int, count: int) -> None:
        cards, self.deck = self.deck[:count], self.deck[count:]
        self.hands[seat].extend(cards)
        self.emit("dealt", seat, count=count)
        self.pending = Reveal(tuple(cards), seat)

    def _t_round(self, number: int) -> None:
        if number > ROUNDS:
            self._then((NibbleGame._t_show, ()))
            return
        self.round = number
        self.emit("round", None, number=number)
        turns = [(NibbleGame._t_turn, (s,)) for s in self.seats_from(self.first)]
        self._then(*turns, (NibbleGame._t_round, (number + 1,)))

    def _t_turn(self, seat: int) -> None:
        self.active = seat
        self.pending = Turn((seat,))

    def _t_show(self) -> None:
        self.pending = Reveal(tuple(h for hand in self.hands for h in hand), None)
        self._then((NibbleGame._t_end, ()))

    def _t_end(self) -> None:
        hands = tuple(tuple(self.faces[h] for h in hand) for hand in self.hands)
        scores = tuple(score(hand) for hand in hands)
        best = max(scores)
        winners = tuple(s for s in range(self.n) if scores[s] == best)
        self.result = Result(hands, scores, winners)
        self.over = True
        self.emit("end", None, hands=hands, scores=scores, winners=winners)

    # --- moves ------------------------------------------------------------------------------

    def legal(self, seat: int) -> list[Move]:
        d = self.decision
        if d is None or seat not in d.players:
            return []
        return ["draw", "pass"] if self.deck else ["pass"]

    def _apply(self, d: Turn, player: int, move: Move) -> Move:
        if move not in self.legal(player):
            raise BadChoice(f"{move!r} is not a legal move now ({', '.join(self.legal(player))})")
        self.pending = None
        self.emit(move, player)
        if move == "draw":
            self._then((NibbleGame._t_give, (player, 1)))
        return move

    def seats_from(self, first: int) -> list[int]:
        return [(first + i) % self.n for i in range(self.n)]
