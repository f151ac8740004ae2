"""The table as text: pure functions from a PlayerView to Rich ``Text``.

Every player is shown with the first letter of his disc colour and his name ("R You"), so the
table reads the same without colour (NO_COLOR) as with it. Nothing here needs Textual.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text

from protocol.safetext import safetext
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus import narrate as N
from rattus_net.games.cartus.report import tie_break_text
from rattus_net.games.cartus.state import Phase
from rattus_net.games.cartus.view import PlayerView

# Short words for the building actions (rules section 4), so that three cards fit in 80 columns
# with their "Prem: " and "Std: " labels (at most 25 characters a line).
SHORT_ACTIONS: dict[D.Building, tuple[str, str]] = {
    D.Building.FARM: ("draw 4 cards", "draw 2 cards"),
    D.Building.BREWERY: ("draw 1/card laid", "draw 1/2 cards laid"),
    D.Building.MARKETPLACE: ("take 2 Jokers", "take 1 Joker"),
    D.Building.OFFICE: ("take 2 Pass cards", "take 1 Pass card"),
    D.Building.MONASTERY: ("discard 2 rats", "discard 1 rat"),
    D.Building.HOSPITAL: ("-1 rat, 3 for rats", "2 cards for rats"),
    D.Building.CASTLE: ("take 2 Swords", "take 1 Sword"),
    D.Building.GUARD_TOWER: ("3 cards, big hands", "safe from the Tower"),
    D.Building.FORTUNE_TELLER: ("look at 2 nun cards", "look at 1 nun card"),
    D.Building.PIED_PIPER: ("take 2 Flutes", "take 1 Flute"),
    D.Building.PALACE: ("take 2 VP tokens", "take 1 VP token"),
    D.Building.TREASURY: ("take 2 Gold", "take 1 Gold"),
}

CARD_KIND_ORDER = (D.JOKER, D.SWORD, D.FLUTE, D.PASS, D.GOLD)


# The five disc colours as explicit RGB, never as ANSI names: Textual's theme repaints the ANSI
# names (blue, purple and yellow came out as two violets and an orange) and 16-colour terminals
# merged red and purple. These values stay apart in every colour system: in 256 colours they
# are cube colours (203, 69, 77, 220, 171) and in 16 colours they fall on the five bright ANSI
# colours (red 9, blue 12, green 10, yellow 11, magenta 13), all readable on a dark background.
SEAT_RGB: dict[str, str] = {
    "red": "#ff7070",
    "blue": "#6f97ff",
    "green": "#5fd75f",
    "yellow": "#ffd700",
    "purple": "#e070ff",
}

_plain = False  # NO_COLOR: seats are told apart by their letter and name only


def set_plain(plain: bool) -> None:
    """With NO_COLOR the seats are drawn in the terminal's own text colour (bold), not in
    greys that Textual's monochrome filter makes of their colours (some were 1.5:1 on the
    background); the seat letter and name tell them apart."""
    global _plain
    _plain = plain


def colour(view: PlayerView, seat: int) -> str:
    """The seat's disc colour (chosen in a network table's lobby, else by seat order)."""
    return view.colours[seat]


def seat_style(view: PlayerView, seat: int) -> str:
    """The style of a seat's letter and name: bold, in its disc colour unless NO_COLOR."""
    if _plain:
        return "bold"
    name = colour(view, seat)
    return f"bold {SEAT_RGB.get(name, name)}"


def letter(view: PlayerView, seat: int) -> str:
    """The colour's first letter, which keeps players apart without colour."""
    return colour(view, seat)[0].upper()


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def supply_short(face: int) -> str:
    return D.face_supply(face).describe(short=True)


def status(view: PlayerView, width: int = 80) -> Text:
    """Round, phase, deck sizes, on one line of ``width`` (shorter words when it is narrow:
    the numbers are never cut off)."""
    t = Text()
    t.append(f"Round {max(view.round, 1)}/{view.rounds}", style="bold")
    if view.last_round:
        t.append(" (last)", style="bold")
    over = view.phase is Phase.GAME_OVER  # "Round 8/8 (last), game over", not "Phase game over"
    phase = f", {view.phase.value}" if over else f"  Phase {view.phase.value}"
    long = (
        f"{phase}  Deck {view.deck_size}  Discard {len(view.discard_pile)}"
        f"  Buildings left {view.building_deck_size}"
    )
    short = (
        f"{', ' if over else '  '}{view.phase.value}  Deck {view.deck_size}"
        f"  Discard {len(view.discard_pile)}  Buildings {view.building_deck_size}"
    )
    t.append(long if len(t) + len(long) <= width else short)
    return t


def heading(view: PlayerView, i: int) -> str:
    """``1 Farm (Peasantry)``: a card's number in the row, its building and class."""
    b = D.face_building(view.row[i])
    return f"{i + 1} {b.label} ({b.klass.label})"


def split_headings(view: PlayerView, width: int) -> bool:
    """Whether the row's cards, in columns of ``width`` (the terminal's width), name their
    class on a line of its own: all of them do once one card's heading would wrap, so that
    each line of a card (supply, actions) stays level with the others'. A column is
    ``width`` shared among the cards, less its one column of padding."""
    k = max(1, len(view.row))
    return any(len(heading(view, i)) > width // k - 1 for i in range(len(view.row)))


def building_card(view: PlayerView, i: int, split: bool = False) -> Text:
    """One card of the row: name and class (``split``: on two lines), supply action,
    actions, who is in it."""
    face = view.row[i]
    b = D.face_building(face)
    t = Text()
    t.append(f"{i + 1} {b.label}", style="bold underline")
    t.append(f"{chr(10) if split else ' '}({b.klass.label})\n")
    t.append(f"Supply: {supply_short(face)}\n")
    if view.last_round:
        t.append("Last round: most cards\n +1 influence, no actions\n")
    else:
        premium, standard = SHORT_ACTIONS[b]
        # "Prem:"/"Std:", not "P:"/"S:": "P" is Purple's seat letter
        t.append("Prem: ", style="bold")
        t.append(premium + "\n")
        t.append("Std: ", style="bold")
        t.append(standard + "\n")
    occupants = view.occupants[i] if i < len(view.occupants) else []
    if not occupants:
        t.append("(nobody inside)", style="italic")
    else:
        t.append("In:")
    for seat, cards in occupants:  # entry order: space 1 first
        t.append(" ")
        t.append(letter(view, seat), style=seat_style(view, seat))
        t.append(f"({cards})")
    return t


def safe_names(view: PlayerView) -> tuple[str, ...]:
    """The players' names, which came from other peers, safe to show (``safetext``)."""
    return tuple(safetext(n) for n in view.names)


def players(view: PlayerView) -> Text:
    """Everyone's rats, VP tokens and hand size; * the starting player, > whose turn."""
    d = view.decision
    acting = set(d.players) if d is not None else set()
    t = Text()
    t.append(f"{'Players':<14}{'rats':>5}{'VP':>4}{'hand':>5}  in\n", style="bold")
    for s, name in enumerate(safe_names(view)):
        mark = ">" if s in acting else " "
        t.append(mark, style="bold")
        label = f"{letter(view, s)} {name[:9]}"
        star = "*" if s == view.start_player else ""
        t.append(f"{label + star:<13}", style=seat_style(view, s))
        t.append(f"{view.rats[s]:>5}{view.vp_tokens[s]:>4}{view.hand_sizes[s]:>5}")
        e = view.entered[s] if s < len(view.entered) else -1
        t.append(f"  {e + 1 if e >= 0 else '-'}")
        if s < len(view.names) - 1:
            t.append("\n")
    return t


def influence(view: PlayerView) -> Text:
    """The six tracks: spaces best first; on one space, the lower disc (first there) first."""
    t = Text()
    t.append("Influence (same space: lower disc first)\n", style="bold")
    for k in D.CLASSES:
        t.append(f"{k.label:<12}")
        inf = view.influence[k]
        order = view.standing(k)
        groups: list[tuple[int, list[int]]] = []
        for s in order:
            if groups and groups[-1][0] == inf[s]:
                groups[-1][1].append(s)
            else:
                groups.append((inf[s], [s]))
        for gi, (value, seats) in enumerate(groups):
            if gi:
                t.append("  ")
            t.append(f"{value}:")
            for s in seats:
                t.append(letter(view, s), style=seat_style(view, s))
        if k != D.CLASSES[-1]:
            t.append("\n")
    return t


def hand_groups(faces: Sequence[int]) -> list[str]:
    """A hand grouped by kind: ``Church 3,4,4 nuns``, ``2 Jokers``, ``Sword``."""
    by_class: dict[int, list[int]] = {}
    specials: Counter[int] = Counter()
    for f in sorted(faces):
        if D.is_population(f):
            by_class.setdefault(D.face_class(f), []).append(D.face_nuns(f))
        else:
            specials[f] += 1
    out = []
    for k in sorted(by_class):
        nuns = by_class[k]
        out.append(f"{D.Klass(k).label} {','.join(map(str, nuns))}")
    for f in CARD_KIND_ORDER:
        if specials[f]:
            name = D.SPECIAL_NAMES[f]
            out.append(name if specials[f] == 1 else f"{specials[f]}x {name}")
    return out


def _items(t: Text, label: str, items: list[str], width: int | None) -> None:
    """``label`` then ``items`` separated by `` | ``, broken into lines of ``width`` only
    between items (a line never splits ``Chivalry 0,1,3``)."""
    t.append(label, style="bold")
    column = len(label)
    if not items:
        t.append("none")
        return
    for i, item in enumerate(items):
        sep = " | " if i else ""
        if width is not None and column > 2 and column + len(sep) + len(item) > width:
            t.append("\n  ")
            column, sep = 2, ""
        t.append(sep + item)
        column += len(sep) + len(item)


def hand(view: PlayerView, width: int | None = 80) -> Text:
    """Your hand grouped by kind; the numbers after a class are the nuns on each card."""
    t = Text()
    cards = view.hand
    _items(t, f"Hand ({plural(len(cards), 'card')}, nuns on each): ", hand_groups(cards), width)
    laid = view.laid
    if laid:
        t.append("\n")
        _items(t, "Laid face down: ", hand_groups(laid), width)
    return t


def nun_row(view: PlayerView) -> Text:
    known = view.nun_row_known
    t = Text()
    t.append("Nun row: ", style="bold")
    for p in range(D.NUN_ROW):
        if p:
            t.append("  ")
        f = known.get(p)
        t.append(f"{p + 1}:")
        t.append("?" if f is None else D.face_code(f))
    nuns = view.nuns_seen()
    t.append(f"   seen {plural(nuns, 'nun')}, your rats {view.rats[view.seat]}")
    return t


def awaited(view: PlayerView, names: Sequence[str]) -> Text:
    """Whose turn it is and what is awaited."""
    if view.is_over:
        return Text("The game is over.", style="bold")
    d = view.decision
    if d is None:
        return Text("The table is working.")
    if view.my_turn:
        t = Text("YOUR TURN: ", style="bold reverse")
        words = decision_words(view, names)
        hint = "  (Enter: decide)" if len(words) <= 80 - 12 - 17 else ""  # one line at 80
        t.append(" " + words + hint, style="bold")
        return t
    return Text("Waiting for " + ", ".join(names[s] for s in d.players) + ".")


def decision_words(view: PlayerView, names: Sequence[str]) -> str:
    """What the view's pending decision asks (the engine's one wording), or nothing."""
    d = view.decision
    return "" if d is None else N.decision_words(d, names, view.row)


# --- the end -----------------------------------------------------------------------------------

_PLACES = ("1st", "2nd", "3rd", "4th", "5th")


def scoring(view: PlayerView) -> Text:
    """The full scoring breakdown of a finished game."""
    r = view.result
    if r is None:
        return Text("The game is not over.")
    names = safe_names(view)
    n = len(names)
    w = 12 if n <= 4 else 11
    label_w = 80 - 2 - w * n if 80 - 2 - w * n >= 14 else 14
    label_w = min(label_w, 18)
    t = Text()

    def row(label: str, cells: Sequence[str], style: str = "") -> None:
        t.append(f"{label:<{label_w}}", style=style or "bold")
        for c in cells:
            t.append(f"{c:<{w}}", style=style)
        t.append("\n")

    t.append(f"{'':<{label_w}}")
    for s in range(n):
        t.append(f"{(letter(view, s) + ' ' + names[s])[: w - 1]:<{w}}", style=seat_style(view, s))
    t.append("\n")
    t.append("Influence: VP (influence, place)\n", style="italic")
    for cs in r.classes:
        cells = []
        for s in range(n):
            place = cs.ranking.index(s) if s in cs.ranking else None
            where = _PLACES[place] if place is not None else "-"
            cells.append(f"{cs.vp[s]} ({cs.influence[s]},{where})")
        row(D.Klass(cs.klass).label, cells)
    t.append("Cards in hand: VP (cards held)\n", style="italic")
    labels = {
        "population": "Pop.+Jokers",
        "Sword": "Swords",
        "Flute": "Flutes",
        "Pass": "Passes",
        "Gold": "Gold",
    }
    for key, label in labels.items():
        vp = r.categories.get(key, (0,) * n)
        held = r.hand_counts.get(key, (0,) * n)
        row(label, [f"{vp[s]} ({held[s]})" for s in range(n)])
    tokens = r.categories.get("tokens", (0,) * n)
    row("VP tokens", [str(tokens[s]) for s in range(n)])
    row("Total VP", [str(r.totals[s]) for s in range(n)], style="bold")
    row(f"Rats (nuns {r.nuns})", [str(r.rats[s]) for s in range(n)])
    row("Plague", ["DEAD" if r.dead[s] else "survives" for s in range(n)], style="bold")
    t.append("Nun row: ", style="bold")
    t.append(", ".join(f"{D.face_name(f)}" for f in r.nun_row) + f" = {plural(r.nuns, 'nun')}\n")
    t.append_text(verdict(view))
    return t


def verdict(view: PlayerView) -> Text:
    """Who won, and below it, when the most VP were tied, the tie-break that decided."""
    r = view.result
    if r is None:
        return Text("")
    names = safe_names(view)
    if not r.winners:
        return Text("The plague killed everyone: nobody wins.", style="bold reverse")
    who = " and ".join(names[s] for s in r.winners)
    if r.variant_survivors:
        who += " (the plague killed everyone; the fewest rats survived)"
    if len(r.winners) == 1:
        t = Text(f"Winner: {who}, with {r.totals[r.winners[0]]} VP.", style="bold reverse")
    else:
        t = Text(f"Shared win: {who}.", style="bold reverse")
    tie = tie_break_text(r, names)
    if tie is not None:
        t.append("\nTie-break: " + tie)
    return t
