"""Chat at a network table: a seat's lines over the mesh, in the journal, and for the screen.

The lines themselves are :mod:`protocol.chat`'s (signed, checked, limited: sans-IO). Here:

* :class:`NodeChat`, on the node's thread: our player's lines are journaled (``["c",
  frame]``), then go out on every link; a peer's lines are checked, journaled and kept. On a
  new link each side first resends the lines it holds (the last :data:`~protocol.chat.HISTORY`),
  so a peer that was away (resumed, or its link down) sees what was said meanwhile: the other
  authors' lines as history (tag ``c``), its own as live lines (tag ``C``); then only its own
  new lines (``C``). The receiver holds every line to its author's rate, history too
  (:meth:`~protocol.chat.ChatBook.resent`: a seat cannot pass new lines as history by
  reconnecting), and each author to its share of lines (:data:`~protocol.chat.PER_AUTHOR`: a
  flood silences its author, never the table). A bad line is dropped with a note: chat is not
  the game, so it never stops it (:class:`~protocol.chat.BadChat`). The lines go into the
  record.
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

from protocol.chat import BadChat, ChatBook, ChatLine, ChatMisuse, Rate
from protocol.safetext import safetext
from rattus_net.net.loopthread import LoopClosed, LoopThread, hand_to
from rattus_net.net.persist import Journal

log = logging.getLogger(__name__)

SHOWN_KEPT = 2000
"""Lines (and notes) kept for the screen: the last ones (every line stays in the journal and
the frames; each author's share of them is :data:`~protocol.chat.PER_AUTHOR`)."""


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
    ``on_change`` is told (on the node's thread) when a line or a note is added; ``clock``
    gives the time (seconds) for the rates."""

    def __init__(
        self, book: ChatBook, journal: Journal, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.book = book
        self.journal = journal
        self.clock = clock
        self.frames: list[bytes] = []
        """Every line's frame, in the order they were heard (links resend from here)."""
        self.own: set[bytes] = set()
        self.said: tuple[Said, ...] = ()
        self.wake: Callable[[], None] = lambda: None
        self.on_change: Callable[[], None] | None = None
        self.closing = False
        self._quiet: dict[int, Rate] = {}  # the notes of bad lines, per link (a flood: quiet)

    def say(self, text: str) -> None:
        """Our player's line: journaled, then sent to every peer. ChatMisuse (nothing sent)
        if it is empty, comes too fast, or we said all one game keeps."""
        line = self.book.say(text, self.clock())
        if not self.closing:
            self.journal.append(["c", line.frame])
        self.own.add(line.frame)
        self._add(line)
        self.wake()

    def heard(self, seat: int, frame: bytes, *, live: bool) -> None:
        """A line from ``seat``'s link: its own new line (``live``) or one of the lines it
        resends on a new link (another author's). A bad one is dropped with a note."""
        now = self.clock()
        try:
            if live:
                line = self.book.receive(frame, now, link=seat)
            else:
                line = self.book.resent(frame, now, link=seat)
        except BadChat as exc:
            log.info("chat line from seat %d dropped: %s", seat, exc.reason)
            if self._quiet.setdefault(seat, Rate()).take(now):  # (a flood of bad lines: quiet)
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
        self.said = (*self.said, Said(line.author, safetext(line.text)))[-SHOWN_KEPT:]
        self._changed()

    def _note(self, text: str) -> None:
        self.said = (*self.said, Said(None, safetext(text)))[-SHOWN_KEPT:]
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


__all__ = ["SHOWN_KEPT", "ChatFeed", "NodeChat", "Said", "send_line"]
