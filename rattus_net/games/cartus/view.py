"""What one player may know (rules section 8), and nothing more.

Bots and the TUI read a :class:`PlayerView`, never the game. A view is a thin window on the live
game: each property computes its answer when asked, from public state plus this seat's own
secrets (its hand, the nun-row positions it looked at, its face-down cards, the cards it gave
away or saw taken from the supply). Nothing here exposes a card handle or a face the seat is not
entitled to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.choices import ChoiceSpace, legal_choices
from rattus_net.games.cartus.scoring import Result
from rattus_net.games.cartus.state import Decision, Phase
from rattus_net.kit.view import SeatView

if TYPE_CHECKING:
    from rattus_net.games.cartus.game import Game


class PlayerView(SeatView[Decision, Result]):
    """The game as seen from ``seat`` (the kit's view adds its names, the decision awaited,
    the end and its log)."""

    __slots__ = ()
    _game: Game

    # --- public -------------------------------------------------------------------------------

    @property
    def colours(self) -> tuple[str, ...]:
        """Each seat's disc colour (the lobby's choice, else the colours in seat order)."""
        return self._game.config.colours or D.COLOURS[: self._game.n]

    @property
    def round(self) -> int:
        return self._game.round

    @property
    def rounds(self) -> int:
        return self._game.plan.rounds

    @property
    def phase(self) -> Phase:
        return self._game.phase

    @property
    def last_round(self) -> bool:
        return self._game.last_round

    @property
    def start_player(self) -> int:
        return self._game.start_player

    @property
    def row(self) -> list[int]:
        """Building card faces of this round's row."""
        g = self._game
        return [g.faces[h] for h in g.row]

    @property
    def occupants(self) -> list[list[tuple[int, int]]]:
        """Per row building, (seat, cards laid) in entry order (space 1 first)."""
        g = self._game
        # A peer that has not seen a player's face-down cards knows only how many they are.
        return [[(s, len(g.laid[s]) + g.hidden[s]) for s in seats] for seats in g.entry_order]

    @property
    def entered(self) -> list[int]:
        """Row index each seat entered this round, -1 if not yet."""
        return list(self._game.entered)

    @property
    def influence(self) -> list[list[int]]:
        return [list(r) for r in self._game.influence]

    def standing(self, klass: int) -> list[int]:
        return self._game.standing(klass)

    @property
    def rats(self) -> list[int]:
        return list(self._game.rats)

    @property
    def vp_tokens(self) -> list[int]:
        return list(self._game.vp)

    @property
    def hand_sizes(self) -> list[int]:
        g = self._game
        return [g.hand_size(s) for s in range(g.n)]

    @property
    def supply(self) -> dict[int, int]:
        """Cards left in each supply pile."""
        return {f: len(p) for f, p in self._game.supply.items()}

    @property
    def deck_size(self) -> int:
        return len(self._game.deck)

    @property
    def discard_pile(self) -> list[int]:
        """Faces of the population discard pile (face up)."""
        g = self._game
        return [g.faces[h] for h in g.discard]

    @property
    def building_deck_size(self) -> int:
        return len(self._game.building_deck)

    @property
    def buildings_in_game(self) -> tuple[int, ...]:
        return self._game.buildings_in_game

    @property
    def queue(self) -> list[int]:
        """Phase C: seats that have not entered yet, the one to act first."""
        return list(self._game.queue)

    # --- private to this seat -----------------------------------------------------------------

    @property
    def hand(self) -> list[int]:
        """This seat's hand, faces sorted."""
        g = self._game
        # (a public engine, replayed from a network record that stopped, knows no hand)
        return sorted(g.faces[h] for h in g.hands[self.seat] if h in g.faces)

    @property
    def laid(self) -> list[int]:
        """The faces this seat laid face down this round."""
        g = self._game
        return sorted(g.faces[h] for h in g.laid[self.seat] if h in g.faces)

    @property
    def nun_row_known(self) -> dict[int, int]:
        """Nun-row position -> face, for the positions this seat has seen."""
        g = self._game
        seen = g.seen[self.seat]
        return {
            i: g.faces[h]
            for i, h in enumerate(g.nun_row)
            if (h in seen or h in g.public) and h in g.faces
        }

    @property
    def known_in_hands(self) -> dict[int, list[int]]:
        """Per other seat, the faces in his hand this seat knows for sure."""
        g = self._game
        tracked = g.tracked[self.seat]
        out: dict[int, list[int]] = {}
        for s in range(g.n):
            if s != self.seat:
                out[s] = sorted(g.faces[h] for h in g.hands[s] if h in tracked)
        return out

    @property
    def supply_choice(self) -> object:
        """This seat's own hidden choice while simultaneous supplies are collected."""
        return self._game.supply_choices[self.seat]

    def legal(self) -> ChoiceSpace:
        """This seat's legal choices now (empty if it need not act)."""
        return legal_choices(self._game, self.seat)

    def nuns_seen(self) -> int:
        return sum(D.face_nuns(f) for f in self.nun_row_known.values())
