"""The server's host key: Ed25519, made on the first start, kept owner-only, shown as players
see it.

Players check the fingerprint printed at start against what their ssh client shows on the
first connection, so the key must stay the same from one start to the next: it is written once
(created with mode 0600, never readable by others even for an instant) and loaded afterwards.
A key file that others may read is refused rather than used, as OpenSSH refuses it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import asyncssh

HOST_KEY_FILE = "host_key_ed25519"


class HostKeyError(OSError):
    """The host key cannot be made, read, or is readable by others."""


def load_or_create_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The key at ``path``, made there first if missing; and whether it was just made."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _load(path), False
    except OSError as exc:
        raise HostKeyError(f"cannot create the host key {path}: {exc}") from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise HostKeyError(f"cannot write the host key {path}: {exc}") from None
    return key, True


def _load(path: Path) -> asyncssh.SSHKey:
    try:
        mode = path.stat().st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise HostKeyError(
                f"the host key {path} may be read by others (mode {stat.S_IMODE(mode):o}); "
                "make it owner-only (chmod 600) or remove it to make a new one"
            )
        return asyncssh.read_private_key(path)
    except (OSError, asyncssh.KeyImportError) as exc:
        if isinstance(exc, HostKeyError):
            raise
        raise HostKeyError(f"cannot read the host key {path}: {exc}") from None


def fingerprint(key: asyncssh.SSHKey) -> str:
    """``SHA256:...``, as ``ssh`` and ``ssh-keygen -l`` show it."""
    return key.get_fingerprint("sha256")
