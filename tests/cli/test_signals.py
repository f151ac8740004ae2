"""Signals are the program's: the entry points install the handlers, library modules offer
what they call (withdraw the LAN adverts, leave a lingering game)."""

from __future__ import annotations

import signal
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

from rattus_net.cli.signals import goodbyes_on_signals
from rattus_net.net.news import headless_reporter

ADVERT_ON_THE_NETWORK_THREAD = """
import asyncio, sys
from rattus_net.cli.signals import goodbyes_on_signals
from rattus_net.net.discovery import keep_for_goodbye
from rattus_net.net.loopthread import LoopThread

class Advert:  # (stands for a zeroconf advert: its goodbye is its stop)
    async def stop(self):
        await asyncio.sleep(0.05)  # (a goodbye takes a moment: the signal waits for it)
        print("goodbye said", flush=True)

async def keep():
    keep_for_goodbye(Advert())

async def main():
    net = LoopThread("rattus-net")
    net.submit(keep()).result(5)
    print("open", flush=True)
    await asyncio.sleep(3600)

with goodbyes_on_signals():
    asyncio.run(main())
"""


def test_a_signal_says_the_adverts_goodbyes_then_ends_the_program() -> None:
    """SIGTERM and SIGHUP, at a program whose advert lives on its network thread: the
    entry point's handler has it withdrawn there, then the signal ends the process."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        proc = subprocess.Popen(
            [sys.executable, "-c", ADVERT_ON_THE_NETWORK_THREAD],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
            proc.send_signal(sig)
            assert proc.wait(20) == -sig
            assert proc.stdout.read().strip() == "goodbye said"
        finally:
            proc.kill()
            proc.wait()


def test_the_handlers_are_the_entry_point_s_and_put_back_after() -> None:
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    with goodbyes_on_signals():
        assert signal.getsignal(signal.SIGTERM) not in (before[0], signal.SIG_DFL)
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)) == before


def test_a_lingering_headless_game_hands_its_leave_to_the_entry_point() -> None:
    """No handler installed by the library: the entry point is handed ``node.leave`` (and
    installs Ctrl+C for it) once the game is over and lingers."""
    left: list[str] = []
    session = SimpleNamespace(game=None, finished=True, abort=None)
    node: Any = SimpleNamespace(
        session=session, names=("Ann", "Bob"), leave=lambda: left.append("left")
    )
    handed: list[Any] = []
    lines: list[str] = []
    before = signal.getsignal(signal.SIGINT)
    headless_reporter(node, lines.append, handed.append)
    node.on_event("linger", None, "waiting a while for the others")
    assert signal.getsignal(signal.SIGINT) == before
    assert handed == [node.leave] and lines == ["Waiting a while for the others."]
    handed[0]()
    assert left == ["left"]
