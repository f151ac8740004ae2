"""Engine events in plain English, for logs.

:func:`describe` turns one :class:`~rattus_net.games.cartus.game.Event` into a sentence. It
reads only the event's own data (plus the player names and the row of buildings, which are
public), so it never says more than the event carries: an event private to another seat should
not reach it at all (``PlayerView.events`` filters them), and if one does it is described
without details.

Events that name a row building carry only its index in the row; pass ``row`` (building card
faces, as in ``PlayerView.row`` or the last ``row`` event) to get the building's name. A
:class:`Narrator` keeps that row for you while it reads the log in order.

:func:`decision_words` says what a pending decision asks; it is the one wording shared by
``rattus replay``, the table's status line, the dialogs and the network game's waiting line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rattus_net.games.cartus import data as D

if TYPE_CHECKING:
    from rattus_net.games.cartus.game import Decision, Event
    from rattus_net.games.cartus.view import PlayerView

_RAT_REASONS = {
    "cards": "for cards of another class",
    "supply": "with a supply action",
    "monastery": "at the Monastery",
    "hospital": "at the Hospital",
}


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards``."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def cards_text(faces: Sequence[int]) -> str:
    """``Church (4 nuns), 2 x Joker, Sword``: identical cards counted, in face order."""
    if not faces:
        return "no cards"
    counts: dict[int, int] = {}
    for f in sorted(faces):
        counts[f] = counts.get(f, 0) + 1
    return ", ".join(
        D.face_name(f) if c == 1 else f"{c} x {D.face_name(f)}" for f, c in counts.items()
    )


def building_card_text(face: int) -> str:
    """``Farm (draw 2, look at 1)``: a building card with its printed supply action."""
    return f"{D.face_building(face).label} ({D.face_supply(face).describe()})"


class _Words:
    """Names of players seen from ``viewer``: the viewer is "you"."""

    def __init__(self, names: Sequence[str], viewer: int | None) -> None:
        self.names = names
        self.viewer = viewer

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "someone"
        if seat == self.viewer:
            return "You"
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return f"Player {seat + 1}"

    def whom(self, seat: int | None) -> str:
        """Object form: "you" in lower case."""
        w = self.who(seat)
        return "you" if w == "You" else w

    def verb(self, seat: int | None, you: str, other: str) -> str:
        return you if seat == self.viewer else other

    def acts(self, seat: int | None, you: str, other: str, mid: bool = False) -> str:
        """The subject and its verb: "You take" to the viewer, "Ann takes" to the others;
        ``mid``: inside a sentence ("...; you take")."""
        subject = self.whom(seat) if mid else self.who(seat)
        return f"{subject} {self.verb(seat, you, other)}"


def _building(data: dict[str, Any], row: Sequence[int] | None) -> str:
    i = data.get("building")
    if i is None:
        return "a building"
    if row is not None and 0 <= i < len(row):
        return f"the {D.face_building(row[i]).label}"
    return f"building {i + 1}"


def decision_words(d: Decision, names: Sequence[str], row: Sequence[int] | None = None) -> str:
    """What ``d`` asks of the player who must take it, as one short sentence ("give 2 cards to
    Bob (Sword at the Brewery)."): short enough for the table's status line at 80 columns, the
    dialogs say the details. ``row`` (the building faces on display) names the building the
    decision comes from."""
    from rattus_net.games.cartus.moves import DecisionKind as K

    where = ""
    if d.building is not None and row is not None and d.building < len(row):
        where = f" at the {D.face_building(row[d.building]).label}"
    if d.kind is K.SUPPLY:
        return "choose a supply action."
    if d.kind is K.ENTER:
        return "enter a building (or play a Pass)."
    if d.kind is K.GIVE:
        to = names[d.to] if d.to is not None else "another player"
        if d.reason == "guard tower":  # the building is the Guard Tower: not said twice
            return f"give {plural(d.count, 'card')} to {to} (the Guard Tower's premium)."
        return f"give {plural(d.count, 'card')} to {to} (Sword{where})."
    if d.kind is K.DISCARD:
        return f"discard up to {plural(d.count, 'card')} for rats (Hospital)."
    if d.kind is K.LOOK:
        return f"look at {plural(d.count, 'nun-row card')}{where}."
    if d.kind is K.CHOOSE_PLAYER:
        return f"choose who loses the {d.reason.capitalize()} tie{where}."
    if d.kind is K.ACTION:
        return f"take or decline the {d.reason} action{where} ({plural(d.count, 'card')})."
    return d.kind.value + "."


def describe(
    event: Event,
    names: Sequence[str],
    viewer: int | None = None,
    row: Sequence[int] | None = None,
    *,
    sees: int | None = None,
) -> str | None:
    """One event in words, from ``viewer``'s seat (``None``: a spectator), or ``None`` for an
    event that needs no words. ``row``: the row's building card faces, to name buildings.
    ``sees``: the seat whose private events may be told, when it is not the viewer's (a
    replay seen as another seat than the one its owner played: that seat's events, told
    with his name)."""
    w = _Words(names, viewer)
    fn = _DESCRIBERS.get(event.kind)
    if fn is None:
        return f"{event.kind}: {w.who(event.player)}" if event.player is not None else event.kind
    seer = viewer if sees is None else sees
    if event.private_to is not None and seer is not None and event.private_to != seer:
        return None  # not for this seat's eyes
    return fn(event, w, row)


def _round(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    d = e.data
    text = f"Round {d['round']} begins; {w.acts(d['start'], 'start', 'starts', mid=True)}."
    if d.get("last"):
        text += " This is the last round: no building actions, the premium gives 1 influence."
    return text


def _row(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    cards = e.data["cards"]
    return (
        "Buildings turned up: "
        + "; ".join(f"{i + 1}. {building_card_text(f)}" for i, f in enumerate(cards))
        + "."
    )


def _replace(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    d = e.data
    return (
        f"All buildings were the same: {D.face_building(d['old']).label} is replaced by "
        f"{building_card_text(d['new'])}."
    )


def _draw(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    if d["count"] == 0 and d.get("wanted"):
        return f"{w.who(p)} cannot draw: the deck and its discard pile are empty."
    return f"{w.acts(p, 'draw', 'draws')} {plural(d['count'], 'card')}."


def _supply(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    action = D.SUPPLY_ACTIONS[d["action"]].describe()
    card = d["card"]
    where = f" ({D.face_building(row[card]).label})" if row and card < len(row) else ""
    return f"{w.acts(p, 'take', 'takes')} the supply action of card {card + 1}{where}: {action}."


def _rats(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    delta = d["delta"]
    why = _RAT_REASONS.get(d.get("why", ""), "")
    why = f" {why}" if why else ""
    if delta > 0:
        return f"{w.acts(p, 'gain', 'gains')} {plural(delta, 'rat')}{why}."
    if delta == 0:
        return f"{w.acts(p, 'have', 'has')} no rat left to discard{why}."
    return f"{w.acts(p, 'discard', 'discards')} {plural(-delta, 'rat')}{why}."


def _sword(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    g = d["giver"]
    text = f"Sword in {_building(d, row)}: {w.acts(p, 'win', 'wins')}"
    if d["count"]:
        return f"{text}; {w.whom(g)} must give {plural(d['count'], 'card')}."
    return f"{text}, but {w.whom(g)} {w.verb(g, 'have', 'has')} no card to give."


def _give(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    why = f" ({d['reason']})" if d.get("reason") else ""
    return f"{w.acts(p, 'give', 'gives')} {w.whom(d['to'])} {plural(d['count'], 'card')}{why}."


def _gift(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    if e.private_to is None or w.viewer is None or e.private_to != w.viewer:
        return f"{w.acts(p, 'give', 'gives')} {w.whom(d['to'])} some cards."
    if p == w.viewer:
        return f"You gave {w.whom(d['to'])}: {cards_text(d['cards'])}."
    return f"{w.who(p)} gave you: {cards_text(d['cards'])}."


def _flute(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    r = d["receiver"]
    if d["moved"]:
        return f"Flute: {w.acts(p, 'pass', 'passes')} a rat to {w.whom(r)}."
    return f"Flute: {w.acts(p, 'have', 'has')} no rat to pass to {w.whom(r)}."


def _take(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    name = D.face_name(d["face"])
    count, wanted = d["count"], d.get("wanted", d["count"])
    if name == "Gold":
        what = f"{count} Gold"
    else:
        what = plural(count, name, name + "es" if name.endswith("s") else None)
    text = f"{w.acts(p, 'take', 'takes')} {what}"
    if count < wanted:
        text += f" (the supply had only {count} of {wanted})"
    return text + "."


def _action(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    text = f"{w.acts(p, 'take', 'takes')} the {_action_kind(d)} action of {_building(d, row)}"
    if row is not None and 0 <= d["building"] < len(row):
        b = D.face_building(row[d["building"]])
        text += f": {D.BUILDING_ACTIONS[b][0 if d['premium'] else 1]}"
    return text + "."


def _guard_tower(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    givers = d["givers"]
    if not givers:
        return f"Guard Tower: nobody has to give {w.whom(p)} cards."
    who = ", ".join(w.whom(g) for g in givers)
    return f"Guard Tower: {who} must give {w.whom(p)} up to 3 cards."


def _hospital(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p, d = e.player, e.data
    if not d["cards"]:
        return f"{w.acts(p, 'discard', 'discards')} no cards at the Hospital."
    return f"{w.acts(p, 'discard', 'discards')} {cards_text(d['cards'])} at the Hospital."


def _last_round_premium(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    p = e.player
    return (
        f"Last round: {w.who(p)} would have taken the premium of {_building(e.data, row)} "
        f"and {w.verb(p, 'gain', 'gains')} 1 influence instead."
    )


def _game_over(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    winners = e.data["winners"]
    if not winners:
        return "Game over: the plague killed everyone. Nobody wins."
    if len(winners) == 1:
        return f"Game over: {w.acts(winners[0], 'win', 'wins')}!"
    return "Game over: shared win for " + ", ".join(w.whom(s) for s in winners) + "."


def _warning(e: Event, w: _Words, row: Sequence[int] | None) -> str:
    text = str(e.data.get("text", "")).strip() or "Warning"
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!")) else text + "."


_Describer = Callable[["Event", _Words, Sequence[int] | None], str]
_Rest = Callable[[dict[str, Any], Sequence[int] | None], str]


def _acts(you: str, other: str, rest: _Rest) -> _Describer:
    """An event told in one sentence, "<player> <verb> <rest>.": ``rest`` reads the event's
    data (and the row, to name buildings)."""

    def describe(e: Event, w: _Words, row: Sequence[int] | None) -> str:
        return f"{w.acts(e.player, you, other)} {rest(e.data, row)}."

    return describe


def _says(text: _Rest) -> _Describer:
    """An event that names no player, told in one sentence."""

    def describe(e: Event, w: _Words, row: Sequence[int] | None) -> str:
        return f"{text(e.data, row)}."

    return describe


def _action_kind(d: dict[str, Any]) -> str:
    return "premium" if d["premium"] else "standard"


_DESCRIBERS: dict[str, _Describer] = {
    "round": _round,
    "row": _row,
    "replace": _replace,
    "deal": _acts("are", "is", lambda d, row: f"dealt {plural(d['count'], 'card')}"),
    "draw": _draw,
    "supply": _supply,
    "supply-chosen": _acts("have", "has", lambda d, row: "chosen a supply action"),
    "rats": _rats,
    "look": _acts("look", "looks", lambda d, row: f"at nun-row card {d['position'] + 1}"),
    "enter": _acts(
        "enter",
        "enters",
        lambda d, row: (
            f"{_building(d, row)} on space {d['space']} with {plural(d['count'], 'card')} face down"
        ),
    ),
    "pass": _acts("play", "plays", lambda d, row: "a Pass"),
    "resolve": _says(lambda d, row: f"Resolving {_building(d, row)}"),
    "reveal": _acts(
        "turn", "turns", lambda d, row: f"up {cards_text(d['cards'])} in {_building(d, row)}"
    ),
    "influence": _acts(
        "gain",
        "gains",
        lambda d, row: f"{d['delta']} influence in {D.Klass(d['klass']).label} (now {d['total']})",
    ),
    "sword": _sword,
    "give": _give,
    "gift": _gift,
    "flute": _flute,
    "take": _take,
    "vp": _acts("take", "takes", lambda d, row: plural(d["delta"], "VP token")),
    "action": _action,
    "decline": _acts(
        "decline",
        "declines",
        lambda d, row: (
            f"the {_action_kind(d)} action of {_building(d, row)} "
            f"({plural(d.get('count', 0), 'card')} not taken)"
        ),
    ),
    "guard-tower": _guard_tower,
    "hospital": _hospital,
    "last-round-premium": _last_round_premium,
    "reshuffle": _says(
        lambda d, row: (
            f"The discard pile ({plural(d['count'], 'card')}) is shuffled into a new deck"
        )
    ),
    "end-round": _says(
        lambda d, row: f"Round {d['round']} ends; the starting-player card passes to the left"
    ),
    "game-over": _game_over,
    "warning": _warning,
}

EVENT_KINDS = frozenset(_DESCRIBERS)


class Narrator:
    """Reads a log in order, keeping the row of buildings so that buildings have names."""

    def __init__(self, names: Sequence[str], viewer: int | None = None) -> None:
        self.names = tuple(names)
        self.viewer = viewer
        self.row: list[int] = []

    def __call__(self, event: Event, sees: int | None = None) -> str | None:
        """``event`` in words (``sees``: as :func:`describe`)."""
        if event.kind == "row":
            self.row = list(event.data["cards"])
        elif event.kind == "replace" and self.row:
            self.row[-1] = event.data["new"]
        return describe(event, self.names, self.viewer, self.row or None, sees=sees)


def narrate_view(view: PlayerView, narrator: Narrator, start: int) -> list[str]:
    """The view's events from ``start`` on, in words; a look at the nun row says, to the seat
    that looked, which card it saw."""
    lines: list[str] = []
    for event in view.events(start):
        text = narrator(event, sees=view.seat)
        if text is None:
            continue
        if event.kind == "look" and event.player == view.seat:
            face = view.nun_row_known.get(event.data["position"])
            if face is not None:
                text = text[:-1] + f": {D.face_name(face)}."
        lines.append(text)
    return lines
