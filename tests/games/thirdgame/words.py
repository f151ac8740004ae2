"""Nibble in words: its log at a table, the decision awaited, where a game stands, its result
and what ``rattus selfplay`` adds up."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.thirdgame.game import NibbleGame
from games.thirdgame.view import NibbleView
from rattus_net.kit.machine import Event


def event_lines(event: Event, names: Sequence[str], seat: int | None) -> list[str]:
    """One event in sentences, as ``seat`` reads it (``None``: a spectator)."""
    who = "" if event.player is None else names[event.player]
    data = event.data
    if event.kind == "start":
        return [f"{who} starts."]
    if event.kind == "round":
        return [f"Round {data['number']}."]
    if event.kind == "dealt":
        n = data["count"]
        cards = "a card" if n == 1 else f"{n} cards"
        return [f"{'You get' if event.player == seat else who + ' gets'} {cards}."]
    if event.kind in ("draw", "pass"):
        if event.player == seat:
            return [f"You {event.kind}."]
        return [f"{who} {'draws' if event.kind == 'draw' else 'passes'}."]
    if event.kind == "end":
        lines = result_lines(names, data["hands"], data["scores"], data["winners"])
        return ["The hands are turned up.", *lines]
    return []


def result_lines(names: Sequence[str], hands: Sequence[Sequence[int]], scores: Sequence[int],
                 winners: Sequence[int]) -> list[str]:  # fmt: skip
    """Each hand, its score, and the winners."""
    lines = [
        f"{names[s]}: {' '.join(map(str, hands[s]))} = {sum(hands[s])}"
        + (" (spoilt)" if scores[s] != sum(hands[s]) else "")
        + f", scores {scores[s]}"
        for s in range(len(names))
    ]
    lines.append("winner: " + " and ".join(names[s] for s in winners))
    return lines


def outcome_lines(game: NibbleGame) -> list[str]:
    r = game.result
    assert r is not None
    return result_lines(game.config.players, r.hands, r.scores, r.winners)


def result_summary(game: NibbleGame) -> dict[str, Any]:
    """The result as records store it, by name."""
    r = game.result
    assert r is not None
    names = game.config.players
    return {
        "hands": {names[s]: list(r.hands[s]) for s in range(game.n)},
        "scores": {names[s]: r.scores[s] for s in range(game.n)},
        "winners": [names[s] for s in r.winners],
    }


def summary_lines(summary: Mapping[str, Any]) -> list[str]:
    """A stored result (``result_summary``) in words."""
    names = list(summary["scores"])
    hands = [summary["hands"][n] for n in names]
    scores = [summary["scores"][n] for n in names]
    winners = [names.index(n) for n in summary["winners"]]
    return result_lines(names, hands, scores, winners)


def state_text(game: NibbleGame) -> str:
    """Where the game stands, as everybody sees it (the hands only once turned up)."""
    names = game.config.players
    if game.result is not None:
        return "\n".join(["Nibble: game over", *outcome_lines(game)])
    counts = ", ".join(f"{names[s]} {len(h)} cards" for s, h in enumerate(game.hands))
    return f"Nibble: round {game.round} of 3, deck {len(game.deck)}; {counts}"


def state_dict(game: NibbleGame) -> dict[str, Any]:
    names = game.config.players
    out: dict[str, Any] = {
        "game": "nibble",
        "players": list(names),
        "round": game.round,
        "deck": len(game.deck),
        "cards": [len(h) for h in game.hands],
        "over": game.is_over,
    }
    if game.result is not None:
        out["result"] = result_summary(game)
    return out


class NibbleWords:
    """Nibble's words at a table, for one seat."""

    things = "cards"

    def __init__(self, names: Sequence[str], seat: int) -> None:
        self.names = tuple(names)
        self.seat = seat

    def lines(self, view: NibbleView, start: int) -> list[str]:
        return [
            line
            for event in view.events(start)
            for line in event_lines(event, self.names, self.seat)
        ]

    def decision(self, view: NibbleView) -> str:
        hand = f"your cards: {' '.join(map(str, view.hand))}, worth {sum(view.hand)}"
        if "draw" not in view.legal():
            return f"pass, the deck is empty ({hand})."
        return f"draw or pass ({hand})."


class NibbleSelfplay:
    """How ``rattus selfplay`` reports games of Nibble: scores, winners, spoilt hands."""

    def __init__(self, players: int) -> None:
        self.wins = [0] * players
        self.points = [0] * players
        self.spoilt = 0
        self.games = 0

    def add(self, game: NibbleGame) -> dict[str, object]:
        r = game.result
        assert r is not None
        self.games += 1
        for s in r.winners:
            self.wins[s] += 1
        for s in range(game.n):
            self.points[s] += r.scores[s]
            self.spoilt += sum(r.hands[s]) != r.scores[s]
        return {
            "winners": [game.config.players[s] for s in r.winners],
            "scores": list(r.scores),
        }

    def line(self, entry: Mapping[str, Any]) -> str:
        scores = " ".join(f"{c:>3}" for c in entry["scores"])
        return f"scores {scores}  winner: {', '.join(entry['winners'])}"

    def summary(self, labels: Sequence[str]) -> dict[str, Any]:
        games = max(1, self.games)
        return {
            "wins": dict(zip(labels, self.wins, strict=True)),
            "average_score": {
                label: p / games for label, p in zip(labels, self.points, strict=True)
            },
            "spoilt_hands": self.spoilt,
        }

    def summary_lines(self, labels: Sequence[str]) -> list[str]:
        games = max(1, self.games)
        out = [
            f"  {label:<22} wins {w:>4}  average score {p / games:5.1f}"
            for label, w, p in zip(labels, self.wins, self.points, strict=True)
        ]
        out.append(f"  spoilt hands: {self.spoilt}")
        return out
