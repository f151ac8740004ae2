"""Chat in a lobby: lines signed by the seated players' lobby keys, handed on by the host to
every guest; a forged, foreign, unseated or flooding line is dropped with a note (the link
stays); a hostile text is kept as signed and shown escaped. Sans-IO, then over loopback."""

from __future__ import annotations

import asyncio
import os

import pytest
from waits import until

from protocol.chat import BURST, ChatMisuse
from protocol.crypto.identity import Identity
from protocol.wire import encode_message
from rattus_net.net.chat import Said
from rattus_net.net.lobby import HostedTable, LobbyCore, TableOptions, join_table
from rattus_net.net.lobby.chat import DOMAIN, KIND, BadLobbyLine, LobbyChat, seat_keys
from rattus_net.net.transport import TransportLimits

FAST = TransportLimits(connect_timeout=2.0, idle_timeout=3.0, keepalive=0.5, write_timeout=2.0)


def ident() -> Identity:
    return Identity.generate(os.urandom)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def table() -> tuple[LobbyCore, Identity, Identity, Identity, list[tuple[bytes | None, Said]]]:
    host, ann, bob = ident(), ident(), ident()
    core = LobbyCore.open("Kitchen", host.public, TableOptions(players=3))
    core.sit(host.public, "Hana", "", 4000, colour="red")
    core.sit(ann.public, "Ann", "10.0.0.1", 4000, colour="blue")
    core.sit(bob.public, "Bob", "10.0.0.2", 4000, colour="green")
    heard: list[tuple[bytes | None, Said]] = []
    core.on_chat.append(lambda data, said: heard.append((data, said)))
    return core, host, ann, bob, heard


def test_a_guest_line_is_handed_on_and_checked_by_the_others() -> None:
    core, host, ann, _bob, heard = table()
    anns = LobbyChat(core.state.host_fingerprint)
    data = anns.say(ann, 1, "Ann", "blue", "  hi all \x1b[2J\u202e ")
    core.handle(ann.public, "10.0.0.1", data)
    ((relayed, said),) = heard
    assert relayed == data and said.seat == 1 and said.name == "Ann" and said.colour == "blue"
    assert said.text == "hi all \\x1b[2J\\u202e"  # shown escaped
    bobs = LobbyChat(core.state.host_fingerprint)
    got = bobs.receive(data, seat_keys(core.state))
    assert got is not None and got[0] == said
    assert bobs.receive(data, seat_keys(core.state)) is None  # once
    core.say(host, "welcome")  # the host's own line
    assert heard[-1][1].name == "Hana" and heard[-1][0] is not None


def test_bad_lines_are_dropped_with_a_note_and_the_guest_stays() -> None:
    core, _host, ann, bob, heard = table()
    gid = core.state.host_fingerprint
    # Bob hands on a line signed by Ann as his own link's: refused at the host
    data = LobbyChat(gid).say(ann, 1, "Ann", "blue", "hello")
    core.handle(bob.public, "10.0.0.2", data)
    # a line Bob signs naming Ann as its author
    inner = encode_message("lobby/line", {"a": ann.fingerprint, "h": gid, "n": 0, "text": "x"})
    forged = encode_message("signed", {"m": inner, "s": bob.sign(DOMAIN + inner)})
    core.handle(ann.public, "10.0.0.1", encode_message(KIND, {"line": forged}))
    # a line of another table, and one from somebody without a seat
    core.handle(ann.public, "10.0.0.1", LobbyChat("elsewhere").say(ann, 1, "Ann", "blue", "x"))
    stranger = ident()
    with pytest.raises(BadLobbyLine, match="without a seat"):
        LobbyChat(gid).receive(
            LobbyChat(gid).say(stranger, 0, "S", "red", "x"), seat_keys(core.state)
        )
    core.handle(ann.public, "10.0.0.1", encode_message(KIND, {"line": b"junk"}))
    assert [d for d, _ in heard] == [None] * 4
    assert all(s.seat is None and "not shown" in s.text for _, s in heard)
    assert len(core.state.seats) == 3  # nobody was dropped for it


def test_a_flood_is_cut_with_one_note_and_our_own_lines_are_limited() -> None:
    core, _host, ann, bob, heard = table()
    clock = Clock()
    assert core.chat is not None
    core.chat.clock = clock
    ticks = iter(range(0, 10_000, 10))  # (a flooding peer that ignores its own limit)
    sender = LobbyChat(core.state.host_fingerprint, clock=lambda: float(next(ticks)))
    for i in range(BURST + 10):
        core.handle(ann.public, "10.0.0.1", sender.say(ann, 1, "Ann", "blue", f"spam {i}"))
    lines = [s for d, s in heard if d is not None]
    notes = [s for d, s in heard if d is None]
    assert len(lines) == BURST and len(notes) == 1 and "too fast" in notes[0].text
    clock.now = 5.0
    core.handle(ann.public, "10.0.0.1", sender.say(ann, 1, "Ann", "blue", "calm"))
    assert heard[-1][1].text == "calm"
    mine = LobbyChat(core.state.host_fingerprint, clock=lambda: 0.0)
    for i in range(BURST):
        mine.say(bob, 2, "Bob", "green", f"l{i}")
    with pytest.raises(ChatMisuse):
        mine.say(bob, 2, "Bob", "green", "one too many")
    with pytest.raises(ChatMisuse):
        mine.say(ident(), 0, "X", "red", "   ")


def test_lobby_chat_between_host_and_guests_over_loopback() -> None:
    async def main() -> None:
        host_id = ident()
        hosted = HostedTable(host_id, "Loop", TableOptions(players=3), FAST)
        port = await hosted.open("127.0.0.1", 0)
        hosted.core.sit(host_id.public, "Host", "", port, colour="red")
        at_host: list[Said] = []
        hosted.core.on_chat.append(lambda data, said: at_host.append(said))
        guests = [ident(), ident()]
        outboxes: list[asyncio.Queue[bytes]] = [asyncio.Queue(), asyncio.Queue()]
        books = [LobbyChat(host_id.fingerprint), LobbyChat(host_id.fingerprint)]
        heard: list[list[Said]] = [[], []]

        def on_chat(i: int) -> object:
            def hear(data: bytes) -> None:
                got = books[i].receive(data, seat_keys(hosted.core.state))
                if got is not None:
                    heard[i].append(got[0])

            return hear

        joins = [
            asyncio.ensure_future(
                join_table(
                    "127.0.0.1",
                    port,
                    guests[i],
                    name,
                    6001 + i,
                    limits=FAST,
                    ready=asyncio.Event(),
                    outbox=outboxes[i],
                    on_chat=on_chat(i),  # type: ignore[arg-type]
                )
            )
            for i, name in enumerate(("One", "Two"))
        ]

        await until(lambda: len(hosted.core.state.seats) == 3, 5)
        outboxes[0].put_nowait(books[0].say(guests[0], 1, "One", "blue", "hello from One"))
        await until(lambda: heard[1], 5)
        assert heard[1][0].name == "One" and heard[1][0].text == "hello from One"
        assert at_host[0].text == "hello from One"
        assert heard[0] == []  # its own line came back: known, not shown twice
        hosted.core.say(host_id, "welcome")
        await until(lambda: len(heard[0]) == 1 and len(heard[1]) == 2, 5)
        assert heard[0][0].name == "Host"
        for j in joins:
            j.cancel()
        await asyncio.gather(*joins, return_exceptions=True)
        await hosted.close()

    asyncio.run(asyncio.wait_for(main(), 20))


def test_a_flood_of_bad_lines_makes_few_notes() -> None:
    core, _host, ann, _bob, heard = table()
    for _ in range(50):
        core.handle(ann.public, "10.0.0.1", encode_message(KIND, {"line": b"junk"}))
    # each line takes from the rate before it is read: a note for each line within the rate,
    # then one that the rest came too fast
    assert 1 <= len(heard) <= BURST + 1 and all(d is None for d, _ in heard)
    assert sum("too fast" in s.text for _, s in heard) == 1
    stranger = ident()  # a guest without a seat: nothing at all
    core.handle(stranger.public, "10.0.0.9", encode_message(KIND, {"line": b"junk"}))
    assert len(heard) <= BURST + 1


def test_the_host_takes_a_guests_rate_before_checking_his_lines_signature(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from protocol.crypto.identity import PublicIdentity

    core, _host, ann, _bob, heard = table()
    assert core.chat is not None
    core.chat.clock = lambda: 0.0
    sender = LobbyChat(core.state.host_fingerprint, clock=lambda: 0.0)
    flood = []
    for i in range(BURST + 50):
        sender.rate(ann.fingerprint).tokens = 10.0  # (a flooding peer that ignores its limit)
        flood.append(sender.say(ann, 1, "Ann", "blue", f"spam {i}"))
    checks: list[bytes] = []
    real = PublicIdentity.verify

    def counted(self: PublicIdentity, data: bytes, sig: bytes, *, peer: str | None = None) -> None:
        checks.append(data)
        real(self, data, sig, peer=peer)

    monkeypatch.setattr(PublicIdentity, "verify", counted)
    for data in flood:
        core.handle(ann.public, "10.0.0.1", data)
    assert len([s for d, s in heard if d is not None]) == BURST
    assert len(checks) == BURST  # the lines past the rate cost no signature check
