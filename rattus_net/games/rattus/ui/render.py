"""The Rattus map and panels as Rich ``Text``: pure functions of a view, no Textual.

The map is a 4x4 grid laid out like Europe (``GRID``), every neighbour pair of the shipped map
being next to each other (across, down or diagonally), so each link is drawn between its two
boxes: ``─ │ ╱ ╲`` over land, ``┈ ┊ ⋰ ⋱`` across the sea. A pair that is not next to each other
(a user's own components file) is listed under the map instead. Regions of the map not in play
are drawn greyed, without contents. Every player is shown with his colour AND its letter
(``R3`` = three red cubes), so the map reads the same without colour (NO_COLOR). Regions
that changed since the player last decided are marked ``*`` before their name, underlined.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Protocol

from rich.text import Text

from rattus_net.games.rattus.components import Components, Token
from rattus_net.games.rattus.decision import SUPPLY
from rattus_net.games.rattus.game import Phase
from rattus_net.games.rattus.person import Persons
from rattus_net.games.rattus.report import RING, reason_text, tie_break_text
from rattus_net.games.rattus.ui.narrate import clean, plural
from rattus_net.games.rattus.view import RattusView
from tui.common.glyphs import drawable

# The players' colours: names (their letters) and values that stay the named colour when a
# 16-colour terminal gets them (Textual maps plain ANSI names through its theme, which turned
# red into magenta and yellow into red there).
COLOUR_NAMES = ("red", "blue", "green", "yellow")
COLOURS = ("#e00000", "#3060ff", "#00c000", "#e0c000")

# Where each region of the shipped map sits: (row, column). Europe, roughly.
GRID: dict[str, tuple[int, int]] = {
    "Anglia": (0, 1),
    "Scandia": (0, 2),
    "Gallia": (1, 0),
    "Germania": (1, 1),
    "Polonia": (1, 2),
    "Russia": (1, 3),
    "Hispania": (2, 0),
    "Italia": (2, 1),
    "Hungaria": (2, 2),
    "Tartaria": (2, 3),
    "Bulgaria": (3, 2),
    "Turcia": (3, 3),
}
ROWS = COLS = 4
GAP = 3  # columns between two boxes
MIN_BOX = 17
MAX_BOX = 30
PLAGUE = "☠"
CHANGED = "*"  # before a region's name: it changed since the player last decided
LAND = {"h": "─", "v": "│", "d": "╲", "a": "╱"}
SEA = {"h": "┈", "v": "┊", "d": "⋱", "a": "⋰"}
CROSS = "╳"
LEGEND = (
    f"─│╱╲ land  ┈┊⋰⋱ sea  {CHANGED} changed",
    f"? token {RING} ringed ! seen {PLAGUE} plague",
)
HIGHLIGHT = "reverse"


class Drawable(Protocol):
    """What the map draws: the seat's view of the game now, or the map of an earlier moment
    (:class:`~rattus_net.games.rattus.ui.board.Board`: the end of the game told step by
    step)."""

    @property
    def components(self) -> Components: ...
    @property
    def regions(self) -> tuple[str, ...]: ...
    @property
    def cubes(self) -> list[list[int]]: ...
    @property
    def palace(self) -> list[int]: ...
    @property
    def plague(self) -> int: ...
    @property
    def knight_region(self) -> int | None: ...
    @property
    def rat_supply(self) -> int: ...
    @property
    def supply_rings(self) -> int: ...
    @property
    def removed(self) -> int: ...
    @property
    def turned_up(self) -> list[Token]: ...
    def tokens(self, region: int) -> list[Token | None]: ...
    def rings(self, region: int) -> list[bool]: ...


def colour(seat: int) -> str:
    return COLOURS[seat % len(COLOURS)]


def letter(seat: int) -> str:
    return COLOUR_NAMES[seat % len(COLOUR_NAMES)][0].upper()


def player_label(view: RattusView, seat: int) -> Text:
    """``R You``: colour letter and name, in the colour."""
    return Text(f"{letter(seat)} {clean(view.names[seat])}", style=f"bold {colour(seat)}")


@dataclass
class Canvas:
    """A grid of characters with a style each, turned into Text line by line."""

    width: int
    height: int
    cells: list[list[tuple[str, str]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.cells = [[(" ", "")] * self.width for _ in range(self.height)]

    def put(self, y: int, x: int, text: str | Text, limit: int | None = None) -> None:
        """Write ``text`` at (y, x), cut to ``limit`` columns."""
        if not 0 <= y < self.height:
            return
        t = text if isinstance(text, Text) else Text(text)
        styles = [str(t.style or "")] * len(t.plain)
        for span in t.spans:
            for i in range(span.start, min(span.end, len(styles))):
                styles[i] = f"{styles[i]} {span.style}".strip()
        plain = t.plain if limit is None else t.plain[:limit]
        row = self.cells[y]
        for i, ch in enumerate(plain):
            if 0 <= x + i < self.width:
                row[x + i] = (ch, styles[i])

    def restyle(self, y: int, x: int, length: int, style: str) -> None:
        if 0 <= y < self.height:
            row = self.cells[y]
            for i in range(max(0, x), min(self.width, x + length)):
                ch, st = row[i]
                row[i] = (ch, f"{st} {style}".strip())

    def text(self) -> Text:
        out = Text()
        for y, row in enumerate(self.cells):
            if y:
                out.append("\n")
            end = len(row)
            while end and row[end - 1] == (" ", ""):
                end -= 1
            run, style = "", ""
            for ch, st in row[:end]:
                if st != style and run:
                    out.append(run, style=style or None)
                    run = ""
                style = st
                run += ch
            if run:
                out.append(run, style=style or None)
        return out


# --- the map ------------------------------------------------------------------------------------


def box_width(width: int) -> int:
    """The width of a region box for a map ``width`` columns wide."""
    return max(MIN_BOX, min(MAX_BOX, (width - GAP * (COLS - 1)) // COLS))


def layout(view: Drawable) -> tuple[dict[str, tuple[int, int]], list[tuple[int, int]]]:
    """Grid cells of the map's regions (in play or not) and the cells left free. Regions the
    grid does not know (a user's components file) take the free cells in order."""
    names = list(view.components.regions)
    cells = {r: GRID[r] for r in names if r in GRID}
    free = [(y, x) for y in range(ROWS) for x in range(COLS) if (y, x) not in cells.values()]
    in_play = set(view.regions)
    for r in names:
        if r not in cells and r in in_play and free:
            cells[r] = free.pop(0)
    return cells, free


def cube_text(counts: list[int], empty: str = "no cubes") -> Text:
    """``R3 B1``: the colours present, letter and count in the colour."""
    t = Text()
    for s, c in enumerate(counts):
        if c:
            if t.plain:
                t.append(" ")
            t.append(f"{letter(s)}{c}", style=f"bold {colour(s)}")
    return t if t.plain else Text(empty, style="dim")


def token_marks(view: Drawable, r: int) -> str:
    """One mark per token, slot order: ``!`` seen (a Witch's look), ``@`` face down with the
    start tokens' purple ring (public, ruling 5), ``?`` face down."""
    return "".join(
        "!" if t is not None else RING if ring else "?"
        for t, ring in zip(view.tokens(r), view.rings(r), strict=True)
    )


def region_box(
    view: Drawable, r: int, width: int, height: int, changed: bool = False
) -> list[Text]:
    """The lines of region ``r``'s box: name (``*`` first and underlined if ``changed``),
    tokens and plague; cubes; (tall) what the seat saw of its tokens."""
    name = (CHANGED if changed else "") + view.regions[r]
    marks = token_marks(view, r)
    plague = ""
    if view.plague == r:
        plague = " " + PLAGUE + ("+2" if view.knight_region == r else "")
    # the plague right after the name, the tokens at the right end: a mark at the right end
    # touches the link to the next region and reads as that region's
    name = name[: max(1, width - len(marks) - len(plague) - 1)]
    head = Text(name, style="bold")
    if changed:
        head.stylize("underline", 0, len(name))
    head.append(plague, style="bold")
    head.append(" " * max(1, width - len(name) - len(plague) - len(marks)))
    head.append(marks, style="bold")
    lines = [head, cube_text(view.cubes[r])]
    if height > 2:
        seen = [f"{i + 1}:{t.words()}" for i, t in enumerate(view.tokens(r)) if t is not None]
        lines.append(Text(" ".join(seen), style="italic") if seen else Text(""))
    return lines


def info_cells(view: Drawable, height: int = 2) -> list[list[Text]]:
    """What goes into the free cells of the map, ``height`` lines each: the rat supply (how
    many of its tokens are ringed, how many were removed at setup) and the palace (the
    legend takes the last ones)."""
    supply = [
        Text(f"Rat supply {view.rat_supply}", style="bold"),
        Text(f"ringed {view.supply_rings}, out {view.removed}"),
        Text(f"turned up {len(view.turned_up)}", style="dim"),
    ]
    palace = [Text("Palace", style="bold"), cube_text(view.palace, "empty")]
    return [supply[:height], palace]


def map_text(
    view: Drawable,
    width: int = 80,
    tall: bool = False,
    highlight: Collection[int] = (),
    changed: Collection[int] = (),
) -> Text:
    """The map for a space ``width`` columns wide (taller boxes with ``tall``); regions in
    ``highlight`` (indexes in play) are shown reversed (a dialog's cursor, a step of a recap),
    those in ``changed`` marked (what happened since the player last decided)."""
    w = box_width(width)
    h = 3 if tall else 2
    cells, free = layout(view)
    in_play = {name: i for i, name in enumerate(view.regions)}
    extra: list[str] = []
    canvas = Canvas(COLS * w + (COLS - 1) * GAP, ROWS * (h + 1) - 1)

    def top(y: int, x: int) -> tuple[int, int]:
        return y * (h + 1), x * (w + GAP)

    for name, (y, x) in cells.items():
        ty, tx = top(y, x)
        r = in_play.get(name)
        if r is None:
            canvas.put(ty, tx, Text(name, style="dim strike"), w)
            canvas.put(ty + 1, tx, Text("not in play", style="dim"), w)
            continue
        for i, line in enumerate(region_box(view, r, w, h, r in changed)):
            canvas.put(ty + i, tx, line, w)
        if r in highlight:
            for i in range(h):
                canvas.restyle(ty + i, tx, w, HIGHLIGHT)
    # links
    diag: dict[tuple[int, int], list[tuple[str, bool]]] = {}
    done: set[frozenset[str]] = set()
    for name, links in view.components.neighbours.items():
        if name not in in_play:
            continue
        for other, sea in links:
            pair = frozenset((name, other))
            if other not in in_play or pair in done:
                continue
            done.add(pair)
            (y1, x1), (y2, x2) = sorted((cells[name], cells[other]))
            chars = SEA if sea else LAND
            style = "blue" if sea else ""
            if y1 == y2 and x2 == x1 + 1:
                ty, tx = top(y1, x1)
                canvas.put(ty, tx + w, Text(chars["h"] * GAP, style=style))
            elif x1 == x2 and y2 == y1 + 1:
                ty, tx = top(y1, x1)
                canvas.put(ty + h, tx + w // 2, Text(chars["v"], style=style))
            elif y2 == y1 + 1 and abs(x2 - x1) == 1:
                key = (y1, min(x1, x2))
                diag.setdefault(key, []).append((chars["d" if x2 > x1 else "a"], sea))
            else:
                extra.append(f"{name}{'~' if sea else '-'}{other}")
    for (y, x), marks in diag.items():
        ty, tx = top(y, x)
        ch = CROSS if len(marks) > 1 else marks[0][0]
        style = "blue" if all(sea for _, sea in marks) else ""
        canvas.put(ty + h, tx + w + GAP // 2, Text(ch, style=style))
    # free cells: rat supply, palace, legend
    infos = info_cells(view, h)
    legend = [Text(line, style="dim") for line in LEGEND]
    spare = list(free)
    leftovers: list[Text] = []
    for block in infos:
        if spare:
            ty, tx = top(*spare.pop(0))
            for i, line in enumerate(block):
                canvas.put(ty + i, tx, line, w)
        else:
            leftovers.append(Text(" ").join(block))
    if spare:
        ty, tx = top(*spare[0])
        room = w * 2 + GAP if len(spare) > 1 and spare[1] == (spare[0][0], spare[0][1] + 1) else w
        for i, line in enumerate(legend):
            canvas.put(ty + i, tx, line, room)
    else:
        leftovers.append(Text("  ").join(legend))
    out = canvas.text()
    for line in leftovers:
        out.append("\n")
        out.append_text(line)
    if extra:
        out.append("\nAlso linked: " + ", ".join(extra), style="dim")
    return drawable(out)  # (the Linux console's font has no dotted lines, no skull)


# --- panels -------------------------------------------------------------------------------------


def status(view: RattusView) -> Text:
    """Phase, whose turn, the rat supply; in the final round who acts and in what order."""
    t = Text()
    t.append("RATTUS", style="bold")
    if view.phase is Phase.FINAL:
        t.append("  FINAL ROUND ", style="bold")
        t.append_text(final_order_text(view))
        return t
    phase = {Phase.SETUP: "setup", Phase.PLAY: "play", Phase.OVER: "game over"}[view.phase]
    t.append(f"  {phase}")
    if view.phase is Phase.PLAY:
        t.append("  turn: ")
        t.append_text(player_label(view, view.active))
    t.append(f"  rat supply {view.rat_supply}")
    if view.end_reason and view.phase is Phase.PLAY:
        why = "rat supply empty" if view.end_reason == SUPPLY else "all cubes out"
        t.append(f"  LAST TURN ({why})", style="bold reverse")
    return t


def final_order_text(view: RattusView) -> Text:
    """``B Bob > C Cid > D Dan (A Ann ended)``: the final round's order, the player acting
    now reversed, then who ended the game."""
    d = view.decision
    t = Text()
    for i, s in enumerate(view.final_order):
        if i:
            t.append(" > ")
        label = player_label(view, s)
        label.truncate(10)
        if d is not None and d.player == s:
            label.stylize("reverse")
        t.append_text(label)
    if view.ender is not None:
        t.append(" (")
        ender = player_label(view, view.ender)
        ender.truncate(10)
        t.append_text(ender)
        t.append(" ended)")
    return t


def cards_line(view: RattusView) -> Text:
    """The six class cards and who holds them."""
    t = Text("Cards: ", style="bold")
    for i, (card, seat) in enumerate(view.holders.items()):
        if i:
            t.append("  ")
        t.append(f"{card} ")
        if seat is None:
            t.append("-", style="dim")
        else:
            t.append(letter(seat), style=f"bold {colour(seat)}")
    return t


def players_text(view: RattusView, width: int = 80) -> Text:
    """Each player: cubes left (20 minus those on the board and in the palace: struck cubes
    come back), in the palace; > marks whose decision it is."""
    d = view.decision
    cells = []
    for s in range(view.n):
        t = Text(">" if d is not None and d.player == s else " ", style="bold")
        label = player_label(view, s)
        label.truncate(10)
        t.append_text(label)
        t.append(f" cubes left {view.supply[s]:>2}")
        if view.palace[s]:
            t.append(f" palace {view.palace[s]}")
        cells.append(t)
    per_line = max(1, min(view.n, width // 38))
    out = Text()
    for i, cell in enumerate(cells):
        if i:
            out.append("\n" if i % per_line == 0 else "")
        cell.pad_right(38 - cell.cell_len if i % per_line != per_line - 1 else 0)
        out.append_text(cell)
    return out


def seen_text(view: RattusView) -> Text:
    """The faces this seat knows of tokens still on the board (the Witch's looks)."""
    parts = []
    for r, region in enumerate(view.regions):
        for i, t in enumerate(view.tokens(r)):
            if t is not None:
                parts.append(f"{region} {i + 1}: {t.words()}")
    if not parts:
        return Text("")
    out = Text("You saw: ", style="bold")
    out.append("; ".join(parts), style="italic")
    return out


# --- the end ------------------------------------------------------------------------------------


def end_text(view: RattusView) -> Text:
    """Cubes per player region by region and in the palace, why and after whose turn the
    game ended, the final round's order, the winner and the tie-break order that decided."""
    r = view.result
    if r is None:
        return Text("The game is not over.")
    n = view.n
    col = 10
    p = Persons([clean(name) for name in view.names], view.seat)
    t = Text("Cubes region by region (regions left empty are not listed):\n", style="italic")
    t.append(f"{'':<10}", style="bold")
    for s in range(n):
        label = player_label(view, s)
        label.truncate(col - 1)
        label.pad_right(col - label.cell_len)
        t.append_text(label)
    t.append("\n")
    for i, region in enumerate(view.regions):
        cubes = view.cubes[i]
        if not any(cubes):
            continue
        t.append(f"{region:<10}", style="bold")
        for s in range(n):
            t.append(f"{cubes[s] if cubes[s] else '-':<{col}}")
        t.append("\n")

    def row(label: str, values: tuple[int, ...] | list[int], style: str = "") -> None:
        t.append(f"{label:<10}", style="bold")
        for s in range(n):
            t.append(f"{values[s]:<{col}}", style=style)
        t.append("\n")

    row("board", r.board)
    row("palace", r.palace)
    row("TOTAL", r.totals, "bold")
    row("struck", r.struck, "dim")
    why = reason_text(r.reason, r.ender, p)
    t.append(f"The game ended after {p.possessive(r.ender)} turn: {why}.\n")
    order = ", ".join(p.subject(s) for s in r.final_order)
    t.append(f"Final round: {order}.\n")
    winner = Text("Winner: ", style="bold reverse")
    winner.append_text(player_label(view, r.winner))
    if p.is_me(r.winner):
        winner.append(" (you)", style="bold")
    winner.append(f" with {plural(r.totals[r.winner], 'cube')}", style="bold")
    t.append_text(winner)
    if r.tied:
        t.append("\nTie-break: " + tie_break_text(r, p))
    return t


__all__ = [
    "GRID",
    "Drawable",
    "cards_line",
    "end_text",
    "map_text",
    "players_text",
    "seen_text",
    "status",
]
