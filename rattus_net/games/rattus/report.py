"""Plain-text and JSON forms of a Rattus state, for ``rattus replay`` and the terminal table.

Built from a :class:`RattusView` only, so a seat's table shows what it may know; ``replay``
uses the view of a seat that looked at nothing (``spectator_view``), i.e. the public state.
Names come from the players and may be anything: the terminal table strips control
characters before printing them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rattus_net.games.rattus.components import CARD_OF, face_words
from rattus_net.games.rattus.decision import CUBES_OUT, SUPPLY
from rattus_net.games.rattus.game import Kind, Phase, RattusGame, Result
from rattus_net.games.rattus.person import Persons
from rattus_net.games.rattus.rules import FROM_SETUP, FROM_SUPPLY
from rattus_net.games.rattus.view import RattusView

RING = "@"
"""How a face-down token with the purple ring is drawn (a plain one is ``?``)."""


def _clean(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def reason_text(reason: str, ender: int, persons: Persons) -> str:
    """Why the game ends, as ``persons`` reads it (rules section 4)."""
    if reason == SUPPLY:
        return "the rat supply ran out"
    if reason == CUBES_OUT:
        return f"all 20 of {persons.possessive(ender)} cubes are on the board and in the palace"
    return reason


def origin_text(origin: str) -> str:
    """Where a token on the board came from, in words."""
    if origin == FROM_SETUP:
        return "here since the setup"
    if origin == FROM_SUPPLY:
        return "from the rat supply"
    return f"moved here from {origin}"


def spread_text(regions: Sequence[str]) -> str:
    """Where the plague spread its new tokens, each region named once: ``a token to Gallia``,
    ``2 tokens to Gallia``, ``a token to Gallia and one to Italia`` (the order they came)."""
    parts = []
    for i, (region, n) in enumerate(Counter(regions).items()):
        what = f"{n} tokens" if n > 1 else "one" if i else "a token"
        parts.append(f"{what} to {region}")
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 2 else parts)


def token_text(face: Any, ring: bool) -> str:
    """A token as the text table shows it: ``[2 M Peasant]`` if seen, else ``@`` or ``?``."""
    if face is not None:
        return f"[{face.words()}]"
    return RING if ring else "?"


def table_text(view: RattusView) -> str:
    """The board as the seat of ``view`` may know it."""
    names = [_clean(n) for n in view.names]
    n = view.n
    width = max(10, *(len(r) for r in view.regions))
    lines = []
    head = f"{'region':<{width}}  tokens  " + "  ".join(f"{nm[:8]:>8}" for nm in names)
    lines.append(head)
    cubes = view.cubes
    for r, region in enumerate(view.regions):
        toks = view.tokens(r)
        rings = view.rings(r)
        shown = " ".join(token_text(t, ring) for t, ring in zip(toks, rings, strict=True)) or "-"
        mark = " <- plague" if view.plague == r else ""
        if view.knight_region == r:
            mark += " (Knight +2)"
        cells = "  ".join(f"{cubes[r][s]:>8}" for s in range(n))
        lines.append(f"{region:<{width}}  {len(toks)}       {cells}  {shown}{mark}")
    lines.append(f"{'palace':<{width}}          " + "  ".join(f"{p:>8}" for p in view.palace))
    lines.append(f"{'cubes left':<{width}}          " + "  ".join(f"{p:>8}" for p in view.supply))
    lines.append(f"{'struck':<{width}}          " + "  ".join(f"{p:>8}" for p in view.struck))
    cards = ", ".join(f"{c}: {'-' if s is None else names[s]}" for c, s in view.holders.items())
    lines.append(f"class cards: {cards}")
    lines.append(
        f"rat supply: {view.rat_supply} token(s) face down, {view.supply_rings} ringed; "
        f"removed unseen: {view.removed} ({view.removed_rings} ringed); "
        f"turned up: {len(view.turned_up)}"
    )
    lines.append(f"tokens: ? face down, {RING} face down with the start tokens' ring, [..] seen")
    return "\n".join(lines)


def neighbours_text(view: RattusView) -> str:
    """Which regions in play neighbour which (``~``: across the sea)."""
    regions = view.regions
    width = max(len(r) for r in regions)
    sea = {
        (name, other)
        for name, links in view.components.neighbours.items()
        for other, by_sea in links
        if by_sea
    }
    lines = []
    for r, region in enumerate(regions):
        others = [
            regions[o] + ("~" if (region, regions[o]) in sea else "") for o in view.neighbours[r]
        ]
        lines.append(f"{region:<{width}}  {', '.join(others) or '-'}")
    lines.append("(~: across the sea; regions not in play are not neighbours of anything)")
    return "\n".join(lines)


def final_round_text(view: RattusView, persons: Persons) -> str:
    """The final round's order, who acts now and who ended the game."""
    d = view.decision
    parts = []
    for s in view.final_order:
        name = persons.subject(s)
        parts.append(f"[{name}]" if d is not None and d.player == s else name)
    ender = view.ender
    after = "" if ender is None else f" (counter-clockwise from {persons.possessive(ender)} right"
    return f"Final round: {', '.join(parts)}{after}; then the plague breaks out everywhere)"


def result_text(result: Result, persons: Persons) -> list[str]:
    """Why and after whose turn the game ended, the final round's order, each player's cubes,
    the winner and, when the most cubes were tied, the tie-break order that decided."""
    r = result
    p = persons
    totals = r.totals
    lines = [
        f"The game ended after {p.possessive(r.ender)} turn: {reason_text(r.reason, r.ender, p)}.",
        "Final round: " + ", ".join(p.subject(s) for s in r.final_order) + ".",
    ]
    width = max(len(p.subject(s)) for s in range(len(totals)))
    for s in range(len(totals)):
        unit = "cube " if totals[s] == 1 else "cubes"
        lines.append(
            f"  {p.subject(s):<{width}}  {totals[s]:>2} {unit} ({r.board[s]} on the board, "
            f"{r.palace[s]} in the palace; {r.struck[s]} struck in the game)"
        )
    lines.append(winner_text(r, p))
    return lines


def winner_text(r: Result, p: Persons) -> str:
    """``Winner: Ann, with the most cubes (12).`` and, on a tie, the tie-break that decided."""
    best = r.totals[r.winner]
    if not r.tied:
        return f"Winner: {p.subject(r.winner)}, with the most cubes ({best})."
    return f"Winner: {p.subject(r.winner)}. {tie_break_text(r, p)}"


def tie_break_text(r: Result, p: Persons) -> str:
    """Who tied, and the order that decided (rules section 4: the tied player who would have
    had the next turn wins, from the ender's left, the ender last)."""
    tied = " and ".join(p.subject(s) for s in r.tied_players)
    order = ", ".join(p.subject(s) for s in r.tie_order)
    return (
        f"{tied} tied on {r.totals[r.winner]} cubes: a tie goes to the player who would have "
        f"had the next turn (from {p.possessive(r.ender)} left: {order})."
    )


def turn_up_text(view: RattusView, region: int) -> str:
    """The face-down tokens of a struck region and what tells them apart (ring, a look,
    where each came from)."""
    out = []
    toks = view.tokens(region)
    for i, (face, ring, origin) in enumerate(
        zip(toks, view.rings(region), view.origins(region), strict=True)
    ):
        what = f"you saw {face.words()}" if face is not None else ("ringed" if ring else "plain")
        out.append(f"{i + 1}: {what}, {origin_text(origin)}")
    return f"{view.regions[region]} tokens: " + "; ".join(out)


def state_text(view: RattusView, seat: int | None = None) -> str:
    """The board, then who won and why, or who must act; addressed to ``seat`` ("you"), or
    to nobody in particular (``None``: a replay)."""
    out = [table_text(view)]
    r = view.result
    names = [_clean(n) for n in view.names]
    persons = Persons(names, seat)
    if r is not None:
        out += result_text(r, persons)
        return "\n".join(out)
    if view.phase is Phase.FINAL:
        out.append(final_round_text(view, persons))
    elif view.end_reason is not None and view.ender is not None:
        why = reason_text(view.end_reason, view.ender, persons)
        out.append(f"This is the last turn: {why}.")
    d = view.decision
    if d is not None:
        what = {
            Kind.START: "place 2 start cubes",
            Kind.TURN: "take a turn",
            Kind.SWAP: "swap or keep the Witch's tokens",
            Kind.SPREAD: f"place {d.count} new token(s)",
            Kind.TURN_UP: "choose the next token to turn up",
            Kind.FINAL: "use class cards in the final round",
        }[d.kind]
        out.append(f"{view.phase.value}: {persons.says(d.player, 'have', 'to ' + what)}.")
        if d.kind is Kind.TURN_UP and d.region is not None:
            out.append(turn_up_text(view, d.region))
    return "\n".join(out)


def state_dict(game: RattusGame) -> dict[str, Any]:
    """The public state as JSON-ready data."""
    names = game.config.players
    r = game.result
    rings = game.start_handles
    out: dict[str, Any] = {
        "game": "rattus",
        "phase": game.phase.value,
        "regions": {
            region: {
                "tokens": len(game.tokens[i]),
                "ringed": sum(1 for h in game.tokens[i] if h in rings),
                "cubes": {names[s]: game.cubes[i][s] for s in range(game.n)},
            }
            for i, region in enumerate(game.regions)
        },
        "palace": {names[s]: game.palace[s] for s in range(game.n)},
        "cubes_left": {names[s]: game.supply[s] for s in range(game.n)},
        "struck": {names[s]: game.struck[s] for s in range(game.n)},
        "plague": game.regions[game.plague],
        "class_cards": {
            c: None if s is None else names[s] for c, s in spectator_view(game).holders.items()
        },
        "rat_supply": len(game.rat_supply),
        "rat_supply_ringed": sum(1 for h in game.rat_supply if h in rings),
        "removed": len(game.removed),
        "turned_up": [game.token_faces[game.faces[h]].text() for h in game.turned],
    }
    if game.phase is Phase.FINAL:
        out["final_round"] = [names[s] for s in game.final_order]
    if r is not None:
        out["result"] = {
            "cubes": {names[s]: r.totals[s] for s in range(game.n)},
            "winner": names[r.winner],
            "reason": r.reason,
            "ended_by": names[r.ender],
            "final_round": [names[s] for s in r.final_order],
            "tie_order": [names[s] for s in r.tie_order],
        }
    elif game.decision is not None:
        out["to_act"] = {"player": names[game.decision.player], "kind": game.decision.kind.value}
    return out


class _Spectator(RattusView):
    """A view that knows no private face (the public state)."""

    def tokens(self, region: int) -> list[Any]:
        return [None] * len(self._game.tokens[region])

    def events(self, start: int = 0) -> list[Any]:
        return [e for e in self._game.log[start:] if e.private_to is None]


def spectator_view(game: RattusGame) -> RattusView:
    return _Spectator(game, 0)


class RattusSelfplay:
    """How ``rattus selfplay`` reports games of Rattus: cubes, the winner, how each ended."""

    def __init__(self, players: int) -> None:
        self.wins = [0] * players
        self.cubes = [0] * players
        self.endings = {SUPPLY: 0, CUBES_OUT: 0}
        self.ties = 0
        self.games = 0

    def add(self, game: RattusGame) -> dict[str, object]:
        r = game.result
        assert r is not None
        self.games += 1
        self.wins[r.winner] += 1
        self.endings[r.reason] += 1
        self.ties += r.tied
        for s in range(game.n):
            self.cubes[s] += r.totals[s]
        return {
            "winner": game.config.players[r.winner],
            "cubes": list(r.totals),
            "reason": r.reason,
            "tied": r.tied,
        }

    def line(self, entry: Mapping[str, Any]) -> str:
        totals = " ".join(f"{c:>3}" for c in entry["cubes"])
        return f"cubes {totals}  winner: {entry['winner']}"

    def summary(self, labels: Sequence[str]) -> dict[str, Any]:
        games = self.games
        return {
            "wins": dict(zip(labels, self.wins, strict=True)),
            "average_cubes": {
                label: c / max(1, games) for label, c in zip(labels, self.cubes, strict=True)
            },
            # How the games ended (rules section 4): (a) the rat supply ran out, (b) the
            # active player had all his cubes out (rare by the rules); how often a tie decided.
            "ended_by": {
                "supply": share(self.endings[SUPPLY], games),
                "all_cubes_out": share(self.endings[CUBES_OUT], games),
            },
            "tie_rate": share(self.ties, games),
        }

    def summary_lines(self, labels: Sequence[str]) -> list[str]:
        games = max(1, self.games)
        out = [
            f"  {label:<22} wins {wins:>4} ({100 * wins / games:5.1f}%)  "
            f"average cubes {cubes / games:5.1f}"
            for label, wins, cubes in zip(labels, self.wins, self.cubes, strict=True)
        ]
        supply, cubes_out = self.endings[SUPPLY], self.endings[CUBES_OUT]
        out.append(
            f"  ended by (a) the rat supply running out: {supply} "
            f"({100 * share(supply, self.games):.1f}%), by (b) all cubes out: "
            f"{cubes_out} ({100 * share(cubes_out, self.games):.1f}%); "
            f"ties decided by the tie-break: {self.ties} "
            f"({100 * share(self.ties, self.games):.1f}%)"
        )
        return out


def share(count: int, total: int) -> float:
    """``count`` out of ``total`` as a fraction (0 for no games), rounded for reports."""
    return round(count / total, 4) if total else 0.0


__all__ = [
    "Phase",
    "event_text",
    "neighbours_text",
    "reason_text",
    "result_text",
    "spectator_view",
    "spread_text",
    "state_dict",
    "state_text",
    "table_text",
    "tie_break_text",
    "winner_text",
]


def event_text(event: Any, names: tuple[str, ...], seat: int | None = None) -> str | None:
    """One line for a log event (``None`` for events not worth a line), addressed to
    ``seat`` ("You place...") or to nobody in particular (``None``)."""
    p = Persons([_clean(x) for x in names], seat)
    pl = event.player
    d = event.data
    kind = event.kind
    if pl is None:
        return _table_event(kind, d, p)
    if kind == "start-place":
        return p.says(pl, "place", f"start cubes in {' and '.join(d['regions'])}")
    if kind == "take":
        src = "" if d["taken_from"] is None else f" from {p.object(d['taken_from'])}"
        return p.says(pl, "take", f"the {d['card']}{src}")
    if kind == "place":
        return p.says(pl, "place", f"{d['count']} cube(s) in {d['region']}")
    if kind == "peasant":
        return p.says(pl, "place", f"the Peasant's cube in {d['region']}")
    if kind == "king":
        return p.says(pl, "move", f"a cube from {d['region']} to the palace (King)")
    if kind == "monk":
        return p.says(pl, "move", f"token {d['slot']} of {d['source']} to {d['target']} (Monk)")
    if kind == "merchant":
        what = f"{d['count']} cube(s) from {d['source']} to {d['target']} (Merchant)"
        return p.says(pl, "move", what)
    if kind == "witch":
        a, b = d["first"], d["second"]
        return p.says(pl, "look", f"at token {a[1]} of {a[0]} and token {b[1]} of {b[0]} (Witch)")
    if kind == "witch-look":
        return f"{p.subject(pl)} saw: {' and '.join(face_words(str(f)) for f in d['faces'])}"
    if kind in ("swap", "keep"):
        if kind == "swap":
            return p.says(pl, "swap", "the two tokens")
        return p.says(pl, "leave", "the tokens where they were")
    if kind == "plague":
        via = f" via {d['via']}" if d["via"] else ""
        plus = " with the Knight's +2" if d["knight"] else ""
        return p.says(pl, "move", f"the plague to {d['to']}{via}{plus}")
    if kind == "spread":
        where = spread_text(d["regions"]) if d["regions"] else "nowhere (no room or no tokens left)"
        empty = "; the rat supply is empty" if d.get("left", 1) == 0 else ""
        return f"new tokens: {where}{empty}"
    if kind == "loss":
        why = d["why"]
        why = f"{CARD_OF[why]} symbol" if why in CARD_OF else why
        return "  " + p.says(pl, "lose", f"a cube in {d['region']} ({why})")
    if kind == "end-trigger":
        why = reason_text(d["reason"], pl, p)
        return f"the game ends after {p.possessive(pl)} turn: {why}"
    if kind == "final-round":
        order = ", ".join(p.subject(s) for s in d["order"])
        return f"final round: {order} (counter-clockwise from {p.possessive(pl)} right)"
    if kind == "first-player":
        return p.says(pl, "start")
    if kind == "done":
        return p.says(pl, "finish", "the final round")
    return None


def _table_event(kind: str, d: dict[str, Any], p: Persons) -> str | None:
    """Events of nobody in particular: the table and the plague."""
    if kind == "turn-up":
        what = "strikes" if d["strikes"] else "no effect"
        token = face_words(str(d["token"]))
        return f"{d['region']}: {token} turned up ({d['counted']} counted): {what}"
    if kind == "final-outbreak":
        return "the plague breaks out in every region"
    if kind == "plague-start":
        return f"the plague piece starts in {d['region']}"
    if kind == "removed":
        return f"{d['count']} tokens removed unseen from the rat supply"
    return None
