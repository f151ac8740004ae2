"""A game's words at a network table: its log in sentences, the decision awaited, its pieces.

:class:`~rattus_net.net.netgame.NetworkGame` serves any game of the family; what it says of a
game comes from that game's side through :class:`TableWords` (``rattus_net.kit.interface``).
Each game has default words (``GameDefinition.table_words``, built from its own narration);
a front end may put richer words in their place (the TUI's Rattus map tells outbreaks step by
step with words of its own). Every name a :class:`TableWords` gets is already made safe
to show.
"""

from __future__ import annotations

from collections.abc import Sequence

from rattus_net.kit.interface import TableWords
from rattus_net.kit.registry import get_game


def table_words(game: str, names: Sequence[str], seat: int) -> TableWords:
    """The default words of ``game`` (a registered game's name)."""
    return get_game(game).table_words(names, seat)


__all__ = ["TableWords", "table_words"]
