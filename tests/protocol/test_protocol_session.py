"""The network table: whole secure games over an in-memory network, the verifier, the
information audit, and a cheater matrix (each cheat detected and the cheater named)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest

from protocol.audit import (
    computable_faces,
    entitled_handles,
    known_by_mixing,
    linkage_violations,
    played_handles,
    retired_handles,
)
from protocol.crypto.elgamal import card_point, mask
from protocol.crypto.group import G, Scalar
from protocol.errors import DecodeError, ProofError, RemoteProtocolError
from protocol.memnet import MemoryNetwork
from protocol.messages import (
    MIX,
    MOVE,
    OPEN,
    RAND_COMMIT,
    SHARES,
    SHUFFLE,
    SIG_DOMAIN,
    move_to_wire,
)
from protocol.params import GameParams, PeerSecrets
from protocol.record import RECORD_LIMITS, RecordFormatError
from protocol.seeded import SeededChance, seeded_params
from protocol.session import PeerFault, ReplayError, Session
from protocol.verdict import ABORTED
from protocol.verify import verify_record
from protocol.wire import WireValue, decode_message, encode_message
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Enter, EnterHidden, Move, Supply
from rattus_net.games.cartus.record import GameRecord
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end


def random_chooser(n: int, seed: int) -> Callable[[Game, int], Move]:
    rngs = [random.Random(seed * 101 + s) for s in range(n)]

    def choose(game: Game, seat: int) -> Move:
        space = legal_choices(game, seat)
        return space[rngs[seat].randrange(len(space))]

    return choose


def table(n: int, seed: int, simultaneous: bool = False) -> tuple[GameParams, list[PeerSecrets]]:
    config = GameConfig(GameConfig.default_names(n), BuildingSelection.random_cards(), simultaneous)
    return seeded_params(config, seed, "cartus")


def public_state(g: Game) -> tuple[object, ...]:
    return (
        g.round,
        g.phase,
        g.start_player,
        tuple(g.rats),
        tuple(g.vp),
        tuple(tuple(r) for r in g.influence),
        tuple(g.hand_size(s) for s in range(g.n)),
        tuple(g.row),
        tuple(g.deck),
        tuple(g.discard),
        g.pending if g.decision is not None else None,
    )


@dataclass
class Played:
    params: GameParams
    secrets: list[PeerSecrets]
    net: MemoryNetwork
    record: bytes
    local: Game
    local_table: LocalTable


def play(n: int, seed: int, simultaneous: bool = False) -> Played:
    params, secrets = table(n, seed, simultaneous)
    net = MemoryNetwork(params, secrets)
    net.run(random_chooser(n, seed))
    local = Game(params.config)
    ltable = LocalTable(seed, chance_source=SeededChance(params, secrets))
    play_to_end(local, ltable, random_chooser(n, seed))
    return Played(params, secrets, net, net.peers[0].record_bytes(), local, ltable)


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


# --- tampering with a record -----------------------------------------------------------------


def test_any_changed_byte_makes_verification_fail(two: Played) -> None:
    data = two.record
    rng = random.Random(5)
    positions = {0, 1, 5, len(data) // 2, len(data) - 1, len(data) - 40}
    positions |= {rng.randrange(len(data)) for _ in range(14)}
    for pos in sorted(positions):
        bad = bytearray(data)
        bad[pos] ^= 1 << rng.randrange(8)
        try:
            verdict = verify_record(bytes(bad))
        except RecordFormatError:
            continue
        assert not verdict.fair, f"byte {pos} changed and the record still verifies"


def test_a_truncated_record_is_not_fair(two: Played) -> None:
    params, secrets = two.params, two.secrets
    del secrets
    s = Session(params, None)
    assert s.step is not None
    with pytest.raises(RecordFormatError):
        verify_record(b"{}")
    with pytest.raises(RecordFormatError):
        verify_record(b"")


# --- the cheater matrix ------------------------------------------------------------------------


def resign(
    frame: bytes, secrets: PeerSecrets, change: Callable[[str, dict[str, WireValue]], str]
) -> bytes:
    """Decode a frame, let ``change`` edit its body (and maybe return a new kind), sign again
    with the author's key: a message the cheater really signed."""
    outer = decode_message(frame)
    inner = outer.body["m"]
    assert isinstance(inner, bytes)
    msg = decode_message(inner)
    body = dict(msg.body)
    kind = change(msg.kind, body)
    new_inner = encode_message(kind, body)
    sig = secrets.identity().sign(SIG_DOMAIN + new_inner)
    return encode_message("signed", {"m": new_inner, "s": sig})


def kind_of(frame: bytes) -> str:
    inner = decode_message(frame).body["m"]
    assert isinstance(inner, bytes)
    return decode_message(inner).kind


def setup_net(
    n: int = 3, seed: int = 21, simultaneous: bool = False
) -> tuple[MemoryNetwork, list[PeerSecrets]]:
    params, secrets = table(n, seed, simultaneous)
    net = MemoryNetwork(params, secrets, timeout=5.0)
    net.keep_going = True
    return net, secrets


def assert_blamed(net: MemoryNetwork, cheater: int, honest: list[int]) -> None:
    for s in honest:
        peer = net.peers[s]
        assert peer.abort is not None, f"seat {s} did not abort"
        assert peer.abort.blamed == cheater, peer.abort
    assert any(isinstance(e, PeerFault) and e.seat == cheater for _, e in net.errors) or all(
        net.peers[s].abort is not None for s in honest
    )


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
        if sender != cheater or kind_of(frame) != MIX:
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
    done = False

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        nonlocal done
        if sender != 0 or receiver != 2 or done or kind_of(frame) != RAND_COMMIT:
            return frame
        done = True

        def change(kind: str, body: dict[str, WireValue]) -> str:
            body["x"] = {"c": bytes(range(32))}
            return kind

        return resign(frame, secrets[0], change)

    net.tamper = tamper
    net.run(random_chooser(3, 1))
    assert done
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


def test_parameters_carry_the_lobby_colours_and_older_ones_still_read() -> None:
    params, _ = table(3, 1)
    wire = params.to_wire()
    assert "colours" not in wire  # no colours chosen: the parameters (and game id) as before
    assert GameParams.from_wire(wire).game_id() == params.game_id()
    coloured = GameParams(
        dataclasses.replace(params.config, colours=("green", "red", "blue")),
        params.identities,
        params.nonce,
        params.game,
    )
    again = GameParams.from_wire(coloured.to_wire())
    assert again.config.colours == ("green", "red", "blue")
    assert again.game_id() == coloured.game_id() != params.game_id()  # the colours are agreed
    for bad in (["green"], "green", [1, 2, 3]):
        with pytest.raises(DecodeError):
            GameParams.from_wire({**wire, "colours": bad})


def test_offered_actions_travel_as_moves_taken_and_declined(two: Played, three: Played) -> None:
    """Ruling 17: taking or declining an offered action is a signed move like any other; the
    random players of these games did both, and the games verified (tests above)."""
    from rattus_net.games.cartus.moves import DeclineAction, TakeAction

    for p in (two, three):
        moves = [m for _, m in p.net.peers[0].public.history]
        assert TakeAction() in moves and DeclineAction() in moves
        assert moves == [m for _, m in p.net.peers[1].public.history]


def test_a_version_1_secure_record_is_refused_in_one_line(two: Played) -> None:
    from protocol.record import decode_record
    from protocol.wire import decode_value, encode_value

    value = decode_value(two.record, RECORD_LIMITS)
    assert isinstance(value, dict)
    old = encode_value({**value, "version": 1}, RECORD_LIMITS)
    with pytest.raises(RecordFormatError, match="version 1 before actions"):
        decode_record(old)
