"""Test helpers: honest secure-game records (cached) and ways to take them apart, change and
re-sign their frames, for the verdict tests and the tamper fuzzer."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

from protocol.memnet import MemoryNetwork
from protocol.messages import RAND_COMMIT, SIG_DOMAIN
from protocol.params import GameParams, PeerSecrets
from protocol.record import RECORD_LIMITS
from protocol.seeded import seeded_params
from protocol.wire import WireValue, decode_message, decode_value, encode_message, encode_value
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Move


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
    """Everything of a Rattus Cartus game every peer knows (to compare two peers' games)."""
    return (
        g.round,
        g.phase,
        g.start_player,
        tuple(g.rats),
        tuple(g.vp),
        tuple(tuple(r) for r in g.influence),
        tuple(tuple(r) for r in g.arrival),
        tuple(g.hand_size(s) for s in range(g.n)),
        tuple(g.row),
        tuple(g.deck),
        tuple(g.discard),
        g.pending if g.decision is not None else None,
    )


@lru_cache(maxsize=8)
def honest(
    n: int, seed: int, nonce: bytes | None = None
) -> tuple[bytes, GameParams, tuple[PeerSecrets, ...]]:
    """The record of an honest, finished game (seat 0's copy), its table and secrets;
    ``nonce``: another game of the same players (same keys)."""
    params, secrets = table(n, seed)
    if nonce is not None:
        params = GameParams(params.config, params.identities, nonce, params.game)
    net = MemoryNetwork(params, secrets)
    net.run(random_chooser(n, seed))
    assert all(p.finished for p in net.peers)
    return net.peers[0].record_bytes(), params, tuple(secrets)


def aborted_record() -> bytes:
    """A 3-player game whose seat 3 goes silent after a while; seat 1 aborts past the
    stall timeout (its record, signed abort included)."""
    net = MemoryNetwork(*table(3, 5), timeout=5.0)
    net.keep_going = True
    count = 0

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        nonlocal count
        if sender == 2:
            count += 1
            if count > 60:
                return None
        return frame

    net.tamper = tamper
    net.run(random_chooser(3, 1))
    net.now = 100.0
    net.peers[0].tick(net.now)
    assert net.peers[0].abort is not None
    return net.peers[0].record_bytes()


def unpack(record: bytes) -> dict[str, WireValue]:
    value = decode_value(record, RECORD_LIMITS)
    assert isinstance(value, dict)
    return value


def messages(record: bytes) -> list[bytes]:
    msgs = unpack(record)["messages"]
    assert isinstance(msgs, list)
    return [m for m in msgs if isinstance(m, bytes)]


def pack(
    record: bytes, messages: list[bytes] | None = None, abort: bytes | bool | None = False
) -> bytes:
    """``record`` with its messages and/or abort replaced (``abort=False``: kept)."""
    value = unpack(record)
    if messages is not None:
        value["messages"] = list(messages)
    if abort is not False:
        value["abort"] = abort if isinstance(abort, bytes) else None
    return encode_value(value, RECORD_LIMITS)


def inner_of(frame: bytes) -> tuple[str, dict[str, WireValue]]:
    inner = decode_message(frame).body["m"]
    assert isinstance(inner, bytes)
    msg = decode_message(inner)
    return msg.kind, dict(msg.body)


def author(frame: bytes) -> int:
    a = inner_of(frame)[1]["a"]
    assert isinstance(a, int)
    return a


def sign_as(secrets: PeerSecrets, kind: str, body: dict[str, WireValue]) -> bytes:
    """A frame really signed by the seat whose secrets these are."""
    inner = encode_message(kind, body)
    sig = secrets.identity().sign(SIG_DOMAIN + inner)
    return encode_message("signed", {"m": inner, "s": sig})


def resign(
    frame: bytes, secrets: PeerSecrets, change: Callable[[str, dict[str, WireValue]], str]
) -> bytes:
    """``frame`` with its body edited by ``change`` (which returns the kind), signed again."""
    kind, body = inner_of(frame)
    kind = change(kind, body)
    return sign_as(secrets, kind, body)


def equivocate_to_seat_2(net: MemoryNetwork, secrets: list[PeerSecrets]) -> list[bool]:
    """Make seat 0 send seat 2 another random-number commitment than seat 1 gets, really signed
    by seat 0 (an equivocation): the network's ``tamper``. The list returned holds True once
    it was sent."""
    done = [False]

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        if sender != 0 or receiver != 2 or done[0] or inner_of(frame)[0] != RAND_COMMIT:
            return frame
        done[0] = True

        def change(kind: str, body: dict[str, WireValue]) -> str:
            body["x"] = {"c": bytes(range(32))}
            return kind

        return resign(frame, secrets[0], change)

    net.tamper = tamper
    return done


# --- the tamper fuzzer ---------------------------------------------------------------------------

MUTATIONS = (
    "flip",
    "flip-record",
    "drop",
    "duplicate",
    "swap",
    "foreign",
    "splice",
    "truncate",
    "truncate-bytes",
    "resign",
)


def foreign_frames(params: GameParams, secrets: tuple[PeerSecrets, ...]) -> list[bytes]:
    """Signed hellos of another game of the same players (same keys, another nonce)."""
    from protocol.session import Session

    other = GameParams(params.config, params.identities, b"\x07" * 32, params.game)
    return [Session(other, s, secrets[s]).take_outgoing()[0] for s in range(params.n)]


def _flip_bit(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    i = rng.randrange(len(b))
    b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def _resign_change(rng: random.Random) -> Callable[[str, dict[str, WireValue]], str]:
    """A change a seat could sign: a bit of its payload, its step, sequence number,
    previous hash, transcript hash or view, or another kind."""

    def change(kind: str, body: dict[str, WireValue]) -> str:
        field = rng.choice(["x", "x", "x", "q", "t", "p", "h", "s", "kind"])
        if field == "kind":
            return rng.choice(["move", "shares", "rand-commit", "keys", "hello"])
        value = body.get(field)
        if isinstance(value, int) and not isinstance(value, bool):
            body[field] = max(0, value + rng.choice([-1, 1, 2]))
        elif isinstance(value, bytes) and value:
            body[field] = _flip_bit(value, rng)
        elif isinstance(value, list) and value and isinstance(value[0], bytes):
            k = rng.randrange(len(value))
            body[field] = [
                _flip_bit(v, rng) if i == k and isinstance(v, bytes) else v
                for i, v in enumerate(value)
            ]
        elif isinstance(value, dict) and value:
            key = rng.choice(sorted(value))
            inner = value[key]
            if isinstance(inner, bytes) and inner:
                value[key] = _flip_bit(inner, rng)
            elif isinstance(inner, int) and not isinstance(inner, bool):
                value[key] = max(0, inner + 1)
            else:
                value[key] = b"\x00" * 32
        return kind

    return change


def mutate(
    record: bytes,
    params: GameParams,
    secrets: tuple[PeerSecrets, ...],
    rng: random.Random,
    other: bytes | None = None,
    what: str | None = None,
) -> tuple[str, bytes, set[int]]:
    """One random change of ``record``: (what, the new bytes, the seats whose key signed
    something new). ``other`` is another honest record of the same players (for splices)."""
    msgs = messages(record)
    what = what or rng.choice(MUTATIONS)
    keys: set[int] = set()
    i = rng.randrange(len(msgs))
    if what == "flip":
        msgs[i] = _flip_bit(msgs[i], rng)
    elif what == "flip-record":
        return what, _flip_bit(record, rng), keys
    elif what == "drop":
        del msgs[i]
    elif what == "duplicate":
        msgs.insert(rng.randrange(len(msgs) + 1), msgs[i])
    elif what == "swap":
        j = rng.randrange(len(msgs))
        msgs[i], msgs[j] = msgs[j], msgs[i]
    elif what == "foreign":
        msgs.insert(rng.randrange(len(msgs) + 1), rng.choice(foreign_frames(params, secrets)))
    elif what == "splice" and other is not None:
        theirs = messages(other)
        cut = rng.randrange(min(len(msgs), len(theirs)))
        msgs = msgs[:cut] + theirs[cut:]
    elif what == "truncate" or what == "splice":
        msgs = msgs[:i]
    elif what == "truncate-bytes":
        return what, record[: rng.randrange(len(record))], keys
    else:  # resign
        a = author(msgs[i])
        msgs[i] = resign(msgs[i], secrets[a], _resign_change(rng))
        keys.add(a)
    return what, pack(record, msgs), keys


def check_verdict(
    honest_record: bytes,
    tampered: bytes,
    params: GameParams,
    keys: set[int],
) -> str:
    """Verify ``tampered`` and check what the verdict may say; returns its kind (or
    ``"refused"``). Raises AssertionError if the verdict is FAIR for changed bytes, or names a
    cheater without that seat's validly signed message that an independent replay confirms."""
    from protocol.record import RecordFormatError
    from protocol.verdict import CHEATER, FAIR
    from protocol.verify import verify_record

    try:
        verdict = verify_record(tampered)
    except RecordFormatError:
        return "refused"
    if tampered == honest_record:
        assert verdict.kind == FAIR
        return verdict.kind
    assert verdict.kind != FAIR, "changed bytes verified as FAIR"
    if verdict.kind == CHEATER:
        seat = verdict.cheater
        assert seat is not None
        assert seat in keys, f"seat {seat} named, but only {keys} signed anything new"
        confirm_cheat(honest_record, params, seat, [e.frame for e in verdict.evidence])
    else:
        assert verdict.cheater is None
    return verdict.kind


def confirm_cheat(honest_record: bytes, params: GameParams, seat: int, frames: list[bytes]) -> None:
    """The independent check: the evidence holds messages validly signed by ``seat``, one
    of which the honest game never had; two conflict, or one breaks a rule when it takes
    its place in the honest transcript (replayed by a fresh observer)."""
    from protocol.errors import RemoteProtocolError
    from protocol.messages import open_frame
    from protocol.session import ProvenFault, Session

    gid, ids, names = params.game_id(), params.identities, params.config.players
    honest_msgs = messages(honest_record)
    own = []
    for f in frames:
        m = open_frame(f, gid, ids, names)  # raises if not validly signed
        if m.author == seat:
            own.append(m)
    assert own, "the evidence holds no message of the named seat"
    assert any(m.frame not in honest_msgs for m in own), "the evidence is all honest messages"
    if len({m.inner for m in own}) >= 2:
        return  # two different messages signed by the seat that the verifier found conflicting
    (bad,) = own
    replaced = False
    order = []
    for f in honest_msgs:
        m = open_frame(f, gid, ids, names)
        if not replaced and m.author == seat and m.seq == bad.seq:
            order.append(bad.frame)
            replaced = True
        else:
            order.append(f)
    if not replaced:
        order.append(bad.frame)
    observer = Session(params, None)
    try:
        for f in order:
            observer.receive(f, 0.0)
    except ProvenFault as exc:
        assert exc.seat == seat, f"the replay blames seat {exc.seat}, not {seat}"
        return
    except RemoteProtocolError as exc:
        raise AssertionError(f"the replay finds no proven fault: {exc}") from None
    raise AssertionError("the message breaks no rule in the honest transcript")
