"""Chat at a network table: a seat's lines over the mesh, in the journal, and for the screen.

The lines themselves are :mod:`protocol.chat`'s (signed, checked, limited: sans-IO). Here:

* :class:`NodeChat`, on the node's thread: our player's lines are journaled (``["c",
  frame]``), then go out on every link; a peer's lines are checked, journaled and kept. On a
  new link each side first resends the lines it holds (the last :data:`~protocol.chat.HISTORY`:
  tag ``c``, any author, not rate-limited, at most that many per link), so a peer that was away
  (resumed, or its link down) sees what was said meanwhile; then only its own new lines (tag
  ``C``, rate-limited by the receiver). A bad line is dropped with a note: chat is not the
  game, so it never stops it (:class:`~protocol.chat.BadChat`). The lines go into the record.
* :class:`ChatFeed`, on the front end's loop: the lines as they stand (a tuple the node's
  thread replaces, never changes), the listeners told of new ones, and :meth:`ChatFeed.say`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from protocol.chat import BadChat, ChatBook, ChatLine, ChatMisuse
from protocol.safetext import safetext
from rattus_net.net.loopthread import LoopClosed, LoopThread, hand_to
from rattus_net.net.persist import Journal

log = logging.getLogger(__name__)

MAX_KEPT = 2000
"""Lines one game keeps at most (a flood that gets through the rate for hours stops here)."""


@dataclass(frozen=True, slots=True)
class Said:
    """One line for the screen: ``seat`` said ``text`` (made safe to show), or, with
    ``seat`` None, a note about the chat itself (a line dropped, a flood). A lobby's lines
    also carry the author's ``name`` and ``colour`` (seats change there)."""

    seat: int | None
    text: str
    name: str = ""
    colour: str = ""


class NodeChat:
    """The chat of one seat's node (its thread only). ``wake`` wakes the links' writers;
    ``on_change`` is told (on the node's thread) when a line or a note is added."""

    def __init__(self, book: ChatBook, journal: Journal) -> None:
        self.book = book
        self.journal = journal
        self.frames: list[bytes] = []
        """Every line's frame, in the order they were heard (links resend from here)."""
        self.own: set[bytes] = set()
        self.said: tuple[Said, ...] = ()
        self.wake: Callable[[], None] = lambda: None
        self.on_change: Callable[[], None] | None = None
        self.closing = False

    def say(self, text: str) -> None:
        """Our player's line: journaled, then sent to every peer. ChatMisuse (nothing sent)
        if it is empty or comes too fast."""
        if len(self.frames) >= MAX_KEPT:
            raise ChatMisuse("this table's chat is full")
        line = self.book.say(text, time.monotonic())
        if not self.closing:
            self.journal.append(["c", line.frame])
        self.own.add(line.frame)
        self._add(line)
        self.wake()

    def heard(self, seat: int, frame: bytes, *, live: bool) -> None:
        """A line from ``seat``'s link: its own new line (``live``) or one of the lines it
        resends on a new link. A bad one is dropped with a note."""
        if len(self.frames) >= MAX_KEPT:
            return
        try:
            if live:
                line = self.book.receive(frame, time.monotonic(), link=seat)
            else:
                line = self.book.keep(frame)
        except BadChat as exc:
            log.info("chat line from seat %d dropped: %s", seat, exc.reason)
            if self.book.rate(seat).take(time.monotonic()):  # (a flood of bad lines: quiet)
                name = self.book.names[seat]
                self._note(f"{name} sent a chat line that is not shown ({exc.reason})")
            return
        for note in self.book.notes:
            self._note(note)
        self.book.notes.clear()
        if line is None:
            return
        if not self.closing:
            self.journal.append(["c", line.frame], sync=False)
        self._add(line)

    def replay(self, frame: bytes) -> None:
        """A line from our journal (a resumed peer shows what was said before)."""
        with contextlib.suppress(BadChat):
            line = self.book.keep(frame)
            if line is not None:
                if line.author == self.book.seat:
                    self.own.add(line.frame)
                self._add(line)

    def record(self) -> list[bytes]:
        """The lines the record carries (the last ones kept)."""
        return self.book.frames

    def _add(self, line: ChatLine) -> None:
        self.frames.append(line.frame)
        self.said = (*self.said, Said(line.author, safetext(line.text)))[-MAX_KEPT:]
        self._changed()

    def _note(self, text: str) -> None:
        self.said = (*self.said, Said(None, safetext(text)))[-MAX_KEPT:]
        self._changed()

    def _changed(self) -> None:
        hook = self.on_change
        if hook is not None:
            try:
                hook()
            except Exception:  # a user interface's bug must not stop the game
                log.exception("chat hook failed")


class ChatFeed:
    """The chat of a network table, for a front end (its loop): ``lines`` as they stand,
    ``listeners`` told when they change, :meth:`say` for our player's line."""

    def __init__(self, chat: NodeChat) -> None:
        self.chat = chat
        self.listeners: list[Callable[[], None]] = []
        self.runner: LoopThread | None = None
        self._ui: asyncio.AbstractEventLoop | None = None
        chat.on_change = self._changed

    @property
    def lines(self) -> tuple[Said, ...]:
        return self.chat.said

    def attach(self, runner: LoopThread) -> None:
        """From the front end's loop, once the node runs on ``runner``'s thread."""
        self.runner = runner
        self._ui = asyncio.get_running_loop()

    def _changed(self) -> None:  # (the node's thread)
        hand_to(self._ui, self._tell)

    def _tell(self) -> None:
        for hook in list(self.listeners):
            hook()

    async def say(self, text: str) -> str | None:
        """Send our player's line; None once it is out, or one line saying why not."""
        if self.runner is None:
            return "The table is not connected yet."
        return await send_line(self.runner, lambda: self.chat.say(text))


async def send_line(
    runner: LoopThread,
    send: Callable[[], None],
    refusals: tuple[type[Exception], ...] = (ChatMisuse,),
) -> str | None:
    """Run ``send`` (our player's chat line) on the table's thread: ``None`` once it is out,
    else the one line that says why not (a refusal of ours, or the table gone)."""
    try:
        await asyncio.wrap_future(runner.ask(send))
    except refusals as exc:
        return f"Not sent: {exc}."
    except LoopClosed:
        return "Not sent: the table has closed."
    return None


__all__ = ["MAX_KEPT", "ChatFeed", "NodeChat", "Said", "send_line"]
