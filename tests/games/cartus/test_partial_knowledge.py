"""The engine runs on cards it may not see (architecture note, section 2).

One omniscient game on the local table is the reference. Beside it, every seat runs its own
engine that learns only what that seat is entitled to: its own draws, its nun-row looks, cards
given to it, and what is turned up for everybody. The other players' decisions reach it as
handle-level moves (``EnterHidden``, ``GiveHandles``...), and face-down plays are opened when
their building resolves. All engines must stay in lockstep and end with the same scoring.
This is exactly what the network table does, minus the cryptography.
"""

from __future__ import annotations

import random

import pytest
from recordkit import public_state

from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Enter, EnterHidden, PassHandle
from rattus_net.kit.errors import CheatDetected
from rattus_net.kit.local import LocalTable
from rattus_net.kit.table import Open, PublicRandom, Rehandle, Reveal, Shuffle


class PeerTable:
    """Answers one peer's table requests from the omniscient table, revealing to that peer
    only what it may see."""

    def __init__(self, seat: int, master: LocalTable, openings: dict[int, tuple[int, ...]]):
        self.seat = seat
        self.master = master
        self.openings = openings  # seat -> committed handles of its face-down play
        self.randoms: list[int] = []

    def answer(self, game: Game) -> None:
        req = game.pending
        if isinstance(req, Reveal):
            visible = req.to is None or req.to == self.seat
            game.answer([self.master.face_of[h] if visible else None for h in req.handles])
        elif isinstance(req, Shuffle):
            game.answer(None)
        elif isinstance(req, PublicRandom):
            game.answer(self.randoms.pop(0))
        elif isinstance(req, Open):
            game.answer(list(self.openings[req.seat]))
        elif isinstance(req, Rehandle):
            # Only the owner learns which new handle is which of his cards.
            own = req.seat == self.seat
            game.answer([self.master.face_of[h] if own else None for h in req.new])
        else:  # pragma: no cover - the game would be over
            raise AssertionError(req)


def settle_all(master: Game, mtable: LocalTable, peers: list[Game], ptables: list[PeerTable]):
    while master.pending is not None and master.decision is None:
        if isinstance(master.pending, PublicRandom):
            before = len(mtable.chance.randoms)
            mtable.answer(master)
            for t in ptables:
                t.randoms.extend(mtable.chance.randoms[before:])
        else:
            mtable.answer(master)
    for g, t in zip(peers, ptables, strict=True):
        while g.pending is not None and g.decision is None:
            t.answer(g)


class Lockstep:
    """An omniscient game beside one engine per seat, advanced together: each move is chosen
    uniformly by the acting seat's own engine (which knows its hand), applied by face there
    and on the omniscient game, and by handle on every other seat's engine."""

    def __init__(self, config: GameConfig, seed: int) -> None:
        self.rng = random.Random(seed)
        self.master, self.mtable = Game(config), LocalTable(seed)
        self.openings: dict[int, tuple[int, ...]] = {}
        self.peers = [Game(config) for _ in config.players]
        self.ptables = [PeerTable(s, self.mtable, self.openings) for s in range(len(self.peers))]
        settle_all(self.master, self.mtable, self.peers, self.ptables)

    def step(self) -> None:
        master = self.master
        seat = master.decision.players[0]
        own = self.peers[seat]
        space = legal_choices(own, seat)
        move = space[self.rng.randrange(len(space))]
        wire, handles = own.to_handles(seat, move)
        if isinstance(move, Enter):
            self.openings[seat] = handles
        master.apply(seat, move)
        for s, g in enumerate(self.peers):
            g.apply(seat, move if s == seat else wire)
        settle_all(master, self.mtable, self.peers, self.ptables)


def play_lockstep(
    n: int, seed: int, simultaneous: bool = False, mix_hands: bool = True
) -> tuple[Game, list[Game]]:
    config = GameConfig(
        GameConfig.default_names(n),
        BuildingSelection.random_cards(),
        simultaneous_supply=simultaneous,
        mix_hands=mix_hands,
    )
    ls = Lockstep(config, seed)
    while not ls.master.is_over:
        ls.step()
        for g in ls.peers:
            assert public_state(g) == public_state(ls.master)
    return ls.master, ls.peers


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_peers_with_partial_knowledge_stay_in_lockstep(n: int, seed: int) -> None:
    master, peers = play_lockstep(n, seed, simultaneous=seed == 2)
    for g in peers:
        assert g.is_over
        assert g.result == master.result


def test_a_peer_never_learns_a_face_it_may_not_know() -> None:
    master, peers = play_lockstep(4, 7)
    # At the end everything in hands and the nun row is public; the deck never is.
    for g in peers:
        assert not any(h in g.faces for h in master.deck)


def _to_first_enter(seed: int) -> tuple[Game, LocalTable, Game, PeerTable, int]:
    config = GameConfig(GameConfig.default_names(3), first_player=0)
    master, mtable = Game(config), LocalTable(seed)
    peer = Game(config)
    ptable = PeerTable(1, mtable, {})
    settle_all(master, mtable, [peer], [ptable])
    rng = random.Random(seed)
    while master.decision.kind.value != "enter":
        seat = master.decision.players[0]
        space = legal_choices(master, seat)
        move = space[rng.randrange(len(space))]
        master.apply(seat, move)
        peer.apply(seat, move)
        settle_all(master, mtable, [peer], [ptable])
    return master, mtable, peer, ptable, master.decision.players[0]


def test_opening_cards_not_held_names_the_cheater() -> None:
    master, _mtable, peer, ptable, seat = _to_first_enter(3)
    assert seat == 0
    peer.apply(0, EnterHidden(0, 2))
    # Seat 0 "opens" two cards of seat 2's hand: not his.
    ptable.openings[0] = tuple(master.hands[2][:2])
    for s in (1, 2):
        peer.apply(s, EnterHidden(1, 0))
    with pytest.raises(CheatDetected) as info:
        while peer.pending is not None and peer.decision is None:
            ptable.answer(peer)
    assert info.value.seat == 0


def test_a_pass_that_is_not_a_pass_names_the_cheater() -> None:
    master, _mtable, peer, ptable, _seat = _to_first_enter(4)
    not_a_pass = next(h for h in master.hands[0] if master.faces[h] != 33)
    peer.apply(0, PassHandle(not_a_pass))
    with pytest.raises(CheatDetected) as info:
        while peer.pending is not None and peer.decision is None:
            ptable.answer(peer)
    assert info.value.seat == 0


def test_samples_for_search_are_the_same_on_a_peer_and_on_the_local_table() -> None:
    """A search bot on its own peer (other players' face-down cards only a count) imagines
    exactly the games it would imagine beside an omniscient engine."""
    from rattus_net.games.cartus.determinize import determinize
    from rattus_net.games.cartus.view import PlayerView

    def zones(g: Game) -> tuple[object, ...]:
        return (
            tuple(tuple(g.faces[h] for h in hand) for hand in g.hands),
            tuple(tuple(g.faces[h] for h in laid) for laid in g.laid),
            tuple(g.faces[h] for h in g.deck),
            tuple(g.faces[h] for h in g.nun_row),
        )

    ls = Lockstep(GameConfig(GameConfig.default_names(4), first_player=0), 12)
    master, peers = ls.master, ls.peers
    compared = 0
    while not master.is_over and compared < 12:
        ls.step()
        me = master.decision.players[0] if master.decision else 0
        if any(peers[me].hidden):
            a = determinize(PlayerView(peers[me], me), random.Random(5))
            b = determinize(PlayerView(master, me), random.Random(5))
            assert zones(a) == zones(b)
            compared += 1
    assert compared > 0


def _faces_known_in_other_hands_at_phase_c(mix_hands: bool) -> int:
    """How many card faces in other players' hands the peers' engines know when phase C
    asks its first decision of a round (summed over the game)."""
    config = GameConfig(
        GameConfig.default_names(3), BuildingSelection.random_cards(), mix_hands=mix_hands
    )
    ls = Lockstep(config, 8)
    master, peers = ls.master, ls.peers
    known = 0
    while not master.is_over:
        d = master.decision
        if d.kind.value == "enter" and len(master.queue) == master.n:
            known += sum(
                1
                for v, g in enumerate(peers)
                for s in range(3)
                if s != v
                for h in g.hands[s]
                if h in g.faces
            )
        ls.step()
    return known


def test_mixed_hands_leave_no_handle_whose_face_others_know() -> None:
    # Without mixing, cards taken openly from the supply keep a handle everyone recognises.
    assert _faces_known_in_other_hands_at_phase_c(mix_hands=False) > 0
    # Mixed at the end of phase B, no handle in another hand has a face a peer knows.
    assert _faces_known_in_other_hands_at_phase_c(mix_hands=True) == 0
