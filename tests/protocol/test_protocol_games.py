"""Whole secure games of Rattus Cartus over an in-memory network: identical at every peer, the
local game of the same seed, and the information audit (each peer learns exactly what it is
entitled to; no played card can be linked to what a peer saw)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from recordkit import public_state, random_chooser, table
from sessionkit import Played, play

from protocol.audit import (
    computable_faces,
    entitled_handles,
    known_by_mixing,
    linkage_violations,
    played_handles,
    retired_handles,
)
from protocol.memnet import MemoryNetwork
from protocol.session import Session
from protocol.verify import verify_record
from rattus_net.games.cartus.config import GameConfig
from rattus_net.games.cartus.record import GameRecord


@pytest.fixture(scope="module")
def two() -> Played:
    return play(2, 11)


@pytest.fixture(scope="module")
def three() -> Played:
    return play(3, 12, simultaneous=True)


# --- whole games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["two", "three"])
def test_a_secure_game_finishes_identically_at_every_peer(
    which: str, request: pytest.FixtureRequest
) -> None:
    p: Played = request.getfixturevalue(which)
    peers = p.net.peers
    assert all(s.finished and s.abort is None for s in peers)
    assert all(s.transcript == peers[0].transcript for s in peers)
    for s in peers:
        assert s.game is not None and s.game.is_over
        assert public_state(s.game) == public_state(s.public) == public_state(peers[0].public)
        assert s.game.result.totals == p.local.result.totals


@pytest.mark.parametrize("which", ["two", "three"])
def test_the_secure_game_is_the_local_game_of_the_same_seed(
    which: str, request: pytest.FixtureRequest
) -> None:
    p: Played = request.getfixturevalue(which)
    verdict = verify_record(p.record)
    assert verdict.fair, verdict.text()
    assert verdict.engine_record is not None
    local = GameRecord.from_game(p.local, p.local_table).to_dict()
    assert verdict.engine_record.to_dict() == local
    game, _ = GameRecord.loads(verdict.engine_record.dumps()).replay()
    assert game.result.totals == p.local.result.totals


@pytest.mark.parametrize("which", ["two", "three"])
def test_information_audit_each_peer_computes_exactly_its_entitlement(
    which: str, request: pytest.FixtureRequest
) -> None:
    p: Played = request.getfixturevalue(which)
    observer = Session(p.params, None)
    for frame in p.net.peers[0].transcript:
        observer.receive(frame, 0.0)
    assert observer.finished
    truth = observer.all_faces()
    for seat, peer in enumerate(p.net.peers):
        secret = peer._elg
        assert secret is not None
        can = computable_faces(observer, seat, secret)
        assert set(can) == entitled_handles(observer, seat)
        assert all(truth[h] == f for h, f in can.items())
        # The peer's own engine knows exactly those masked cards (plus public supply cards),
        # and the cards of its own mixed hands (from its permutation), apart from the handles
        # that left the game when their hand was mixed.
        assert peer.game is not None
        masked_known = {h for h in peer.game.faces if h in observer.cards}
        mixed = known_by_mixing(observer, seat)
        assert masked_known == (set(can) | mixed) - retired_handles(observer)
        assert all(peer.my_faces[h] == truth[h] for h in mixed)
    # Nobody ever learns the rest of the deck before the keys are published.
    assert observer.public.deck
    for seat, peer in enumerate(p.net.peers):
        assert peer._elg is not None
        known = computable_faces(observer, seat, peer._elg)
        assert not any(h in known for h in observer.public.deck)


@pytest.mark.parametrize("which", ["two", "three"])
def test_audit_no_card_played_from_a_hand_can_be_linked_to_what_a_peer_saw(
    which: str, request: pytest.FixtureRequest
) -> None:
    p: Played = request.getfixturevalue(which)
    observer = p.net.peers[0]
    played = played_handles(observer)
    assert sum(len(hs) for _, _, hs in played) > 0
    # Hands were mixed, among them hands holding cards taken openly from a supply pile.
    mixes = observer.record.mixes
    assert mixes and any(h not in observer.cards for _, _, old, _ in mixes for h in old)
    assert observer.ops["mixes_verified"] == sum(1 for m in mixes if m[1] != 0)  # others' mixes
    assert linkage_violations(observer) == []


def test_the_linkage_audit_sees_the_leak_of_a_game_without_mixing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rattus_net.games.cartus.secure import CartusSecure

    def no_mixing(self: CartusSecure, config: GameConfig) -> GameConfig:
        return replace(config, mix_hands=False)

    monkeypatch.setattr(CartusSecure, "secure_config", no_mixing)
    params, secrets = table(3, 12, simultaneous=True)
    net = MemoryNetwork(params, secrets)
    net.run(random_chooser(3, 12))
    observer = net.peers[0]
    assert observer.finished and not observer.record.mixes
    problems = linkage_violations(observer)
    assert any("public face" in p for p in problems)  # a card taken openly, then played
    assert any("keeps a handle" in p for p in problems)


@pytest.mark.parametrize(("kind", "n", "seed"), [("heuristic", 2, 4), ("random", 3, 2)])
def test_selfplay_with_mixed_hands_is_the_local_game(kind: str, n: int, seed: int) -> None:
    # The secure game mixes hands (its peers' hands are in an order only they know); the local
    # game does not: faces, moves, card order and scores are the same, with searching bots too.
    from rattus_net.kit.registry import get_game
    from rattus_net.selfplay import play_game, play_secure_game

    cartus = get_game("cartus")
    local = play_game(cartus, n, seed, [kind], {})
    secure = play_secure_game(cartus, n, seed, [kind], {})
    verdict = verify_record(secure.record)
    assert verdict.fair and verdict.mixes_verified > 0 and verdict.engine_record is not None
    assert (
        verdict.engine_record.to_dict() == GameRecord.from_game(local.game, local.table).to_dict()
    )
    assert secure.game.result.totals == local.game.result.totals


def test_a_five_player_secure_game() -> None:
    p = play(5, 3)
    assert all(s.finished for s in p.net.peers)
    assert p.net.peers[4].game is not None
    assert p.net.peers[4].game.result.totals == p.local.result.totals


def test_offered_actions_travel_as_moves_taken_and_declined(two: Played, three: Played) -> None:
    """Ruling 17: taking or declining an offered action is a signed move like any other; the
    random players of these games did both, and the games verified (tests above)."""
    from rattus_net.games.cartus.moves import DeclineAction, TakeAction

    for p in (two, three):
        moves = [m for _, m in p.net.peers[0].public.history]
        assert TakeAction() in moves and DeclineAction() in moves
        assert moves == [m for _, m in p.net.peers[1].public.history]
