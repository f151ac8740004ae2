"""The cheater matrix: each cheat of a peer (a wrong shuffle, mix, share or opening, a card
not held, a forged, replayed or equivocating message, a move out of turn, a stall) is
detected and its author named; nobody honest is blamed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from recordkit import equivocate_to_seat_2, public_state, random_chooser, resign
from sessionkit import assert_blamed, kind_of, setup_net

from protocol.crypto.elgamal import card_point, mask
from protocol.crypto.group import G, Scalar
from protocol.errors import ProofError, RemoteProtocolError
from protocol.memnet import MemoryNetwork
from protocol.messages import (
    MOVE,
    OPEN,
    PRIVATE_MIX,
    SHARES,
    SHUFFLE,
    SIG_DOMAIN,
    move_to_wire,
)
from protocol.params import PeerSecrets
from protocol.session import PeerFault, ReplayError
from protocol.verdict import ABORTED
from protocol.verify import verify_record
from protocol.wire import WireValue, encode_message
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Enter, EnterHidden, Move, Supply


def test_wrong_shuffle_replaced_card_is_detected() -> None:
    net, secrets = setup_net()
    joint = None

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        nonlocal joint
        if sender != 1 or kind_of(frame) != SHUFFLE:
            return frame

        def change(kind: str, body: dict[str, WireValue]) -> str:
            x = body["x"]
            assert isinstance(x, dict) and isinstance(x["d"], bytes)
            key = net.peers[0].joint
            assert key is not None
            fake = mask(card_point(0), key, Scalar.from_int(7)).to_bytes()
            x = dict(x)
            x["d"] = fake + x["d"][64:]
            body["x"] = x
            return kind

        return resign(frame, secrets[1], change)

    net.tamper = tamper
    net.run(random_chooser(3, 1))
    assert_blamed(net, 1, [0, 2])
    assert net.peers[0].abort is not None and "shuffle" in net.peers[0].abort.reason


def test_wrong_shuffle_duplicated_card_is_detected() -> None:
    net, secrets = setup_net()

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        if sender != 2 or kind_of(frame) != SHUFFLE:
            return frame

        def change(kind: str, body: dict[str, WireValue]) -> str:
            x = dict(body["x"])  # type: ignore[arg-type]
            d = x["d"]
            assert isinstance(d, bytes)
            x["d"] = d[:64] + d[:64] + d[128:]
            body["x"] = x
            return kind

        return resign(frame, secrets[2], change)

    net.tamper = tamper
    net.run(random_chooser(3, 1))
    assert_blamed(net, 2, [0, 1])


def _tamper_mixing(
    net: MemoryNetwork, secrets: list[PeerSecrets], cheater: int, edit: Callable[[bytes], bytes]
) -> list[bytes]:
    """Seat ``cheater`` signs mixed hands whose ciphertexts ``edit`` changed."""
    sent: list[bytes] = []

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        if sender != cheater or kind_of(frame) != PRIVATE_MIX:
            return frame

        def change(kind: str, body: dict[str, WireValue]) -> str:
            x = dict(body["x"])  # type: ignore[arg-type]
            d = x["d"]
            assert isinstance(d, bytes)
            x["d"] = edit(d)
            body["x"] = x
            return kind

        sent.append(resign(frame, secrets[cheater], change))
        return sent[-1]

    net.tamper = tamper
    return sent


@pytest.mark.parametrize("cheat", ["replace", "duplicate"])
def test_a_mixed_hand_that_replaces_or_duplicates_a_card_is_detected(cheat: str) -> None:
    net, secrets = setup_net()
    key: list[object] = []

    def edit(d: bytes) -> bytes:
        if cheat == "duplicate":
            return d[:64] + d[:64] + d[128:] if len(d) >= 128 else d[:64]
        joint = net.peers[0].joint
        assert joint is not None
        key.append(joint)
        # A card of the cheater's choice (a Joker-like face 0), freshly masked.
        return mask(card_point(0), joint, Scalar.from_int(7)).to_bytes() + d[64:]

    sent = _tamper_mixing(net, secrets, 1, edit)
    net.run(random_chooser(3, 1))
    assert sent, "the cheater never mixed a hand"
    assert_blamed(net, 1, [0, 2])
    for s in (0, 2):
        abort = net.peers[s].abort
        assert abort is not None and "hand mixing" in abort.reason
        assert not set(sent) & set(net.peers[s].transcript)
    verdict = verify_record(net.peers[0].record_bytes())
    assert not verdict.fair and verdict.cheater == 1 and "hand mixing" in verdict.reason


def test_bad_decryption_share_is_detected_and_state_unchanged() -> None:
    net, secrets = setup_net()
    bad: list[bytes] = []

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        if sender != 0 or kind_of(frame) != SHARES:
            return frame

        def change(kind: str, body: dict[str, WireValue]) -> str:
            x = dict(body["x"])  # type: ignore[arg-type]
            pub = list(x["p"])  # type: ignore[arg-type]
            h, share = pub[0]  # type: ignore[misc]
            pub[0] = [h, (Scalar.from_int(3) * G).data + share[32:]]
            x["p"] = pub
            body["x"] = x
            return kind

        bad.append(resign(frame, secrets[0], change))
        return bad[-1]

    net.tamper = tamper
    net.run(random_chooser(3, 1))
    assert_blamed(net, 0, [1, 2])
    for s in (1, 2):
        peer = net.peers[s]
        # The bad message was not accepted and its step was not processed.
        assert not set(bad) & set(peer.transcript)
        assert peer.step is not None and peer.step.kind == SHARES


def _to_first_open(net: MemoryNetwork, choose: Callable[[Game, int], Move]) -> None:
    """Run until some peer is about to send an opening."""

    def stop(_: MemoryNetwork) -> bool:
        return False

    del stop
    net.run(choose)


def test_opening_that_does_not_match_its_commitment() -> None:
    net, secrets = setup_net()

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        if sender != 1 or kind_of(frame) != OPEN:
            return frame

        def change(kind: str, body: dict[str, WireValue]) -> str:
            x = dict(body["x"])  # type: ignore[arg-type]
            x["s"] = bytes(32)
            body["x"] = x
            return kind

        return resign(frame, secrets[1], change)

    net.tamper = tamper
    net.run(always_enter_with_cards(3, 2))
    assert_blamed(net, 1, [0, 2])
    assert net.peers[0].abort is not None and "commitment" in net.peers[0].abort.reason


def always_enter_with_cards(n: int, seed: int) -> Callable[[Game, int], Move]:
    """Random choices, but every entry lays at least one card when it can."""
    base = random_chooser(n, seed)

    def choose(game: Game, seat: int) -> Move:
        space = legal_choices(game, seat)
        enters = [m for m in space if isinstance(m, Enter) and m.cards]
        if enters:
            return enters[0]
        return base(game, seat)

    return choose


def test_playing_a_card_not_held_names_the_cheater() -> None:
    net, _secrets = setup_net()
    cheater = net.peers[1]
    assert cheater.game is not None
    own = cheater.game
    real_to_handles = own.to_handles

    def to_handles(seat: int, move: Move) -> tuple[object, tuple[int, ...]]:
        wire, handles = real_to_handles(seat, move)
        if isinstance(wire, EnterHidden) and handles:
            other = own.hands[(seat + 1) % own.n][: len(handles)]
            return wire, tuple(other)
        return wire, handles

    own.to_handles = to_handles  # type: ignore[method-assign,assignment]
    net.run(always_enter_with_cards(3, 2))
    assert_blamed(net, 1, [0, 2])
    assert net.peers[0].abort is not None and "hold" in net.peers[0].abort.reason


def test_forged_signature_names_the_sender() -> None:
    net, secrets = setup_net()
    net.keep_going = False
    # Let setup finish: every peer has exchanged hellos.
    for _ in range(6):
        net.deliver_one()
    honest = net.peers[1]
    before = (len(honest.transcript), honest.th, list(honest._next_seq))
    # Seat 2 forges a message "from seat 0" (signed with its own key) and sends it to seat 1.
    frame = net.peers[0].transcript[0] if net.peers[0].transcript else None
    template = frame or next(f for s, r, f in net.links if s == 0)

    def change(kind: str, body: dict[str, WireValue]) -> str:
        body["q"] = 5
        return kind

    forged = resign(template, secrets[2], change)
    with pytest.raises(ProofError) as info:
        honest.receive(forged, 0.0, link=2)
    assert info.value.peer == net.params.config.players[2]
    assert (len(honest.transcript), honest.th, list(honest._next_seq)) == before
    # A flipped signature byte without a known link names the claimed signer.
    bad = bytearray(template)
    bad[-1] ^= 1
    with pytest.raises(RemoteProtocolError):
        honest.receive(bytes(bad), 0.0)
    assert honest.abort is None


def test_replayed_message_is_rejected_and_the_game_goes_on() -> None:
    net, _secrets = setup_net(2, 31)
    net.keep_going = False
    for _ in range(10):
        net.deliver_one()
    peer = net.peers[1]
    old = net.peers[0].transcript[0]
    before = (len(peer.transcript), peer.th)
    with pytest.raises(ReplayError) as info:
        peer.receive(old, 0.0, link=0)
    assert info.value.seat == 0
    assert (len(peer.transcript), peer.th) == before
    assert peer.abort is None


def test_equivocation_is_detected_and_the_equivocator_named() -> None:
    net, secrets = setup_net()
    done = equivocate_to_seat_2(net, secrets)
    net.run(random_chooser(3, 1))
    assert done[0]
    assert_blamed(net, 0, [1, 2])
    assert net.peers[1].abort is not None
    assert "equivocation" in net.peers[1].abort.reason
    assert len(net.peers[1].abort.evidence) == 2


def test_a_move_out_of_turn_names_the_mover() -> None:
    net, secrets = setup_net(3, 41)
    net.keep_going = False
    choose = random_chooser(3, 1)
    # Play until the first MOVE step.
    while True:
        if not net.deliver_one() and any(p.needs_decision for p in net.peers):
            break
    peer = net.peers[2]
    st = peer.step
    assert st is not None and st.kind == MOVE
    mover = st.senders[0]
    intruder = next(s for s in range(3) if s not in (mover, 2))
    before = (len(peer.transcript), public_state(peer.public))
    assert peer.game is not None
    move = legal_choices(net.peers[mover].game, mover)[0]  # type: ignore[arg-type]
    assert isinstance(move, Supply)
    template = net.peers[intruder].transcript[-1] if False else None
    del template
    body: dict[str, WireValue] = {
        "g": peer.game_id,
        "a": intruder,
        "q": peer._next_seq[intruder],
        "p": peer._last_hash[intruder],
        "t": st.index,
        "h": peer.th,
        "s": list(peer.seen),
        "x": {"m": move_to_wire(move, None, peer.secure)},
    }
    inner = encode_message(MOVE, body)
    sig = secrets[intruder].identity().sign(SIG_DOMAIN + inner)
    frame = encode_message("signed", {"m": inner, "s": sig})
    with pytest.raises(PeerFault) as info:
        peer.receive(frame, 0.0, link=intruder)
    assert info.value.seat == intruder and "out of turn" in info.value.reason
    assert (len(peer.transcript), public_state(peer.public)) == before
    assert peer.abort is not None and peer.abort.blamed == intruder
    del choose


def test_stalling_past_the_timeout_is_blamed_in_a_signed_abort_record() -> None:
    net, _secrets = setup_net()
    stalled = 2
    count = 0

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        nonlocal count
        if sender == stalled:
            count += 1
            if count > 20:
                return None  # seat 3 goes silent
        return frame

    net.tamper = tamper
    net.run(random_chooser(3, 1))
    assert all(p.abort is None for p in net.peers)
    net.now = 3.0
    for p in net.peers:
        p.tick(net.now)
    assert all(p.abort is None for p in net.peers)
    net.now = 100.0
    for p in (net.peers[0], net.peers[1]):
        p.tick(net.now)
        assert p.abort is not None and p.abort.blamed == stalled
        assert "stalled" in p.abort.reason and p.abort.frame is not None
    verdict = verify_record(net.peers[0].record_bytes())
    # A stall is the aborting peer's claim: time is not in the record, nobody is a cheater.
    assert verdict.kind == ABORTED and verdict.cheater is None
    assert verdict.seats == (0, stalled) and "claim" in verdict.reason
