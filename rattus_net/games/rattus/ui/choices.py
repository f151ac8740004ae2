"""Every Rattus decision as a short path of choices, built from the legal moves only.

A dialog walks the path step by step: at each step it offers the distinct next choices of
the legal moves that agree with what was chosen so far, so only legal options are ever shown
(regions with tokens for cubes, neighbours for the plague, free room for the Monk...). A move
whose two parts may be chosen in either order (start cubes, the Witch's two tokens, two
spread tokens) is reachable both ways. No Textual here: :class:`ChoiceTree` is tested alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.hints import card_hint
from rattus_net.games.rattus.moves import (
    Done,
    King,
    Merchant,
    Monk,
    Move,
    Place,
    Plague,
    Spread,
    StartPlace,
    Swap,
    Take,
    TurnUp,
    Witch,
)
from rattus_net.games.rattus.report import origin_text
from rattus_net.games.rattus.ui.narrate import clean, decision_region, plural
from rattus_net.games.rattus.ui.render import letter
from rattus_net.games.rattus.view import RattusView


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a step: its words, the regions (indexes) to show on the map, and what
    helps to decide while the cursor is on it (a class card's ability and risk)."""

    label: str
    regions: tuple[int, ...] = ()
    hint: str = ""


Path = tuple[Choice, ...]

TOP = {
    Take: "Take a class card",
    Place: "Place cubes",
    King: "King: move a cube of yours to the palace",
    Monk: "Monk: move a rat token to a neighbouring region",
    Merchant: "Merchant: move up to 3 of your cubes to a neighbouring region",
    Witch: "Witch: look at 2 tokens (then swap them or not)",
    Plague: "Move the plague piece (ends your turn)",
    Done: "Done: no more abilities",
}
FINAL_KNIGHT = "Knight: move the plague piece up to 2 regions, or count 2 more cubes"


class Paths:
    """Builds the choice paths of a view's legal moves."""

    def __init__(self, view: RattusView) -> None:
        self.view = view
        self.index = {name: i for i, name in enumerate(view.regions)}
        self.moves = view.legal()
        self.vias: dict[str, list[str]] = {}
        """Per region two steps away: the regions the Knight's move passes to reach it."""

    def r(self, name: str | None) -> tuple[int, ...]:
        return () if name is None else (self.index[name],)

    def region(self, name: str, words: str = "") -> Choice:
        return Choice(f"{name}{words}", self.r(name))

    def token(self, name: str, slot: int) -> Choice:
        """``Gallia token 2 (ringed, from the rat supply)``: what tells it apart (a look,
        the ring, where it came from; rulings 1 and 5)."""
        r = self.index[name]
        face = self.view.tokens(r)[slot - 1]
        if face is not None:
            what = f"you saw [{face.words()}]"
        else:
            what = "ringed" if self.view.rings(r)[slot - 1] else "plain"
        where = origin_text(self.view.origins(r)[slot - 1])
        return Choice(f"{name} token {slot} ({what}, {where})", self.r(name))

    def tokens_there(self, name: str) -> str:
        count = self.view.token_counts[self.index[name]]
        return f" ({plural(count, 'token')} there now)"

    def contents(self, name: str) -> str:
        """`` (2 tokens; R2 Y1)``: what an outbreak there would strike."""
        i = self.index[name]
        cubes = (
            " ".join(f"{letter(s)}{c}" for s, c in enumerate(self.view.cubes[i]) if c) or "no cubes"
        )
        return f" ({plural(self.view.token_counts[i], 'token')}; {cubes})"

    def cubes_here(self, name: str) -> str:
        mine = self.view.cubes[self.index[name]][self.view.seat]
        return f" (you have {mine} there)"

    def all(self) -> list[tuple[Path, Move]]:
        out: list[tuple[Path, Move]] = []
        moves = self.one_route(self.moves)
        knight_variants = {(m.to, m.via) for m in moves if isinstance(m, Plague) and m.knight}
        peasant_at = {m.region for m in moves if isinstance(m, Place) and m.extra is not None}
        for m in moves:
            out += [(p, m) for p in self.paths(m, knight_variants, peasant_at)]
        return out

    def one_route(self, moves: list[Move]) -> list[Move]:
        """The moves with one route of the plague piece per destination: the Knight's two
        steps end where the piece strikes, whichever region it passes (nothing happens
        there), so a destination is one row; a neighbour goes straight, a region two steps
        away through the first region that leads there (``vias`` says which all do)."""
        direct = {m.to for m in moves if isinstance(m, Plague) and m.via is None}
        route: dict[str, str | None] = {}
        out: list[Move] = []
        for m in moves:
            if not isinstance(m, Plague):
                out.append(m)
                continue
            if m.to not in direct and m.via is not None:
                vias = self.vias.setdefault(m.to, [])
                if m.via not in vias:
                    vias.append(m.via)
            chosen = route.setdefault(m.to, None if m.to in direct else m.via)
            if m.via == chosen:
                out.append(m)
        return out

    def paths(
        self,
        m: Move,
        knight_variants: set[tuple[str, str | None]],
        peasant_at: set[str | None],
    ) -> list[Path]:
        view = self.view
        top = Choice(TOP.get(type(m), ""))
        d = view.decision
        if isinstance(m, Plague) and d is not None and d.kind is Kind.FINAL:
            top = Choice(FINAL_KNIGHT)
        if isinstance(m, StartPlace):
            a, b = m.regions
            first = [(a, b)] if a == b else [(a, b), (b, a)]
            return [
                (self.region(x, " (1st cube)"), self.region(y, " (2nd cube)")) for x, y in first
            ]
        if isinstance(m, Swap):
            return [(Choice("Swap the two tokens" if m.swap else "Keep them where they are"),)]
        if isinstance(m, Spread):
            if len(m.regions) == 1 or m.regions[0] == m.regions[1]:
                both = " both tokens" if len(m.regions) == 2 else ""
                return [(self.region(m.regions[0], f"{both}{self.tokens_there(m.regions[0])}"),)]
            a, b = m.regions
            return [
                (
                    self.region(x, f" 1st token{self.tokens_there(x)}"),
                    self.region(y, f" 2nd token{self.tokens_there(y)}"),
                )
                for x, y in ((a, b), (b, a))
            ]
        if isinstance(m, TurnUp):
            assert d is not None and d.region is not None
            return [(self.token(view.regions[d.region], m.slot),)]
        if isinstance(m, Take):
            holder = view.holders[m.card]
            if holder is None:
                src = "unclaimed"
            else:
                src = f"from {'you' if holder == view.seat else clean(view.names[holder])}"
            return [(top, Choice(f"{m.card} ({src})", hint=card_hint(view, m.card)))]
        if isinstance(m, Place):
            if m.region is None:
                return [(Choice("Place the Peasant's cube"), self.region(str(m.extra)))]
            count = min(view.token_counts[self.index[m.region]], view.supply[view.seat])
            where = self.region(m.region, f": {plural(count, 'cube')}")
            if m.region not in peasant_at:
                return [(top, where)]
            extra = (
                Choice("no Peasant's cube")
                if m.extra is None
                else self.region(m.extra, " (the Peasant's cube)")
            )
            return [(top, where, extra)]
        if isinstance(m, King):
            return [(top, self.region(m.region, self.cubes_here(m.region)))]
        if isinstance(m, Monk):
            return [
                (
                    top,
                    self.region(m.source, self.tokens_there(m.source)),
                    self.token(m.source, m.slot),
                    self.region(m.target, " (to)" + self.tokens_there(m.target)),
                )
            ]
        if isinstance(m, Merchant):
            return [
                (
                    top,
                    self.region(m.source, self.cubes_here(m.source)),
                    self.region(m.target, " (to)"),
                    Choice(plural(m.count, "cube"), self.r(m.target)),
                )
            ]
        if isinstance(m, Witch):
            (a, sa), (b, sb) = m.first, m.second
            return [
                (top, self.token(a, sa), self.token(b, sb)),
                (top, self.token(b, sb), self.token(a, sa)),
            ]
        if isinstance(m, Plague):
            via = f" via {' or '.join(self.vias.get(m.to, ()))}" if m.via else ""
            stay = m.to == view.regions[view.plague]
            label = (f"stay in {m.to}" if stay else f"{m.to}{via}") + self.contents(m.to)
            if d is not None and d.kind is Kind.TURN and view.spread_ends_game(self.index[m.to]):
                label += " - the rat supply runs out: last turn"
            passed = tuple(self.index[v] for v in self.vias.get(m.to, ())) if m.via else ()
            dest = Choice(label, self.r(m.to) + passed)  # (and the regions it may pass)
            if (m.to, m.via) not in knight_variants:
                return [(top, dest)]
            plus = Choice(
                "with the Knight's +2 cubes at its outbreak" if m.knight else "without the +2",
                self.r(m.to),
            )
            return [(top, dest, plus)]
        return [(top,)]


class ChoiceTree:
    """The choices made so far and the options of the next step."""

    def __init__(self, entries: Sequence[tuple[Path, Move]]) -> None:
        self.entries = list(entries)
        self.chosen: list[Choice] = []

    def matching(self) -> list[tuple[Path, Move]]:
        k = len(self.chosen)
        return [(p, m) for p, m in self.entries if list(p[:k]) == self.chosen]

    def options(self) -> list[Choice]:
        """The distinct next choices, in the order of the legal moves."""
        k = len(self.chosen)
        seen: dict[Choice, None] = {}
        for p, _ in self.matching():
            if len(p) > k:
                seen.setdefault(p[k], None)
        return list(seen)

    def choose(self, choice: Choice) -> Move | None:
        """Take ``choice``; the move once the path is complete, else ``None``."""
        self.chosen.append(choice)
        done = [m for p, m in self.matching() if len(p) == len(self.chosen)]
        return done[0] if done else None

    def back(self) -> bool:
        """Undo the last choice; False if there was none."""
        if not self.chosen:
            return False
        self.chosen.pop()
        return True


def tree_for(view: RattusView) -> ChoiceTree:
    return ChoiceTree(Paths(view).all())


def heading(view: RattusView, step: int) -> str:
    """The dialog's title for the decision and step."""
    d = view.decision
    assert d is not None
    if d.kind is Kind.START:
        return ("Setup: choose the region of your 1st start cube", "...and of your 2nd")[
            min(step, 1)
        ]
    if d.kind is Kind.SWAP:
        return "Witch: swap the two tokens you saw, or keep them?"
    if d.kind is Kind.SPREAD:
        region = decision_region(view)
        return f"Spread: where does the plague of {region} put {plural(d.count, 'new token')}?"
    if d.kind is Kind.TURN_UP:
        return f"Outbreak in {decision_region(view)}: which token is turned up next?"
    if d.kind is Kind.FINAL:
        return "Final round: use your class cards, then Done"
    done = []
    if view.took:
        done.append("card taken")
    if view.placed:
        done.append("cubes placed")
    if view.used:
        done.append("used " + ", ".join(sorted(view.used)))
    extra = f" ({'; '.join(done)})" if done else ""
    return "Your turn: card, cubes, abilities, then the plague" + extra
