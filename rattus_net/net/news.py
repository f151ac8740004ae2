"""A node's events in words, for the player.

:class:`LinkNews` turns a :class:`~rattus_net.net.node.PeerNode`'s ``on_event`` calls into
sentences: who is connected, who dropped off the table and came back, who sent something
invalid. The TUI's log and the headless commands' output (``rattus host/join/resume --bot``)
say the same things. :func:`headless_reporter` adds, for the headless commands, a line at the
start of each round, so a long game shows its progress (``GameDefinition.progress``: the
game says what a round is).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from protocol.safetext import safetext
from rattus_net.net.node import PeerNode


class LinkNews:
    """Remembers who was linked and who is gone, to tell a first connection from a return."""

    def __init__(self, names: Sequence[str], over: Callable[[], bool]) -> None:
        self.names = tuple(safetext(n) for n in names)  # they came from other peers
        self.over = over  # a link going down at the end of the game is no news
        self.linked: set[int] = set()
        self.gone: set[int] = set()

    @classmethod
    def for_node(cls, node: PeerNode) -> LinkNews:
        """The news of ``node``'s links (a link lost once its game has ended is no news)."""
        session = node.session
        return cls(node.names, lambda: session.finished or session.abort is not None)

    def __call__(self, kind: str, seat: int | None, detail: str) -> str | None:
        name = self.names[seat] if seat is not None else "somebody"
        if kind == "link-up" and seat is not None:
            first = seat not in self.linked and seat not in self.gone
            back = seat in self.gone
            self.gone.discard(seat)
            self.linked.add(seat)
            if back:
                return f"{name} is back at the table."
            return f"{name} is connected." if first else None
        if kind == "link-down" and seat is not None and not self.over():
            self.gone.add(seat)
            return f"{name} dropped off the table; waiting for a return."
        if kind == "moved":
            return f"{detail[:1].upper()}{detail[1:]}; the others are told."
        if kind == "journal":  # (our own journal: the line names its file)
            return safetext(detail)
        if kind in ("linger", "alone", "claims", "paused"):  # (nobody online; claims met...)
            return safetext(f"{detail[:1].upper()}{detail[1:]}.")
        if kind == "bot-failed":  # (a bot seat this process ran)
            return f"The bot playing {name} stopped: {safetext(detail)}."
        if kind == "fault":
            return f"{name} sent something invalid: {safetext(detail)}."
        if kind == "version":  # (the refused link, dialled again in case it updates)
            theirs, ours = (int(n) for n in detail.split())
            who = "update rattus" if theirs > ours else f"{name} must update rattus"
            return f"{name}'s rattus runs protocol {theirs}; yours is {ours}: {who}."
        return None


Lingering = Callable[[Callable[[], None]], None]
"""Told, once the game is over and lingers for the others, the call that leaves it
(``node.leave``): an entry point makes Ctrl+C call it from then on (the record is written,
not "interrupted"). Signals are the program's: a library module installs no handler."""


def headless_reporter(
    node: PeerNode, say: Callable[[str], None], lingering: Lingering | None = None
) -> None:
    """Hook ``say`` lines onto ``node``: the news of the links, and each new round;
    ``lingering`` is handed ``node.leave`` when the game lingers."""
    session = node.session
    news = LinkNews.for_node(node)
    said_round = 0

    def hook(kind: str, seat: int | None, detail: str) -> None:
        nonlocal said_round
        if kind == "linger" and lingering is not None:
            lingering(node.leave)
        line = news(kind, seat, detail)
        if line is not None:
            say(line)
        game = session.game
        if game is None or game.is_over:
            return
        now, line = node.definition.progress(game)  # (the game's own words: 0 before round 1)
        if now > said_round:
            said_round = now
            say(line)

    node.on_event = hook
    node.say_drops = say


__all__ = ["Lingering", "LinkNews", "headless_reporter"]
