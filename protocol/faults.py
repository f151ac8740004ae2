"""The faults a session blames on a seat, and the record of why a session stopped.

Only a :class:`ProvenFault` names a cheater: the messages that seat signed prove it. A
:class:`DisputeFault` holds two seats' conflicting signed claims; a plain :class:`PeerFault`
(a stall, a malformed frame) is what one peer saw.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.errors import RemoteProtocolError


class PeerFault(RemoteProtocolError):
    """A fault attributed to seat ``seat`` (``peer`` is its name)."""

    def __init__(self, seat: int, name: str, reason: str, evidence: bytes | None = None) -> None:
        super().__init__(name, reason, evidence)
        self.seat = seat


class ReplayError(PeerFault):
    """A message we already accepted arrived again (dropped; nothing changes)."""


class ProvenFault(PeerFault):
    """A fault that messages signed by ``seat`` itself prove (``frames``): one signed message
    that breaks a rule given the transcript before it, or two that conflict. Anybody holding
    the transcript can check it, so it is the only kind of fault that names a cheater."""

    def __init__(self, seat: int, name: str, reason: str, frames: tuple[bytes, ...] = ()) -> None:
        super().__init__(seat, name, reason, frames[-1] if frames else None)
        self.frames = frames


class DisputeFault(PeerFault):
    """Two seats' signed messages disagree about what one of them sent (the message of
    ``seat`` holds another view of ``others``' messages than ours). Either may be lying: the
    frames are their signed claims, nobody is proven to have cheated."""

    def __init__(
        self, seat: int, name: str, reason: str, others: tuple[int, ...], frames: tuple[bytes, ...]
    ) -> None:
        super().__init__(seat, name, reason, frames[0] if frames else None)
        self.others = others
        self.frames = frames


@dataclass(frozen=True, slots=True)
class AbortRecord:
    """Why a session stopped.

    ``proven``: ``blamed`` is proven at fault by its own signed messages in ``evidence``.
    Otherwise the abort is a claim of seat ``by`` (ours: a stall we saw; or another peer's
    abort we adopted), and ``blamed`` (possibly ``None``) is only the seat it names. ``frame``
    is the signed abort message (ours, or the adopted one of seat ``by``)."""

    blamed: int | None
    reason: str
    evidence: tuple[bytes, ...]
    by: int | None
    frame: bytes | None = None
    proven: bool = False

    def describe(self, names: tuple[str, ...], me: int | None = None) -> str:
        """One line for a person (names are shown as given: pass them through safetext)."""

        def who(seat: int | None) -> str:
            if seat is None:
                return "nobody"
            return "you" if seat == me else names[seat]

        if self.proven and self.blamed is not None:
            return f"stopped: {who(self.blamed)} cheated (proven by signed messages): {self.reason}"
        if self.by is None:
            return f"stopped: {self.reason}"
        about = f" about {who(self.blamed)}" if self.blamed is not None else ""
        return f"stopped by {who(self.by)}, claiming{about}: {self.reason} (not provable)"
