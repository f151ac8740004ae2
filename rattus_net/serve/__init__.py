"""`rattus serve`: play over SSH with nothing installed but an ssh client.

An adapter at the outer edge (architecture note, section 8): an asyncssh server whose every
session with a terminal runs the ordinary Rattus Net TUI as a process of its own in a
pseudo-terminal allocated here. Nothing inside the game knows about SSH: the session gives the
TUI its player name and data directory through the environment, exactly as a person starting
``rattus`` on this machine would. Inner layers never import this package.

- :mod:`.identity`: player names, who owns which name (first key claims it), allowed keys.
- :mod:`.hostkey`: the server's Ed25519 host key, made once and kept.
- :mod:`.limits`: connections per address per minute.
- :mod:`.session`: one SSH session = one TUI process in a pseudo-terminal.
- :mod:`.server`: the SSH server itself (authentication, limits, what is refused).
"""
