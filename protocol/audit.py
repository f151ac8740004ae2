"""Information audit: which card faces a peer can compute from what it received.

Given a verified game (an observer session that processed the whole transcript) and one
seat's ElGamal secret, :func:`computable_faces` tries, for every masked card, everything the
seat holds: the public decryption shares, its own share, and the shares encrypted to it. The
tests compare the result with what rules section 8 entitles the seat to know (every public
reveal, plus the reveals addressed to it: its draws, its looks, the cards given to it).
"""

from __future__ import annotations

from protocol.crypto.elgamal import unmask
from protocol.crypto.group import Point, Scalar
from protocol.crypto.transfer import decrypt_share
from protocol.session import Session, face_of_point


def computable_faces(session: Session, seat: int, secret: Scalar) -> dict[int, int]:
    """Handle -> face for every card ``seat`` can open with its secret and the transcript."""
    out: dict[int, int] = {}
    for h, ct in session.cards.items():
        shares: list[Point] = []
        have: set[int] = set()
        for s, d in session.pub.get(h, {}).items():
            shares.append(d)
            have.add(s)
        if seat not in have:
            shares.append(secret * ct.c1)
            have.add(seat)
        for frm, to, es in session.enc.get(h, ()):
            if to == seat and frm not in have:
                shares.append(decrypt_share(secret, es))
                have.add(frm)
        if len(have) < session.n:
            continue
        face = face_of_point(unmask(ct, shares))
        if face is not None:
            out[h] = face
    return out


def entitled_handles(session: Session, seat: int) -> set[int]:
    """Masked cards ``seat`` may know by rules section 8: public reveals and its own."""
    out: set[int] = set()
    for handles, to in session.record.reveals:
        if to is None or to == seat:
            out.update(handles)
    return out
