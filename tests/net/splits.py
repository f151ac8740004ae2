"""Peers apart while their programs keep running: a table of separate processes over loopback,
one link cut by the userspace relay (``tests/net/relay.py``) or one peer stopped with SIGSTOP,
for some seconds in the middle of the game, then the records compared.

Used by the regression tests of ``test_claims_meet.py`` (short timeouts, a few seconds apart)
and by ``benchmarks/claims_campaign.py`` (the default idle timeout, 40 s and 70 s apart, both
games, 2 and 3 peers, the host or a guest). The question is always the same: does every pair
of records tell one story (the same abort, or the same finished game)?
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from protocol.record import RECORD_LIMITS, RecordFormatError
from protocol.verify import verify_record
from protocol.wire import decode_value

from .procs import (
    GAME_LINE,
    OPEN_LINE,
    RECORD_LINE,
    finish,
    free_port,
    read_line,
    spawn,
)

ROOT = Path(__file__).resolve().parents[2]
ROUND_TWO = re.compile(r"^round (2)\b")


@dataclass(frozen=True)
class Split:
    """One run: ``fault`` is ``cut`` (the relay holds the target's links to the others) or
    ``stop`` (SIGSTOP of the target's process), for ``seconds``; ``target`` is ``host`` or
    ``guest`` (the first guest)."""

    game: str = "cartus"
    players: int = 2
    fault: str = "stop"
    seconds: float = 10.0
    target: str = "guest"
    stall: float = 3.0
    idle: float = 2.0
    linger: float = 60.0
    seed: int = 1

    def label(self) -> str:
        return (
            f"{self.game} {self.players}p {self.fault} {self.seconds:g}s {self.target} "
            f"(stall {self.stall:g}, idle {self.idle:g})"
        )


@dataclass
class Result:
    split: Split
    codes: list[int] = field(default_factory=list)
    records: list[bytes | None] = field(default_factory=list)
    outs: list[str] = field(default_factory=list)
    errs: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def aborts(self) -> list[bytes | None]:
        """Each record's signed abort (read without judging the record: a campaign may run
        a program of another record version)."""
        out: list[bytes | None] = []
        for record in self.records:
            value = decode_value(record, RECORD_LIMITS) if record is not None else None
            abort = value.get("abort") if isinstance(value, dict) else None
            out.append(abort if isinstance(abort, bytes) else None)
        return out

    @property
    def story(self) -> str:
        """``finished`` (identical records, all finished), ``one abort`` (every record holds
        the same signed abort), ``missing`` (a peer wrote no record: it reached nobody and
        kept the game for later) or ``contradicting``."""
        if any(r is None for r in self.records):
            return "missing"
        aborts = self.aborts
        if all(a is None for a in aborts) and len(set(self.records)) == 1:
            return "finished"
        if aborts[0] is not None and len(set(aborts)) == 1:
            return "one abort"
        return "contradicting"

    def verdicts(self) -> list[str]:
        kinds = []
        for record in self.records:
            try:
                kinds.append(verify_record(record).kind if record is not None else "-")
            except RecordFormatError:
                kinds.append("another version")
        return kinds


def _relay(routes: list[tuple[int, int]], seconds: float) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "tests.net.relay", "--cut-on-signal", str(seconds)]
    for listen, target in routes:
        args += ["--route", f"127.0.0.1:{listen}=127.0.0.1:{target}"]
    proc = subprocess.Popen(
        args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def run(split: Split, tmp: Path) -> Result:
    """Play one table with ``split`` applied at round 2; every process is ended."""
    start = time.monotonic()
    timing = ["--stall-timeout", str(split.stall), "--linger-after-abort", str(split.linger)]
    if split.idle != 30.0:  # (the default: a program without the option runs the campaign too)
        timing += ["--idle-timeout", str(split.idle)]
    port = free_port()
    relay: subprocess.Popen[str] | None = None
    procs: list[subprocess.Popen[str]] = []
    try:
        host = spawn(
            ["host", "--name", f"s{port}", "--players", str(split.players), "--port", str(port),
             "--bot", "random", "--no-advertise", "--seed", str(split.seed), "--game",
             split.game, *timing],
            tmp / "p0",
        )  # fmt: skip
        procs.append(host)
        assert read_line(host, OPEN_LINE, 30) == str(port)
        # Through the relay: the target guest's links to the host; for the host as target,
        # every guest's link to the host (the host dials nobody: seat 1 dials every seat
        # before it, so the guests' links to each other stay direct).
        relayed = 1 if split.target == "guest" else split.players - 1
        via = free_port()
        if split.fault == "cut":
            relay = _relay([(via, port)], split.seconds)
        for i in range(1, split.players):
            through = relay is not None and i <= relayed
            guest = spawn(
                ["join", f"127.0.0.1:{via if through else port}", "--bot", "random", "--seed",
                 str(split.seed + i), *timing],
                tmp / f"p{i}",
            )  # fmt: skip
            procs.append(guest)
            if i == 1:  # (the first guest sits before the next one joins)
                time.sleep(0.5)
        games = {read_line(p, GAME_LINE, 60) for p in procs}
        assert len(games) == 1, games
        read_line(host, ROUND_TWO, 120)
        target = host if split.target == "host" else procs[1]
        if relay is not None:
            relay.send_signal(signal.SIGUSR1)
            assert relay.stdout is not None and relay.stdout.readline().strip() == "cut"
            time.sleep(split.seconds)
        else:
            os.kill(target.pid, signal.SIGSTOP)
            time.sleep(split.seconds)
            os.kill(target.pid, signal.SIGCONT)
        results = finish(procs, split.linger + split.stall + 240)
    finally:
        for p in procs:
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p.pid, signal.SIGCONT)
                p.kill()
                p.wait(10)
        if relay is not None:
            relay.terminate()
            relay.communicate(timeout=20)
    result = Result(split, seconds=time.monotonic() - start)
    for rc, out, err in results:
        result.codes.append(rc)
        result.outs.append(out)
        result.errs.append(err)
        lines = out.strip().splitlines()
        m = RECORD_LINE.search(lines[-1]) if lines else None
        result.records.append(Path(m.group(1)).read_bytes() if m else None)
    return result
