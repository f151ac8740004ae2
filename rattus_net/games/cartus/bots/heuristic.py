"""A fast rule-of-thumb bot: one-step look-ahead with a hand-made value of the position.

Every candidate move is scored by what it changes right away, in victory-point equivalents:

- *influence* is worth the expected award of the track (10/5/2) under a soft ranking whose
  spread shrinks as the game nears its end, so the bot chases places it can still reach or
  keep and ignores tracks where one more point changes nothing;
- *rats* cost the rise in the probability of dying in the plague times the value of survival.
  The nun row is estimated from the positions the seat has seen plus, for each unseen
  position, the mean and variance of the nuns on the population cards the seat has not seen;
  the rats it will likely still pick up are added to its current total;
- *cards* in hand, jokers, specials, Gold and VP tokens have fixed keep values (hand size and
  special-card majorities count at the end);
- *nun-row looks* are worth more the closer the seat is to the edge of death.

The bot decides from its :class:`PlayerView` only, builds its candidates from its own hand (so
it never has to enumerate an ENTER space with thousands of combinations) and uses its seeded
generator only to break ties. A decision takes a fraction of a millisecond.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.moves import (
    ChoosePlayer,
    DecisionKind,
    DeclineAction,
    Discard,
    Enter,
    Give,
    Look,
    Move,
    PlayPass,
    Supply,
    TakeAction,
)
from rattus_net.games.cartus.view import PlayerView

# Value of surviving the plague, in VP: dying loses the game whatever the score.
SURVIVAL_VP = 30.0
# Rats a player still picks up per round left after this one (net of discards), on average.
RAT_DRIFT = 0.6
# Keep values of cards in hand (VP equivalents): what they are likely to become later.
KEEP = {D.JOKER: 0.9, D.SWORD: 0.45, D.FLUTE: 0.45, D.PASS: 0.6, D.GOLD: 1.1}
POP_KEEP = 0.55
POP_KEEP_LAST = 0.3
VP_TOKEN = 1.0
# A hand this big holds more cards than the seat can play well.
BIG_HAND = 10
# Cards given away help the receiver too: a gift costs this many times the cards' keep value.
GIFT_SWING = 1.5
# Chance, per Sword another player is known to hold, that one takes half of this seat's hand.
SWORD_THREAT = 0.35

_B = D.Building
# Actions that take cards of one kind from a supply pile.
_TAKEN_FACE = {
    _B.MARKETPLACE: D.JOKER,
    _B.OFFICE: D.PASS,
    _B.CASTLE: D.SWORD,
    _B.PIED_PIPER: D.FLUTE,
    _B.TREASURY: D.GOLD,
}

# Nuns per population face, and the full population multiset.
_ALL_POP = Counter(D.population_faces())


def _phi(x: float) -> float:
    """Standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class _Ctx:
    """What the bot derives from its view once per decision."""

    __slots__ = (
        "awards",
        "hand",
        "hand_sizes",
        "influence",
        "late",
        "me",
        "n",
        "nun_mean",
        "nun_sd",
        "rats",
        "rounds_after",
        "spread",
        "unseen_positions",
        "view",
    )

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.me = view.seat
        self.n = view.n
        self.hand = view.hand
        self.hand_sizes = view.hand_sizes
        self.influence = view.influence
        self.rounds_after = max(0, view.rounds - view.round)
        self.late = view.last_round
        self.awards = (
            D.INFLUENCE_AWARDS if self.n >= D.THIRD_PLACE_MIN_PLAYERS else D.INFLUENCE_AWARDS[:2]
        )
        # How far influence tracks may still move, as a standard deviation of a difference.
        self.spread = 0.45 + 0.9 * self.rounds_after
        known = view.nun_row_known
        self.unseen_positions = [p for p in range(D.NUN_ROW) if p not in known]
        # The population cards this seat has not seen: the candidates for unseen positions.
        unseen = Counter(_ALL_POP)
        visible: list[int] = list(self.hand) + view.laid + view.discard_pile
        visible += list(known.values())
        for faces in view.known_in_hands.values():
            visible += faces
        for f in visible:
            if f < D.JOKER and unseen[f] > 0:
                unseen[f] -= 1
        count = sum(unseen.values())
        if count:
            s1 = sum(D.face_nuns(f) * c for f, c in unseen.items())
            s2 = sum(D.face_nuns(f) ** 2 * c for f, c in unseen.items())
            mean = s1 / count
            var = max(0.0, s2 / count - mean * mean)
        else:
            mean, var = 2.0, 2.57
        u = len(self.unseen_positions)
        self.nun_mean = sum(D.face_nuns(f) for f in known.values()) + u * mean
        self.nun_sd = math.sqrt(u * var)
        self.rats = view.rats[self.me] + self._pending_rats() + RAT_DRIFT * self.rounds_after

    def _pending_rats(self) -> int:
        """Rats from this seat's face-down cards that their building has not yet given."""
        v = self.view
        b = v.entered[self.me]
        laid = v.laid
        if b < 0 or not laid:
            return 0
        d = v.decision
        if d is not None and d.building is not None and d.building >= b:
            return 0  # this seat's building has already turned its cards up
        klass = D.face_building(v.row[b]).klass
        return sum(1 for f in laid if f < D.JOKER and f // 5 != klass)

    # --- the plague ------------------------------------------------------------------------

    def p_death(self, rats: float) -> float:
        """Probability that the nun row holds fewer nuns than ``rats``."""
        if self.nun_sd < 1e-9:
            return 1.0 if rats > self.nun_mean + 1e-9 else 0.0
        return _phi((rats - 0.5 - self.nun_mean) / self.nun_sd)

    def rat_cost(self, delta: float) -> float:
        """VP-equivalent cost of ``delta`` more rats (negative: the gain of discarding)."""
        r = self.rats
        if delta < 0:
            delta = max(delta, -float(self.view.rats[self.me]))
        return SURVIVAL_VP * (self.p_death(r + delta) - self.p_death(r)) + 0.15 * delta

    def look_value(self, looks: int) -> float:
        """What seeing ``looks`` more nun-row positions is worth (only unseen ones count)."""
        useful = min(looks, len(self.unseen_positions))
        if not useful:
            return 0.0
        p = self.p_death(self.rats)
        return useful * (0.25 + 7.0 * p * (1.0 - p))

    # --- influence -------------------------------------------------------------------------

    def track_value(self, klass: int, mine: int, moved: bool) -> float:
        """Expected award on ``klass`` with ``mine`` influence (``moved``: this seat's disc
        arrives now, so it ranks below anyone already on that space)."""
        if mine <= 0:
            return 0.0
        row = self.influence[klass]
        spread = self.spread
        # probs[k]: probability that exactly k other seats end ahead of this one
        probs = [1.0]
        for s in range(self.n):
            if s == self.me or row[s] <= 0:
                continue
            diff = mine - row[s] + (-0.5 if moved or row[s] > mine else 0.5)
            p_ahead = 1.0 / (1.0 + math.exp(1.7 * diff / spread))
            nxt = [0.0] * (len(probs) + 1)
            for k, q in enumerate(probs):
                nxt[k] += q * (1.0 - p_ahead)
                nxt[k + 1] += q * p_ahead
            probs = nxt
        awards = self.awards
        return sum(q * awards[k] for k, q in enumerate(probs) if k < len(awards))

    # --- cards -----------------------------------------------------------------------------

    def keep(self, face: int) -> float:
        if face < D.JOKER:
            return POP_KEEP_LAST if self.late or self.rounds_after <= 1 else POP_KEEP
        return KEEP[face]

    def action_value(self, building: D.Building, premium: bool, played: int, left: int) -> float:
        """VP-equivalent of a building's premium or standard action (``played``: population
        and joker cards laid there, ``left``: cards this seat keeps in hand)."""
        amount = D.PREMIUM_AMOUNT if premium else D.STANDARD_AMOUNT
        card = POP_KEEP
        if building is _B.FARM:
            return D.FARM_DRAW[0 if premium else 1] * card
        if building is _B.BREWERY:
            return (played if premium else played // 2) * card
        if building is _B.MARKETPLACE:
            return amount * KEEP[D.JOKER]
        if building is _B.OFFICE:
            return amount * KEEP[D.PASS]
        if building is _B.MONASTERY:
            return -self.rat_cost(-amount)
        if building is _B.HOSPITAL:
            value = -self.rat_cost(-D.HOSPITAL_PREMIUM_RATS) if premium else 0.0
            base = D.HOSPITAL_PREMIUM_RATS if premium else 0
            limit = min(D.HOSPITAL_CARD_LIMIT[0 if premium else 1], left)
            best = 0.0
            for m in range(1, limit + 1):
                gain = -self.rat_cost(-(base + m)) + self.rat_cost(-base) - m * POP_KEEP
                best = max(best, gain)
            return value + best
        if building is _B.CASTLE:
            return amount * KEEP[D.SWORD]
        if building is _B.GUARD_TOWER:
            if not premium:
                return 0.3
            givers = sum(
                1 for s, h in enumerate(self.hand_sizes) if s != self.me and h >= left and h > 0
            )
            return givers * D.GUARD_TOWER_GIFT * card * 0.6
        if building is _B.FORTUNE_TELLER:
            return self.look_value(amount)
        if building is _B.PIED_PIPER:
            return amount * KEEP[D.FLUTE]
        if building is _B.PALACE:
            return amount * VP_TOKEN
        if building is _B.TREASURY:
            return amount * KEEP[D.GOLD]
        return 0.0


class HeuristicBot:
    """Scores a bounded set of sensible moves with :class:`_Ctx` and plays the best one."""

    kind = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        space = view.legal()
        if len(space) == 1:
            return space[0]
        d = view.decision
        assert d is not None
        ctx = _Ctx(view)
        kind = space.kind
        if kind is DecisionKind.SUPPLY:
            return self._supply(ctx)
        if kind is DecisionKind.ENTER:
            return self.best_enter(ctx, view)[0][1]
        if kind is DecisionKind.GIVE:
            return Give(tuple(sorted(self._cheapest(ctx, ctx.hand, d.count))))
        if kind is DecisionKind.DISCARD:
            return self._hospital(ctx, d.count)
        if kind is DecisionKind.LOOK:
            return Look(self._positions(ctx, d.count))
        if kind is DecisionKind.CHOOSE_PLAYER:
            return ChoosePlayer(self._victim(ctx, d.candidates, d.reason))
        if kind is DecisionKind.ACTION:
            return TakeAction() if self.take_value(ctx) >= 0 else DeclineAction()
        return space[self.rng.randrange(len(space))]

    # --- taking or declining an action (ruling 17) ------------------------------------------

    def take_value(self, ctx: _Ctx) -> float:
        """What taking the offered action is worth over declining it, in VP equivalents: the
        cards' keep values minus what a bigger hand costs. A bigger hand is a liability where
        it can be taken: a Guard Tower premium later in this row whose player this seat's hand
        would newly reach (3 cards lost to an opponent), and the Swords other players are known
        to hold (each extra card loses half a card to the Sword winner, who gains it)."""
        v = ctx.view
        d = v.decision
        assert d is not None and d.building is not None
        building = D.face_building(v.row[d.building])
        count = d.count
        face = _TAKEN_FACE.get(building)
        if face is not None:
            gain = count * ctx.keep(face)
        else:  # population cards drawn, or the Guard Tower's gifts
            per = ctx.keep(0)
            if ctx.hand_sizes[ctx.me] >= BIG_HAND:
                per *= 0.6  # more cards than can be played: mostly rats waiting to happen
            gain = count * per
        size = ctx.hand_sizes[ctx.me]
        cost = 0.0
        for b in range(d.building + 1, len(v.row)):
            if D.face_building(v.row[b]) is not _B.GUARD_TOWER or not v.occupants[b]:
                continue
            # Its likely premium player: the most cards laid, the first in on a tie.
            top = max(v.occupants[b], key=lambda sc: sc[1])[0]
            if top != ctx.me and size < ctx.hand_sizes[top] <= size + count:
                cost += D.GUARD_TOWER_GIFT * POP_KEEP * GIFT_SWING
        swords = sum(faces.count(D.SWORD) for faces in v.known_in_hands.values())
        if swords and ctx.rounds_after >= 1:
            cost += count * POP_KEEP * min(1.0, SWORD_THREAT * swords)
        return gain - cost + self._noise()

    # --- helpers ---------------------------------------------------------------------------

    def _noise(self) -> float:
        return self.rng.random() * 1e-6

    def _cheapest(self, ctx: _Ctx, cards: list[int], count: int) -> list[int]:
        order = sorted(cards, key=lambda f: (ctx.keep(f), self._noise()))
        return order[:count]

    def _positions(self, ctx: _Ctx, count: int) -> tuple[int, ...]:
        """Unseen nun-row positions first (random among them), then seen ones."""
        unseen = list(ctx.unseen_positions)
        self.rng.shuffle(unseen)
        rest = [p for p in range(D.NUN_ROW) if p not in unseen]
        return tuple(sorted((unseen + rest)[:count]))

    def _victim(self, ctx: _Ctx, candidates: tuple[int, ...], reason: str) -> int:
        """Sword: the tied player with the biggest hand gives; Flute: the rat goes to the
        player most dangerous to this seat (most influence)."""
        if reason == "sword":
            key = [ctx.hand_sizes[s] for s in candidates]
        else:
            key = [sum(ctx.influence[k][s] for k in range(6)) for s in candidates]
        best = max(key)
        tied = [s for s, k in zip(candidates, key, strict=True) if k == best]
        return tied[self.rng.randrange(len(tied))]

    def _supply(self, ctx: _Ctx) -> Supply:
        best: tuple[float, Supply] | None = None
        for i, face in enumerate(ctx.view.row):
            a = D.face_supply(face)
            value = a.draw * POP_KEEP - ctx.rat_cost(-a.rats) + ctx.look_value(a.looks)
            value += self._noise()
            if best is None or value > best[0]:
                best = (value, Supply(i, self._positions(ctx, a.looks) if a.looks else ()))
        assert best is not None
        return best[1]

    def _hospital(self, ctx: _Ctx, most: int) -> Discard:
        """Discard hand cards while a rat less is worth more than the card."""
        chosen: list[int] = []
        order = sorted(ctx.hand, key=lambda f: (ctx.keep(f), self._noise()))
        for f in order[:most]:
            k = len(chosen)
            gain = ctx.rat_cost(-k) - ctx.rat_cost(-(k + 1))
            if gain <= ctx.keep(f):
                break
            chosen.append(f)
        return Discard(tuple(sorted(chosen)))

    # --- entering --------------------------------------------------------------------------

    def _premium_chance(self, ctx: _Ctx, b: int, played: int) -> float:
        """Chance of taking the premium of row building ``b`` with ``played`` population and
        joker cards (others' face-down counts are upper bounds of theirs)."""
        v = ctx.view
        occupants = v.occupants
        later = max(0, len(v.queue) - 1)
        if ctx.n == 2:
            other = 1 - ctx.me
            if v.entered[other] >= 0:
                return 1.0 if played > len_laid(occupants, other) else 0.0
            guess = 0.4 * ctx.hand_sizes[other] + 0.5
            return 1.0 / (1.0 + math.exp(-(played - guess) * 1.2))
        here = [c for _, c in occupants[b]]
        if here and played <= max(here):
            return 0.0
        beat = max(0.0, 0.55 - 0.12 * played)
        return float((1.0 - beat / len(v.row)) ** later)

    def best_enter(self, ctx: _Ctx, view: PlayerView) -> list[tuple[float, Move]]:
        """Candidate phase-C moves, best first, with their scores."""
        hand = ctx.hand
        playable = [f for f in hand if f not in (D.GOLD, D.PASS)]
        jokers = [f for f in playable if f == D.JOKER]
        swords = [f for f in playable if f == D.SWORD]
        flutes = [f for f in playable if f == D.FLUTE]
        pops = [f for f in playable if f < D.JOKER]
        left_total = len(hand)
        occupants = view.occupants
        scored: list[tuple[float, Move]] = []
        for b, face in enumerate(view.row):
            building = D.face_building(face)
            klass = building.klass
            mine = ctx.influence[klass][ctx.me]
            base_track = ctx.track_value(klass, mine, False)
            same = [f for f in pops if f // 5 == klass]
            # Off-class cards: lay first those of classes this seat holds many of.
            per_class = Counter(f // 5 for f in pops)
            off = sorted(
                (f for f in pops if f // 5 != klass),
                key=lambda f: (-per_class[f // 5], self._noise()),
            )
            order = same + jokers + off
            others_here = [s for s, _ in occupants[b]]
            sets: list[list[int]] = [order[:m] for m in range(len(order) + 1)]
            best_m = 0
            best_v = -1e9
            values: list[float] = []
            for cards in sets:
                val = self._enter_value(ctx, b, building, cards, mine, base_track, left_total)
                values.append(val)
                if val > best_v:
                    best_v, best_m = val, len(cards)
            for cards, val in zip(sets, values, strict=True):
                scored.append((val + self._noise(), Enter(b, tuple(sorted(cards)))))
            # Swords and Flutes matter where somebody is already inside.
            extras: list[list[int]] = []
            if swords:
                extras.append(swords[:1])
            if flutes:
                extras.append(flutes[:1])
            if swords and flutes:
                extras.append(swords[:1] + flutes[:1])
            for extra in extras:
                cards = order[:best_m] + extra
                val = values[best_m]
                val -= sum(ctx.keep(f) for f in extra)
                if D.SWORD in extra:
                    loot = max((ctx.hand_sizes[s] // 2 for s in others_here), default=0)
                    val += (0.75 * loot * POP_KEEP) if others_here else 0.1
                if D.FLUTE in extra:
                    val += (-0.7 * ctx.rat_cost(-1)) if others_here else 0.1
                scored.append((val + self._noise(), Enter(b, tuple(sorted(cards)))))
        if self._want_pass(ctx, view):
            scored.append((1e6, PlayPass()))
        scored.sort(key=lambda t: -t[0])
        return scored

    def _enter_value(
        self,
        ctx: _Ctx,
        b: int,
        building: D.Building,
        cards: list[int],
        mine: int,
        base_track: float,
        hand_size: int,
    ) -> float:
        klass = building.klass
        played = sum(1 for f in cards if f <= D.JOKER)
        rats = sum(1 for f in cards if f < D.JOKER and f // 5 != klass)
        left = hand_size - len(cards)
        value = ctx.track_value(klass, mine + played, played > 0) - base_track
        value -= ctx.rat_cost(rats)
        value -= sum(ctx.keep(f) for f in cards)
        p = self._premium_chance(ctx, b, played)
        if ctx.late:
            value += p * (
                ctx.track_value(klass, mine + played + 1, True)
                - ctx.track_value(klass, mine + played, played > 0)
            )
        else:
            prem = ctx.action_value(building, True, played, left)
            std = ctx.action_value(building, False, played, left)
            value += p * prem + (1.0 - p) * std
        return value

    def _want_pass(self, ctx: _Ctx, view: PlayerView) -> bool:
        """Pass to see where the others go, while keeping one Pass for the end majority."""
        passes = ctx.hand.count(D.PASS)
        waiting = len(view.queue)
        if passes == 0 or waiting < 2:
            return False
        if passes >= 2:
            return True
        nobody_in = all(e < 0 for e in view.entered)
        return waiting >= 3 and ctx.rounds_after >= 1 and nobody_in


def len_laid(occupants: list[list[tuple[int, int]]], seat: int) -> int:
    """Cards ``seat`` laid this round (0 if he has not entered)."""
    for here in occupants:
        for s, c in here:
            if s == seat:
                return c
    return 0
