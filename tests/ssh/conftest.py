"""The SSH tests need the OpenSSH client and tmux (.ci/run installs them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ssh.sshlib import Servers, have_tools


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Servers]:
    """Start servers with ``serve.start(...)`` (their state in ``tmp_path/state``) or
    ``serve.append(Server(...))``; all are stopped at the end."""
    if not have_tools():
        pytest.fail(
            "the SSH tests need ssh, ssh-keygen and tmux (apt-get install openssh-client tmux)"
        )
    servers = Servers(tmp_path / "state")
    yield servers
    for s in servers:
        s.stop()
