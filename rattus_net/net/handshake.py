"""Sans-IO mutual authentication of one link: each side proves it holds its Ed25519 key.

Used by the lobby link (a joiner checks that the host holds the key whose fingerprint the
advert showed) and by every mesh link of a game (a peer only accepts the keys of the roster).
Both sides send ``hello`` (keys and a fresh 32-byte nonce) at once, then ``auth``: a signature
over the other side's nonce, both keys and the link's purpose. A recorded ``auth`` is useless
on another link (fresh nonce) or for another purpose (lobby vs game id).
"""

from __future__ import annotations

from protocol.crypto.group import RandomSource, frame
from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import DecodeError, LocalProtocolError, RemoteProtocolError
from protocol.wire import Message, WireValue, decode_message, encode_message

_DOMAIN = b"rattus-net/v1/link-auth"
NONCE_BYTES = 32


class HandshakeError(RemoteProtocolError):
    """The other side of a link failed to authenticate (bad message, key or signature)."""


def field(
    body: dict[str, WireValue], key: str, kind: type, *, peer: str | None, max_len: int = 256
) -> WireValue:
    """``body[key]`` if it has type ``kind`` (and, for str/bytes/list, at most ``max_len``)."""
    value = body.get(key)
    if kind is int and isinstance(value, bool):
        raise DecodeError(peer, f"field {key!r} must be an int")
    if not isinstance(value, kind):
        raise DecodeError(peer, f"field {key!r} must be {kind.__name__}")
    if isinstance(value, str | bytes | list) and len(value) > max_len:
        raise DecodeError(peer, f"field {key!r} too long")
    return value


class Handshake:
    """One side of the link authentication.

    The dialling side names the link's ``purpose`` (``"lobby"``, ``"game/<id>"``); it travels in
    its hello and both signatures cover it. The accepting side passes ``purpose=None`` and reads
    it from :attr:`purpose` once the hello is in (it must then check it serves that purpose).
    ``expect`` (a fingerprint set) refuses any other remote key."""

    def __init__(
        self,
        identity: Identity,
        purpose: str | None,
        rand: RandomSource,
        *,
        expect: set[str] | None = None,
        info: dict[str, WireValue] | None = None,
    ) -> None:
        self.identity = identity
        self.purpose = purpose
        self.expect = expect
        self.info = dict(info or {})
        if purpose is not None:
            self.info["purpose"] = purpose
        self.nonce = rand(NONCE_BYTES)
        self.remote: PublicIdentity | None = None
        self.remote_info: dict[str, WireValue] = {}
        self._remote_nonce: bytes | None = None
        self.done = False
        self._sent_hello = False

    def hello(self) -> bytes:
        """Our first message, to send at once."""
        if self._sent_hello:
            raise LocalProtocolError("hello already sent")
        self._sent_hello = True
        return encode_message(
            "link/hello",
            {
                "sign": self.identity.public.sign_key,
                "nonce": self.nonce,
                "info": self.info,
            },
        )

    def _transcript(self, signer: PublicIdentity, other: PublicIdentity, nonce: bytes) -> bytes:
        assert self.purpose is not None
        return _DOMAIN + frame(self.purpose.encode(), nonce, signer.sign_key, other.sign_key)

    def receive(self, data: bytes, peer: str | None = None) -> bytes | None:
        """Handle one frame from the other side; return our reply, if any.

        Raises HandshakeError or DecodeError naming ``peer``."""
        msg: Message = decode_message(data, peer=peer)
        if msg.kind == "link/hello" and self.remote is None:
            sign = field(msg.body, "sign", bytes, peer=peer)
            nonce = field(msg.body, "nonce", bytes, peer=peer)
            info = field(msg.body, "info", dict, peer=peer)
            assert isinstance(sign, bytes)
            assert isinstance(nonce, bytes) and isinstance(info, dict)
            if len(nonce) != NONCE_BYTES:
                raise HandshakeError(peer, "hello nonce is not 32 bytes")
            remote = PublicIdentity.from_bytes(sign, peer=peer)
            if remote.sign_key == self.identity.public.sign_key:
                raise HandshakeError(peer, "the other side uses our own key")
            if self.expect is not None and remote.fingerprint not in self.expect:
                raise HandshakeError(peer, f"key {remote.fingerprint} is not expected here")
            purpose = info.get("purpose", self.purpose)
            if not isinstance(purpose, str) or not 0 < len(purpose) <= 100:
                raise HandshakeError(peer, "hello names no purpose")
            if self.purpose is not None and purpose != self.purpose:
                raise HandshakeError(peer, f"hello is for {purpose!r}, not {self.purpose!r}")
            self.purpose = purpose
            self.remote, self._remote_nonce, self.remote_info = remote, nonce, info
            sig = self.identity.sign(self._transcript(self.identity.public, remote, nonce))
            return encode_message("link/auth", {"sig": sig})
        if msg.kind == "link/auth" and self.remote is not None and not self.done:
            auth = field(msg.body, "sig", bytes, peer=peer)
            assert isinstance(auth, bytes)
            try:
                self.remote.verify(
                    self._transcript(self.remote, self.identity.public, self.nonce), auth
                )
            except RemoteProtocolError:
                raise HandshakeError(peer, "link authentication signature is wrong") from None
            self.done = True
            return None
        raise HandshakeError(peer, f"unexpected {msg.kind!r} during the link handshake")
