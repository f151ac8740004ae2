"""Sessions forked from the preloaded parent get what a fresh start would: only their own
environment and folder, their own descriptors, a session of their own, their own random
numbers, Textual's settings read from their environment; and the parent reports their end."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from waits import until

from rattus_net.serve.limits import MIB, ProcessLimits
from rattus_net.serve.preload import Launcher
from ssh.sshlib import limits_of

pytestmark = pytest.mark.slow  # processes, SSH or a browser

TESTS = str(Path(__file__).resolve().parent.parent)


async def run_one(launcher: Launcher, env: dict[str, str], cwd: Path) -> tuple[dict, int]:
    stdin_r, stdin_w = os.pipe()
    out_r, out_w = os.pipe()
    try:
        child = await launcher.launch(env, str(cwd), (stdin_r, out_w, out_w), terminal=False)
    finally:
        os.close(stdin_r)
        os.close(out_w)
    os.write(stdin_w, b"keys")
    os.close(stdin_w)
    loop = asyncio.get_running_loop()
    with os.fdopen(out_r, "rb") as f:
        data = await loop.run_in_executor(None, f.read)
    return json.loads(data), await child.wait()


@pytest.mark.parametrize("preload", [True, False])
def test_a_session_gets_only_what_is_its_own(tmp_path: Path, preload: bool) -> None:
    base = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": TESTS, "SECRET": "server's"}

    async def main() -> list[tuple[dict, int]]:
        launcher = Launcher(base, preload=preload, program="ssh.forkprobe")
        await launcher.start()
        assert launcher.preloaded == preload
        try:
            results = []
            for name in ("alice", "bob"):
                home = tmp_path / name
                home.mkdir()
                env = {"PATH": base["PATH"], "PYTHONPATH": TESTS, "USER": name}
                env["TEXTUAL_DRIVER"] = "textual.drivers.web_driver:WebDriver"
                results.append(await run_one(launcher, env, home))
            return results
        finally:
            await launcher.close()

    (alice, a_status), (bob, b_status) = asyncio.run(main())
    assert a_status == b_status == 3
    assert alice["env"]["USER"] == "alice" and "SECRET" not in alice["env"]
    assert alice["cwd"] == str(tmp_path / "alice") and bob["cwd"] == str(tmp_path / "bob")
    assert alice["driver"] == "textual.drivers.web_driver:WebDriver"  # read again, at fork
    assert alice["leader"] and bob["leader"]  # a session of its own (hang-ups reach it alone)
    assert alice["stdin"] == bob["stdin"] == "keys"
    assert alice["random"] != bob["random"]  # not the parent's state, copied


@pytest.mark.parametrize("preload", [True, False])
def test_a_session_runs_with_the_limits_and_ends_with_the_launcher(
    tmp_path: Path, preload: bool
) -> None:
    """The memory cap and the nice value are the child's own (set before the program runs);
    its end may be awaited by several at once; closing the launcher kills a session still
    running, and its parent does not outlive it."""
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": TESTS}
    limits = ProcessLimits(memory=300 * MIB, nice=7)

    async def main() -> tuple[tuple[str, int], list[int], list[int]]:
        launcher = Launcher(env, preload=preload, program="ssh.forkprobe", limits=limits)
        await launcher.start()
        try:
            stdin_r, stdin_w = os.pipe()
            out_r, out_w = os.pipe()
            try:
                first = await launcher.launch(
                    env, str(tmp_path), (stdin_r, out_w, out_w), terminal=False
                )
                second = await launcher.launch(
                    env, str(tmp_path), (stdin_r, out_w, out_w), terminal=False
                )
            finally:
                os.close(stdin_r)
                os.close(out_w)
            wanted = (f"{300 * MIB} {300 * MIB}", 7)
            # (a forked child's pid is told before it has set its limits: wait for them)
            await until(
                lambda: limits_of(first.pid) == wanted, 10, lambda: str(limits_of(first.pid))
            )
            seen = limits_of(first.pid)
            os.close(stdin_w)  # the first reads its stdin to the end: both end, status 3
            statuses = await asyncio.gather(first.wait(), first.wait(), second.wait())
            stuck_r, stuck_w = os.pipe()  # never closed: it waits for its stdin for ever
            try:
                stuck = await launcher.launch(
                    env, str(tmp_path), (stuck_r, stuck_w, stuck_w), terminal=False
                )
            finally:
                os.close(stuck_r)
            stuck_pid = stuck.pid
        finally:
            await launcher.close()
        os.close(out_r)
        os.close(stuck_w)
        return seen, statuses, [stuck_pid, await stuck.wait()]

    seen, statuses, (stuck_pid, stuck_status) = asyncio.run(main())
    assert seen == (f"{300 * MIB} {300 * MIB}", 7)
    assert statuses == [3, 3, 3]
    assert stuck_status == -9 and not Path(f"/proc/{stuck_pid}").exists()


def test_the_preloaded_parent_ends_the_sessions_of_a_server_gone_without_ending_them(
    tmp_path: Path,
) -> None:
    """A server killed outright cannot end its sessions: the parent sees it gone and does."""
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": TESTS}

    async def main() -> tuple[int, int]:
        launcher = Launcher(env, program="ssh.forkprobe")
        await launcher.start()
        assert launcher.preloaded
        stuck_r, stuck_w = os.pipe()  # never closed: it waits for its stdin for ever
        try:
            stuck = await launcher.launch(
                env, str(tmp_path), (stuck_r, stuck_w, stuck_w), terminal=False
            )
        finally:
            os.close(stuck_r)
        await launcher._close_parent()  # as if the server were gone: its sessions not ended
        os.close(stuck_w)
        return stuck.pid, await asyncio.wait_for(stuck.wait(), 30)

    pid, status = asyncio.run(main())
    assert status == -1 and not Path(f"/proc/{pid}").exists()  # hung up, as by a terminal
