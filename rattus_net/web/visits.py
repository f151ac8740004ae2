"""Who came through the door of ``rattus web``, and for how long his login holds.

A login gives the browser a random token (the cookie, HttpOnly and SameSite=Strict, with an
expiry); the token, and nothing else, says which visitor a page or a websocket comes from.
Pure bookkeeping with the clock passed in (the event loop's), so it is tested without waiting.

Two rules keep a token from reaching a game that is not its own:

- **A login holds for** :data:`VISIT_SECONDS` (the cookie's lifetime too): a cookie left on a
  shared machine opens nothing the next day.
- **One login per name**: a new login under a name forgets the older logins under it, so a
  stale cookie (from an earlier login under a guest's name someone else now plays under, or a
  listed player's other browser) finds no visitor and is sent to the door. Only the newest
  login under a name may replace a game running under it (a listed player's, with his
  password: a guest cannot take a name in play), and only the same visitor comes back to it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from rattus_net.serve.identity import folder_name

VISIT_SECONDS = 12 * 3600.0
"""How long a login holds (seconds), the cookie's lifetime: an evening's games, and no more."""
MAX_VISITORS = 1000
"""Logins remembered at once (the oldest forgotten first): a flood of logins is bounded."""


@dataclass(eq=False)
class Visitor:
    """Who came through the door: his name as he plays under it, whether his folder is kept
    (a listed player's) and the address he came from. Compared by identity: two logins under
    one name are two visitors."""

    name: str
    kept: bool
    address: str
    expires: float = 0.0

    @property
    def key(self) -> str:
        """The name as folders and games are keyed by it (case folded)."""
        return folder_name(self.name)


@dataclass
class Visitors:
    """The logins that hold, by token."""

    seconds: float = VISIT_SECONDS
    limit: int = MAX_VISITORS
    _by_token: dict[str, Visitor] = field(default_factory=dict)

    def login(self, visitor: Visitor, now: float) -> str:
        """Remember ``visitor`` until ``now + seconds``, forgetting every older login under his
        name; the new token (for his cookie)."""
        for token in [t for t, v in self._by_token.items() if v.key == visitor.key]:
            del self._by_token[token]
        visitor.expires = now + self.seconds
        token = secrets.token_urlsafe(32)
        self._by_token[token] = visitor
        while len(self._by_token) > self.limit:
            del self._by_token[next(iter(self._by_token))]
        return token

    def get(self, token: str, now: float) -> Visitor | None:
        """The visitor whose login ``token`` is, while it holds; else ``None``."""
        visitor = self._by_token.get(token)
        if visitor is not None and now >= visitor.expires:
            del self._by_token[token]
            return None
        return visitor
