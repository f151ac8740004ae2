"""Rattus over the network table: whole games among 2, 3 and 4 peers (in memory), their
records, the verifier, the seeded local game, and what each peer can learn of the tokens.

The secrets are rat tokens (architecture note, section 7): the start tokens and the rat supply
are masked and shuffled by every peer with proofs, a token on the board stays face down, a
Witch's look is a reveal to her holder only, an outbreak a public reveal, and the tokens
removed at setup stay unknown until the keys are published after the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from protocol.audit import computable_faces, entitled_handles
from protocol.memnet import MemoryNetwork
from protocol.params import GameParams, PeerSecrets
from protocol.seeded import SeededChance, seeded_params
from protocol.session import Session
from protocol.verdict import Verdict
from protocol.verify import verify_record
from rattus_net.bots.random import RandomBot
from rattus_net.games.rattus.bots import RattusHeuristicBot
from rattus_net.games.rattus.game import RattusConfig, RattusGame
from rattus_net.games.rattus.loader import default_components
from rattus_net.games.rattus.record import RattusRecord, result_summary
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end


@dataclass
class Played:
    n: int
    seed: int
    params: GameParams
    secrets: list[PeerSecrets]
    net: MemoryNetwork
    record: bytes
    verdict: Verdict


def rattus_table(n: int, seed: int) -> tuple[GameParams, list[PeerSecrets]]:
    config = RattusConfig(RattusConfig.default_names(n), default_components())
    return seeded_params(config, seed, "rattus")


def chooser(n: int, seed: int, kind: str):  # type: ignore[no-untyped-def]
    make = RattusHeuristicBot if kind == "heuristic" else RandomBot
    bots = [make(seed * 10 + s) for s in range(n)]
    return lambda game, seat: bots[seat].choose(RattusView(game, seat))


GAMES = {2: (3, "heuristic"), 3: (5, "random"), 4: (2, "heuristic")}


@cache
def play(n: int, seed: int, kind: str) -> Played:
    params, secrets = rattus_table(n, seed)
    net = MemoryNetwork(params, secrets)
    net.run(chooser(n, seed, kind))
    records = {peer.record_bytes() for peer in net.peers}
    assert len(records) == 1  # every peer holds the same record
    record = records.pop()
    return Played(n, seed, params, secrets, net, record, verify_record(record))


@pytest.fixture(params=sorted(GAMES))
def played(request: pytest.FixtureRequest) -> Played:
    return play(request.param, *GAMES[request.param])


def test_peers_play_rattus_to_the_end_and_the_record_verifies(played: Played) -> None:
    assert all(p.finished and p.abort is None for p in played.net.peers)
    v = played.verdict
    assert v.fair, v.text()
    # Each of the two piles (start tokens, rat supply) was shuffled by every peer, with proofs.
    assert v.shuffles_verified == 2 * played.n
    assert v.shares_verified > 0
    # The replayed result is every peer's result.
    for peer in played.net.peers:
        assert peer.game is not None and peer.game.is_over
        assert result_summary(peer.game) == v.result
    assert f"Winner: {v.result['winner']}" in v.text() and "hand-mixing" not in v.text()


def test_the_secure_game_is_the_local_game_of_the_same_seed(played: Played) -> None:
    seed, kind = GAMES[played.n]
    local = RattusGame(played.params.config)
    table = LocalTable(seed, chance_source=SeededChance(played.params, played.secrets))
    play_to_end(local, table, chooser(played.n, seed, kind))
    record = played.verdict.engine_record
    assert isinstance(record, RattusRecord)
    assert record.to_dict() == RattusRecord.from_game(local, table).to_dict()
    assert played.net.peers[0].public.history == local.history


def test_the_record_names_the_game_and_the_face_level_record_replays(played: Played) -> None:
    from protocol.record import decode_record

    params, _, _ = decode_record(played.record)
    assert params.game == "rattus" and params.game_id() == played.params.game_id()
    record = played.verdict.engine_record
    assert isinstance(record, RattusRecord)
    again = RattusRecord.loads(record.dumps(), default_components())
    game, _ = again.replay()
    assert result_summary(game) == played.verdict.result


def test_only_the_witch_holder_sees_her_look(played: Played) -> None:
    peers = played.net.peers
    reveals = peers[0].record.reveals
    turned = {h for handles, to in reveals if to is None for h in handles}
    for handles, to in reveals:
        for seat, peer in enumerate(peers):
            assert peer.game is not None
            for h in handles:
                # A token looked at may be turned up later: then everybody knows it.
                assert (h in peer.game.faces) == (to == seat or h in turned), (h, to, seat)


def test_the_games_had_witch_looks_and_removed_tokens_nobody_learns() -> None:
    """The games above exercise every kind of secret."""
    looks = removed = 0
    for n, (seed, kind) in GAMES.items():
        net = play(n, seed, kind).net
        peer = net.peers[0]
        looks += sum(1 for _, to in peer.record.reveals if to is not None)
        removed += len(peer.public.removed)
        # The removed tokens are never turned up: nobody computes their faces.
        for seat, p in enumerate(net.peers):
            assert p._elg is not None
            known = computable_faces(peer, seat, p._elg)
            assert not set(known) & set(peer.public.removed)
    assert looks > 0 and removed == 12 + 6  # none with 4 players


AUDITED = [(2, 12, "random"), (3, 17, "random"), (4, 13, "random")]
"""3 players, seed 17: the Witch's holder later chooses which token to turn up (asked on what every
peer knows: which tokens he looked at, not their faces)."""


@pytest.mark.parametrize("which", [*sorted(GAMES), *AUDITED])
def test_information_audit_each_peer_computes_exactly_the_tokens_it_may_know(
    which: int | tuple[int, int, str],
) -> None:
    played = play(which, *GAMES[which]) if isinstance(which, int) else play(*which)
    assert played.verdict.fair
    observer = Session(played.params, None)
    for frame in played.net.peers[0].transcript:
        observer.receive(frame, 0.0)
    assert observer.finished
    truth = observer.all_faces()
    for seat, peer in enumerate(played.net.peers):
        assert peer._elg is not None
        can = computable_faces(observer, seat, peer._elg)
        # Turned-up tokens for all, its own Witch looks, nothing more.
        assert set(can) == entitled_handles(observer, seat)
        assert all(truth[h] == f for h, f in can.items())
        assert peer.game is not None
        assert set(peer.game.faces) == set(can)
    # The tokens still face down on the board and in the rat supply stay unknown.
    g = observer.public
    hidden = set(g.rat_supply) | {h for t in g.tokens for h in t}
    assert hidden
    for seat, peer in enumerate(played.net.peers):
        assert peer._elg is not None
        entitled = entitled_handles(observer, seat)
        assert set(computable_faces(observer, seat, peer._elg)) & hidden <= entitled


def test_rattus_verify_and_replay_read_a_rattus_record_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rattus_net.cli import main

    args = ["selfplay", "--game", "rattus", "--players", "2", "--games", "1", "--seed", "4"]
    assert main([*args, "--bots", "heuristic", "--secure", "--record-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    record = tmp_path / "game-4.rattusnet"
    export = tmp_path / "face.json"
    assert main(["verify", str(record), "--export", str(export)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("FAIR") and "4 shuffle proofs" in out and "Winner:" in out
    assert "hand-mixing" not in out
    assert main(["replay", str(export)]) == 0  # the face-level Rattus record
    from_export = capsys.readouterr().out
    assert main(["replay", str(record)]) == 0  # the signed record, replayed face by face
    assert capsys.readouterr().out == from_export
    data = record.read_bytes()
    bad = bytearray(data)
    bad[len(bad) // 2] ^= 1
    record.write_bytes(bytes(bad))
    assert main(["verify", str(record)]) == 1
    assert not capsys.readouterr().out.startswith("FAIR")


def test_a_record_of_the_old_rules_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parameters name the rules' version (2: struck cubes come back, the new end and
    tie-break); a record whose parameters do not, written under the old rules, is refused
    before anything is judged, and so is a table that offers them."""
    from protocol.errors import DecodeError
    from protocol.record import FORMAT, RECORD_LIMITS, VERSION
    from protocol.wire import decode_value, encode_value
    from rattus_net.cli import main

    played = play(2, *GAMES[2])
    value = decode_value(played.record, RECORD_LIMITS)
    assert isinstance(value, dict) and value["format"] == FORMAT and value["version"] == VERSION
    params = value["params"]
    assert isinstance(params, dict) and params["rules"] == 2
    for rules, words in ((None, "the old rules"), (3, "rules version 3")):
        old = dict(params)
        if rules is None:
            del old["rules"]
        else:
            old["rules"] = rules
        with pytest.raises(DecodeError, match=words):
            GameParams.from_wire(old)
        path = tmp_path / f"old-{rules}.rattusnet"
        path.write_bytes(encode_value({**value, "params": old}, RECORD_LIMITS))
        assert main(["verify", str(path)]) == 1
        err = capsys.readouterr().err
        assert words in err and err.strip().count("\n") == 0 and "Traceback" not in err
