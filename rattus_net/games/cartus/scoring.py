"""End of the game: victory points, the plague and the winner (rules section 7).

Scoring reads only public information: at the end every hand and the nun row are turned up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rattus_net.games.cartus import data as D

if TYPE_CHECKING:
    from rattus_net.games.cartus.game import Game


@dataclass(frozen=True, slots=True)
class ClassScore:
    """One influence track: seats best first (only those with influence) and their VP."""

    klass: int
    ranking: tuple[int, ...]
    influence: tuple[int, ...]  # per seat
    vp: tuple[int, ...]  # per seat


@dataclass(frozen=True, slots=True)
class Result:
    """The full scoring breakdown.

    ``categories`` maps a category name (``population``, ``Sword``, ``Flute``, ``Pass``,
    ``Gold``, ``tokens``) to VP per seat; ``hand_counts`` the counted cards per seat."""

    classes: tuple[ClassScore, ...]
    categories: dict[str, tuple[int, ...]]
    hand_counts: dict[str, tuple[int, ...]]
    totals: tuple[int, ...]
    rats: tuple[int, ...]
    nuns: int
    nun_row: tuple[int, ...]  # faces
    dead: tuple[bool, ...]  # in the survivors variant, the fewest rats are not dead
    winners: tuple[int, ...]  # empty: the plague killed everyone
    variant_survivors: bool = False


def majority(counts: list[int], top: int, tie: int) -> list[int]:
    """``top`` VP for the single most cards; ``tie`` VP to each tied for most; a majority
    needs at least one card."""
    best = max(counts)
    out = [0] * len(counts)
    if best <= 0:
        return out
    leaders = [s for s, c in enumerate(counts) if c == best]
    for s in leaders:
        out[s] = top if len(leaders) == 1 else tie
    return out


def gold_points(counts: list[int]) -> list[int]:
    """Gold: most 6, second 3; a tie for most splits 9 and scores no second; a tie for second
    splits 3; no second place with two players. Only holders of Gold can place."""
    n = len(counts)
    out = [0] * n
    best = max(counts)
    if best <= 0:
        return out
    first = [s for s in range(n) if counts[s] == best]
    if len(first) > 1:
        for s in first:
            out[s] = D.GOLD_TIE_FIRST_POOL // len(first)
        return out
    out[first[0]] = D.GOLD_VP[0]
    if n == 2:
        return out
    rest = [c for s, c in enumerate(counts) if s != first[0]]
    second_best = max(rest)
    if second_best <= 0:
        return out
    second = [s for s in range(n) if s != first[0] and counts[s] == second_best]
    for s in second:
        out[s] = D.GOLD_VP[1] if len(second) == 1 else D.GOLD_TIE_SECOND_POOL // len(second)
    return out


def class_score(game: Game, klass: int) -> ClassScore:
    n = game.n
    awards = D.INFLUENCE_AWARDS if n >= D.THIRD_PLACE_MIN_PLAYERS else D.INFLUENCE_AWARDS[:2]
    inf = game.influence[klass]
    ranking = tuple(s for s in game.standing(klass) if inf[s] > 0)
    vp = [0] * n
    for place, s in enumerate(ranking[: len(awards)]):
        vp[s] = awards[place]
    return ClassScore(klass, ranking, tuple(inf), tuple(vp))


def score(game: Game) -> Result:
    n = game.n
    faces = game.faces
    hands = [[faces[h] for h in hand] for hand in game.hands]
    classes = tuple(class_score(game, k) for k in range(6))
    counts = {
        "population": [sum(1 for f in h if f <= D.JOKER) for h in hands],
        "Sword": [h.count(D.SWORD) for h in hands],
        "Flute": [h.count(D.FLUTE) for h in hands],
        "Pass": [h.count(D.PASS) for h in hands],
        "Gold": [h.count(D.GOLD) for h in hands],
    }
    cats: dict[str, tuple[int, ...]] = {
        "population": tuple(
            majority(counts["population"], D.HAND_MAJORITY_VP, D.HAND_MAJORITY_TIE_VP)
        )
    }
    for kind in ("Sword", "Flute", "Pass"):
        cats[kind] = tuple(majority(counts[kind], D.SPECIAL_MAJORITY_VP, D.SPECIAL_MAJORITY_TIE_VP))
    treasury = any(D.face_building(c) is D.Building.TREASURY for c in game.buildings_in_game)
    cats["Gold"] = tuple(gold_points(counts["Gold"]) if treasury else [0] * n)
    cats["tokens"] = tuple(v * D.VP_TOKEN_VALUE for v in game.vp)
    totals = tuple(
        sum(c.vp[s] for c in classes) + sum(v[s] for v in cats.values()) for s in range(n)
    )
    nun_faces = tuple(faces[h] for h in game.nun_row)
    nuns = sum(D.face_nuns(f) for f in nun_faces)
    rats = tuple(game.rats)
    dead = tuple(r > nuns for r in rats)
    alive = [s for s in range(n) if not dead[s]]
    variant = False
    if not alive and game.config.plague_survivors:
        # The optional variant: the fewest rats survive, and are survivors everywhere (rules
        # section 7), not dead players who happen to win.
        fewest = min(rats)
        alive = [s for s in range(n) if rats[s] == fewest]
        dead = tuple(s not in alive for s in range(n))
        variant = True
    winners: tuple[int, ...] = ()
    if alive:
        best = max((totals[s], -rats[s]) for s in alive)
        winners = tuple(s for s in alive if (totals[s], -rats[s]) == best)
    return Result(
        classes=classes,
        categories=cats,
        hand_counts={k: tuple(v) for k, v in counts.items()},
        totals=totals,
        rats=rats,
        nuns=nuns,
        nun_row=nun_faces,
        dead=dead,
        winners=winners,
        variant_survivors=variant,
    )
