"""What a verified record proves, said for people: the verdict, its kind and its evidence.

The verifier (``protocol/verify.py``) fills a :class:`Verdict`; the CLI, the TUI's end and
verify screens and the network node show it. Every string in it may come from another peer
(names, reasons), so every line it writes is made safe (``protocol/safetext.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.safetext import safetext
from rattus_net.kit.cells import cells, pad
from rattus_net.kit.interface import AnySecureGame

FAIR = "fair"
CHEATER = "cheater"
DAMAGED = "damaged"
DISPUTED = "disputed"
ABORTED = "aborted"
KINDS = (FAIR, CHEATER, DAMAGED, DISPUTED, ABORTED)
"""Verdict kinds. Only ``cheater`` names a seat as a cheater, and only on messages that seat
signed (one that breaks a rule, or two that conflict). ``damaged``: the record is damaged or
incomplete (a bad signature, a dropped, swapped, duplicated or foreign frame, extra bytes):
anybody can do that to a file, so nobody is named. ``disputed``: two seats' signed messages
disagree about one seat's message and either may be lying; both claims are the evidence.
``aborted``: a peer stopped the game and claims why (a stall, say); time is not in the record,
so it is a claim, not a proof."""


@dataclass(frozen=True)
class Evidence:
    """One signed frame of the evidence, with what its header says (for people)."""

    frame: bytes
    author: int | None
    kind: str
    seq: int
    step: int

    def describe(self, names: tuple[str, ...]) -> str:
        who = safetext(names[self.author]) if self.author is not None else "?"
        where = f" #{self.seq}, step {self.step}" if self.seq >= 0 else ""
        return f"{who}'s signed {safetext(self.kind)} message{where} ({len(self.frame)} bytes)"


@dataclass
class Verdict:
    """The outcome of verifying a record: its ``kind`` (see ``KINDS``), the seats involved
    (the cheater; the disputing seats; the aborting seat and the seat it names) and the
    signed frames that are the evidence."""

    kind: str = DAMAGED
    players: tuple[str, ...] = ()
    fingerprints: tuple[str, ...] = ()
    game_id: str = ""
    messages: int = 0
    shuffles_verified: int = 0
    shares_verified: int = 0
    mixes_verified: int = 0
    draws: int = 0
    randoms: int = 0
    result: dict[str, Any] | None = None
    seats: tuple[int, ...] = ()
    reason: str = ""
    evidence: tuple[Evidence, ...] = ()
    engine_record: Any = None
    """The face-level record of a fair, finished game (``replay(upto)``, ``dumps()``)."""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    secure: AnySecureGame | None = None
    """The game the record names: it says which counts apply and words the result."""

    @property
    def fair(self) -> bool:
        return self.kind == FAIR

    @property
    def cheater(self) -> int | None:
        """The seat proven to have cheated, if any (only a ``cheater`` verdict has one)."""
        return self.seats[0] if self.kind == CHEATER and self.seats else None

    def name(self, seat: int) -> str:
        return safetext(self.players[seat]) if 0 <= seat < len(self.players) else f"seat {seat}"

    def headline(self) -> str:
        """The verdict in one line (foreign strings made safe)."""
        reason = safetext(self.reason)
        names = [self.name(s) for s in self.seats]
        if self.kind == FAIR:
            return f"FAIR: game {self.game_id[:16]} verified in {self.seconds:.2f} s"
        if self.kind == CHEATER:
            return f"NOT FAIR: {names[0]} cheated (proven by its own signed messages): {reason}"
        if self.kind == DISPUTED:
            return (
                f"DISPUTED: {' and '.join(names)} disagree: {reason}; their signed claims are "
                "attached; nobody is proven to have cheated"
            )
        if self.kind == ABORTED:
            return f"ABORTED: {reason}"
        return f"RECORD DAMAGED OR INCOMPLETE (nobody is named): {reason}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "fair": self.fair,
            "players": [safetext(p) for p in self.players],
            "fingerprints": list(self.fingerprints),
            "game_id": self.game_id,
            "messages": self.messages,
            "shuffles_verified": self.shuffles_verified,
            "shares_verified": self.shares_verified,
            "mixes_verified": self.mixes_verified,
            "draws": self.draws,
            "randoms": self.randoms,
            "result": self.result,
            "seats": [{"seat": s + 1, "name": self.name(s)} for s in self.seats],
            "cheater": self.name(self.cheater) if self.cheater is not None else None,
            "reason": safetext(self.reason),
            "evidence": [
                {
                    "author": self.name(e.author) if e.author is not None else None,
                    "seat": e.author + 1 if e.author is not None else None,
                    "kind": safetext(e.kind),
                    "seq": e.seq,
                    "step": e.step,
                    "frame": e.frame.hex(),
                }
                for e in self.evidence
            ],
            "notes": [safetext(n) for n in self.notes],
            "seconds": round(self.seconds, 3),
            "game": self.secure.name if self.secure is not None else None,
            "report": self.report_lines(),
        }

    def report_lines(self) -> list[str]:
        """The game's lines about the checks and the result (``SecureGame.verdict_lines``),
        each made safe: the game writes the names of the record as they are."""
        checks = {
            "messages": self.messages,
            "shuffles_verified": self.shuffles_verified,
            "mixes_verified": self.mixes_verified,
            "shares_verified": self.shares_verified,
            "draws": self.draws,
            "randoms": self.randoms,
        }
        result = self.result if self.fair else None
        if self.secure is None:  # no game: the counts alone
            return [", ".join(f"{v} {k}" for k, v in checks.items())]
        return [safetext(line) for line in self.secure.verdict_lines(checks, result)]

    def text(self) -> str:
        lines = [self.headline()]
        shown = [safetext(name) for name in self.players]
        width = max((cells(name) for name in shown), default=0)
        for s, (name, fp) in enumerate(zip(shown, self.fingerprints, strict=True)):
            lines.append(f"  seat {s + 1}: {pad(name, width)} (key {fp})")
        lines.extend(f"  {line}" for line in self.report_lines())
        for e in self.evidence:
            lines.append(f"  evidence: {e.describe(self.players)}")
        lines.extend(f"  {safetext(note)}" for note in self.notes)
        return "\n".join(lines)
