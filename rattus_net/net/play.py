"""Whole network games for the command line: host a table, join one, resume one.

Each function runs on the caller's event loop and returns the node's :class:`Outcome`. They are
headless: a bot plays the seat (the TUI lobby will pass its own chooser later). ``say`` gets the
few lines worth printing (where the table is, the game id, who is seated).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from protocol.crypto.identity import Identity
from protocol.params import GameParams, PeerSecrets
from protocol.safetext import safetext
from rattus_net.kit.registry import get_game
from rattus_net.net.botseats import HostedBots
from rattus_net.net.discovery import (
    Advertiser,
    AmbiguousTable,
    TableAdvert,
    find_table,
    new_zeroconf,
)
from rattus_net.net.ending import ABORT_LINGER
from rattus_net.net.handshake import Handshake
from rattus_net.net.lobby import (
    JOIN_RETRY,
    HostedTable,
    LobbyRefusal,
    LobbyState,
    TableOptions,
    join_table,
)
from rattus_net.net.news import Lingering, headless_reporter
from rattus_net.net.node import STALL_TIMEOUT, PeerNode
from rattus_net.net.persist import check_storage
from rattus_net.net.seats import NodeError, Outcome, Setup, new_master
from rattus_net.net.tasks import cancel_and_wait
from rattus_net.net.transport import (
    DEFAULT_TRANSPORT,
    Connection,
    Listener,
    PeerFault,
    TransportLimits,
)

Say = Callable[[str], None]


def game_params(state: LobbyState) -> GameParams:
    """The parameters every seat derives from the started lobby (so the game id agrees): the
    configuration of the table's game, built by the game from the seats and its own options
    (``GameDefinition.network_config``: a Rattus table plays the shipped components, the
    parameters carry their fingerprint)."""
    options = state.options
    config = options.definition.network_config(
        tuple(s.name for s in state.seats),
        tuple(s.colour for s in state.seats),
        options.values,
    )
    return GameParams(config, tuple(s.public for s in state.seats), state.nonce, options.game)


def table_advert(table: str, fingerprint: str, state: LobbyState) -> TableAdvert:
    """The advert of a hosted table: its name, host key, seats and game."""
    options = state.options
    return TableAdvert(
        table,
        fingerprint,
        len(state.seats),
        state.free,
        state.phase,
        game=options.game,
        game_version=options.definition.network_version,
    )


def advert_changes(state: LobbyState) -> dict[str, Any]:
    """What an advert says anew when the lobby changed (the host may change the game too)."""
    return {
        "seats_taken": len(state.seats),
        "seats_free": state.free,
        "state": state.phase,
        "game": state.options.game,
        "game_version": state.options.definition.network_version,
    }


def seat_addresses(state: LobbyState, host: str, port: int) -> tuple[tuple[str, int], ...]:
    """Where each seat listens; the host's seat is where we reached the lobby."""
    return tuple((s.host or host, s.port if s.host else port) for s in state.seats)


def advert_address(advert: TableAdvert) -> tuple[tuple[str, int], str]:
    """Where to join a table seen on the LAN, and the host key it must prove; LobbyRefusal
    if it speaks another protocol version."""
    if not advert.compatible:
        raise LobbyRefusal(
            f"table {advert.name!r} speaks protocol version {advert.version}, "
            "this program another: update one of them"
        )
    return (advert.host, advert.port), advert.fingerprint


async def find_advert(table: str, seconds: float) -> TableAdvert:
    """The advert of the table called ``table`` on the LAN (LobbyRefusal if there is none, or
    several)."""
    try:
        advert = await find_table(table, seconds)
    except AmbiguousTable as exc:
        raise LobbyRefusal(str(exc)) from None
    if advert is None:
        raise LobbyRefusal(f"no table {table!r} found on the local network")
    return advert


async def host_game(
    table: str,
    options: TableOptions,
    *,
    bot: str,
    name: str | None = None,
    colour: str | None = None,
    port: int = 0,
    bot_seed: int | None = None,
    advertise: bool = True,
    limits: TransportLimits = DEFAULT_TRANSPORT,
    stall_timeout: float = STALL_TIMEOUT,
    abort_linger: float = ABORT_LINGER,
    say: Say = print,
    lingering: Lingering | None = None,
) -> Outcome:
    check_storage()  # before anybody sits down: a full disk would end the game for all
    master = new_master()
    identity = PeerSecrets(master).identity()
    hosted = HostedTable(identity, table, options, limits)
    hosted.listener.say = say
    port = await hosted.open(None, port)
    hosted.core.sit(identity.public, name or bot, "", port, colour=colour, bot=bot)
    hosted.core.set_ready(identity.fingerprint, True)
    aiozc = new_zeroconf() if advertise else None
    advertiser: Advertiser | None = None
    updates: set[asyncio.Task[None]] = set()
    try:
        if aiozc is not None:
            advert = table_advert(table, identity.fingerprint, hosted.core.state)
            advertiser = Advertiser(aiozc, advert, port)
            await advertiser.start()
            adv = advertiser

            def changed(state: LobbyState) -> None:
                task = asyncio.get_running_loop().create_task(adv.update(**advert_changes(state)))
                updates.add(task)
                task.add_done_callback(updates.discard)

            hosted.core.on_change.append(changed)
        say(f"table {safetext(table)!r} open on port {port}, host key {identity.fingerprint}")
        state = await hosted.started
        setup = Setup(
            game_params(state), 0, master, seat_addresses(state, "", port), table, bot, bot_seed
        )
        node = PeerNode.create(
            setup, limits=limits, stall_timeout=stall_timeout, abort_linger=abort_linger
        )
        headless_reporter(node, say, lingering)

        async def game_link(conn: Connection, hs: Handshake) -> None:
            await node.accept(conn, hs)

        hosted.game_links = game_link
        say(f"game {setup.game_id} started: {_names(setup.params.config.players)}")
        return await node.run(hosted.listener)
    finally:
        await cancel_and_wait(list(updates))
        if advertiser is not None:
            await advertiser.stop()
        if aiozc is not None:
            await aiozc.async_close()
        await hosted.close()


async def join_game(
    address: tuple[str, int] | None,
    *,
    table: str | None = None,
    game: str | None = None,
    bot: str,
    name: str | None = None,
    colour: str | None = None,
    bot_seed: int | None = None,
    limits: TransportLimits = DEFAULT_TRANSPORT,
    stall_timeout: float = STALL_TIMEOUT,
    abort_linger: float = ABORT_LINGER,
    find_seconds: float = 5.0,
    say: Say = print,
    root: Path | None = None,
    hosted_by: int | None = None,
    lingering: Lingering | None = None,
) -> Outcome:
    """Join a table and let ``bot`` play the seat. ``root`` is the data directory for this
    seat's journal and record (default: the user's). Checks first that it can hold the game
    (StorageError otherwise), before sitting down. ``game``: join only a table of that game
    (LobbyRefusal, in one line, at a table of another)."""
    check_storage(root)
    expect: str | None = None
    if address is None:
        assert table is not None
        advert = await find_advert(table, find_seconds)
        if game is not None and advert.game != game:
            raise LobbyRefusal(_other_game(advert.name, advert.game_title, game))
        address, expect = advert_address(advert)
    master = new_master()
    identity: Identity = PeerSecrets(master).identity()
    holder: dict[str, PeerNode] = {}

    async def on_link(conn: Connection) -> None:
        node = holder.get("node")
        if node is None:
            raise PeerFault("game not started yet", conn.peer)
        await node.accept(conn)

    listener = Listener(on_link, limits, max_connections=20, say=say)
    listen_port = await listener.start(None, 0)
    try:
        state = await join_table(
            address[0],
            address[1],
            identity,
            name or bot,
            listen_port,
            bot=bot,
            colour=colour,
            expect_fingerprint=expect,
            limits=limits,
            on_state=None if game is None else _only(game),
            retry_for=JOIN_RETRY,
            say=say,
        )
        me = state.seat_of(identity.fingerprint)
        assert me is not None
        setup = Setup(
            game_params(state),
            me,
            master,
            seat_addresses(state, address[0], address[1]),
            state.table,
            bot,
            bot_seed,
            hosted_by,
        )
        node = PeerNode.create(
            setup, root, limits=limits, stall_timeout=stall_timeout, abort_linger=abort_linger
        )
        headless_reporter(node, say, lingering)
        holder["node"] = node
        say(f"game {setup.game_id} started: {_names(setup.params.config.players)}")
        return await node.run(listener)
    finally:
        await listener.close()


async def resume_game(
    game_id: str,
    *,
    seat: int | None = None,
    limits: TransportLimits = DEFAULT_TRANSPORT,
    stall_timeout: float = STALL_TIMEOUT,
    say: Say = print,
    lingering: Lingering | None = None,
    **kw: Any,
) -> Outcome:
    node = PeerNode.load(game_id, seat=seat, limits=limits, stall_timeout=stall_timeout, **kw)
    headless_reporter(node, say, lingering)
    if node.session.finished:
        say(f"game {game_id} is already over")
    elif node.session.abort is not None:
        say(f"game {game_id} is already over: {safetext(node.session.abort.describe(node.names))}")
    else:
        say(f"game {game_id} resumed at seat {node.seat + 1} ({safetext(node.names[node.seat])})")
    bots = HostedBots.resume(node, limits=limits, stall_timeout=stall_timeout, say=say)
    if bots is not None:
        say(f"the bot seats this seat hosted are back: {len(bots.futures)}")
    try:
        return await node.run()
    finally:
        if bots is not None:  # they end with the game (cancelled if they cannot)
            await bots.finish(node.linger + 30.0)


def _other_game(table: str, title: str, game: str) -> str:
    return f"table {safetext(table)!r} plays {safetext(title)}, not {get_game(game).title}"


def _only(game: str) -> Callable[[LobbyState], None]:
    """A lobby watcher that leaves the table if it plays (or the host switches it to) another
    game than ``game``."""

    def check(state: LobbyState) -> None:
        if state.options.game != game:
            title = state.options.definition.title
            raise LobbyRefusal(_other_game(state.table, title, game))

    return check


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(safetext(n) for n in names)


def describe(outcome: Outcome) -> str:
    """One line for the end of a game (names and reasons from peers made safe to print)."""
    if outcome.finished:
        return f"game {outcome.game_id} finished; record: {outcome.record}"
    if outcome.alone:
        return (
            f"game {outcome.game_id}: nobody else of the game could be reached (they may have "
            "ended it while you were away); nothing is recorded and nobody is blamed: "
            f"`rattus resume {outcome.game_id}` continues it, or learns how it ended from the "
            "first peer it reaches"
        )
    blamed = safetext(outcome.blamed) if outcome.blamed is not None else "nobody"
    reason = safetext(outcome.abort)
    if outcome.proven:
        how = f"cheat proven: {blamed}: {reason}"
    else:
        by = safetext(outcome.by) if outcome.by is not None else "?"
        how = f"stopped by {by}, who claims about {blamed}: {reason}; not provable"
    return f"game {outcome.game_id} aborted ({how}); record: {outcome.record}"


def verdict_line(outcome: Outcome) -> str:
    """What ``rattus verify`` says of the game's record, in one line."""
    from protocol.errors import ProtocolError
    from protocol.verify import verify_record

    try:
        return "verdict: " + verify_record(outcome.record.read_bytes()).headline()
    except (OSError, ProtocolError) as exc:
        return f"verdict: the record cannot be verified: {safetext(exc)}"


__all__ = [
    "NodeError",
    "advert_address",
    "advert_changes",
    "describe",
    "find_advert",
    "game_params",
    "host_game",
    "join_game",
    "resume_game",
    "seat_addresses",
    "table_advert",
    "verdict_line",
]
