"""A full or read-only disk (a tmpfs of its own, in a mount namespace of the peer's own, so
nothing of the machine is touched): refused before sitting down, and during a game an error
that names the file and the way back."""

from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .procs import (
    GAME_LINE,
    assert_fair_game,
    env_for,
    finish,
    host_table,
    join_table,
    rattus,
    read_line,
)

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


def on_tmpfs(data: Path, options: str, argv: list[str]) -> subprocess.Popen[str]:
    """``argv`` with its data directory on a tmpfs mounted with ``options``."""
    data.mkdir(parents=True, exist_ok=True)
    script = f'mount -t tmpfs -o {options} rattus-disk "{data}" && exec "$@"'
    return subprocess.Popen(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", *argv],
        env=env_for(data), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


@pytest.fixture(autouse=True)
def _needs_unshare() -> None:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("a private tmpfs needs unshare and root")


def test_a_full_or_read_only_disk_is_refused_before_sitting_down(tmp_path: Path) -> None:
    host, port = host_table("Disk", 2, tmp_path / "h")
    join = rattus(["join", f"127.0.0.1:{port}", "--bot", "random"])
    full = on_tmpfs(tmp_path / "full", "size=1m", join)
    ro = on_tmpfs(tmp_path / "ro", "size=16m,ro", join)
    for proc, words in ((full, "MB free"), (ro, "Read-only file system")):
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 1, (out, err)
        assert words in err and ("RATTUS_DATA_DIR" in err or "free some space" in err), err
        assert "Traceback" not in err and "game" not in out
    guest = join_table(port, tmp_path / "g")
    assert_fair_game(finish([host, guest], 120), 2)  # the table was fine


def test_a_disk_that_fills_during_the_game_names_the_file_and_the_way_back(
    tmp_path: Path,
) -> None:
    host, port = host_table("Full", 2, tmp_path / "h", "--stall-timeout", "5")
    data = tmp_path / "g"
    guest = on_tmpfs(data, "size=12m", rattus(["join", f"127.0.0.1:{port}", "--bot", "random"]))
    read_line(guest, GAME_LINE, 30)
    read_line(guest, re.compile(r"^(round 2) of \d+$"), 60)
    filler = Path(f"/proc/{guest.pid}/root") / str(data).lstrip("/") / "filler"
    with open(filler, "wb") as f:  # fill the guest's disk
        try:
            while True:
                f.write(b"\0" * (1 << 20))
                f.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    out, err = guest.communicate(timeout=60)
    assert guest.returncode == 1, (out, err)
    assert re.search(r"cannot write \S+/journal\.bin: No space left on device", err), err
    assert "`rattus resume` continues it" in err and "Traceback" not in err
    host.kill()
    host.communicate()
