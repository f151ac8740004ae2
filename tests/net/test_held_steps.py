"""At a network table the steps of a turn stay on the player's peer until they can no longer be
taken back: two Rattus peer nodes in one process over loopback, Ann a person who takes back
steps of her turns now and then. A step taken back is never signed nor sent, the other peer
sees a held step only once the turn reaches a reveal, chance or the other seat, both records
agree and the verifier calls the game fair. A peer loaded from its journal holds the same
steps (they were journaled as local ones)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from protocol.params import GameParams, PeerSecrets
from protocol.verify import verify_record
from rattus_net.bots import make_game_bot
from rattus_net.games.rattus.game import RattusConfig
from rattus_net.games.rattus.loader import default_components
from rattus_net.kit.registry import get_game
from rattus_net.net.heldsteps import TAKE_BACK, HeldTurn
from rattus_net.net.node import PeerNode
from rattus_net.net.persist import Journal
from rattus_net.net.seats import Outcome, Setup

from .loopback import listeners_for

RATTUS = get_game("rattus")


def params() -> tuple[list[bytes], GameParams]:
    masters = [os.urandom(32) for _ in range(2)]
    identities = tuple(PeerSecrets(m).identity().public for m in masters)
    config = RattusConfig(("Ann", "Bob"), default_components())
    return masters, GameParams(config, identities, os.urandom(32), "rattus")


class Ann:
    """A person at seat 0 who plays the random bot's moves and takes back one step of each
    turn that holds one (then plays on): what she kept, what she took back, and what the
    peers had seen while she held steps."""

    def __init__(self) -> None:
        self.bot = make_game_bot("rattus", "random", 5)
        self.node: PeerNode | None = None
        self.other: PeerNode | None = None
        self.kept: list[Any] = []  # her moves, in order, as the game should have them
        self.taken_back: list[Any] = []
        self.held_seen = 0  # decisions asked while steps were held
        self._sent = -1  # frames sent when her turn began
        self._undone = False  # a step of this turn was taken back

    def others_know(self) -> int:
        assert self.other is not None and self.other.session.game is not None
        return sum(1 for seat, _ in self.other.session.game.history if seat == 0)

    async def choose(self, view: Any) -> Any:
        node = self.node
        assert node is not None
        held = node.turn.steps.moves
        if not held and len(node.mesh.sent) != self._sent:  # a new turn (the last one went out)
            self._sent, self._undone = len(node.mesh.sent), False
        if held:
            self.held_seen += 1
            # nothing of the turn went out: no frame made, the other peer knows no held step
            assert len(node.mesh.sent) == self._sent
            assert self.others_know() <= len(self.kept) - len(held)
            if not self._undone:
                self._undone = True
                self.taken_back.append(held[-1])
                self.kept.pop()
                return TAKE_BACK
        move = self.bot.choose(view)
        self.kept.append(move)
        return move


async def _play(tmp_path: Path, ann: Ann) -> list[Outcome]:
    masters, p = params()
    nodes: dict[int, PeerNode] = {}
    listeners, addresses = await listeners_for(nodes, 2)
    for seat in range(2):
        setup = Setup(p, seat, masters[seat], addresses, "T", "random", 7 + seat)
        kw: dict[str, Any] = {"choose_async": ann.choose} if seat == 0 else {}
        nodes[seat] = PeerNode.create(setup, tmp_path / f"seat{seat}", linger=1.0, **kw)
    nodes[0].bot = None  # a person's seat (the setup named a bot kind for the other one)
    ann.node, ann.other = nodes[0], nodes[1]
    runs = [asyncio.ensure_future(nodes[s].run(listeners[s])) for s in range(2)]
    return list(await asyncio.wait_for(asyncio.gather(*runs), 300))


@pytest.mark.slow
def test_steps_taken_back_are_never_sent_and_the_records_verify_fair(tmp_path: Path) -> None:
    ann = Ann()
    outcomes = asyncio.run(_play(tmp_path, ann))
    assert all(o.finished and o.abort is None for o in outcomes), outcomes
    records = [o.record.read_bytes() for o in outcomes]
    assert records[0] == records[1]
    verdict = verify_record(records[0])
    assert verdict.fair, verdict.reason
    assert ann.held_seen > 4 and ann.taken_back

    # The journal: every move she kept was sent ("d"), in order, and nothing else of hers;
    # what she took back was journaled as local ("l") only, followed by its take-back ("U").
    with Journal.open(outcomes[0].record.parent / "journal.bin", lock=False) as journal:
        recs = [r for r in journal.records[1:] if isinstance(r, list)]
    sent = [r[1] for r in recs if r[0] == "d"]
    assert sent == [RATTUS.format_move(m) for m in ann.kept]
    assert sum(1 for r in recs if r[0] == "U") == len(ann.taken_back)
    # and the other peer's game has exactly her kept moves
    assert ann.other is not None and ann.other.session.game is not None
    hers = [m for seat, m in ann.other.session.game.history if seat == 0]
    assert hers == ann.kept


def test_a_peer_loaded_from_its_journal_holds_the_same_steps(tmp_path: Path) -> None:
    """The local steps and take-backs journaled rebuild the same draft; a step sent ends it."""
    config = RATTUS.configure(("Ann", "Bob"), {})
    game, table = RATTUS.new_game(config), RATTUS.local_table(3)
    RATTUS.settle(game, table)
    bot = RATTUS.make_bot("random", 1)
    with Journal.open(tmp_path / "journal.bin") as journal:
        journal.append(["setup", 0])
        turn = HeldTurn(RATTUS, 0, journal)
        while len(turn.steps.moves) < 2:  # Ann's steps, until two of a turn are held
            seat = game.to_act()[0]
            move = bot.choose(RATTUS.view(turn.shown(game), seat))
            if seat != 0:  # (Bob's moves reach her peer as frames: "o" here)
                journal.append(["o", RATTUS.format_move(move)])
                game.apply(seat, move)
                RATTUS.settle(game, table)
                continue
            for m in turn.decided(game, move, holding=True):  # final: signed and sent
                journal.append(["d", RATTUS.format_move(m)])
                game.apply(0, m)
                RATTUS.settle(game, table)
        assert turn.decided(game, TAKE_BACK, holding=True) == []
        records: list[Any] = list(journal.records)
        assert ["U"] in records and any(r[0] == "l" for r in records[1:])
    again = HeldTurn(RATTUS, 0, journal)
    fresh, fresh_table = RATTUS.new_game(config), RATTUS.local_table(3)
    RATTUS.settle(fresh, fresh_table)
    for rec in records[1:]:
        if not again.replay(rec, fresh) and rec[0] in ("d", "o"):
            fresh.apply(fresh.to_act()[0], RATTUS.parse_move(rec[1]))
            RATTUS.settle(fresh, fresh_table)
    assert again.steps.moves == turn.steps.moves and len(again.steps.moves) == 1
    assert RATTUS.state_dict(again.shown(fresh)) == RATTUS.state_dict(turn.shown(game))
