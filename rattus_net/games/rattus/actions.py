"""Rattus's moves as fixed action numbers (for OpenSpiel: ``rattus_net/openspiel``).

Every move of Rattus is one action: the numbers list, once, every move the rules can ever
offer on the configuration's map (its regions, in the components' order), kind by kind: the
start placements, the class cards, placements (with the Peasant's cube), the King, Monk,
Merchant and Witch abilities, swap and keep, the plague's moves, the spreads, the turn-ups and
``done``. Region names, slots and counts are within the rules' bounds (three tokens a region,
a Merchant moves at most three cubes, a spread lays at most two tokens), so the list is a few
thousand moves on the shipped map, and the same list for every game on that map.
"""

from __future__ import annotations

from rattus_net.games.rattus import moves as mv
from rattus_net.games.rattus.components import CARDS
from rattus_net.games.rattus.moves import format_move
from rattus_net.games.rattus.rules import MAX_TOKENS, MERCHANT_MAX
from rattus_net.games.rattus.view import RattusView

MAX_SPREAD = 2


def every_move(regions: tuple[str, ...]) -> list[mv.Move]:
    """Every move the rules can offer on a map of ``regions``, in a fixed order."""
    rs = regions
    opt: list[str | None] = [None, *rs]
    slots = range(1, MAX_TOKENS + 1)
    out: list[mv.Move] = [mv.StartPlace((a, b)) for a in rs for b in rs]
    out += [mv.Take(c) for c in CARDS]
    out += [mv.Place(r, e) for r in opt for e in opt if (r, e) != (None, None)]
    out += [mv.King(r) for r in rs]
    out += [mv.Monk(a, s, b) for a in rs for s in slots for b in rs]
    out += [mv.Merchant(a, b, c) for a in rs for b in rs for c in range(1, MERCHANT_MAX + 1)]
    out += [mv.Witch((a, s), (b, t)) for a in rs for s in slots for b in rs for t in slots]
    out += [mv.Swap(False), mv.Swap(True)]
    out += [mv.Plague(to, via, k) for to in rs for via in opt for k in (False, True)]
    spreads: list[tuple[str, ...]] = [()]
    spreads += [(a,) for a in rs]
    spreads += [(a, b) for a in rs for b in rs]
    assert MAX_SPREAD == 2
    out += [mv.Spread(s) for s in spreads]
    out += [mv.TurnUp(s) for s in slots]
    out.append(mv.Done())
    return out


class RattusCodec:
    """The action numbers of Rattus on one map."""

    def __init__(self, regions: tuple[str, ...]) -> None:
        self.moves = every_move(regions)
        self.index = {m: i for i, m in enumerate(self.moves)}
        self.num_actions = len(self.moves)

    def spell(self, move: mv.Move) -> tuple[int, ...]:
        try:
            return (self.index[move],)
        except KeyError:
            raise ValueError(f"no action number for {format_move(move)!r}") from None

    def next_actions(self, view: RattusView, prefix: tuple[int, ...]) -> list[int]:
        return sorted(self.spell(m)[0] for m in view.legal())

    def move_of(self, view: RattusView, prefix: tuple[int, ...]) -> mv.Move | None:
        return self.moves[prefix[-1]]

    def action_name(self, action: int) -> str:
        return format_move(self.moves[action])


_CODECS: dict[tuple[str, ...], RattusCodec] = {}


def make_codec(view: RattusView) -> RattusCodec:
    """The codec of the map ``view``'s game is played on."""
    regions = tuple(view.regions)
    codec = _CODECS.get(regions)
    if codec is None:
        codec = _CODECS[regions] = RattusCodec(regions)
    return codec
