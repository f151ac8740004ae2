"""Hints where a Rattus player decides: what a class card does, what holding it risks, and why
moving the plague onto one's own cubes deserves a second look.

The words follow the rules (shared rules reference, with its tags): section 3, "Class
abilities" [C], for what each card does; section 1, "Rat tokens" [C format], for its risk (a
struck token's class symbol costs one cube, per matching symbol, to every player with cubes in
the region who holds that card); section 3, "The plague strikes" [C], for the outbreak (a
region with at least one cube and one token turns its tokens up; a token strikes when the cubes
there reach its number). How many tokens show a symbol comes from the components file, whose
faces are reconstructed [R]: a corrected file changes the count, not the words. Computed from
the seat's view only: the tokens it has not seen are :meth:`RattusView.unseen_faces`. Pure:
the TUI shows these words, the bots never read them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rattus_net.games.rattus.components import CODE_OF
from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.moves import Plague
from rattus_net.games.rattus.view import RattusView

ABILITIES: dict[str, str] = {
    "King": "move a cube of yours from a region without tokens to the safe palace",
    "Knight": "the plague may move 2 regions; its outbreak may count 2 more cubes",
    "Monk": "move a rat token to a neighbouring region (at most 3 tokens there)",
    "Merchant": "move up to 3 of your cubes from a region to a neighbouring one",
    "Peasant": "place 1 more cube with yours, in any region, tokens or not",
    "Witch": "look at any 2 rat tokens, privately, then swap their places or not",
}
"""Each class card's ability in one line (rules section 3, "Class abilities"): once in the
holder's turn (the Knight's when the plague moves and at its outbreak)."""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class CardRisk:
    """What holding ``card`` risks, as far as the seat knows: of the ``hidden`` tokens it has
    not seen (on the board face down, in the rat supply, removed at setup), ``marked`` show
    the card's symbol, ``symbols`` times in all (a token may show it once only)."""

    card: str
    hidden: int
    marked: int


def card_risk(view: RattusView, card: str) -> CardRisk:
    """The risk of holding ``card`` from ``view``'s seat: only tokens it has not seen count
    (the turned-up ones are out of the game, a Witch's look is its own knowledge)."""
    code = CODE_OF[card]
    pool = view.unseen_faces()
    return CardRisk(card, len(pool), sum(1 for t in pool if code in t.symbols))


def card_hint(view: RattusView, card: str) -> str:
    """A class card's ability and its risk, in two sentences for the dialog that offers it."""
    risk = card_risk(view, card)
    return (
        f"{card}: {ABILITIES[card]}.\n"
        f"Risk: tokens with the {card} symbol cost you a cube in their region when they "
        f"strike, while you hold it; {risk.marked} of the {_plural(risk.hidden, 'token')} "
        "hidden from you show it."
    )


def plague_warning(view: RattusView, move: object) -> str | None:
    """Why ``move`` deserves a second Enter: it brings the plague (or, in the final round, the
    Knight's +2) onto a region with the seat's own cubes and tokens that may strike them.
    ``None`` for every other move. In the final round every region breaks out wherever the
    piece stands, so only the Knight's +2 cubes there make it worse."""
    if not isinstance(move, Plague):
        return None
    d = view.decision
    if d is not None and d.kind is Kind.FINAL and not move.knight:
        return None
    region = view.regions.index(move.to)
    mine = view.cubes[region][view.seat]
    tokens = view.token_counts[region]
    if not mine or not tokens:
        return None
    plus = " with the Knight's +2" if move.knight else ""
    return (
        f"{move.to} holds {_plural(mine, 'cube')} of yours and {_plural(tokens, 'token')}: "
        f"the outbreak there{plus} may strike you."
    )
