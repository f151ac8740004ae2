"""Plain-text and JSON forms of a Rattus state, for ``rattus replay`` and the terminal table.

Built from a :class:`RattusView` only, so a seat's table shows what it may know; ``replay``
uses the view of a seat that looked at nothing (``spectator_view``), i.e. the public state.
Names come from the players and may be anything: the terminal table strips control
characters before printing them.
"""

from __future__ import annotations

from typing import Any

from rattus_net.games.rattus.game import Kind, Phase, RattusGame
from rattus_net.games.rattus.view import RattusView

REASONS = {
    "supply": "the rat supply ran out",
    "cubes": "a player placed his last cube",
}


def _clean(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def table_text(view: RattusView) -> str:
    """The board as the seat of ``view`` may know it."""
    names = [_clean(n) for n in view.names]
    n = view.n
    width = max(8, *(len(r) for r in view.regions))
    lines = []
    head = f"{'region':<{width}}  tokens  " + "  ".join(f"{nm[:8]:>8}" for nm in names)
    lines.append(head)
    cubes = view.cubes
    for r, region in enumerate(view.regions):
        toks = view.tokens(r)
        shown = " ".join("?" if t is None else f"[{t.text()}]" for t in toks) or "-"
        mark = " <- plague" if view.plague == r else ""
        if view.knight_region == r:
            mark += " (Knight +2)"
        cells = "  ".join(f"{cubes[r][s]:>8}" for s in range(n))
        lines.append(f"{region:<{width}}  {len(toks)}       {cells}  {shown}{mark}")
    lines.append(f"{'palace':<{width}}          " + "  ".join(f"{p:>8}" for p in view.palace))
    lines.append(f"{'unplaced':<{width}}          " + "  ".join(f"{p:>8}" for p in view.supply))
    lines.append(f"{'dead':<{width}}          " + "  ".join(f"{p:>8}" for p in view.dead))
    cards = ", ".join(f"{c}: {'-' if s is None else names[s]}" for c, s in view.holders.items())
    lines.append(f"class cards: {cards}")
    lines.append(
        f"rat supply: {view.rat_supply} token(s) face down; removed unseen: {view.removed}; "
        f"turned up: {len(view.turned_up)}"
    )
    return "\n".join(lines)


def state_text(view: RattusView) -> str:
    """The board, then who won and why, or who must act."""
    out = [table_text(view)]
    r = view.result
    names = [_clean(n) for n in view.names]
    if r is not None:
        totals = r.totals
        out.append(
            f"The game ended after {names[r.ender]}'s turn: {REASONS.get(r.reason, r.reason)}."
        )
        for s in r.tie_order:
            out.append(
                f"  {names[s]:<12} {totals[s]:>2} cubes ({r.board[s]} on the board, "
                f"{r.palace[s]} in the palace, {r.dead[s]} dead)"
            )
        why = "most cubes on the board and in the palace"
        if r.tied:
            why += "; tied, and earliest in the final round's order"
        out.append(f"Winner: {names[r.winner]} ({why}).")
    else:
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
            out.append(f"{view.phase.value}: {names[d.player]} to {what}.")
    return "\n".join(out)


def state_dict(game: RattusGame) -> dict[str, Any]:
    """The public state as JSON-ready data."""
    names = game.config.players
    r = game.result
    out: dict[str, Any] = {
        "game": "rattus",
        "phase": game.phase.value,
        "regions": {
            region: {
                "tokens": len(game.tokens[i]),
                "cubes": {names[s]: game.cubes[i][s] for s in range(game.n)},
            }
            for i, region in enumerate(game.regions)
        },
        "palace": {names[s]: game.palace[s] for s in range(game.n)},
        "unplaced": {names[s]: game.supply[s] for s in range(game.n)},
        "dead": {names[s]: game.dead[s] for s in range(game.n)},
        "plague": game.regions[game.plague],
        "class_cards": {
            c: None if s is None else names[s] for c, s in spectator_view(game).holders.items()
        },
        "rat_supply": len(game.rat_supply),
        "removed": len(game.removed),
        "turned_up": [game.token_faces[game.faces[h]].text() for h in game.turned],
    }
    if r is not None:
        out["result"] = {
            "cubes": {names[s]: r.totals[s] for s in range(game.n)},
            "winner": names[r.winner],
            "reason": r.reason,
            "ended_by": names[r.ender],
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


__all__ = ["Phase", "event_text", "spectator_view", "state_dict", "state_text", "table_text"]


def event_text(event: Any, names: tuple[str, ...]) -> str | None:
    """One line for a log event (``None`` for events not worth a line)."""
    nm = [_clean(x) for x in names]
    who = nm[event.player] if event.player is not None else ""
    d = event.data
    kind = event.kind
    if kind == "start-place":
        return f"{who} places start cubes in {' and '.join(d['regions'])}"
    if kind == "take":
        src = "" if d["taken_from"] is None else f" from {nm[d['taken_from']]}"
        return f"{who} takes the {d['card']}{src}"
    if kind == "place":
        return f"{who} places {d['count']} cube(s) in {d['region']}"
    if kind == "peasant":
        return f"{who} places the Peasant's cube in {d['region']}"
    if kind == "king":
        return f"{who} moves a cube from {d['region']} to the palace (King)"
    if kind == "monk":
        return f"{who} moves token {d['slot']} of {d['source']} to {d['target']} (Monk)"
    if kind == "merchant":
        return f"{who} moves {d['count']} cube(s) from {d['source']} to {d['target']} (Merchant)"
    if kind == "witch":
        a, b = d["first"], d["second"]
        return f"{who} looks at token {a[1]} of {a[0]} and token {b[1]} of {b[0]} (Witch)"
    if kind == "witch-look":
        return f"you saw: {' and '.join(str(f) for f in d['faces'])}"
    if kind in ("swap", "keep"):
        return f"{who} {'swaps the two tokens' if kind == 'swap' else 'leaves the tokens'}"
    if kind == "plague":
        via = f" via {d['via']}" if d["via"] else ""
        plus = " with the Knight's +2" if d["knight"] else ""
        return f"{who} moves the plague to {d['to']}{via}{plus}"
    if kind == "spread":
        where = ", ".join(d["regions"]) or "nowhere (no room or no tokens left)"
        return f"new tokens: {where}"
    if kind == "turn-up":
        what = "strikes" if d["strikes"] else "no effect"
        return f"{d['region']}: {d['token']} turned up ({d['counted']} counted): {what}"
    if kind == "loss":
        return f"  {who} loses a cube in {d['region']} ({d['why']})"
    if kind == "end-trigger":
        return f"the game ends after {who}'s turn: {REASONS.get(d['reason'], d['reason'])}"
    if kind == "final-round":
        return "final round: " + ", ".join(nm[s] for s in d["order"])
    if kind == "final-outbreak":
        return "the plague breaks out in every region"
    if kind == "plague-start":
        return f"the plague piece starts in {d['region']}"
    if kind == "first-player":
        return f"{who} starts"
    if kind == "removed":
        return f"{d['count']} tokens removed unseen from the rat supply"
    return None
