"""Phase D of Rattus Cartus: the buildings of the row resolve, one after the other.

For each building: the face-down cards are opened and turned up, they bring influence and
rats, the Swords and the Flutes are compared, the premium and the standard actions are
taken (or declined, ruling 17: only actions that bring cards are offered), then the played
cards go back. Every step is a task of the game's stack (``state.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.moves import DecisionKind
from rattus_net.games.cartus.state import CartusState, Decision, Task
from rattus_net.kit.errors import CheatDetected, TableMisuse
from rattus_net.kit.table import Open

# Actions that take cards from a supply pile (ruling 17: they may be declined).
SUPPLY_TAKEN = {
    D.Building.MARKETPLACE: D.JOKER,
    D.Building.OFFICE: D.PASS,
    D.Building.CASTLE: D.SWORD,
    D.Building.PIED_PIPER: D.FLUTE,
    D.Building.TREASURY: D.GOLD,
}


class Resolve(CartusState):
    """Resolving the row's buildings (phase D)."""

    def _open_tasks(self, seats: tuple[int, ...]) -> list[Task]:
        """Ask the table for the handles of face-down cards this peer has not seen."""
        return [(Resolve._t_open, (s,)) for s in seats if self.hidden[s]]

    def _t_open(self, seat: int) -> None:
        if self.hidden[seat]:
            self.pending = Open(seat, self.hidden[seat])

    def _open_hidden(self, req: Open, value: object) -> None:
        """The table opened a hidden play: the cards must be distinct and in the hand."""
        seat = req.seat
        if not isinstance(value, list | tuple) or not all(isinstance(h, int) for h in value):
            raise TableMisuse("an opening is answered with the laid handles")
        handles = list(value)
        hand = self.hands[seat]
        if len(handles) != req.number or len(set(handles)) != len(handles):
            raise CheatDetected(
                seat, f"{self.name(seat)} opened {len(handles)} card(s), not {req.number}"
            )
        if any(h not in hand for h in handles):
            raise CheatDetected(seat, f"{self.name(seat)} opened cards he does not hold")
        self._remove_from_hand(seat, handles)
        self.laid[seat] = handles
        self.hidden[seat] = 0
        self._opened.add(seat)

    def _t_reveal_laid(self, seats: tuple[int, ...]) -> None:
        self._reveal([h for s in seats for h in self.laid[s]], None)

    def _t_two_player_premium(self) -> None:
        counts = [self.pop_jokers(self.laid[s]) for s in range(2)]
        if counts[0] != counts[1]:
            self.premium_2p = 0 if counts[0] > counts[1] else 1
        else:
            self.premium_2p = 0 if self.entry_seq[0] < self.entry_seq[1] else 1

    def _t_resolve_building(self, i: int) -> None:
        seats = tuple(self.entry_order[i])
        self.emit("resolve", None, building=i)
        if not seats:
            return
        self._then(
            *self._open_tasks(seats),
            *self._mixing(),  # hands that gained while their play lay face down
            (Resolve._t_reveal_laid, (seats,)),
            (Resolve._t_apply_cards, (i,)),
            (Resolve._t_majority, (i, D.SWORD, "sword")),
            (Resolve._t_majority, (i, D.FLUTE, "flute")),
            (Resolve._t_actions, (i,)),
            (Resolve._t_discard_played, (i,)),
            *self._mixing(),
        )

    def _t_apply_cards(self, i: int) -> None:
        klass = self.building_at(i) // 2  # the class of a building
        faces = self.faces
        for s in self.entry_order[i]:
            if s in self._opened and any(faces[h] in (D.GOLD, D.PASS) for h in self.laid[s]):
                raise CheatDetected(s, f"{self.name(s)} laid Gold or a Pass face down")
        for s in self.entry_order[i]:
            laid = [faces[h] for h in self.laid[s]]
            self.emit("reveal", s, building=i, cards=sorted(laid))
            influence = sum(1 for f in laid if f <= D.JOKER)
            rats = sum(1 for f in laid if f < D.JOKER and f // 5 != klass)
            self._gain_influence(s, klass, influence)
            self._gain_rats(s, rats, "cards")

    def _majority(self, i: int, face: int) -> tuple[int, list[int]] | None:
        """For Swords or Flutes in building ``i``: the seat with most (first entered wins a
        tie) and the seats with fewest; ``None`` if everybody laid the same number."""
        seats = self.entry_order[i]
        faces = self.faces
        counts = [sum(1 for h in self.laid[s] if faces[h] == face) for s in seats]
        hi, lo = max(counts), min(counts)
        if hi == lo:
            return None
        winner = seats[counts.index(hi)]
        return winner, [s for s, c in zip(seats, counts, strict=True) if c == lo]

    def _t_majority(self, i: int, face: int, reason: str) -> None:
        """The Sword or the Flute (``reason``, played as ``face``) in row building ``i``: the
        player with the most acts on the one with the fewest (:data:`MAJORITY_STEPS`), whom he
        chooses when several tie."""
        m = self._majority(i, face)
        if m is None:
            return
        winner, fewest = m
        if len(fewest) == 1:
            self._then((MAJORITY_STEPS[reason], (i, winner, fewest[0])))
        else:
            self.pending = Decision(
                DecisionKind.CHOOSE_PLAYER,
                (winner,),
                candidates=tuple(fewest),
                reason=reason,
                building=i,
            )

    def _t_sword_give(self, i: int, winner: int, giver: int) -> None:
        k = len(self.hands[giver]) // 2  # ruling 9.5: the hand when the Sword resolves
        self.emit("sword", winner, giver=giver, count=k, building=i)
        if k:
            self.pending = Decision(
                DecisionKind.GIVE, (giver,), count=k, to=winner, reason="sword", building=i
            )

    def _t_flute_rat(self, i: int, giver: int, receiver: int) -> None:
        moved = 1 if self.rats[giver] > 0 else 0  # ruling 9.6
        self.rats[giver] -= moved
        self.rats[receiver] += moved
        self.emit("flute", giver, receiver=receiver, moved=moved)  # (no building: i unused)

    def premium_seat(self, i: int) -> int | None:
        """Who takes the premium of row building ``i`` (its cards must be turned up)."""
        seats = self.entry_order[i]
        if not seats:
            return None
        if self.n == 2:
            return self.premium_2p if self.premium_2p in seats else None
        counts = [self.pop_jokers(self.laid[s]) for s in seats]
        return seats[counts.index(max(counts))]  # a tie goes to whoever entered first

    def _t_actions(self, i: int) -> None:
        prem = self.premium_seat(i)
        klass = self.building_at(i) // 2  # the class of a building
        if self.last_round:
            if prem is not None:
                self.emit("last-round-premium", prem, building=i)
                self._gain_influence(prem, klass, 1)
            return
        order = [s for s in self.entry_order[i] if s != prem]
        tasks: list[Task] = [(Resolve._t_action, (i, s, False)) for s in order]
        if prem is not None:
            tasks.insert(0, (Resolve._t_action, (i, prem, True)))
        self._then(*tasks)

    def _t_action(self, i: int, seat: int, premium: bool) -> None:
        """Offer the action, or carry it out when declining it could never help (ruling 17:
        only actions that bring cards are offered, and only when they would bring some)."""
        offer = self.action_offer(i, seat, premium)
        if offer:
            self.pending = Decision(
                DecisionKind.ACTION,
                (seat,),
                count=offer,
                reason="premium" if premium else "standard",
                building=i,
            )
            return
        self._t_take_action(i, seat, premium)

    def action_offer(self, i: int, seat: int, premium: bool) -> int:
        """How many cards ``seat``'s action in row building ``i`` would bring him if he may
        decline it (ruling 17: population cards, jokers, specials, Gold, the Guard Tower
        premium's gifts); 0 for an action taken without asking. Reads public state only, so
        every peer asks the same question."""
        b = self.building_at(i)
        B = D.Building
        amount = D.PREMIUM_AMOUNT if premium else D.STANDARD_AMOUNT
        left = len(self.deck) + len(self.discard)
        if b is B.FARM:
            return min(D.FARM_DRAW[0 if premium else 1], left)
        if b is B.BREWERY:
            played = self.pop_jokers(self.laid[seat])  # ruling 9.9
            return min(played if premium else played // 2, left)
        face = SUPPLY_TAKEN.get(b)
        if face is not None:
            return min(amount, len(self.supply[face]))
        if b is B.GUARD_TOWER and premium:
            gift = D.GUARD_TOWER_GIFT
            return sum(min(self.hand_size(s), gift) for s in self._guard_givers(seat))
        return 0

    def _t_take_action(self, i: int, seat: int, premium: bool) -> None:
        b = self.building_at(i)
        self.emit("action", seat, building=i, premium=premium)
        amount = D.PREMIUM_AMOUNT if premium else D.STANDARD_AMOUNT
        B = D.Building
        if b is B.FARM:
            self._then((CartusState._t_draw, (seat, D.FARM_DRAW[0 if premium else 1])))
        elif b is B.BREWERY:
            played = self.pop_jokers(self.laid[seat])  # ruling 9.9
            self._then((CartusState._t_draw, (seat, played if premium else played // 2)))
        elif b is B.MARKETPLACE:
            self._take_supply(seat, D.JOKER, amount)
        elif b is B.OFFICE:
            self._take_supply(seat, D.PASS, amount)
        elif b is B.MONASTERY:
            self._lose_rats(seat, amount, "monastery")
        elif b is B.HOSPITAL:
            if premium:
                self._lose_rats(seat, D.HOSPITAL_PREMIUM_RATS, "hospital")
            limit = D.HOSPITAL_CARD_LIMIT[0 if premium else 1]
            most = min(limit, len(self.hands[seat]), self.rats[seat])  # ruling 9.15
            if most > 0:
                self.pending = Decision(
                    DecisionKind.DISCARD, (seat,), count=most, reason="hospital", building=i
                )
        elif b is B.CASTLE:
            self._take_supply(seat, D.SWORD, amount)
        elif b is B.GUARD_TOWER:
            if premium:
                self._guard_tower(i, seat)
        elif b is B.FORTUNE_TELLER:
            self.pending = Decision(
                DecisionKind.LOOK, (seat,), count=amount, reason="tent", building=i
            )
        elif b is B.PIED_PIPER:
            self._take_supply(seat, D.FLUTE, amount)
        elif b is B.PALACE:
            self.vp[seat] += amount
            self.emit("vp", seat, delta=amount)
        elif b is B.TREASURY:
            self._take_supply(seat, D.GOLD, amount)

    def _guard_tower(self, i: int, seat: int) -> None:
        """Guard Tower premium: sizes are compared before anyone gives (ruling 9.7)."""
        givers = self._guard_givers(seat)
        self.emit("guard-tower", seat, givers=givers, building=i)
        self._then(*[(Resolve._t_guard_give, (i, s, seat)) for s in givers])

    def _guard_givers(self, seat: int) -> list[int]:
        """Who must give to ``seat``'s Guard Tower premium, in giving order: every player who
        entered no Guard Tower and holds at least as many cards as ``seat``."""
        protected = {
            s
            for s in range(self.n)
            if self.entered[s] >= 0 and self.building_at(self.entered[s]) is D.Building.GUARD_TOWER
        }
        size = self.hand_size(seat)
        return [
            s for s in self.turn_order(seat)[1:] if s not in protected and self.hand_size(s) >= size
        ]

    def _t_guard_give(self, i: int, giver: int, to: int) -> None:
        size = self.hand_size(giver)
        if size == 0:
            return
        if size <= D.GUARD_TOWER_GIFT and self.entered[giver] <= i:
            # He gives all he holds: nothing to choose. (A giver whose face-down cards wait
            # in a later building still chooses, because a peer that cannot see them cannot
            # tell which cards "all the rest" are.)
            self._transfer(giver, to, list(self.hands[giver]), "guard tower")
            return
        self.pending = Decision(
            DecisionKind.GIVE,
            (giver,),
            count=min(size, D.GUARD_TOWER_GIFT),
            to=to,
            reason="guard tower",
            building=i,
        )

    def _t_discard_played(self, i: int) -> None:
        for s in self.entry_order[i]:
            for h in self.laid[s]:
                self._return_card(h)
            self.laid[s] = []


MAJORITY_STEPS: dict[str, Callable[..., None]] = {
    "sword": Resolve._t_sword_give,
    "flute": Resolve._t_flute_rat,
}
"""What a Sword or Flute majority does, by reason: ``step(game, building, winner, fewest)``
(the Sword: the fewest gives the winner half his hand; the Flute: the winner passes him a
rat)."""
