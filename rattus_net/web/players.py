"""The players a ``rattus web`` server lets in: a name and a password hash per line.

``rattus web --add-player NAME --players FILE`` asks for the password twice and writes (or
replaces) the line ``NAME scrypt$N$r$p$SALT$HASH``: scrypt (memory-hard, so a stolen file is
slow to guess from) with a random 16-byte salt per player, both in base64. The file is
written to a temporary name and renamed (never half written) and kept owner-only. Passwords
are compared in constant time; an unknown name costs the same scrypt as a known one, so the
answer's timing does not say which names exist.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path

from rattus_net.kit.saves import write_whole
from rattus_net.serve.identity import check_name, folder_name

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
MIN_PASSWORD = 8


class PlayersFileError(OSError):
    """The players file cannot be read, is not one, or cannot be written."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32
    )
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def check_password(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        want = base64.b64decode(digest, validate=True)
        got = hashlib.scrypt(
            password.encode("utf-8"),
            salt=base64.b64decode(salt, validate=True),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(want),
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, want)


_DECOY = hash_password("", b"\0" * 16)
"""Checked against when the name is unknown, so that refusing one takes as long."""


@dataclass
class PlayersFile:
    path: Path

    def load(self) -> dict[str, tuple[str, str]]:
        """Folder name -> (the name as written, its hash)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PlayersFileError(f"cannot read the players file {self.path}: {exc}") from None
        players = {}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            name, _, stored = line.partition(" ")
            try:
                check_name(name)
            except ValueError as exc:
                raise PlayersFileError(f"{self.path} line {number}: {exc}") from None
            if not stored.startswith("scrypt$"):
                raise PlayersFileError(f"{self.path} line {number}: no password hash")
            players[folder_name(name)] = (name, stored.strip())
        return players

    def check(self, name: str, password: str) -> str | None:
        """The player's name as written in the file if the password is his, else ``None``."""
        try:
            entry = self.load().get(folder_name(name))
        except ValueError:
            entry = None
        ok = check_password(password, entry[1] if entry else _DECOY)
        return entry[0] if entry and ok else None

    def add(self, name: str, password: str) -> bool:
        """Write ``name`` with a hash of ``password`` (replacing his old line); ``True`` if he
        was new."""
        check_name(name)
        if len(password) < MIN_PASSWORD:
            raise ValueError(f"a password needs at least {MIN_PASSWORD} characters")
        players = self.load() if self.path.exists() else {}
        new = folder_name(name) not in players
        players[folder_name(name)] = (name, hash_password(password))
        lines = [f"{shown} {stored}\n" for shown, stored in players.values()]
        try:
            write_whole(self.path, "".join(lines), private=True)
        except OSError as exc:
            raise PlayersFileError(f"cannot write {self.path}: {exc}") from None
        return new
