"""What one seat may know of a Rattus game (rules section 5), and samples consistent with it.

:class:`RattusView` is what bots and the terminal table read: the public state (cubes, the
palace, class cards, the plague piece, token counts per region, which tokens carry the start
tokens' purple ring and where each token on the board came from, turned-up tokens, the size of
the rat supply and its ringed tokens) and the faces of the tokens this seat looked at with the
Witch, nothing else. :func:`determinize` samples a full game that the seat cannot tell from the
real one, for the search bot: every face the seat does not know is dealt again from the faces
it cannot rule out, ring by ring (a ringed token from the start faces, the others from the
normal faces), so every ring stays where everybody sees it.
"""

from __future__ import annotations

import random

from rattus_net.games.rattus.components import CARDS, Components, Token
from rattus_net.games.rattus.game import Decision, Phase, RattusGame, Result
from rattus_net.games.rattus.moves import Move
from rattus_net.games.rattus.rules import FROM_SETUP, legal, spread_ends_game, tell_apart
from rattus_net.kit.local import LocalTable
from rattus_net.kit.view import SeatView


class RattusView(SeatView[Decision, Result]):
    """Everything ``seat`` may know (rules section 5), read-only (the kit's view adds the
    names, the decision awaited, the end and the log)."""

    __slots__ = ()
    _game: RattusGame

    # public state
    @property
    def components(self) -> Components:
        """The map and the 49 token faces (public: printed in the rules)."""
        return self._game.config.components

    @property
    def regions(self) -> tuple[str, ...]:
        return self._game.regions

    @property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        return self._game.nbrs

    @property
    def phase(self) -> Phase:
        return self._game.phase

    @property
    def cubes(self) -> list[list[int]]:
        """Cubes per region (index) and seat."""
        return [list(c) for c in self._game.cubes]

    @property
    def palace(self) -> list[int]:
        return list(self._game.palace)

    @property
    def supply(self) -> list[int]:
        """Cubes left per seat: 20 minus those on the board and in the palace (struck cubes
        come back, ruling 4)."""
        return list(self._game.supply)

    @property
    def struck(self) -> list[int]:
        """Cubes the plague struck so far, per seat (they went back to the supply)."""
        return list(self._game.struck)

    @property
    def token_counts(self) -> list[int]:
        return [len(t) for t in self._game.tokens]

    @property
    def holders(self) -> dict[str, int | None]:
        """Who holds each class card (``None``: unclaimed)."""
        return dict(zip(CARDS, self._game.holder, strict=True))

    def cards_of(self, seat: int) -> tuple[str, ...]:
        return self._game.cards_of(seat)

    @property
    def plague(self) -> int:
        return self._game.plague

    @property
    def active(self) -> int:
        return self._game.active

    @property
    def rat_supply(self) -> int:
        return len(self._game.rat_supply)

    @property
    def supply_rings(self) -> int:
        """Ringed (start) tokens in the rat supply: a ring shows face down (ruling 5)."""
        rings = self._game.start_handles
        return sum(1 for h in self._game.rat_supply if h in rings)

    @property
    def removed(self) -> int:
        return len(self._game.removed)

    @property
    def removed_rings(self) -> int:
        """Ringed tokens among those removed at setup (they left a supply whose rings show)."""
        rings = self._game.start_handles
        return sum(1 for h in self._game.removed if h in rings)

    @property
    def turned_up(self) -> list[Token]:
        g = self._game
        return [g.token_faces[g.faces[h]] for h in g.turned]

    @property
    def turned_marks(self) -> list[tuple[bool, bool]]:
        """Per turned-up token, in order: whether it carries the purple ring and whether this
        seat had looked at it (how it was marked on the map before it was turned up)."""
        g = self._game
        seen = g.seen[self.seat]
        return [(h in g.start_handles, h in seen) for h in g.turned]

    @property
    def used(self) -> frozenset[str]:
        """Abilities the acting player used this turn."""
        return frozenset(self._game.used)

    @property
    def took(self) -> bool:
        return self._game.took

    @property
    def placed(self) -> bool:
        return self._game.placed

    @property
    def knight_region(self) -> int | None:
        return self._game.knight_region

    @property
    def end_reason(self) -> str | None:
        """Why the game will end (``SUPPLY``, ``CUBES_OUT``) once known: during the turn that
        ends it (the rat supply ran out) or at its end (all of a player's cubes out)."""
        return self._game.end_reason

    @property
    def ender(self) -> int | None:
        """The player after whose turn the game ends, once known."""
        return self._game.ender

    @property
    def final_order(self) -> tuple[int, ...]:
        return self._game.final_order

    def unseen_faces(self) -> list[Token]:
        """The faces of every token this seat has not seen (board, rat supply, removed):
        all 49 minus those turned up and those it looked at on the board."""
        g = self._game
        known = g.public | g.seen[self.seat]
        pool = list(range(len(g.token_faces)))
        for h in known:
            if h in g.faces:
                pool.remove(g.faces[h])
        return [g.token_faces[f] for f in pool]

    # private knowledge
    def tokens(self, region: int) -> list[Token | None]:
        """The tokens of a region, slot order: the face where this seat looked, else None."""
        g = self._game
        seen = g.seen[self.seat]
        faces = [g.faces.get(h) if h in seen else None for h in g.tokens[region]]
        return [None if f is None else g.token_faces[f] for f in faces]

    def rings(self, region: int) -> list[bool]:
        """Per slot of a region: whether the token carries the purple ring (public)."""
        g = self._game
        return [h in g.start_handles for h in g.tokens[region]]

    def origins(self, region: int) -> list[str]:
        """Per slot of a region: where the token came from (``rules.FROM_SETUP``,
        ``rules.FROM_SUPPLY`` or the name of the region the Monk or the Witch moved it
        from); public, since everybody saw it arrive."""
        g = self._game
        return [g.origin.get(h, FROM_SETUP) for h in g.tokens[region]]

    def spread_ends_game(self, region: int) -> bool:
        """Whether the plague striking ``region`` now would take the rat supply's last token,
        so that the game ends after this turn (public)."""
        return spread_ends_game(self._game, region)

    def tell_apart(self, region: int) -> bool:
        """Whether this seat can tell the region's face-down tokens apart (ruling 5)."""
        return tell_apart(self._game, self.seat, region)

    def legal(self) -> list[Move]:
        return legal(self._game, self.seat)


def determinize(view: RattusView, rng: random.Random) -> tuple[RattusGame, LocalTable]:
    """A full game consistent with ``view`` and a table that knows its faces.

    Faces the seat knows (turned-up tokens, its own Witch looks) stay; every other token's
    face is dealt from the faces it cannot rule out. Two games that differ only in what the
    seat cannot see give the same sample for the same ``rng`` state."""
    real = view._game
    seat = view.seat
    g = real.clone()
    known = real.public | real.seen[seat]
    g.faces = {h: f for h, f in real.faces.items() if h in known}
    for s in range(g.n):
        if s != seat:
            g.seen[s] = g.seen[s] & known
    comps = real.config.components
    start_left = list(comps.start_faces)
    normal_left = list(comps.normal_faces)
    for h, f in g.faces.items():
        (start_left if h in real.start_handles else normal_left).remove(f)
    unknown = sorted(h for h in g.all_tokens() if h not in g.faces)
    rng.shuffle(start_left)
    rng.shuffle(normal_left)
    table = LocalTable(rng.randrange(1 << 30))
    table.face_of.update(g.faces)
    for h in unknown:
        pool = start_left if h in real.start_handles else normal_left
        table.face_of[h] = pool.pop()
    return g, table
