"""Open registration on `rattus serve` (no --authorized-keys: any key may enter): fresh keys cost
nothing, so one address gets a fair share of games at once and of new names a day, and the
names of keys away too long lapse (their old folder moved aside, never handed on). The SSH
tests use the real OpenSSH client from two loopback addresses (``ssh -b``)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from rattus_net.serve.identity import DAY, NameClaims
from rattus_net.serve.limits import ClaimsPerAddress
from ssh.sshlib import Pane, Server, Servers, keygen

MENU = r"Play against bots"
OTHER = ("-b", "127.0.0.2")  # ssh from another loopback address


def attempt(server: Server, key: Path, user: str, *extra: str) -> str:
    """Log in without a terminal and return what the client printed; it must be refused."""
    done = server.login(key, user, *extra, "-T", "-o", "LogLevel=INFO")
    assert done.returncode != 0, done
    return done.stderr + done.stdout


def test_names_of_a_key_away_too_long_lapse(tmp_path: Path) -> None:
    now = [1_000_000.0]
    claims = NameClaims(tmp_path / "names.json", lapse=30 * DAY, clock=lambda: now[0])
    assert claims.claim("ann", "SHA256:a") and claims.claim("web1", "web")
    claims.seen("SHA256:a")
    now[0] += 29 * DAY
    assert not claims.claim("ann", "SHA256:b")  # away 29 days: still hers
    claims.seen("SHA256:a")  # back: another 30 days
    now[0] += 29 * DAY
    assert claims.owner("ann") == "SHA256:a"
    now[0] += 2 * DAY  # away 31 days
    assert claims.owner("ann") is None and claims.lapsed_owner("ann") == "SHA256:a"
    assert claims.names_of("SHA256:a") == []
    assert claims.owner("web1") == "web"  # a web player's name never lapses
    assert claims.claim("ann", "SHA256:b") and claims.owner("ann") == "SHA256:b"
    assert claims.lapsed_owner("ann") is None
    # without a lapse, nothing ever lapses
    assert NameClaims(tmp_path / "names.json").owner("web1") == "web"


def test_claims_made_before_the_seen_file_start_their_count_when_it_appears(
    tmp_path: Path,
) -> None:
    (tmp_path / "names.json").write_text(json.dumps({"old": "SHA256:o"}))
    now = [5_000_000.0]
    claims = NameClaims(tmp_path / "names.json", lapse=10 * DAY, clock=lambda: now[0])
    claims.seen("SHA256:n")  # any key logging in writes the file: the old claim counts from now
    now[0] += 9 * DAY
    assert claims.owner("old") == "SHA256:o"
    now[0] += 2 * DAY
    assert claims.owner("old") is None


def test_new_names_per_address_per_day() -> None:
    limit = ClaimsPerAddress(2)
    for t in (0.0, 10.0):
        assert limit.allowed("10.0.0.1", t)
        limit.note("10.0.0.1", t)
    assert not limit.allowed("10.0.0.1", 20.0) and limit.allowed("10.0.0.2", 20.0)
    assert not limit.allowed("10.0.0.1", DAY - 1) and limit.allowed("10.0.0.1", DAY + 1)


@pytest.mark.slow
def test_one_address_gets_a_fair_share_of_games_and_new_names(
    tmp_path: Path, serve: Servers
) -> None:
    """Before, one address with fresh keys could fill the server (limits were per key only)
    and claim names without end."""
    ann, bea, cid, dan = (keygen(tmp_path / n) for n in ("ann", "bea", "cid", "dan"))
    server = serve.start("--max-sessions", "6", "--sessions-per-address", "2",
                         "--claims-per-address", "2")  # fmt: skip
    panes = [Pane(server.ssh(ann, "ann", "-tt")), Pane(server.ssh(bea, "bea", "-tt"))]
    try:
        for pane in panes:
            pane.wait_for(MENU)
        said = attempt(server, cid, "cid")  # a third game from 127.0.0.1: a fresh key is no help
        assert "rattus: 2 games from your address are running here already" in said
        server.wait_line(r"refused 'cid' from 127\.0\.0\.1: 2 games from your address")
        panes.append(Pane(server.ssh(dan, "dan", "-tt", *OTHER)))  # another address: room
        panes[-1].wait_for(MENU)
        panes.pop(0).close()
        server.wait_line(r"ann has left")
        said = attempt(server, cid, "cid")  # room for a game, but a third new name today
        assert "rattus: your address has claimed 2 new names here today" in said
        server.wait_line(r"refused 'cid' from 127\.0\.0\.1: your address has claimed 2 new")
        panes.append(Pane(server.ssh(ann, "ann", "-tt")))  # a name it holds: not a new claim
        panes[-1].wait_for(MENU)
    finally:
        for pane in panes:
            pane.close()
    claims = json.loads((tmp_path / "state" / "names.json").read_text())
    assert sorted(claims) == ["ann", "bea", "dan"]


@pytest.mark.slow
def test_a_lapsed_name_is_claimed_anew_with_an_empty_folder(tmp_path: Path, serve: Servers) -> None:
    state = tmp_path / "state"
    (state / "players" / "eve" / "data").mkdir(parents=True)
    (state / "players" / "eve" / "data" / "secret.txt").write_text("the old owner's")
    (state / "names.json").write_text(json.dumps({"eve": "SHA256:old"}))
    away = time.time() - 40 * DAY
    (state / "keys-seen.json").write_text(json.dumps({"SHA256:old": away}))
    key = keygen(tmp_path / "k")
    server = serve.start("--names-lapse", "30")
    pane = Pane(server.ssh(key, "eve", "-tt"))
    try:
        pane.wait_for(MENU)
    finally:
        pane.close()
    server.wait_line(r"the name eve lapsed; its old folder is in")
    names = json.loads((state / "names.json").read_text())
    assert names["eve"] != "SHA256:old"
    assert not (state / "players" / "eve" / "data" / "secret.txt").exists()
    (moved,) = (state / "lapsed").iterdir()
    assert (moved / "data" / "secret.txt").read_text() == "the old owner's"
