"""Cheating at a Rattus table: each cheat is detected and the cheater named by the message it
signed, at the table (honest peers abort blaming it) and by the verifier of the record.

The cheats are those of Rattus's own message uses: a wrong decryption share for a token (to
everybody at an outbreak, or encrypted to the Witch's holder), a bad shuffle of the rat
supply, an illegal placement, and a false Witch look (a look claimed without the Witch card).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from recordkit import resign
from sessionkit import assert_blamed, kind_of
from test_rattus_secure import chooser, rattus_table

from protocol.crypto.elgamal import decryption_share
from protocol.memnet import MemoryNetwork
from protocol.messages import MOVE, SHARES, SHUFFLE
from protocol.params import PeerSecrets
from protocol.randomness import RandomStream
from protocol.session import game_context
from protocol.verdict import CHEATER
from protocol.verify import verify_record
from protocol.wire import WireValue

Tamper = Callable[[int, int, bytes], "bytes | None"]


def cheat(
    n: int,
    seed: int,
    make: Callable[[MemoryNetwork, list[PeerSecrets]], Tamper],
    kind: str = "heuristic",
) -> MemoryNetwork:
    params, secrets = rattus_table(n, seed)
    net = MemoryNetwork(params, secrets, timeout=5.0)
    net.keep_going = True
    net.tamper = make(net, secrets)
    net.run(chooser(n, seed, kind))
    return net


def once(edit: Callable[[int, bytes], bytes | None]) -> Tamper:
    """A tamper that edits one frame (the first ``edit`` changes), the same for every link."""
    done: dict[bytes, bytes] = {}

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        if frame in done:
            return done[frame]
        if done:
            return frame
        new = edit(sender, frame)
        if new is not None:
            done[frame] = new
            return new
        return frame

    return tamper


def judged(net: MemoryNetwork, cheater: int) -> str:
    honest = [s for s in range(len(net.peers)) if s != cheater]
    assert_blamed(net, cheater, honest)
    verdict = verify_record(net.peers[honest[0]].record_bytes())
    assert verdict.kind == CHEATER and verdict.cheater == cheater, verdict.text()
    return verdict.reason


@pytest.mark.parametrize("reveal", ["outbreak", "witch"])
def test_a_wrong_share_for_a_token_is_named(reveal: str) -> None:
    """A share at an outbreak (to everybody) or at a Witch's look (the other seats' shares,
    which only her holder can complete with her own). The cheater signs a real share of its
    key, with a valid proof, of ANOTHER token."""
    n, seed = 3, 5
    params, secrets = rattus_table(n, seed)
    honest = MemoryNetwork(params, secrets)
    honest.run(chooser(n, seed, "random"))
    reveals = honest.peers[0].record.reveals
    looked = {h for hs, to in reveals if to is not None for h in hs}
    if reveal == "witch":
        target, to = next((hs[0], to) for hs, to in reveals if to is not None)
        cheater = (to + 1) % n
    else:
        target = next(hs[0] for hs, to in reveals if to is None and hs[0] not in looked)
        cheater = 1

    def make(net: MemoryNetwork, secrets: list[PeerSecrets]) -> Tamper:
        def edit(sender: int, frame: bytes) -> bytes | None:
            if sender != cheater or kind_of(frame) != SHARES:
                return None
            me, observer = net.peers[cheater], net.peers[0]
            assert me._elg is not None
            hit: list[bool] = []

            def change(kind: str, body: dict[str, WireValue]) -> str:
                x = dict(body["x"])  # type: ignore[arg-type]
                items = list(x["p"])  # type: ignore[arg-type]
                for i, item in enumerate(items):
                    h = item[0]  # type: ignore[index]
                    if h != target:
                        continue
                    wrong = observer.cards[next(o for o in observer.cards if o != h)]
                    rand = RandomStream(b"cheat".ljust(32, b"."))
                    ctx = game_context(observer.game_id, b"share", target, cheater)
                    share = decryption_share(me._elg, wrong, rand, ctx)  # type: ignore[arg-type]
                    items[i] = [h, share.to_bytes()]
                    hit.append(True)
                x["p"] = items
                body["x"] = x
                return kind

            new = resign(frame, secrets[cheater], change)
            return new if hit else None

        return once(edit)

    net = cheat(n, seed, make, "random")
    reason = judged(net, cheater)
    assert "share" in reason or "proof" in reason


def test_a_bad_shuffle_of_the_rat_supply_is_named() -> None:
    cheater = 1
    seen: list[bytes] = []

    def make(net: MemoryNetwork, secrets: list[PeerSecrets]) -> Tamper:
        def edit(sender: int, frame: bytes) -> bytes | None:
            if sender != cheater or kind_of(frame) != SHUFFLE:
                return None
            if frame not in seen:
                seen.append(frame)
            if len(seen) < 2:  # the first is the start tokens' shuffle, the second the supply's
                return None

            def change(kind: str, body: dict[str, WireValue]) -> str:
                x = dict(body["x"])  # type: ignore[arg-type]
                d = x["d"]
                assert isinstance(d, bytes) and len(d) == 64 * 37
                x["d"] = d[:64] + d[:64] + d[128:]  # one token twice, another gone
                body["x"] = x
                return kind

            return resign(frame, secrets[cheater], change)

        return once(edit)

    net = cheat(2, 3, make)
    assert "shuffle" in judged(net, cheater)


def _replace_move(cheater: int, text: Callable[[MemoryNetwork], str]) -> Callable[..., Tamper]:
    """Seat ``cheater`` signs, for its first decision after the setup, the move ``text``."""

    def make(net: MemoryNetwork, secrets: list[PeerSecrets]) -> Tamper:
        def edit(sender: int, frame: bytes) -> bytes | None:
            if sender != cheater or kind_of(frame) != MOVE:
                return None
            observer = net.peers[0]
            if observer.public.phase.value != "play":
                return None

            def change(kind: str, body: dict[str, WireValue]) -> str:
                x = dict(body["x"])  # type: ignore[arg-type]
                x["m"] = {"m": text(net)}
                body["x"] = x
                return kind

            return resign(frame, secrets[cheater], change)

        return once(edit)

    return make


def test_an_illegal_placement_is_named() -> None:
    # Russia is not in play with 2 players: nothing may be placed there.
    reason = judged(cheat(2, 3, _replace_move(0, lambda net: "place Russia")), 0)
    assert "illegal move" in reason and "Russia" in reason


def test_a_false_witch_look_is_named() -> None:
    """A look at two tokens claimed by a seat that does not hold the Witch: the private
    reveal it would bring is never made, the claim is an illegal signed move."""

    def look(net: MemoryNetwork) -> str:
        g = net.peers[0].public
        assert g.holder[g.card("Witch")] is None or g.holder[g.card("Witch")] != 1
        return f"witch {g.regions[0]} 1 {g.regions[1]} 1"

    reason = judged(cheat(3, 5, _replace_move(1, look)), 1)
    assert "illegal move" in reason and "Witch" in reason
