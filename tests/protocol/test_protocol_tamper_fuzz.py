"""The tamper fuzzer, a bounded seeded sample (``benchmarks/tamper_fuzz.py`` runs thousands):
random changes of honest records never verify as FAIR, never raise anything but a format
error, and a named cheater is always a seat whose key signed something new, shown by its
own validly signed message that an independent replay confirms breaks a rule."""

from __future__ import annotations

import random

import pytest
from recordkit import MUTATIONS, check_verdict, honest, mutate

from protocol.verdict import CHEATER, DAMAGED

pytestmark = pytest.mark.slow  # hundreds of tampered records, each verified


@pytest.mark.parametrize(("n", "cases"), [(2, 40), (3, 16)])
def test_random_changes_never_verify_fair_and_never_blame_an_innocent(n: int, cases: int) -> None:
    rec, params, secrets = honest(n, 100 + n)
    other = honest(n, 100 + n, b"\x05" * 32)[0]
    rng = random.Random(20261130 + n)
    seen: set[tuple[str, str]] = set()
    for case in range(cases):
        kind = MUTATIONS[case % len(MUTATIONS)]  # every kind of change, in turn
        what, data, keys = mutate(rec, params, secrets, rng, other, kind)
        seen.add((what, check_verdict(rec, data, params, keys)))
    kinds = {k for _, k in seen}
    assert DAMAGED in kinds
    if n == 2:
        assert CHEATER in kinds  # and a re-signed message was proven against its signer


def test_each_seat_re_signing_its_own_messages_is_named_or_nobody_is() -> None:
    """Only re-signed messages, from each seat in turn: the seat named is always the signer."""
    rec, params, secrets = honest(2, 102)
    rng = random.Random(7)
    from recordkit import _resign_change as change
    from recordkit import author, messages, pack, resign

    msgs = messages(rec)
    named = 0
    for _ in range(12):
        i = rng.randrange(len(msgs))
        a = author(msgs[i])
        tampered = list(msgs)
        tampered[i] = resign(msgs[i], secrets[a], change(rng))
        kind = check_verdict(rec, pack(rec, tampered), params, {a})
        named += kind == CHEATER
    assert named > 0
