"""The SSH tests need the OpenSSH client and tmux (.ci/run installs them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ssh.sshlib import Server, have_tools


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[list[Server]]:
    """Start servers with ``serve.append(Server(...))``; all are stopped at the end."""
    if not have_tools():
        pytest.fail(
            "the SSH tests need ssh, ssh-keygen and tmux (apt-get install openssh-client tmux)"
        )
    servers: list[Server] = []
    yield servers
    for s in servers:
        s.stop()
