"""A command run in a pseudo-terminal of 80x24, as a person (or SSH) runs it, with the screen
it draws kept by a terminal emulator (pyte), so a test reads what a person would see."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import termios
import time

import pyte


class Terminal:
    """``argv`` in a pseudo-terminal of 80x24; :attr:`output` is every byte it wrote,
    :meth:`screen` the text on its screen now."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        self.output = b""
        self._screen = pyte.Screen(80, 24)
        self._stream = pyte.ByteStream(self._screen)

    def _read(self, wait: float) -> bool:
        """Take what the command wrote within ``wait`` seconds; False once it has ended."""
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the command has ended
                return False
            self.output += chunk
            self._stream.feed(chunk)
        return True

    def read_until(self, needles: list[bytes], seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not all(n in self.output for n in needles):
            assert time.monotonic() < deadline, f"not drawn: {needles}; got {self.output[-800:]!r}"
            if not self._read(0.1):
                break

    def screen(self) -> str:
        """The screen's lines now (what was read so far)."""
        return "\n".join(self._screen.display)

    def wait_screen(self, needles: list[str], seconds: float) -> str:
        """The screen once it shows every one of ``needles`` (all at once)."""
        deadline = time.monotonic() + seconds
        while not all(n in self.screen() for n in needles):
            assert time.monotonic() < deadline, f"not on screen: {needles}:\n{self.screen()}"
            if not self._read(0.1):
                break
        return self.screen()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        os.close(self.master)
