"""Game state and scoring as plain text and as JSON-ready dicts, for `rattus replay` and
`rattus selfplay`.

Reports read the game only after its secrets are settled: a finished game has every card face
up; for a game stopped midway a report is the omniscient state of a local replay (a record is
read by its owner, who may see everything in it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.game import Decision, Game
from rattus_net.games.cartus.narrate import decision_words
from rattus_net.games.cartus.scoring import Result

PLACE = ("1st", "2nd", "3rd")


def _faces(faces: list[int]) -> list[str]:
    return [D.face_code(f) for f in sorted(faces)]


def awaited(game: Game) -> str:
    """Who must act next, in words."""
    d = game.decision
    if game.is_over:
        return "nobody: the game is over"
    if d is None:
        return "the table (a shuffle, a reveal or a random draw)"
    names = ", ".join(game.config.players[s] for s in d.players)
    return f"{names}: {describe_decision(game, d)}"


def describe_decision(game: Game, d: Decision) -> str:
    """What ``d`` asks, in the engine's one wording (the row's buildings are face up)."""
    faces = game.faces
    row = [faces[h] for h in game.row] if all(h in faces for h in game.row) else None
    return decision_words(d, game.config.players, row)


def state_dict(game: Game) -> dict[str, Any]:
    """The state where a game stands, every face included."""
    names = game.config.players
    faces = game.faces
    out: dict[str, Any] = {
        "round": game.round,
        "rounds": game.plan.rounds,
        "phase": game.phase.value,
        "starting_player": names[game.start_player],
        "row": [D.building_card_code(faces[h]) if h in faces else "?" for h in game.row],
        "influence": {
            D.Klass(k).label: [
                {"player": names[s], "influence": game.influence[k][s]} for s in game.standing(k)
            ]
            for k in range(6)
        },
        "players": {
            names[s]: {
                "rats": game.rats[s],
                "vp_tokens": game.vp[s],
                "hand": _faces([faces[h] for h in game.hands[s] if h in faces]),
                "laid": _faces([faces[h] for h in game.laid[s] if h in faces]),
                "nun_row_looks": sorted(
                    i + 1 for i, h in enumerate(game.nun_row) if h in game.seen[s]
                ),
            }
            for s in range(game.n)
        },
        "nun_row": [D.face_code(faces[h]) if h in faces else "?" for h in game.nun_row],
        "deck": len(game.deck),
        "discard_pile": len(game.discard),
        "supply": {D.SPECIAL_NAMES[f]: len(p) for f, p in game.supply.items()},
        "building_deck": len(game.building_deck),
        "awaiting": awaited(game),
    }
    if game.result is not None:
        out["scoring"] = result_dict(game, game.result)
    return out


def result_dict(game: Game, r: Result) -> dict[str, Any]:
    names = game.config.players
    return {
        "classes": {
            D.Klass(c.klass).label: [
                {"place": i + 1, "player": names[s], "influence": c.influence[s], "vp": c.vp[s]}
                for i, s in enumerate(c.ranking)
            ]
            for c in r.classes
        },
        "categories": {
            cat: {names[s]: v[s] for s in range(game.n)} for cat, v in r.categories.items()
        },
        "hand_counts": {
            cat: {names[s]: v[s] for s in range(game.n)} for cat, v in r.hand_counts.items()
        },
        "totals": {names[s]: r.totals[s] for s in range(game.n)},
        "rats": {names[s]: r.rats[s] for s in range(game.n)},
        "nun_row": [D.face_code(f) for f in r.nun_row],
        "nuns": r.nuns,
        "dead": [names[s] for s in range(game.n) if r.dead[s]],
        "survivors_variant": r.variant_survivors,
        "winners": [names[s] for s in r.winners],
    }


def state_text(game: Game) -> str:
    """The state where a game stands, for people."""
    names = game.config.players
    faces = game.faces
    lines = [
        f"Round {game.round} of {game.plan.rounds}, phase {game.phase.value}; "
        f"starting player {names[game.start_player]}"
    ]
    if game.row:
        row = []
        for i, h in enumerate(game.row):
            who = ", ".join(
                f"{names[s]} ({len(game.laid[s])} card(s))" for s in game.entry_order[i]
            )
            f = faces.get(h)  # a network game's public replay: not yet turned up
            card = (
                "(not turned up yet)"
                if f is None
                else f"{D.face_building(f).label} [{D.face_supply(f).describe()}]"
            )
            row.append(f"  {i + 1}. {card}" + (f": {who}" if who else ""))
        lines += ["Building row:", *row]
    lines.append("Influence (best first; on one space the lower disc first):")
    for k in range(6):
        order = game.standing(k)
        track = ", ".join(f"{names[s]} {game.influence[k][s]}" for s in order)
        lines.append(f"  {D.Klass(k).label:<12} {track}")
    lines.append("Players:")
    for s in range(game.n):
        hand = " ".join(_faces([faces[h] for h in game.hands[s] if h in faces])) or "-"
        looks = [str(i + 1) for i, h in enumerate(game.nun_row) if h in game.seen[s]]
        lines.append(
            f"  {names[s]:<10} rats {game.rats[s]:>2}  VP tokens {game.vp[s]}  "
            f"hand {len(game.hands[s])}: {hand}"
        )
        if game.laid[s]:
            laid = " ".join(_faces([faces[h] for h in game.laid[s] if h in faces]))
            lines.append(f"  {'':<10} laid face down: {laid}")
        if looks:
            lines.append(f"  {'':<10} has seen nun-row positions {', '.join(looks)}")
    supply = ", ".join(f"{D.SPECIAL_NAMES[f]} {len(p)}" for f, p in game.supply.items())
    lines.append(
        f"Deck {len(game.deck)}, discard pile {len(game.discard)}, "
        f"building deck {len(game.building_deck)}; supply: {supply}"
    )
    if game.result is not None:
        lines.append(result_text(game, game.result))
    else:
        lines.append(f"Next to act: {awaited(game)}")
    return "\n".join(lines)


def result_text(game: Game, r: Result) -> str:
    names = game.config.players
    lines = ["Scoring:", "  Influence:"]
    for c in r.classes:
        ranks = ", ".join(
            f"{PLACE[i] if i < 3 else str(i + 1) + 'th'} {names[s]} ({c.influence[s]}) {c.vp[s]} VP"
            for i, s in enumerate(c.ranking)
        )
        lines.append(f"    {D.Klass(c.klass).label:<12} {ranks or 'nobody'}")
    width = max(len(n) for n in names)
    header = "    " + " " * 12 + " ".join(f"{n:>{max(width, 5)}}" for n in names)
    lines.append(header)
    influence_vp = [sum(c.vp[s] for c in r.classes) for s in range(game.n)]
    rows = [("influence", influence_vp)] + [(k, list(v)) for k, v in r.categories.items()]
    rows.append(("total", list(r.totals)))
    rows.append(("rats", list(r.rats)))
    for label, values in rows:
        lines.append(f"    {label:<12}" + " ".join(f"{v:>{max(width, 5)}}" for v in values))
    nun_row = " ".join(D.face_code(f) for f in r.nun_row)
    lines.append(f"  Plague: the nun row ({nun_row}) shows {r.nuns} nuns.")
    dead = [names[s] for s in range(game.n) if r.dead[s]]
    if r.variant_survivors:
        alive = ", ".join(names[s] for s in range(game.n) if not r.dead[s])
        lines.append(
            f"  The plague would kill everyone; in the variant the fewest rats survive: {alive}."
        )
    lines.append("  Died of the plague: " + (", ".join(dead) if dead else "nobody"))
    if r.winners:
        w = " and ".join(names[s] for s in r.winners)
        lines.append(f"  Winner: {w}" + (" (shared)" if len(r.winners) > 1 else ""))
        tie = tie_break_text(r, names)
        if tie is not None:
            lines.append(f"  {tie}")
    else:
        lines.append("  The plague killed everyone: nobody wins.")
    return "\n".join(lines)


def tie_break_text(r: Result, names: Sequence[str]) -> str | None:
    """Who tied on VP for the win and what decided it (rules section 7: the fewer rats; a
    further tie is a shared win), or ``None`` if the most VP were not tied. The one wording
    of the tie-break: ``rattus replay``, the end screen and the replay viewer say it."""
    if not r.winners:
        return None
    best = r.totals[r.winners[0]]
    tied = [s for s in range(len(names)) if not r.dead[s] and r.totals[s] == best]
    if len(tied) < 2:
        return None
    who = _and([names[s] for s in tied])
    rats = ", ".join(f"{names[s]} {r.rats[s]}" for s in tied)
    text = f"{who} tied on {best} VP: a tie goes to the one with fewer rats ({rats})"
    if len(r.winners) == 1:
        return f"{text}."
    return f"{text}; {_and([names[s] for s in r.winners])} tied on rats too and share the win."


def decided_text(r: Result, names: Sequence[str]) -> str | None:
    """``Winner: Ann. Ann and Bob tied on 54 VP: ...``: the winner and the tie-break, when a
    tie for the most VP had to be broken (else ``None``)."""
    tie = tie_break_text(r, names)
    if tie is None:
        return None
    plural = "s" if len(r.winners) > 1 else ""
    return f"Winner{plural}: {_and([names[s] for s in r.winners])}. {tie}"


def _and(words: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class CartusSelfplay:
    """How ``rattus selfplay`` reports games of Rattus Cartus: VP, rats, the dead, winners."""

    def __init__(self, players: int) -> None:
        self.wins = [0.0] * players
        self.deaths = [0] * players
        self.vp = [0] * players
        self.games = 0

    def add(self, game: Game) -> dict[str, object]:
        r = game.result
        assert r is not None
        names = game.config.players
        self.games += 1
        for s in r.winners:
            self.wins[s] += 1 / len(r.winners)
        for s in range(game.n):
            self.deaths[s] += r.dead[s]
            self.vp[s] += r.totals[s]
        return {
            "winners": [names[s] for s in r.winners],
            "vp": list(r.totals),
            "rats": list(r.rats),
            "nuns": r.nuns,
            "dead": [names[s] for s in range(game.n) if r.dead[s]],
        }

    def line(self, entry: Mapping[str, Any]) -> str:
        won = " and ".join(entry["winners"]) or "nobody (the plague killed everyone)"
        dead = ", ".join(entry["dead"]) or "none"
        vps = " ".join(f"{v:>3}" for v in entry["vp"])
        return f"VP {vps}  dead: {dead:<20} winner: {won}"

    def summary(self, labels: Sequence[str]) -> dict[str, Any]:
        games = max(1, self.games)
        return {
            "wins": dict(zip(labels, self.wins, strict=True)),
            "deaths": dict(zip(labels, self.deaths, strict=True)),
            "average_vp": {label: v / games for label, v in zip(labels, self.vp, strict=True)},
        }

    def summary_lines(self, labels: Sequence[str]) -> list[str]:
        games = max(1, self.games)
        return [
            f"  {label:<22} wins {wins:>6.1f} ({100 * wins / games:5.1f}%)  "
            f"average VP {vp / games:5.1f}  died {deaths}"
            for label, wins, vp, deaths in zip(labels, self.wins, self.vp, self.deaths, strict=True)
        ]
