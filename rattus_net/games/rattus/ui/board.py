"""The map as it was a few events ago, for the end of the game told step by step.

The end of a game is told in steps (the last turn, each player's final round, the final
outbreak region by region: :mod:`.summary`), each with the map as it was at the end of that
step, not the final one. The seat's view knows only the game now, so the map of an earlier
moment is worked back from it: each event since is undone on a :class:`Board` (what the map
draws, :class:`~rattus_net.games.rattus.ui.render.Drawable`), last event first. The plague
piece is followed forward through the whole log instead (its moves say where it went, not
where it came from). Pure functions of the view and its log: no game is replayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rattus_net.games.rattus.components import Components, Token
from rattus_net.games.rattus.game import Event
from rattus_net.games.rattus.view import RattusView


@dataclass(frozen=True, slots=True)
class Slot:
    """A token on the board as the seat knows it now: its face if he looked at it, its ring;
    ``token``: which token it is (a number of the walk back, that follows it as it moves)."""

    face: Token | None
    ring: bool
    token: int


class BoardMismatch(ValueError):
    """The events do not fit the board they are undone on (a log this module does not
    know): the map of that moment cannot be worked out."""


@dataclass
class Board:
    """What the map draws of one moment (the view's names, so the map draws either)."""

    components: Components
    regions: tuple[str, ...]
    cubes: list[list[int]]
    palace: list[int]
    plague: int
    knight_region: int | None
    slots: list[list[Slot]]
    rat_supply: int
    supply_rings: int
    removed: int
    turned_up: list[Token]
    turned_marks: list[tuple[bool, bool]] = field(default_factory=list)

    @classmethod
    def of(cls, view: RattusView) -> Board:
        k = len(view.regions)
        faces = [list(zip(view.tokens(r), view.rings(r), strict=True)) for r in range(k)]
        numbers = iter(range(sum(len(f) for f in faces)))
        return cls(
            components=view.components,
            regions=view.regions,
            cubes=view.cubes,
            palace=view.palace,
            plague=view.plague,
            knight_region=view.knight_region,
            slots=[[Slot(face, ring, next(numbers)) for face, ring in f] for f in faces],
            rat_supply=view.rat_supply,
            supply_rings=view.supply_rings,
            removed=view.removed,
            turned_up=view.turned_up,
            turned_marks=view.turned_marks,
        )

    def copy(self) -> Board:
        return Board(
            self.components,
            self.regions,
            [list(c) for c in self.cubes],
            list(self.palace),
            self.plague,
            self.knight_region,
            [list(s) for s in self.slots],
            self.rat_supply,
            self.supply_rings,
            self.removed,
            list(self.turned_up),
            list(self.turned_marks),
        )

    def tokens(self, region: int) -> list[Token | None]:
        return [slot.face for slot in self.slots[region]]

    def rings(self, region: int) -> list[bool]:
        return [slot.ring for slot in self.slots[region]]

    def unseen_until(self, looks: dict[int, int], before: int) -> None:
        """Hide the faces of the tokens the seat first looked at from event ``before`` on
        (``looks``: each token's first look, by the index of its event)."""
        for tokens in self.slots:
            for i, slot in enumerate(tokens):
                if slot.face is not None and looks.get(slot.token, -1) >= before:
                    tokens[i] = Slot(None, slot.ring, slot.token)

    # --- undoing an event ---------------------------------------------------------------------

    def index(self, name: object) -> int:
        try:
            return self.regions.index(str(name))
        except ValueError:
            raise BoardMismatch(f"no region {name!r} in play") from None

    def take(self, region: int, slot: int | None = None) -> Slot:
        """The token of ``region``'s ``slot`` (0-based; the last if ``None``), taken off."""
        tokens = self.slots[region]
        if not tokens:
            raise BoardMismatch(f"no token in {self.regions[region]} to take back")
        return tokens.pop(len(tokens) - 1 if slot is None else min(slot, len(tokens) - 1))

    def cube(self, region: int, seat: int, count: int) -> None:
        """``count`` cubes of ``seat`` more in ``region`` (fewer if negative)."""
        if self.cubes[region][seat] + count < 0:
            raise BoardMismatch(f"no cube of seat {seat} in {self.regions[region]}")
        self.cubes[region][seat] += count

    def undo(self, events: Sequence[Event], i: int, looks: dict[int, int]) -> None:
        """The board as it was before event ``events[i]`` (the events before it tell the
        Witch's positions a swap exchanged, and where the seat looked: ``looks`` learns each
        token's first look, by the index of its event)."""
        e = events[i]
        d = e.data
        k = e.kind
        p = e.player
        if k == "loss" and p is not None:
            self.cube(self.index(d["region"]), p, 1)
        elif k == "place" and p is not None:
            self.cube(self.index(d["region"]), p, -int(d["count"]))
        elif k == "peasant" and p is not None:
            self.cube(self.index(d["region"]), p, -1)
        elif k == "king" and p is not None:
            if not self.palace[p]:
                raise BoardMismatch(f"no cube of seat {p} in the palace")
            self.cube(self.index(d["region"]), p, 1)
            self.palace[p] -= 1
        elif k == "merchant" and p is not None:
            count = int(d["count"])
            self.cube(self.index(d["target"]), p, -count)
            self.cube(self.index(d["source"]), p, count)
        elif k == "monk":
            moved = self.take(self.index(d["target"]))
            self.slots[self.index(d["source"])].insert(int(d["slot"]) - 1, moved)
        elif k == "swap":
            self.swap_back(events, i)
        elif k == "witch-look":
            for number in self.looked_at(events, i):
                looks[number] = i  # (walking back: the first look is the last one met)
        elif k == "spread":
            for name in reversed(d["regions"]):
                ring = self.take(self.index(name)).ring
                self.rat_supply += 1
                self.supply_rings += ring
        elif k == "turn-up":
            if not self.turned_up:
                raise BoardMismatch("no turned-up token to put back")
            face = self.turned_up.pop()
            ring, seen = self.turned_marks.pop() if self.turned_marks else (False, False)
            slot = int(d.get("slot", 1)) - 1
            number = -len(self.turned_up) - 1  # (a number no token on the board has)
            self.slots[self.index(d["region"])].insert(
                slot, Slot(face if seen else None, ring, number)
            )

    def witch_positions(self, events: Sequence[Event], i: int) -> list[tuple[int, int]]:
        """The two positions (region, 0-based slot) of the last Witch's look before
        ``events[i]``, where they lie on the board now."""
        witch = next((events[j] for j in range(i - 1, -1, -1) if events[j].kind == "witch"), None)
        if witch is None:
            raise BoardMismatch("a swap or a look with no Witch's move before it")
        out = []
        for pos in (witch.data["first"], witch.data["second"]):
            r, s = self.index(pos[0]), int(pos[1]) - 1
            if not s < len(self.slots[r]):
                raise BoardMismatch("the Witch's tokens are not there")
            out.append((r, s))
        return out

    def looked_at(self, events: Sequence[Event], i: int) -> list[int]:
        """The tokens the seat's look ``events[i]`` saw (those the Witch's move chose)."""
        return [self.slots[r][s].token for r, s in self.witch_positions(events, i)]

    def swap_back(self, events: Sequence[Event], i: int) -> None:
        """Exchange again the two tokens the last Witch's look before ``events[i]`` chose."""
        (ra, sa), (rb, sb) = self.witch_positions(events, i)
        ta, tb = self.slots[ra], self.slots[rb]
        ta[sa], tb[sb] = tb[sb], ta[sa]


def plague_at(
    view: RattusView, every: Sequence[Event], ends: Sequence[int]
) -> list[tuple[int, int | None]]:
    """Where the plague piece stood, and the Knight's +2 region, after ``every[:end]`` for
    each of ``ends``: followed forward from its start (an event says where it went)."""
    index = {name: i for i, name in enumerate(view.regions)}
    plague, knight = view.plague, None
    out: dict[int, tuple[int, int | None]] = {}
    wanted = set(ends)
    for i, e in enumerate(every):
        if i in wanted:
            out[i] = (plague, knight)
        if e.kind == "plague-start":
            plague = index.get(str(e.data["region"]), plague)
        elif e.kind == "plague":
            plague = index.get(str(e.data["to"]), plague)
            knight = plague if e.data.get("knight") else knight
        elif e.kind in ("turn", "final-round"):
            knight = None
    out[len(every)] = (view.plague, view.knight_region)
    return [out[end] for end in ends]


def boards_at(view: RattusView, start: int, ends: Sequence[int]) -> list[Board] | None:
    """The map after each ``fresh[:end]`` of ``ends`` (``fresh``: the view's events from log
    index ``start`` on), worked back from the view; ``None`` if the events do not fit. The
    walk goes on back to the game's start, to learn when the seat first looked at each token
    (a face he had not looked at yet is not shown)."""
    every = view.events(0)
    before = len(every) - len(view.events(start))
    board = Board.of(view)
    wanted = sorted({before + end for end in ends}, reverse=True)
    found: dict[int, Board] = {}
    looks: dict[int, int] = {}
    position = len(every)
    try:
        for end in wanted:
            while position > end:
                position -= 1
                board.undo(every, position, looks)
            found[end] = board.copy()
    except (BoardMismatch, KeyError, ValueError):  # (BoardMismatch is a ValueError)
        return None
    try:
        while position > 0:  # (the looks before: a mismatch there only stops the walk)
            position -= 1
            board.undo(every, position, looks)
    except (BoardMismatch, KeyError, ValueError):
        pass
    where = plague_at(view, every, [before + end for end in ends])
    out = []
    for end, (plague, knight) in zip(ends, where, strict=True):
        b = found[before + end].copy()
        b.plague, b.knight_region = plague, knight
        b.unseen_until(looks, before + end)
        out.append(b)
    return out


__all__ = ["Board", "BoardMismatch", "Slot", "boards_at", "plague_at"]
