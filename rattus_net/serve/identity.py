"""Who a player is on an SSH server: a checked name, owned by the first key that used it.

The SSH user name is the player's name and, lowercased, the name of his folder on the server,
so it must be a safe folder name: letters, digits, ``-`` and ``_``, starting with a letter or
digit, at most 24 characters (the TUI's longest player name). Anything else is refused with a
clear message rather than cleaned up, so two people never end up in one folder by accident.

The first public key to open a game under a name claims it (logging in alone claims nothing);
the claim is kept in a small JSON file (``names.json``: lowercase name -> the key's SHA256
fingerprint, or ``web`` for a name a ``rattus web`` player holds), written to a temporary file
and renamed over the old one so a crash never leaves it half written, under a lock so that an
SSH server and a web server sharing the state directory never lose each other's claims.
Another key is refused that name from then on, whatever the case of its letters.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rattus_net.kit.saves import write_whole

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,23}")
NAMES_FILE = "names.json"
WEB_OWNER = "web"
"""The owner of a name held by a web player (``rattus web --players``)."""


class BadNameError(ValueError):
    """A user name that cannot be a player's name here (the message says why)."""


def check_name(name: str) -> str:
    """The name itself if it is a safe player and folder name, else :class:`BadNameError`."""
    if not NAME.fullmatch(name):
        shown = name.encode("ascii", "backslashreplace").decode()[:40]
        raise BadNameError(
            f"{shown!r} cannot be a player name here: use 1 to 24 letters, digits, '-' or '_', "
            "starting with a letter or digit (ssh -p PORT NAME@HOST)"
        )
    return name


def folder_name(name: str) -> str:
    """The player's folder: the checked name, lowercased (``Alice`` and ``alice`` are one)."""
    return check_name(name).lower()


class ClaimError(OSError):
    """The names file cannot be read or written."""


@dataclass
class NameClaims:
    """Which key owns which name; backed by ``names.json`` in the server's state directory."""

    path: Path

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise ClaimError(f"cannot read {self.path}: {exc}") from None
        if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()
        ):
            raise ClaimError(f"{self.path} is not a names file")
        return data

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            fd = os.open(
                self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600
            )
        except OSError as exc:
            raise ClaimError(f"cannot lock {self.path}: {exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def names_of(self, owner: str) -> list[str]:
        """The names ``owner`` (a key's fingerprint, or ``web``) holds."""
        return sorted(n for n, o in self._load().items() if o == owner)

    def owner(self, name: str) -> str | None:
        """The fingerprint of the key that owns ``name``, or ``None`` if nobody does yet."""
        return self._load().get(folder_name(name))

    def may_use(self, name: str, fingerprint: str) -> bool:
        """Whether the key may play as ``name`` (it owns it, or nobody does)."""
        owner = self.owner(name)
        return owner is None or owner == fingerprint

    def claim(self, name: str, fingerprint: str, most: int | None = None) -> bool:
        """Record that ``fingerprint`` owns ``name``; ``False`` if another key owns it, or
        this one holds ``most`` names already."""
        with self._locked():
            return self._claim(name, fingerprint, most)

    def _claim(self, name: str, fingerprint: str, most: int | None) -> bool:
        claims = self._load()
        key = folder_name(name)
        owner = claims.get(key)
        if owner is not None:
            return owner == fingerprint
        if most is not None and sum(o == fingerprint for o in claims.values()) >= most:
            return False
        claims[key] = fingerprint
        try:
            write_whole(self.path, json.dumps(claims, indent=1, sort_keys=True))
        except OSError as exc:
            raise ClaimError(f"cannot write {self.path}: {exc}") from None
        return True
