"""What happened on the map since the player last decided, as the table's recap shows it.

Every game's table keeps where the player last decided and shows the game's recap before his
next decision (:mod:`tui.common.recap`); here is Rattus's: every line of the log since then,
in order (each player's class card taken, cubes placed, abilities used, the plague moved, the
spread, every token turned up with what it struck and why), each player's lines in his
colour, and the regions that changed, which the map marks meanwhile.

Once the game is ending (the turn that ended it, the final round, the final outbreak) the
recap is a series of steps instead, gone through one by one: each turn, each player's class
cards in the final round ("Dee uses the Witch..."), then the final outbreak region by
region, each step's regions reversed on the map, the map as it was at the end of that step
(:mod:`.board`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.text import Text

import rattus_net.games.rattus.ui.render as R
from rattus_net.games.rattus.game import Event
from rattus_net.games.rattus.ui.board import Board, boards_at
from rattus_net.games.rattus.ui.narrate import Narrator, clean
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.said import Said, seat_of

ENDING = frozenset({"end-trigger", "final-round", "final-outbreak", "game-over"})
"""Events of the end of the game: the recap is then told step by step."""
WORTH = frozenset({"spread", "turn-up", "loss"}) | ENDING
"""Events worth a recap even when the player's own move brought them."""

LineStyle = Callable[[str], str]


@dataclass
class Step:
    """Lines told together, and the regions they are about (indexes in play); a region of
    the final outbreak (``struck``) with the seats of the cubes it lost there; ``end``: how
    many of the events told it took (the map of the step is the map after them)."""

    lines: list[str] = field(default_factory=list)
    regions: list[int] = field(default_factory=list)
    struck: int | None = None
    lost: list[int] = field(default_factory=list)
    end: int = 0


def regions_of(view: RattusView, e: Event, looked: Sequence[object] = ()) -> list[str]:
    """The regions an event changed, by name (``looked``: the Witch's last two tokens)."""
    d = e.data
    k = e.kind
    if k in ("place", "peasant", "king", "turn-up", "loss"):
        return [str(d["region"])]
    if k in ("monk", "merchant"):
        return [str(d["source"]), str(d["target"])]
    if k == "plague":
        return [str(d["to"])]
    if k in ("spread", "start-place"):
        return [str(r) for r in d["regions"]]
    if k == "swap":
        return [str(pos[0]) for pos in looked if isinstance(pos, list)]
    return []


def worth_a_recap(events: Sequence[Event], seat: int) -> bool:
    """Something happened that the player did not just do himself: another player's move,
    or the plague's doings (a spread, an outbreak, the end)."""
    return any(e.kind in WORTH or (e.player is not None and e.player != seat) for e in events)


def steps(view: RattusView, names: Sequence[str], start: int, by_step: bool) -> list[Step]:
    """The log from index ``start`` on, told as the log tells it: one step, or (``by_step``)
    one per turn, per player of the final round and per region of the final outbreak."""
    every = view.events(0)
    fresh = view.events(start)
    narrator = Narrator(names, view.seat)
    before = every[: len(every) - len(fresh)]
    narrator.lines(before)  # who holds what, before
    index = {name: i for i, name in enumerate(view.regions)}
    out = [Step()]
    final = any(e.kind == "final-round" for e in before)  # a player's class cards a step
    outbreak = False  # the final outbreak: a region a step
    for position, e in enumerate(fresh):
        step = out[-1]
        new = e.kind in ("turn", "end-trigger", "final-outbreak", "game-over")
        new = new or (e.kind == "turn-up" and final and e.data["region"] != narrator.struck)
        if final and not outbreak and e.player is not None and e.kind not in ENDING:
            new = new or seat_of(step.lines[-1] if step.lines else "") != e.player
        if by_step and new and step.lines:
            step = Step()
            out.append(step)
        if e.kind == "final-round":
            final = True
        elif e.kind == "final-outbreak":
            narrator.struck = None
            outbreak = True
        if outbreak and e.kind == "turn-up":
            step.struck = index.get(str(e.data["region"]))
        elif outbreak and e.kind == "loss" and e.player is not None:
            step.lost.append(e.player)
        looked = list(narrator.looked)
        step.lines += narrator.lines([e])
        step.end = position + 1
        for name in regions_of(view, e, looked):
            r = index.get(name)
            if r is not None and r not in step.regions:
                step.regions.append(r)
    return [s for s in out if s.lines]


def compact(
    lines: Sequence[str], subjects: Sequence[str], line_style: LineStyle = lambda _: ""
) -> list[str]:
    """``lines`` with each run of one player's plain doings ("Ann placed...", "Ann took...")
    joined in one line ("Ann: placed...; took..."), so that a round fits below the map.
    ``subjects``: each seat as a sentence names it ("You" for the reader); a line the log
    shows in a style of its own (``line_style``: what the Witch saw...) stays whole. A doing
    said again at once is said once, with how often ("placed start cubes in Gallia and
    Italia, twice": the last player of the setup's first round places again at once)."""
    out: list[str] = []
    run_seat: int | None = None
    doings: list[str] = []  # the run's doings, and how often each was said in a row
    times: list[int] = []
    for line in lines:
        seat = seat_of(line)
        subject = "" if seat is None else subjects[seat] + " "
        if seat is None or not line.startswith(subject) or line_style(line):
            out.append(line)
            run_seat = None
            continue
        doing = line.removeprefix(subject).rstrip(".")
        if run_seat != seat:
            run_seat, doings, times = seat, [], []
            out.append(line)  # (said below)
        if doings and doings[-1] == doing:
            times[-1] += 1
        else:
            doings.append(doing)
            times.append(1)
        said = "; ".join(d + repeated(n) for d, n in zip(doings, times, strict=True))
        out[-1] = Said(f"{subject.strip()}: {said}.", seat)
    return out


def repeated(times: int) -> str:
    """``, twice``: how often a doing was said in a row (nothing if once)."""
    return "" if times == 1 else ", twice" if times == 2 else f", {times} times"


def before_after(view: RattusView, step: Step) -> Text:
    """``Cubes there: R2 B1 before, B1 after``: a region of the final outbreak, once the game
    is over (the map shows the end; each region breaks out once, so what it lost there is
    all it lost since)."""
    assert step.struck is not None
    after = list(view.cubes[step.struck])
    before = list(after)
    for seat in step.lost:
        before[seat] += 1
    t = Text("  cubes there: ")
    t.append_text(R.cube_text(before, "none"))
    t.append(" before, ")
    t.append_text(R.cube_text(after, "none"))
    t.append(" after")
    return t


def styled(lines: Sequence[str], seat_style: Callable[[int], str], line_style: LineStyle) -> Text:
    """The lines, each in its seat's colour with the log's style for such a line over it."""
    t = Text()
    for i, line in enumerate(lines):
        seat = seat_of(line)
        colour = "" if seat is None else seat_style(seat)
        if i:
            t.append("\n")
        t.append(line, style=f"{colour} {line_style(line)}".strip())
    return t


@dataclass
class Recap:
    """The recap's pages and, for each, the regions the map marks while it is shown; told
    step by step, the map of each step (``boards``: as it was at the end of the step; none
    if it could not be worked out, and the map shows the game now)."""

    pages: list[Text]
    regions: list[list[int]]
    by_step: bool
    boards: list[Board] | None = None

    @property
    def changed(self) -> list[int]:
        """Every region that changed since the player last decided."""
        out: list[int] = []
        for regions in self.regions:
            out += [r for r in regions if r not in out]
        return out


def recap(
    view: RattusView,
    names: Sequence[str],
    start: int,
    seat_style: Callable[[int], str],
    line_style: LineStyle,
) -> Recap | None:
    """What happened since log index ``start`` (see the module's docstring), or ``None`` if
    nothing worth holding the player for did."""
    fresh = view.events(start)
    if not worth_a_recap(fresh, view.seat):
        return None
    by_step = any(e.kind in ENDING for e in fresh)
    told = steps(view, names, start, by_step)
    subjects = ["You" if s == view.seat else clean(name) for s, name in enumerate(names)]
    pages = []
    for s in told:
        page = styled(compact(s.lines, subjects, line_style), seat_style, line_style)
        if s.struck is not None and view.is_over:
            page.append("\n")
            page.append_text(before_after(view, s))
        pages.append(page)
    boards = boards_at(view, start, [s.end for s in told]) if by_step else None
    return Recap(pages, [s.regions for s in told], by_step, boards)


__all__ = ["ENDING", "Recap", "Step", "compact", "recap", "regions_of", "steps", "worth_a_recap"]
