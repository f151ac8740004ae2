"""The players' decisions in Rattus Cartus: checking a move, then performing it.

Every decision is checked completely before the first change (``IllegalMove`` leaves the
state as it was). A move names cards by face when this peer knows the player's hand, or by
handle (``moves.HandleMove``) when it does not; a face-down play is then only a count until
the building resolves (``resolve.py``). The legal moves are listed by ``choices.py``.
"""

from __future__ import annotations

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.errors import CardNotPlayable, PassNotAllowed
from rattus_net.games.cartus.moves import (
    ChoosePlayer,
    DecisionKind,
    DeclineAction,
    Discard,
    DiscardHandles,
    Enter,
    EnterHidden,
    Give,
    GiveHandles,
    HandleMove,
    Look,
    Move,
    PassHandle,
    PlayPass,
    Supply,
    TakeAction,
)
from rattus_net.games.cartus.resolve import MAJORITY_STEPS, Resolve
from rattus_net.games.cartus.state import ENTER_DECISIONS, CartusState, Decision, Task
from rattus_net.kit.errors import (
    BadChoice,
    CardNotHeld,
    CheatDetected,
    NotYourTurn,
    WrongCount,
)


class CartusRules(Resolve):
    """The decisions of Rattus Cartus: what may be chosen, and what it does."""

    def _apply(self, d: Decision, player: int, move: Move | HandleMove) -> Move | HandleMove:
        """Check and perform a player's decision; ``move`` names cards by face (a peer that
        knows the player's hand) or, for a player whose hand this peer cannot see, by handle
        (``moves.HandleMove``)."""
        kind = d.kind
        if kind is DecisionKind.SUPPLY and isinstance(move, Supply):
            self._apply_supply(d, player, move)
        elif kind is DecisionKind.ENTER and isinstance(move, Enter):
            self._apply_enter(player, move)
        elif kind is DecisionKind.ENTER and isinstance(move, PlayPass):
            self._apply_pass(player)
        elif kind is DecisionKind.GIVE and isinstance(move, Give):
            self._apply_give(d, player, move)
        elif kind is DecisionKind.DISCARD and isinstance(move, Discard):
            self._apply_discard(d, player, move)
        elif kind is DecisionKind.LOOK and isinstance(move, Look):
            self._apply_look(d, player, move)
        elif kind is DecisionKind.CHOOSE_PLAYER and isinstance(move, ChoosePlayer):
            self._apply_choose(d, player, move)
        elif kind is DecisionKind.ACTION and isinstance(move, TakeAction | DeclineAction):
            self._apply_action(d, player, move)
        elif kind is DecisionKind.ENTER and isinstance(move, EnterHidden):
            self._apply_enter_hidden(player, move)
        elif kind is DecisionKind.ENTER and isinstance(move, PassHandle):
            self._apply_pass_handle(player, move.handle)
        elif kind is DecisionKind.GIVE and isinstance(move, GiveHandles):
            self._give_handles(d, player, list(move.handles))
        elif kind is DecisionKind.DISCARD and isinstance(move, DiscardHandles):
            self._discard_handles(d, player, list(move.handles))
        else:
            raise NotYourTurn(f"the game waits for a {kind.value} decision, not {move!r}")
        return move

    def to_handles(self, seat: int, move: Move) -> tuple[Move | HandleMove, tuple[int, ...]]:
        """For a peer that knows ``seat``'s hand: the handle-level move other peers receive,
        and the handles behind it (for ``Enter``: the secret cards to commit to and open
        later). Raises ``IllegalMove`` as ``apply`` would; changes nothing."""
        if isinstance(move, Enter):
            handles = tuple(self.check_enter(seat, move))
            return EnterHidden(move.building, len(handles)), handles
        if isinstance(move, PlayPass):
            h = self.check_pass(seat)
            return PassHandle(h), (h,)
        if isinstance(move, Give):
            handles = tuple(self._take_faces(seat, move.cards))
            return GiveHandles(handles), handles
        if isinstance(move, Discard):
            handles = tuple(self._take_faces(seat, move.cards))
            return DiscardHandles(handles), handles
        return move, ()

    def check_supply(self, seat: int, move: Supply) -> D.SupplyAction:
        """Validate a supply choice; returns the card's supply action."""
        if not 0 <= move.card < len(self.row):
            raise BadChoice(f"there is no building card {move.card + 1} in the row")
        action = D.face_supply(self.faces[self.row[move.card]])
        looks = move.looks
        if len(looks) != action.looks:
            raise WrongCount(f"this supply action looks at {action.looks} nun-row card(s)")
        if any(not 0 <= p < D.NUN_ROW for p in looks) or len(set(looks)) != len(looks):
            raise BadChoice("nun-row positions are 1 to 5, each at most once")
        return action

    def _apply_supply(self, d: Decision, seat: int, move: Supply) -> None:
        self.check_supply(seat, move)
        if not self.config.simultaneous_supply:
            self.pending = None
            self._then((CartusRules._t_do_supply, (seat, move)))
            return
        self.supply_choices[seat] = move
        waiting = tuple(s for s in d.players if s != seat)
        self.emit("supply-chosen", seat)
        if waiting:
            self.pending = Decision(DecisionKind.SUPPLY, waiting)
            return
        self.pending = None
        choices = self.supply_choices
        self._then(*[(CartusRules._t_do_supply, (s, choices[s])) for s in self.turn_order()])

    def _t_do_supply(self, seat: int, move: Supply) -> None:
        action = D.face_supply(self.faces[self.row[move.card]])
        self.emit("supply", seat, card=move.card, action=action.code)
        tasks: list[Task] = []
        if action.draw:
            tasks.append((CartusState._t_draw, (seat, action.draw)))
        if action.rats:
            tasks.append((CartusState._t_lose_rats, (seat, action.rats, "supply")))
        if move.looks:
            tasks.append((CartusState._t_look, (seat, move.looks)))
        self._then(*tasks)

    def _t_ask_enter(self) -> None:
        """The next seat to enter (phase D follows on the stack once nobody is left)."""
        if self.queue:
            self.pending = ENTER_DECISIONS[self.queue[0]]

    def check_enter(self, seat: int, move: Enter) -> list[int]:
        """Validate entering; returns the handles to lay."""
        if not 0 <= move.building < len(self.row):
            raise BadChoice(f"there is no building {move.building + 1} in the row")
        for face in move.cards:
            if face == D.GOLD or face == D.PASS:
                raise CardNotPlayable(f"{D.face_name(face)} cannot be laid face down")
            if not 0 <= face < D.FACE_COUNT:
                raise BadChoice(f"unknown card {face}")
        return self._take_faces(seat, move.cards)

    def _apply_enter(self, seat: int, move: Enter) -> None:
        handles = self.check_enter(seat, move)
        self.pending = None
        self._forget_hand(seat)
        self._remove_from_hand(seat, handles)
        self.laid[seat] = handles
        self._entered(seat, move.building, len(handles))

    def _apply_enter_hidden(self, seat: int, move: EnterHidden) -> None:
        if not 0 <= move.building < len(self.row):
            raise BadChoice(f"there is no building {move.building + 1} in the row")
        if not 0 <= move.count <= self.hand_size(seat):
            raise WrongCount(f"{self.name(seat)} cannot lay {move.count} card(s)")
        self.pending = None
        self._forget_hand(seat)
        self.hidden[seat] = move.count
        self._entered(seat, move.building, move.count)

    def _entered(self, seat: int, building: int, count: int) -> None:
        self.entered[seat] = building
        self.entry_seq[seat] = self.n - len(self.queue)
        self.entry_order[building].append(seat)
        self.queue.pop(0)
        space = len(self.entry_order[building])
        self.emit("enter", seat, building=building, count=count, space=space)
        self._then((CartusRules._t_ask_enter, ()))

    def check_pass(self, seat: int) -> int:
        """Validate a Pass (ruling 9.2); returns the Pass card's handle."""
        if len(self.queue) < 2:
            raise PassNotAllowed("no other player is left to enter: you must enter")
        for h in self.hands[seat]:
            if self.faces.get(h) == D.PASS:
                return h
        raise PassNotAllowed(f"{self.name(seat)} holds no Pass card")

    def _apply_pass(self, seat: int) -> None:
        self._pass_card(seat, self.check_pass(seat))

    def _apply_pass_handle(self, seat: int, h: int) -> None:
        if len(self.queue) < 2:
            raise PassNotAllowed("no other player is left to enter: you must enter")
        if h not in self.hands[seat]:
            raise CardNotHeld(f"{self.name(seat)} does not hold that card")
        if self.faces.get(h, D.PASS) != D.PASS:
            raise PassNotAllowed("that card is not a Pass")
        self._pass_card(seat, h)

    def _pass_card(self, seat: int, h: int) -> None:
        self.pending = None
        self.queue.append(self.queue.pop(0))
        self.emit("pass", seat)
        self._then((CartusRules._t_pass_played, (seat, h)), (CartusRules._t_ask_enter, ()))
        self._reveal((h,), None)  # a Pass is played openly

    def _t_pass_played(self, seat: int, h: int) -> None:
        if self.faces[h] != D.PASS:
            raise CheatDetected(seat, f"{self.name(seat)} played a card that is not a Pass")
        self.hands[seat].remove(h)  # only now: no card is in no place while the table works
        self.supply[D.PASS].append(h)

    def _apply_choose(self, d: Decision, seat: int, move: ChoosePlayer) -> None:
        if move.player not in d.candidates:
            raise BadChoice("choose one of the tied players")
        self.pending = None
        assert d.building is not None
        self._then((MAJORITY_STEPS[d.reason], (d.building, seat, move.player)))

    def _apply_action(self, d: Decision, seat: int, move: TakeAction | DeclineAction) -> None:
        assert d.building is not None
        premium = d.reason == "premium"
        self.pending = None
        if isinstance(move, TakeAction):
            self._then((Resolve._t_take_action, (d.building, seat, premium)))
        else:
            self.emit("decline", seat, building=d.building, premium=premium, count=d.count)

    def _apply_give(self, d: Decision, seat: int, move: Give) -> None:
        if len(move.cards) != d.count:
            raise WrongCount(f"give exactly {d.count} card(s)")
        self._give_handles(d, seat, self._take_faces(seat, move.cards))

    def _check_handles(self, seat: int, handles: list[int]) -> None:
        hand = self.hands[seat]
        if len(set(handles)) != len(handles) or any(h not in hand for h in handles):
            raise CardNotHeld(f"{self.name(seat)} does not hold those cards")

    def _give_handles(self, d: Decision, seat: int, handles: list[int]) -> None:
        if len(handles) != d.count:
            raise WrongCount(f"give exactly {d.count} card(s)")
        self._check_handles(seat, handles)
        assert d.to is not None
        self.pending = None
        self._transfer(seat, d.to, handles, d.reason)

    def _apply_discard(self, d: Decision, seat: int, move: Discard) -> None:
        if len(move.cards) > d.count:
            raise WrongCount(f"discard at most {d.count} card(s)")
        self._discard_handles(d, seat, self._take_faces(seat, move.cards))

    def _discard_handles(self, d: Decision, seat: int, handles: list[int]) -> None:
        if len(handles) > d.count:
            raise WrongCount(f"discard at most {d.count} card(s)")
        self._check_handles(seat, handles)
        self.pending = None
        if not handles:
            self.emit("hospital", seat, cards=[])
            return
        self._forget_hand(seat)
        self._then((CartusRules._t_hospital_discarded, (seat, tuple(handles))))
        self._reveal(handles, None)  # ruling 9.8: they are turned up

    def _t_hospital_discarded(self, seat: int, handles: tuple[int, ...]) -> None:
        # The cards leave the hand only now, so that while the table turns them up every
        # card is still in exactly one place.
        self._remove_from_hand(seat, list(handles))
        for h in handles:
            self._return_card(h)
        self.emit("hospital", seat, cards=sorted(self.faces[h] for h in handles))
        self._lose_rats(seat, len(handles), "hospital")

    def _apply_look(self, d: Decision, seat: int, move: Look) -> None:
        pos = move.positions
        if len(pos) != d.count:
            raise WrongCount(f"look at exactly {d.count} nun-row card(s)")
        if any(not 0 <= p < D.NUN_ROW for p in pos) or len(set(pos)) != len(pos):
            raise BadChoice("nun-row positions are 1 to 5, each at most once")
        self.pending = None
        self._then((CartusState._t_look, (seat, pos)))
