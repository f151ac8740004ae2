"""Exceptions of the protocol layer.

The split follows h11 and websockets: a *local* error means this process misused the API (a bug
on our side, never the network's fault), a *remote* error means bytes that arrived from a peer
are wrong. Remote errors always name the peer to blame (when the caller knows it) and may carry
the offending bytes as evidence, so the session layer can log them, drop or blame the peer, and
put the signed message into an abort record without parsing the error text.
"""

from __future__ import annotations


class ProtocolError(Exception):
    """Base class of every error raised by the ``protocol`` package."""


class LocalProtocolError(ProtocolError):
    """We misused the protocol API (wrong argument, wrong state): a bug on our side."""


class RemoteProtocolError(ProtocolError):
    """A remote peer sent something invalid.

    ``peer`` names the peer to blame (its id or key fingerprint); it is ``None`` only where the
    raising code cannot know the sender, e.g. a bare decoder, and the session layer is expected
    to re-raise with :meth:`blame`. ``evidence`` holds the offending bytes when they are useful to
    prove the fault to others (for example the signed message that carried a bad proof).
    """

    accepted = False
    """Set by the session when the frame it was handed was accepted (it is part of the game
    now and must be journaled) and the error is about a message processed after it."""

    def __init__(self, peer: str | None, reason: str, evidence: bytes | None = None) -> None:
        self.peer = peer
        self.reason = reason
        self.evidence = evidence
        who = peer if peer is not None else "unknown peer"
        super().__init__(f"{who}: {reason}")

    def blame(self, peer: str, evidence: bytes | None = None) -> RemoteProtocolError:
        """Return a copy of this error of the same class naming ``peer`` (and evidence)."""
        new = type(self)(peer, self.reason, evidence if evidence is not None else self.evidence)
        new.__cause__ = self
        return new


class DecodeError(RemoteProtocolError):
    """Bytes from a peer could not be decoded: malformed, too large, too deep or a wrong type."""


class CryptoError(RemoteProtocolError):
    """Cryptographic material from a peer is invalid (a bad point, a sealed box that fails)."""


class ProofError(CryptoError):
    """A proof, signature, commitment opening or randomness reveal from a peer does not verify."""
