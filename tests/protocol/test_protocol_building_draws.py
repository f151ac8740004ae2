"""The building pile by commit-reveal: no masking, no shuffle; each row (and each replacement
card) is one commit-reveal round among all peers, drawn from the building cards left."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from recordkit import random_chooser, table
from sessionkit import kind_of

from protocol.errors import ProofError
from protocol.memnet import MemoryNetwork
from protocol.messages import RAND_COMMIT, RAND_REVEAL, SHUFFLE
from protocol.params import GameParams, PeerSecrets
from protocol.randomness import RandomStream
from protocol.seeded import SeededChance
from protocol.session import PeerFault, Session
from protocol.verify import verify_record
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.record import GameRecord
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end
from rattus_net.kit.table import Reveal


def building_events(g: Game) -> list[tuple[str, object]]:
    return [(e[0], e[2]) for e in g.log if e[0] in ("row", "replace")]


def cheat_stream(
    peer: Session, draw: int, only_reveal: bool
) -> Callable[[bytes, int], RandomStream]:
    """``peer``'s secret streams, except its secret for building draw ``draw``: another one
    (at both steps, or only when it reveals)."""
    honest = peer.state._stream

    def stream(label: bytes, index: int) -> RandomStream:
        st = peer.step
        revealing = st is not None and st.kind == RAND_REVEAL
        if label == b"building" and index == draw and (revealing or not only_reveal):
            return RandomStream(b"another secret".ljust(32, b"."))
        return honest(label, index)

    return stream


@pytest.mark.parametrize(("n", "seed"), [(2, 2), (3, 2)])
def test_building_cards_are_those_of_the_local_game_of_the_same_seed(n: int, seed: int) -> None:
    params, secrets = table(n, seed)
    net = MemoryNetwork(params, secrets)
    frames: list[str] = []
    net.tamper = lambda s, r, f: (frames.append(kind_of(f)), f)[1]
    net.run(random_chooser(n, seed))
    local = Game(params.config)
    ltable = LocalTable(seed, chance_source=SeededChance(params, secrets))
    play_to_end(local, ltable, random_chooser(n, seed))
    peer = net.peers[0]
    assert peer.finished and peer.abort is None
    # The same rows and replacement cards (these seeds replace at least one card).
    assert building_events(peer.public) == building_events(local)
    assert any(kind == "replace" for kind, _ in building_events(local))
    for handles, faces in peer.record.draws:
        assert tuple(ltable.face_of[h] for h in handles) == faces
    # Only the population deck was shuffled with proofs; no building card is masked.
    assert frames.count(SHUFFLE) == n * (n - 1) * len(
        [p for p, _, _ in peer.record.shuffles if p != "buildings"]
    )
    building = next(h for p, _, h in peer.record.shuffles if p == "buildings")
    assert not set(building) & set(peer.cards)
    # One commit-reveal round per row and per replacement card.
    assert peer.ops["draws"] == len(building_events(local)) == len(peer.record.draws)
    verdict = verify_record(peer.record_bytes())
    assert verdict.fair, verdict.text()
    assert verdict.draws == len(peer.record.draws)
    assert "building draws" in verdict.text()
    assert verdict.engine_record is not None
    assert verdict.engine_record.to_dict() == GameRecord.from_game(local, ltable).to_dict()


def test_the_local_table_keeps_working_without_a_chance_source_and_with_scripts() -> None:
    params, _secrets = table(3, 4)
    a = play_to_end(Game(params.config), ta := LocalTable(7), random_chooser(3, 7))
    rec = GameRecord.from_game(a, ta)
    b, _ = rec.replay()  # scripted: the record fixes the building order
    assert building_events(b) == building_events(a)
    assert b.result.totals == a.result.totals


def test_a_building_reveal_not_matching_its_commitment_names_the_peer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    params, secrets = table(3, 4)
    net = MemoryNetwork(params, secrets, timeout=5.0)
    net.keep_going = True
    cheater = net.peers[1]
    monkeypatch.setattr(cheater.state, "_stream", cheat_stream(cheater, 1, only_reveal=True))
    net.run(random_chooser(3, 4))
    for s in (0, 2):
        abort = net.peers[s].abort
        assert abort is not None and abort.blamed == 1, abort
        assert "does not match its commitment" in abort.reason
    assert len(net.peers[0].record.draws) == 1  # the first row was drawn, the second not
    assert any(isinstance(e, PeerFault) and e.seat == 1 for _, e in net.errors)
    verdict = verify_record(net.peers[0].record_bytes())
    assert not verdict.fair and verdict.cheater == 1
    assert "does not match its commitment" in verdict.reason


def test_a_reveal_is_checked_against_the_commitment_of_its_draw() -> None:
    # A reveal bound to another draw's context does not open this draw's commitment.
    from protocol.randomness import CommitReveal
    from protocol.randomness import commitment as rand_commitment
    from protocol.session import draw_context

    gid = bytes(32)
    secret = bytes(range(32))
    rounds = CommitReveal(("a", "b"), draw_context(gid, 1, (5, 6)))
    rounds.add_commitment("a", rand_commitment(secret, "a", draw_context(gid, 0, (5, 6))))
    rounds.add_commitment("b", bytes(32))
    with pytest.raises(ProofError):
        rounds.add_reveal("a", secret)


def pending_draw_state(net: MemoryNetwork, draw: int) -> tuple[Session, tuple[int, ...]]:
    """Deliver until every peer committed to building draw ``draw``; the observer's view then."""
    choose = random_chooser(net.params.n, 5)
    peer = net.peers[0]
    while True:
        st = peer.step
        drawing = st is not None and st.kind == RAND_REVEAL and isinstance(st.info, dict)
        if drawing and peer._draws == draw:
            assert st is not None
            return peer, st.info["draw"]
        if net.deliver_one():
            continue
        mover = next(s for s, p in enumerate(net.peers) if p.needs_decision)
        game = net.peers[mover].game
        assert game is not None
        net.peers[mover].decide(choose(game, mover), net.now)
        net._collect()


def test_a_row_cannot_be_predicted_before_its_reveals(monkeypatch: pytest.MonkeyPatch) -> None:
    draw = 1  # round 2's row

    def game(other_secret: bool) -> tuple[MemoryNetwork, GameParams, list[PeerSecrets]]:
        params, secrets = table(3, 5)
        net = MemoryNetwork(params, secrets)
        if other_secret:
            p = net.peers[2]
            monkeypatch.setattr(p.state, "_stream", cheat_stream(p, draw, only_reveal=False))
        return net, params, secrets

    net_a, _, _ = game(False)
    net_b, _, _ = game(True)
    peer_a, handles = pending_draw_state(net_a, draw)
    peer_b, handles_b = pending_draw_state(net_b, draw)
    assert handles == handles_b
    # Every commitment is in; nobody holds anything that fixes the row: the cards are not
    # decided, every building card not placed is still possible, and the sessions differ only
    # by seat 2's commitment.
    for peer in (peer_a, peer_b):
        assert set(handles) <= peer.undecided
        assert not set(handles) & set(peer.drawn_faces)
        assert not set(handles) & set(peer.public.faces)
        assert peer.game is not None and not set(handles) & set(peer.game.faces)
        assert isinstance(peer.public.pending, Reveal)
    placed = [f for _, faces in peer_a.record.draws for f in faces]
    building = next(f for p, f, _ in peer_a.record.shuffles if p == "buildings")
    assert sorted(peer_a.pile_left + placed) == sorted(building)
    assert peer_a.pile_left == peer_b.pile_left
    assert peer_a.record.draws == peer_b.record.draws
    assert peer_a.transcript[:-3] == peer_b.transcript[:-3]  # all but the draw's commitments
    assert [kind_of(f) for f in peer_a.transcript[-3:]] == [RAND_COMMIT] * 3
    assert peer_a.transcript[-3:-1] == peer_b.transcript[-3:-1]
    # The reveals decide: one different secret (everything else equal), another row.
    net_a.run(random_chooser(3, 5))
    net_b.run(random_chooser(3, 5))
    assert net_a.peers[0].abort is None and net_b.peers[0].abort is None
    row_a = net_a.peers[0].record.draws[draw]
    row_b = net_b.peers[0].record.draws[draw]
    assert row_a[0] == row_b[0] == handles
    assert row_a[1] != row_b[1]


def test_the_building_pile_is_laid_without_messages() -> None:
    params, secrets = table(2, 3)
    net = MemoryNetwork(params, secrets)
    while net.deliver_one() or not any(p.needs_decision for p in net.peers):
        pass
    peer = net.peers[0]
    assert [p for p, _, _ in peer.record.shuffles] == ["population", "buildings"]
    assert peer.ops["shuffles_verified"] == 1  # the population deck only (the other seat's)
    assert len(peer.undecided) == len(
        next(h for p, _, h in peer.record.shuffles if p == "buildings")
    ) - len(peer.public.row)
