"""Nibble as the network table plays it (``rattus_net.kit.interface.SecureGame``).

Its secrets are the nine cards: a card's face is its value (1 to 9), so each value gets a group
point. The deck is ``Shuffle``d by every peer (masked and shuffled with proofs), a dealt or
drawn card is a ``Reveal`` to its holder (decryption shares encrypted to him), the showdown a
public ``Reveal``, the starting player a commit-reveal random number. A move names no card
("draw" or "pass"), so no move has a hidden part and none is committed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.thirdgame.game import CARDS, MOVES, Move, NibbleConfig, NibbleGame
from games.thirdgame.record import GAME, PILE, NibbleRecord
from games.thirdgame.words import result_summary, summary_lines
from rattus_net.kit.errors import SetupError
from rattus_net.kit.interface import OpenedGame, SecureGame, WireError, WireValue


class NibbleSecure(SecureGame[NibbleConfig, NibbleGame, Move]):
    """Nibble behind the network table's interface (see the module docstring)."""

    name = GAME

    def face_codes(self) -> Sequence[int]:
        return CARDS

    def config_to_wire(self, config: NibbleConfig) -> dict[str, WireValue]:
        return {"players": list(config.players)}

    def config_from_wire(self, value: Mapping[str, WireValue]) -> NibbleConfig:
        players = value.get("players")
        if set(value) != {"players"} or not isinstance(players, list):
            raise WireError("Nibble's parameters are its players only")
        if not all(isinstance(p, str) for p in players):
            raise WireError("players must be a list of names")
        try:
            return NibbleConfig(tuple(str(p) for p in players))
        except SetupError as exc:
            raise WireError(f"bad game configuration: {exc}") from None

    def new_game(self, config: NibbleConfig) -> NibbleGame:
        return NibbleGame(config)

    def move_to_wire(self, move: Move, commitment: bytes | None = None) -> dict[str, WireValue]:
        if commitment is not None:
            raise ValueError("a Nibble move has no hidden part")
        return {"m": move}

    def move_from_wire(self, value: WireValue) -> tuple[Move, bytes | None]:
        if not isinstance(value, dict) or set(value) != {"m"} or not isinstance(value["m"], str):
            raise WireError("a Nibble move is a map with its text")
        for move in MOVES:  # (only the exact text: a peer sends what ``format_move`` wrote)
            if value["m"] == move:
                return move, None
        raise WireError("a Nibble move is 'draw' or 'pass'")

    def result_summary(self, game: NibbleGame) -> dict[str, Any]:
        return result_summary(game)

    def face_record(self, opened: OpenedGame) -> NibbleRecord:
        """The deck's order (from the verified shuffle), the random numbers and the moves."""
        game: NibbleGame = opened.public
        deck = dict(opened.shuffles).get(PILE)
        return NibbleRecord(
            players=game.config.players,
            deck=deck,
            randoms=list(opened.randoms),
            moves=list(game.history),
            result=result_summary(game),
        )

    def verdict_lines(
        self, checks: Mapping[str, int], result: Mapping[str, Any] | None
    ) -> list[str]:
        lines = [
            f"{checks['messages']} signed messages, {checks['shuffles_verified']} shuffle "
            f"proofs, {checks['shares_verified']} decryption-share proofs, "
            f"{checks.get('randoms', 0)} public random numbers checked"
        ]
        if result is not None:
            lines.extend(summary_lines(result))
        return lines
