"""Rattus events in words, for the log: outbreaks told step by step.

Each turned-up token gets its line (its face, the cubes counted against its number, whether
it struck), then one line per lost cube with the reason in words (majority, all, or the class
symbol and who holds that card). What a Witch saw is told only to the seat that looked (the
view already hides other seats' private events). Names come from other players and may be
anything: control characters are replaced before they reach the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.safetext import safetext
from rattus_net.games.rattus.components import CARD_OF, face_words
from rattus_net.games.rattus.game import Event, Kind
from rattus_net.games.rattus.person import Persons, cap
from rattus_net.games.rattus.report import reason_text, spread_text
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.said import Said


def clean(text: str) -> str:
    """``text`` with anything unprintable made visible (:func:`protocol.safetext.safetext`,
    the one function every outer layer uses for names typed by other people)."""
    return safetext(text)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class Narrator:
    """Turns events into lines; keeps what it needs across events (the Knight's region, the
    Witch's last look, the region struck now). Sentences about a player go through one
    :class:`~rattus_net.games.rattus.person.Persons` ("You lose", "Ann loses")."""

    def __init__(self, names: Sequence[str], seat: int) -> None:
        self.names = [clean(n) for n in names]
        self.seat = seat
        self.p = Persons(self.names, seat)
        self.knight: set[str] = set()
        self.looked: list[list[object]] = []
        self.struck: str | None = None
        self.holders: dict[str, int | None] = {}  # who holds each card, as the log told
        self.turn_of: int | None = None  # whose turn it is (the plague's doings are his)

    def who(self, seat: int | None) -> str:
        return "" if seat is None else self.p.subject(seat)

    def lines(self, events: Sequence[Event]) -> list[str]:
        """The lines of ``events``, each a :class:`~rattus_net.kit.said.Said` of the seat it
        is about: a player's own doings and losses his, the outbreak of his turn his too (the
        final outbreak nobody's)."""
        out: list[str] = []
        for e in events:
            if e.kind == "turn":
                self.turn_of = e.player
            elif e.kind in ("final-round", "final-outbreak"):
                self.turn_of = None
            seat = self.turn_of if e.player is None else e.player
            out += [Said(line, seat) for line in self.event(e)]
        return out

    def event(self, e: Event) -> list[str]:
        if e.player is None:
            return self.table_event(e)
        d = e.data
        pl = e.player
        p = self.p
        k = e.kind
        if k == "first-player":
            return [p.says(pl, "start", "the game") + "."]
        if k == "start-place":
            regions = d["regions"]
            if len(regions) == 2 and regions[0] == regions[1]:
                return [f"{p.subject(pl)} placed both start cubes in {regions[0]}."]
            return [f"{p.subject(pl)} placed start cubes in {' and '.join(regions)}."]
        if k == "turn":
            self.knight = set()
            self.struck = None
            return [f"-- {cap(p.possessive(pl))} turn --"]
        if k == "take":
            self.holders[d["card"]] = pl
            src = "" if d["taken_from"] is None else f" from {p.object(d['taken_from'])}"
            return [f"{p.subject(pl)} took the {d['card']}{src}."]
        if k == "place":
            return [f"{p.subject(pl)} placed {plural(d['count'], 'cube')} in {d['region']}."]
        if k == "peasant":
            return [f"{p.subject(pl)} placed the Peasant's cube in {d['region']}."]
        if k == "king":
            return [f"King: {p.object(pl)} moved a cube from {d['region']} to the palace."]
        if k == "monk":
            where = f"token {d['slot']} of {d['source']} to {d['target']}"
            return [f"Monk: {p.object(pl)} moved {where}."]
        if k == "merchant":
            n = plural(d["count"], "cube")
            return [f"Merchant: {p.object(pl)} moved {n} from {d['source']} to {d['target']}."]
        if k == "witch":
            a, b = d["first"], d["second"]
            self.looked = [a, b]
            what = f"token {a[1]} of {a[0]} and token {b[1]} of {b[0]}"
            return [f"Witch: {p.object(pl)} looked at {what}."]
        if k == "witch-look":
            seen = []
            for pos, face in zip(self.looked, d["faces"], strict=False):
                seen.append(f"{pos[0]} token {pos[1]} is {face_words(str(face))}")
            return [f"{p.subject(pl)} saw (only {p.object(pl)}): " + "; ".join(seen) + "."]
        if k == "swap":
            return [f"{p.subject(pl)} swapped the two tokens."]
        if k == "keep":
            return [f"{p.subject(pl)} left the two tokens where they were."]
        if k == "plague":
            via = f" via {d['via']}" if d["via"] else ""
            plus = ", counting 2 more cubes there (Knight)" if d["knight"] else ""
            if d["knight"]:
                self.knight.add(d["to"])
            return [f"{p.subject(pl)} moved the plague piece to {d['to']}{via}{plus}."]
        if k == "spread":
            empty = d.get("left", 1) == 0
            if not d["regions"]:
                why = "no token left" if empty else "no room"
                return [f"The plague spreads no new token ({why})."]
            out = [f"The plague spreads {spread_text(d['regions'])}, face down."]
            if empty:
                out.append("The rat supply is empty now.")
            return out
        if k == "loss":
            return [f"    {p.says(pl, 'lose', 'a cube')}: {self.why(d['why'], pl)}"]
        if k == "end-trigger":
            why = reason_text(d["reason"], pl, p)
            return [f"The game ends after {p.possessive(pl)} turn: {why}."]
        if k == "final-round":
            self.knight = set()
            holding = {seat for seat in self.holders.values() if seat is not None}
            order = ", ".join(
                p.object(s) + ("" if s in holding else " (no card)") for s in d["order"]
            )
            return [
                f"Final round (class cards only), counter-clockwise from {p.possessive(pl)} "
                f"right: {order}."
            ]
        if k == "done":
            return [f"{p.subject(pl)} finished the final round."]
        if k == "game-over":
            totals = d.get("totals", [])
            count = f" with {plural(totals[pl], 'cube')}" if pl < len(totals) else ""
            return [f"Game over: {p.says(pl, 'win')}{count} (board and palace)."]
        return []

    def table_event(self, e: Event) -> list[str]:
        """Events of nobody in particular: the setup and the plague's own doings."""
        d = e.data
        k = e.kind
        if k == "start-tokens":
            return [f"A face-down start token (ringed) lies on each of the {d['regions']} regions."]
        if k == "removed":
            return [f"{d['count']} tokens were removed unseen from the rat supply."]
        if k == "plague-start":
            return [f"The plague piece starts in {d['region']}."]
        if k == "turn-up":
            return self.turn_up(d)
        if k == "final-outbreak":
            self.struck = None
            return [
                "The plague breaks out in every region (no spread; each region's tokens slot "
                "by slot): struck cubes go back to their owners and do not count."
            ]
        return []

    def turn_up(self, d: dict[str, object]) -> list[str]:
        region = str(d["region"])
        out = []
        if region != self.struck:
            self.struck = region
            out.append(f"Outbreak in {region}:")
        token = str(d["token"])
        number = int(token.split()[0])
        counted = int(str(d["counted"]))
        plus = " incl. Knight +2" if region in self.knight else ""
        cubes = plural(counted, "cube")
        if d["strikes"]:
            verdict = f"{cubes}{plus} >= {number}: it strikes ({self.effects(token)})"
        else:
            verdict = f"{cubes}{plus} < {number}: no effect"
        out.append(f"  token [{face_words(token)}] turned up: {verdict}.")
        return out

    def effects(self, token: str) -> str:
        """What a token's effects mean: ``M: majority; Peasant symbol: held by Cecily``."""
        out = []
        for word in token.split()[1:]:
            if word == "M":
                out.append("M: the most cubes lose one")
            elif word == "A":
                out.append("A: every colour loses one")
            else:
                card = CARD_OF.get(word, word)
                seat = self.holders.get(card)
                held = "nobody holds it" if seat is None else f"held by {self.p.object(seat)}"
                out.append(f"{card} symbol: {held}")
        return "; ".join(out)

    def why(self, why: str, seat: int | None) -> str:
        if why == "M":
            return "majority (most cubes there)"
        if why == "A":
            return "all (every colour there loses one)"
        card = CARD_OF.get(why, why)
        if seat is None:
            return f"{card} symbol (the {card})"
        holder = f"{self.p.object(seat)} {self.p.verb(seat, 'hold')} the {card}"
        return f"{card} symbol ({holder})"


def decision_region(view: RattusView) -> str:
    """The region the pending decision is about (where the plague spreads from, where it
    breaks out), by name."""
    d = view.decision
    return "?" if d is None or d.region is None else view.regions[d.region]


def decision_words(view: RattusView) -> str:
    """What the view's pending decision asks of its seat, in words."""
    d = view.decision
    if d is None:
        return ""
    if d.kind is Kind.START:
        return "place 2 start cubes."
    if d.kind is Kind.TURN:
        done = []
        if view.took:
            done.append("card taken")
        if view.placed:
            done.append("cubes placed")
        rest = "a card, cubes, abilities, then the plague."
        return rest + (f" ({', '.join(done)})" if done else "")
    if d.kind is Kind.SWAP:
        return "swap the two tokens the Witch saw, or keep them."
    if d.kind is Kind.SPREAD:
        return f"place {plural(d.count, 'new token')} next to {decision_region(view)}."
    if d.kind is Kind.TURN_UP:
        return f"choose the next token to turn up in {decision_region(view)}."
    return "final round: use your class cards, then Done."


class MapWords:
    """Rattus's words as the map tells them, for the log of any seat (offline, or at a network
    table in place of the game's one-line table words: ``TableWords``)."""

    things = "tokens"

    def __init__(self, names: Sequence[str], seat: int) -> None:
        self.narrator = Narrator(names, seat)

    def lines(self, view: RattusView, start: int) -> list[str]:
        return self.narrator.lines(view.events(start))

    def decision(self, view: RattusView) -> str:
        return decision_words(view)
