"""File paths a player types into the TUI, confined to his own folder when a server says so.

Under ``rattus serve`` every SSH player's TUI runs as the server's account, so without a limit
a path typed into a dialog could name another player's journals (his secrets) or the server's
host key. The serve session therefore sets ``RATTUS_FILES_ROOT`` to the player's own folder;
when it is set, every path typed here is taken relative to that folder, resolved with its
symbolic links followed, and refused unless it lies inside. Without it (a player at his own
terminal) any path is opened, as the account's rights allow.

The check is made on the resolved path at the moment the player asks; a player who cannot
create files or links himself (no shell, no SFTP over ``rattus serve``) cannot swap one in
between the check and the read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rattus_net.paths import ENV_FILES_ROOT

OUTSIDE = "only files in your own folder can be opened here"


class PathRefused(ValueError):
    """A typed path the TUI will not open: outside the player's folder, or not a path at all.
    The message is one line, fit to show to the player."""


@dataclass(frozen=True, slots=True)
class FileAccess:
    """Where typed paths may lead: anywhere (``root`` is ``None``) or inside ``root``."""

    root: Path | None = None

    @classmethod
    def from_environment(cls) -> FileAccess:
        root = os.environ.get(ENV_FILES_ROOT)
        return cls(Path(root).resolve() if root else None)

    @property
    def confined(self) -> bool:
        return self.root is not None

    def resolve(self, text: str) -> Path:
        """The file ``text`` names: relative paths are taken from the root (from the working
        directory when there is none), ``~`` is the home folder. Raises ``PathRefused`` for a
        path that leads outside the root, once its symbolic links are followed."""
        try:
            path = Path(text).expanduser()
        except RuntimeError:  # ~user of no known user
            path = Path(text)
        if self.root is None:
            return path
        root = self.root.resolve()
        try:
            resolved = (root / path).resolve()  # an absolute ``path`` replaces the root
        except RuntimeError as exc:  # a loop of symbolic links
            raise PathRefused(f"{text}: {exc}") from None
        except (OSError, ValueError) as exc:  # a NUL byte, a name too long...
            raise PathRefused(f"{text}: not a usable path ({exc})") from None
        if resolved != root and root not in resolved.parents:
            raise PathRefused(f"{text}: {OUTSIDE}")
        return resolved

    def allows(self, path: Path) -> bool:
        """Whether ``path`` may be opened (it lies inside the root, if there is one)."""
        try:
            self.resolve(str(path))
        except PathRefused:
            return False
        return True

    def shown(self, path: Path) -> str:
        """How a path is shown to the player: inside the root, relative to it (the server's
        own layout is none of his business); otherwise as it is."""
        if self.root is not None:
            try:
                return str(path.resolve().relative_to(self.root.resolve()))
            except (ValueError, OSError, RuntimeError):
                pass
        return str(path)
