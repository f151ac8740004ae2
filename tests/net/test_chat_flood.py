"""A node's chat against a seat that floods it through reconnects, without a network: the lines
a link hands the node (``c``: the history it resends on a new link, ``C``: its live lines),
with a clock the test turns, and what a node resends on a new link."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

from recordkit import table

from protocol.chat import BURST, HISTORY, PER_SECOND, ChatBook, chat_frame
from protocol.session import Session
from rattus_net.net.chat import NodeChat
from rattus_net.net.mesh import Link, send_chat
from rattus_net.net.persist import Journal

PARAMS, SECRETS = table(3, 5)
GID = Session(PARAMS, None).game_id
IDS = [s.identity() for s in SECRETS]


class Clock:
    """The time the test turns (seconds)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def node_chat(seat: int, path: Path, clock: Clock) -> NodeChat:
    book = ChatBook(GID, PARAMS.identities, PARAMS.config.players, seat, IDS[seat])
    return NodeChat(book, Journal.open(path, lock=False), clock)


def test_reconnects_cannot_fill_the_table(tmp_path: Path) -> None:
    clock = Clock()
    ann = node_chat(0, tmp_path / "ann", clock)
    number = 0
    for _ in range(11):  # Cy's link comes up again and again, 5 seconds apart
        clock.now += 5.0
        for _ in range(HISTORY):  # a "history" of new lines of its own
            ann.heard(2, chat_frame(IDS[2], GID, 2, number, f"spam {number}"), live=False)
            number += 1
        for _ in range(20):  # then live lines, as fast as the link carries them
            ann.heard(2, chat_frame(IDS[2], GID, 2, number, f"live {number}"), live=True)
            number += 1
    ann.say("still here")  # (the table's chat was full: "this table's chat is full")
    cy_lines = [s.text for s in ann.said if s.seat == 2]
    assert all(t.startswith("live") for t in cy_lines)
    assert len(cy_lines) == BURST + 50 * PER_SECOND  # a burst, then one a second: no more
    assert ann.book.count(2) == len(cy_lines)
    # nor after a resume: the journal holds what was kept, and the table chats on
    journal = Journal.open(tmp_path / "ann", lock=False)
    back = node_chat(0, tmp_path / "ann2", clock)
    for rec in journal.records:
        assert isinstance(rec, list) and rec[0] == "c" and isinstance(rec[1], bytes)
        back.replay(rec[1])
    assert [s.text for s in back.said if s.seat == 2] == cy_lines
    clock.now += 100.0
    back.say("back again")
    bob = chat_frame(IDS[1], GID, 1, 0, "me too")
    back.heard(1, bob, live=True)
    assert [s.text for s in back.said if s.seat is not None][-2:] == ["back again", "me too"]


def test_a_new_link_gets_our_lines_live_and_the_others_as_history(tmp_path: Path) -> None:
    clock = Clock()
    ann = node_chat(0, tmp_path / "ann", clock)
    ann.say("hi all")
    ann.heard(1, chat_frame(IDS[1], GID, 1, 0, "hi Ann"), live=True)
    clock.now += 1.0
    ann.say("where is Cy?")
    sent: list[bytes] = []

    class Conn:
        async def send(self, data: bytes) -> None:
            sent.append(data)

    link = Link(cast(Any, Conn()), 2)
    asyncio.run(send_chat(ann, link))
    assert [(d[:1], d[1:]) for d in sent] == [
        (b"C", ann.frames[0]),
        (b"c", ann.frames[1]),
        (b"C", ann.frames[2]),
    ]
    # Cy takes all of it: Bob's line as history, Ann's as her live lines
    cy = node_chat(2, tmp_path / "cy", clock)
    for data in sent:
        cy.heard(0, data[1:], live=data[:1] == b"C")
    assert [s.text for s in cy.said] == ["hi all", "hi Ann", "where is Cy?"]
