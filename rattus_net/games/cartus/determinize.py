"""Sample a full game consistent with what one seat knows (for searching bots).

A search bot must not peek: it may only imagine games that agree with its view. This module
turns a :class:`PlayerView` into such a game, a *determinization*: a clone of the game behind the
view in which every face the seat may not know is dealt again at random.

What stays: every public fact (supply piles, discard pile, the row, turned-up cards, counts,
rats, influence, the pending decision) and the seat's own secrets (its hand, its face-down
cards, the nun-row positions it looked at, the cards it knows in other hands). What is dealt
again: the multiset of all other faces, shuffled uniformly over the slots the seat cannot see
(the population deck, unseen nun-row positions, the untracked cards of other hands, other
players' face-down cards not yet turned up, and the building and replacement decks).

Nothing hidden may leak through the structure either: the faces to deal are computed as "all
cards of the game minus the cards the seat can place", sorted before shuffling, and dealt over
the unknown slots in a canonical order; other seats' private log events, moves, hidden
simultaneous supply choices and private knowledge are removed or rebuilt from public facts. So
two games that differ only in what the seat may not know give identical samples for the same
generator state (``tests/bots/test_determinize.py`` checks this).

This is the one module outside ``view.py`` that may reach behind a view to the game.
"""

from __future__ import annotations

import random
from collections import Counter

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.game import Decision, Game, Phase
from rattus_net.games.cartus.moves import DecisionKind
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.chance import Chance
from rattus_net.kit.errors import TableMisuse
from rattus_net.kit.table import PublicRandom, Rehandle, Reveal, Shuffle

_ALL_CARDS: Counter[int] = Counter(D.population_faces() + D.special_faces())


def _turned_up_buildings(game: Game) -> set[int]:
    """Row indices whose face-down cards have been turned up this round.

    Two players: all of them as soon as phase D starts. Otherwise a building's cards are
    turned up when it starts resolving, which the public ``resolve`` event records."""
    if game.phase is not Phase.RESOLVE:
        return set()
    if game.n == 2:
        return set(range(len(game.row)))
    done: set[int] = set()
    for e in reversed(game.log):
        if e.kind == "round":
            break
        if e.kind == "resolve":
            done.add(int(e.data["building"]))
    return done


def determinize(view: PlayerView, rng: random.Random) -> Game:
    """A full game consistent with everything ``view.seat`` knows, hidden faces re-dealt.

    Every face of the returned game is known to its engine, so it can be driven to the end with
    a :class:`SampleTable`. The result depends only on the view's information and ``rng``."""
    real = view._game
    g = real.clone()
    # A table attached to the real game knows every face: the sample must never ask it.
    g._inline = None
    me = view.seat
    n = g.n
    faces = real.faces
    public = g.public
    turned = _turned_up_buildings(g)

    # --- population and special cards: which slots the seat can place ----------------------
    fixed: dict[int, int] = {}
    unknown: list[int] = []  # canonical order: deck, nun row, then other seats
    for h in g.discard:
        fixed[h] = faces[h]
    for pile in g.supply.values():
        for h in pile:
            fixed[h] = faces[h]
    for h in g.hands[me] + g.laid[me]:
        fixed[h] = faces[h]
    unknown.extend(g.deck)
    seen_me = g.seen[me]
    for h in g.nun_row:
        if h in public or h in seen_me:
            fixed[h] = faces[h]
        else:
            unknown.append(h)
    tracked_me = g.tracked[me]
    for s in range(n):
        if s == me:
            continue
        known_hand = [h for h in g.hands[s] if h in tracked_me]
        for h in known_hand:
            fixed[h] = faces[h]
        unseen = [h for h in g.hands[s] if h not in tracked_me]
        b = g.entered[s]
        if b >= 0 and b in turned:
            for h in g.laid[s]:
                fixed[h] = faces[h]
            unknown.extend(sorted(unseen))
            continue
        # Which of his unseen cards s laid face down is itself hidden (a peer's engine may
        # even hold them as a mere count, ``Game.hidden``): pool them, and let the highest
        # handles be the laid ones, so the sample is the same whatever the truth is.
        k = len(g.laid[s]) + g.hidden[s]
        pooled = sorted(unseen + g.laid[s])
        g.hands[s] = known_hand + pooled[: len(pooled) - k]
        g.laid[s] = pooled[len(pooled) - k :]
        g.hidden[s] = 0
        unknown.extend(pooled)
    pool = _ALL_CARDS - Counter(fixed.values())
    pool_faces = sorted(pool.elements())
    if len(pool_faces) != len(unknown):
        raise AssertionError("card conservation broken while determinizing")
    rng.shuffle(pool_faces)
    new_faces = dict(fixed)
    new_faces.update(zip(unknown, pool_faces, strict=True))

    # --- buildings: the deck and the replacement deck are unknown to everybody -------------
    building_zones = g.building_deck + g.replacement + g.row + g.building_discard
    b_fixed = {h: faces[h] for h in building_zones if h in public}
    b_unknown = [h for h in g.building_deck + g.replacement if h not in public]
    b_pool = sorted((Counter(g.buildings_in_game) - Counter(b_fixed.values())).elements())
    if len(b_pool) != len(b_unknown):
        raise AssertionError("building conservation broken while determinizing")
    rng.shuffle(b_pool)
    new_faces.update(b_fixed)
    new_faces.update(zip(b_unknown, b_pool, strict=True))
    g.faces = new_faces

    # --- what other seats know: only what the seat knows they know -------------------------
    looked: list[set[int]] = [set() for _ in range(n)]
    for e in g.log:
        if e.kind == "look" and e.private_to is None and e.player is not None:
            looked[e.player].add(g.nun_row[int(e.data["position"])])
    for s in range(n):
        if s == me:
            continue
        g.seen[s] = set(g.hands[s]) | set(g.laid[s]) | looked[s]
        g.tracked[s] = {h for h in g.tracked[s] if h in fixed}
    g.log = [e for e in g.log if e.private_to is None or e.private_to == me]
    g.history = [(p, m) for p, m in g.history if p == me]

    # --- simultaneous supplies: others' hidden choices are asked again ----------------------
    d = g.pending
    if isinstance(d, Decision) and d.kind is DecisionKind.SUPPLY and g.config.simultaneous_supply:
        hidden = [s for s in range(n) if s != me and g.supply_choices[s] is not None]
        if hidden:
            for s in hidden:
                g.supply_choices[s] = None
            g.pending = Decision(DecisionKind.SUPPLY, tuple(sorted(set(d.players) | set(hidden))))
    return g


class SampleTable:
    """The table of a determinized game, whose engine knows every face: it answers from
    them, and deals the reshuffles and draws the random numbers with ``rng``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.chance = Chance()  # (nothing of a sample is recorded)

    def answer(self, game: Game) -> None:
        req = game.pending
        if isinstance(req, Reveal):
            game.answer([game.faces[h] for h in req.handles])
        elif isinstance(req, Shuffle):
            order = list(req.faces)
            self.rng.shuffle(order)
            game.faces.update(zip(req.handles, order, strict=True))
            game.answer(None)
        elif isinstance(req, PublicRandom):
            game.answer(self.rng.randrange(req.bound))
        elif isinstance(req, Rehandle):
            faces = game.faces
            game.answer([faces[h] for h in req.old])
        else:
            raise TableMisuse(f"a sample's table cannot answer {req!r}")
