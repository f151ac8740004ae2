"""What a server (``rattus serve``, ``rattus web``) decides for the games it runs for players.

A served player's game runs on the server's machine, with the server's network. The server
tells it, through the environment (the only thing a session gives its game), what the player
may do there that a player at his own terminal may do freely:

- ``RATTUS_PLAYER``: the player's name, fixed: he sits at network tables under his login.
- ``RATTUS_LISTEN_ADDRESS``: the only address his tables (and seats) listen on.
- ``RATTUS_JOIN``: ``listed``, he joins only tables announced on the LAN or hosted on this
  server (no typed HOST:PORT, so no probing of the server's network); ``any``: as at home.
- ``RATTUS_SERVER_TABLES``: the folder where the server's players list the tables they host.
- ``RATTUS_RECORD_COMMAND``: how he fetches a record (``{id}`` stands for the game id).
- ``RATTUS_IN_BROWSER``: the game is drawn in a browser page, where Ctrl+C copies (the page
  keeps it from the game) and the player leaves with q, as on every screen.
- ``RATTUS_NOT_KEPT``: nothing of his is kept once he leaves (a guest): no save to speak of.

Without them (a player at his own terminal) nothing is limited: any name, any address.
The listing of the tables hosted on one server is :mod:`rattus_net.net.servertables`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rattus_net.paths import (
    ENV_IN_BROWSER,
    ENV_JOIN,
    ENV_LISTEN,
    ENV_NOT_KEPT,
    ENV_PLAYER,
    ENV_RECORD_COMMAND,
    ENV_TABLES,
)

JOIN_LISTED = "listed"
JOIN_ANY = "any"
ANY_ADDRESS = "0.0.0.0"


@dataclass(frozen=True, slots=True)
class Served:
    """The limits a server set for this game (none at a player's own terminal)."""

    player: str | None = None
    listen: str | None = None
    join_by_address: bool = True
    tables: Path | None = None
    record_command: str | None = None
    in_browser: bool = False
    kept: bool = True

    @classmethod
    def from_environment(cls) -> Served:
        env = os.environ
        tables = env.get(ENV_TABLES)
        return cls(
            player=env.get(ENV_PLAYER) or None,
            listen=env.get(ENV_LISTEN) or None,
            join_by_address=env.get(ENV_JOIN, JOIN_ANY) != JOIN_LISTED,
            tables=Path(tables) if tables else None,
            record_command=env.get(ENV_RECORD_COMMAND) or None,
            in_browser=env.get(ENV_IN_BROWSER) == "1",
            kept=env.get(ENV_NOT_KEPT) != "1",
        )

    def environment(self) -> dict[str, str]:
        """The variables that say this (for the server to give its sessions)."""
        env = {ENV_JOIN: JOIN_ANY if self.join_by_address else JOIN_LISTED}
        if self.player:
            env[ENV_PLAYER] = self.player
        if self.listen:
            env[ENV_LISTEN] = self.listen
        if self.tables is not None:
            env[ENV_TABLES] = str(self.tables)
        if self.record_command:
            env[ENV_RECORD_COMMAND] = self.record_command
        if self.in_browser:
            env[ENV_IN_BROWSER] = "1"
        if not self.kept:
            env[ENV_NOT_KEPT] = "1"
        return env

    def record_line(self, game_id: str, path: Path) -> str:
        """How the player gets a game's record: the server's command, or the file itself."""
        if self.record_command:
            return self.record_command.replace("{id}", game_id)
        return str(path)


def listen_host() -> str:
    """The address this program's tables and seats listen on (every address, unless a server
    says otherwise)."""
    return Served.from_environment().listen or ANY_ADDRESS
