"""Rattus as the network table plays it (``rattus_net.games.base.SecureGame``).

Its secrets are the rat tokens: a token's face is its index in the components' 49 tokens, so
each of the 49 faces gets a group point. The start tokens and the rat supply are ``Shuffle``d
(masked and shuffled by every peer with proofs); a token on the board stays a face-down
handle; a Witch's look is ``Reveal(handles, to=seat)`` (shares encrypted to her holder); an
outbreak turns tokens up with a public ``Reveal``; the tokens removed at setup are never
revealed, so they stay unknown until the peers publish their keys after the game. Every
Rattus move is public (it names regions and slots, never a face), so no move has a hidden
part and no decision is committed.

A network table plays the shipped components: the parameters carry their fingerprint, so
peers whose components differ refuse the table instead of playing two different games.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from rattus_net.engine.errors import RattusError
from rattus_net.games.base import OpenedGame, SecureGame, WireError, WireValue
from rattus_net.games.rattus.components import Components
from rattus_net.games.rattus.game import RattusConfig, RattusGame
from rattus_net.games.rattus.loader import default_components
from rattus_net.games.rattus.moves import Move, MoveSyntaxError, format_move, parse_move
from rattus_net.games.rattus.person import Persons
from rattus_net.games.rattus.record import PILES, RattusRecord, result_summary, summary_result
from rattus_net.games.rattus.report import result_text

TOKENS = 49
MAX_MOVE_TEXT = 200
RULES = 2
"""The version of the rules a table plays, in its parameters (so in the game id): 2 since
struck cubes go back to the supply and the end and the tie-break changed (issue 19). A table
or a signed record of another version is refused in one line."""


def fingerprint(comps: Components) -> str:
    """A hash of everything in the components that the rules read (map and tokens)."""
    parts = [
        "regions=" + ",".join(comps.regions),
        *(f"group {n}=" + ",".join(comps.groups[n]) for n in sorted(comps.groups)),
        *(
            f"nbrs {r}=" + ",".join(f"{o}{'~' if sea else ''}" for o, sea in comps.neighbours[r])
            for r in sorted(comps.neighbours)
        ),
        "tokens=" + ",".join(("*" if t.start else "") + t.text() for t in comps.tokens),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


class RattusSecure(SecureGame):
    """Rattus behind the network table's interface (see the module docstring)."""

    name = "rattus"

    def face_codes(self) -> Sequence[int]:
        return range(TOKENS)

    def config_to_wire(self, config: RattusConfig) -> dict[str, WireValue]:
        if fingerprint(config.components) != fingerprint(default_components()):
            raise ValueError("a network table plays the shipped components only")
        return {
            "players": list(config.players),
            "components": fingerprint(config.components),
            "rules": RULES,
        }

    def config_from_wire(self, value: Mapping[str, WireValue]) -> RattusConfig:
        if set(value) == {"players", "components"}:  # written before the rules had a version
            raise WireError(
                "this Rattus game was played under the old rules (struck cubes left the game): "
                f"this program plays rules version {RULES} only"
            )
        if set(value) != {"players", "components", "rules"}:
            raise WireError("the Rattus options are not the agreed keys")
        if value["rules"] != RULES or isinstance(value["rules"], bool):
            raise WireError(
                f"this Rattus game plays rules version {str(value['rules'])[:20]}; this "
                f"program plays version {RULES}"
            )
        players = value["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise WireError("players must be a list of names")
        comps = default_components()
        if value["components"] != fingerprint(comps):
            raise WireError(
                "the table plays other Rattus components than this program's (another "
                "version of Rattus Net?)"
            )
        try:
            return RattusConfig(tuple(str(p) for p in players), comps)
        except RattusError as exc:
            raise WireError(f"bad game configuration: {exc}") from None

    def new_game(self, config: RattusConfig) -> RattusGame:
        return RattusGame(config)

    def move_to_wire(self, move: Move, commitment: bytes | None = None) -> dict[str, WireValue]:
        if commitment is not None:
            raise ValueError("a Rattus move has no hidden part")
        return {"m": format_move(move)}

    def move_from_wire(self, value: WireValue) -> tuple[Move, bytes | None]:
        if not isinstance(value, dict) or set(value) != {"m"}:
            raise WireError("a Rattus move is a map with its text")
        text = value["m"]
        if not isinstance(text, str) or not 0 < len(text) <= MAX_MOVE_TEXT:
            raise WireError("a Rattus move's text must be a short string")
        try:
            return parse_move(text), None
        except MoveSyntaxError as exc:
            raise WireError(f"not a Rattus move: {exc}") from None

    def result_summary(self, game: RattusGame) -> dict[str, Any]:
        return result_summary(game)

    def face_replay(self, opened: OpenedGame) -> tuple[RattusRecord, dict[str, Any]]:
        rec = face_record(opened)
        game, _ = rec.replay()
        return rec, result_summary(game)

    def verdict_lines(
        self, checks: Mapping[str, int], result: Mapping[str, Any] | None
    ) -> list[str]:
        """No hand is mixed and nothing is drawn like Rattus Cartus's buildings, so those
        counts are left out; the public random numbers (commit-reveal rounds) are counted."""
        lines = [
            f"{checks['messages']} signed messages, {checks['shuffles_verified']} shuffle "
            f"proofs, {checks['shares_verified']} decryption-share proofs checked"
        ]
        if checks.get("randoms"):
            lines.append(
                f"{checks['randoms']} public random numbers (commit-reveal rounds) checked"
            )
        if result is not None:
            lines.extend(result_lines(result))
        return lines


def result_lines(result: Mapping[str, Any]) -> list[str]:
    """The result of a record (``result_summary``) as a player reads it: why the game ended
    and after whose turn, the final round's order, each player's cubes on the board and in the
    palace, the winner and, if the most cubes were tied, the tie-break order that decided
    (rules section 4: from the ender's left, the ender last)."""
    r, names = summary_result(result)
    return result_text(r, Persons(names))


def face_record(opened: OpenedGame) -> RattusRecord:
    """The face-level record of a finished, verified secure game: the token order of both
    shuffles, the public random numbers and every move."""
    g: RattusGame = opened.public
    config: RattusConfig = opened.config
    order = {pile: faces for pile, faces in opened.shuffles if pile in PILES}
    return RattusRecord(
        players=config.players,
        components=config.components,
        order=order,
        randoms=list(opened.randoms),
        moves=list(g.history),
        result=result_summary(g),
    )
