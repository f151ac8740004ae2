"""An in-memory network of sessions: every frame is broadcast to every other peer, FIFO per
link, with a fake clock. For self-play (``rattus selfplay --secure``), tests and benchmarks.

The players' decisions come from ``choose(game, seat)``, called with the seat's OWN engine (so a
bot sees exactly what its peer knows); the caller typically wraps the game's view of the seat
(``PlayerView(game, seat)``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from protocol.errors import RemoteProtocolError
from protocol.params import GameParams, PeerSecrets
from protocol.session import Session

Chooser = Callable[[Any, int], Any]
"""``choose(game, seat)``: the move of ``seat``, given its peer's own engine."""


class MemoryNetwork:
    """Sessions for every seat, wired in a full mesh. ``links`` holds frames in flight as
    ``(sender, receiver, frame)``; tests may reorder, drop or tamper with them."""

    def __init__(
        self,
        params: GameParams,
        secrets: list[PeerSecrets],
        *,
        timeout: float = 30.0,
        verify_own: bool = False,
    ) -> None:
        self.params = params
        self.now = 0.0
        self.peers = [
            Session(params, s, secrets[s], now=self.now, timeout=timeout, verify_own=verify_own)
            for s in range(params.n)
        ]
        self.links: deque[tuple[int, int, bytes]] = deque()
        self.delivered = 0
        self.tamper: Callable[[int, int, bytes], bytes | None] | None = None
        """Tests: replace (or drop, returning None) a frame on the link sender -> receiver."""
        self.errors: list[tuple[int, Exception]] = []
        self.keep_going = False
        """Record RemoteProtocolErrors raised by receivers instead of propagating them."""
        self._collect()

    def _collect(self) -> None:
        for s, peer in enumerate(self.peers):
            for frame in peer.take_outgoing():
                self.broadcast(s, frame)

    def broadcast(self, sender: int, frame: bytes) -> None:
        for r in range(len(self.peers)):
            if r != sender:
                sent: bytes | None = frame
                if self.tamper is not None:
                    sent = self.tamper(sender, r, frame)
                if sent is not None:
                    self.links.append((sender, r, sent))

    def deliver_one(self) -> bool:
        """Deliver the oldest frame in flight; False if none."""
        if not self.links:
            return False
        sender, receiver, frame = self.links.popleft()
        self.delivered += 1
        try:
            self.peers[receiver].receive(frame, self.now, link=sender)
        except RemoteProtocolError as exc:
            if not self.keep_going:
                raise
            self.errors.append((receiver, exc))
        self._collect()
        return True

    def run(
        self,
        choose: Chooser,
        *,
        max_frames: int = 10_000_000,
        on_idle: Callable[[MemoryNetwork], bool] | None = None,
    ) -> None:
        """Deliver frames and ask players for decisions until every session is finished or
        aborted, or nothing more can happen."""
        frames = 0
        while frames < max_frames:
            if self.deliver_one():
                frames += 1
                continue
            progressed = False
            for s, peer in enumerate(self.peers):
                if peer.needs_decision:
                    assert peer.game is not None
                    peer.decide(choose(peer.game, s), self.now)
                    self._collect()
                    progressed = True
                    break
            if progressed:
                continue
            if all(p.finished or p.abort is not None for p in self.peers):
                return
            if on_idle is not None and on_idle(self):
                continue
            return
