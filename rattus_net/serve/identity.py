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

A server may let the names of keys it has not seen for a long time lapse (``rattus serve
--names-lapse DAYS``): when each key last logged in is kept beside the names
(``keys-seen.json``: fingerprint -> Unix time, written the same way), and a name whose key has
been away longer than that is free to be claimed again (a web player's names never lapse).
Keys already holding names when the file first appears count as seen then, never as away.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rattus_net.kit.saves import write_whole

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,23}")
NAMES_FILE = "names.json"
SEEN_FILE = "keys-seen.json"
DAY = 24 * 3600.0
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
    """Which key owns which name; backed by ``names.json`` in the server's state directory.

    With ``lapse`` (seconds), a key's names lapse once it has not logged in for that long
    (:meth:`seen` says it has); ``clock`` gives Unix time (injected by tests)."""

    path: Path
    lapse: float | None = None
    clock: Callable[[], float] = field(default=time.time)

    @property
    def seen_path(self) -> Path:
        return self.path.with_name(SEEN_FILE)

    def _read(self, path: Path, kind: type | tuple[type, ...], what: str) -> dict[str, object]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise ClaimError(f"cannot read {path}: {exc}") from None
        if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, kind) and not isinstance(v, bool)
            for k, v in data.items()
        ):
            raise ClaimError(f"{path} is not {what}")
        return data

    def _write(self, path: Path, data: dict[str, object]) -> None:
        try:
            write_whole(path, json.dumps(data, indent=1, sort_keys=True))
        except OSError as exc:
            raise ClaimError(f"cannot write {path}: {exc}") from None

    def _all(self) -> dict[str, str]:
        """Every claim in the file, lapsed or not."""
        return {k: str(v) for k, v in self._read(self.path, str, "a names file").items()}

    def _seen(self) -> dict[str, float]:
        data = self._read(self.seen_path, (int, float), "a file of keys last seen")
        return {k: float(v) for k, v in data.items() if isinstance(v, (int, float))}

    def _load(self) -> dict[str, str]:
        """The claims that hold: those of keys away too long are left out."""
        claims = self._all()
        if self.lapse is None:
            return claims
        seen, now = self._seen(), self.clock()
        return {
            n: o for n, o in claims.items() if o == WEB_OWNER or now - seen.get(o, now) < self.lapse
        }

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
        """The fingerprint of the key that owns ``name``, or ``None`` if nobody does (or its
        key has been away too long)."""
        return self._load().get(folder_name(name))

    def lapsed_owner(self, name: str) -> str | None:
        """The key whose claim on ``name`` lapsed (it is in the file but holds no more)."""
        key = folder_name(name)
        held = self._all().get(key)
        return held if held is not None and key not in self._load() else None

    def may_use(self, name: str, fingerprint: str) -> bool:
        """Whether the key may play as ``name`` (it owns it, or nobody does)."""
        owner = self.owner(name)
        return owner is None or owner == fingerprint

    def seen(self, fingerprint: str) -> None:
        """The key has just logged in: its names do not lapse for another ``lapse`` seconds.
        Keys holding names that were never seen count as seen now (the first time the file
        is written, every claim so far starts its count)."""
        if self.lapse is None:
            return
        with self._locked():
            seen, now = self._seen(), self.clock()
            old = self._load()  # (before this key's time moves: what holds now)
            for owner in set(old.values()) - {WEB_OWNER}:
                seen.setdefault(owner, now)
            seen[fingerprint] = now
            holders = set(self._all().values())
            self._write(
                self.seen_path, {k: t for k, t in seen.items() if k in holders or k == fingerprint}
            )

    def claim(self, name: str, fingerprint: str, most: int | None = None) -> bool:
        """Record that ``fingerprint`` owns ``name``; ``False`` if another key owns it, or
        this one holds ``most`` names already. A lapsed claim is taken over."""
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
        every = self._all()
        every[key] = fingerprint
        self._write(self.path, dict(every))
        return True
