"""Two builds of another protocol version meet: the link is refused in words on both sides.

One side of each test speaks another version (the listener's ``version``, or the guest's
``connect`` with an older one), over real loopback sockets: the refused side gets one plain
sentence (a lobby refusal, ``rattus join``'s one line), the refusing side says whom it refused.
"""

from __future__ import annotations

import asyncio
import functools
import os
from pathlib import Path

import pytest

from protocol.crypto.identity import Identity
from protocol.wire import PROTOCOL_VERSION
from rattus_net.cli import main
from rattus_net.net import transport
from rattus_net.net.lobby import HostedTable, LobbyRefusal, TableOptions, join_table
from rattus_net.net.lobby import guest as guest_side
from rattus_net.net.loopthread import LoopThread
from rattus_net.net.news import LinkNews
from rattus_net.net.transport import Connection, Listener, TransportLimits

FAST = TransportLimits(connect_timeout=2.0, idle_timeout=3.0, keepalive=0.5, write_timeout=2.0)
OLD, NEW = PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1


def ident() -> Identity:
    return Identity.generate(os.urandom)


async def refused_join(table_version: int) -> tuple[str, list[str]]:
    """A guest of this build joins a table of ``table_version``: what each side says."""
    host_id = ident()
    table = HostedTable(host_id, "Other", TableOptions(players=2), FAST)
    table.listener.version = table_version  # (the table's build)
    heard = asyncio.Event()
    said: list[str] = []
    table.listener.refusals = lambda line: (said.append(line), heard.set())
    port = await table.open("127.0.0.1", 0)
    table.core.sit(host_id.public, "Host", "", port)
    try:
        with pytest.raises(LobbyRefusal) as refused:
            await join_table("127.0.0.1", port, ident(), "Guest", 6001, limits=FAST)
        await asyncio.wait_for(heard.wait(), 5)
    finally:
        await table.close()
    return refused.value.reason, said


def test_a_newer_table_refuses_an_older_guest_in_words_on_both_sides() -> None:
    guest, host = asyncio.run(refused_join(NEW))
    assert guest == f"this table runs protocol {NEW}; yours is {PROTOCOL_VERSION}: update rattus"
    assert host == [
        f"refused 127.0.0.1: it runs protocol {PROTOCOL_VERSION}; this table runs {NEW}: "
        "it must update rattus"
    ]


def test_an_older_table_tells_a_newer_guest_that_its_host_must_update() -> None:
    guest, host = asyncio.run(refused_join(OLD))
    assert guest == (
        f"this table runs protocol {OLD}; yours is {PROTOCOL_VERSION}: "
        "the table's host must update rattus"
    )
    assert host == [
        f"refused 127.0.0.1: it runs protocol {PROTOCOL_VERSION}; this table runs {OLD}: "
        "update rattus here"
    ]


def test_an_older_guest_hears_the_words_of_this_build_s_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """This build's table, a guest of the version before (its dial, monkeypatched)."""
    monkeypatch.setattr(guest_side, "connect", functools.partial(transport.connect, version=OLD))
    guest, host = asyncio.run(refused_join(PROTOCOL_VERSION))
    assert guest == f"this table runs protocol {PROTOCOL_VERSION}; yours is {OLD}: update rattus"
    assert host == [
        f"refused 127.0.0.1: it runs protocol {OLD}; this table runs {PROTOCOL_VERSION}: "
        "it must update rattus"
    ]


def test_rattus_join_says_the_refusal_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rattus join HOST:PORT --bot random`` at a table of a newer build: one line, code 1."""
    monkeypatch.setenv("RATTUS_DATA_DIR", str(tmp_path))

    async def never(conn: Connection) -> None:
        raise AssertionError("a refused link reached the handler")

    thread = LoopThread("other-build")
    try:
        listener = Listener(never, FAST, version=NEW)
        port = thread.submit(listener.start("127.0.0.1", 0)).result(5)
        code = main(["join", f"127.0.0.1:{port}", "--bot", "random"])
        thread.submit(listener.close()).result(5)
    finally:
        thread.stop_soon()
        thread.thread.join(5)
    _, err = capsys.readouterr()
    assert code == 1
    assert err == (
        f"rattus join: this table runs protocol {NEW}; yours is {PROTOCOL_VERSION}: update rattus\n"
    )


def test_a_game_link_refused_for_its_version_is_told_at_the_table() -> None:
    """A resumed seat whose peer runs another build: the table's log says who must update."""
    news = LinkNews(["Ann", "Bob"], lambda: False)
    assert news("version", 1, f"{NEW} {PROTOCOL_VERSION}") == (
        f"Bob's rattus runs protocol {NEW}; yours is {PROTOCOL_VERSION}: update rattus."
    )
    assert news("version", 1, f"{OLD} {PROTOCOL_VERSION}") == (
        f"Bob's rattus runs protocol {OLD}; yours is {PROTOCOL_VERSION}: Bob must update rattus."
    )
