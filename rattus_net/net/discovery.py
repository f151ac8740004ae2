"""Finding tables on the LAN: DNS-SD over mDNS with python-zeroconf, on the app's event loop.

A hosted table is a ``_rattus._tcp.local.`` service; its TXT record says what a joiner needs
before connecting (which game, are the versions compatible, is a seat free, is it still in the
lobby) and the host key fingerprint, which the joiner checks against the key the host proves it
holds once connected, so a stray or hostile advert cannot pass for the table the user picked.

Everything received over mDNS comes from anyone on the LAN, so :meth:`TableAdvert.from_txt`
parses it with bounds and never raises anything but :class:`AdvertError`. mDNS does not cross
routers and is blocked on many networks: a manual ``HOST:PORT`` join is always possible.

A browser in a served game that may not type addresses keeps only the advert addresses
:mod:`rattus_net.net.advertguard` allows (on the subnet the advert came in on, never loopback,
link-local or the server's own), so an advert cannot make the server connect where it likes.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ipaddress
import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import ifaddr
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from protocol.wire import PROTOCOL_VERSION
from rattus_net.kit.numbers import ascii_int
from rattus_net.kit.registry import game_names, get_game
from rattus_net.net.advertguard import SourceWatch, local_interfaces, why_refused
from rattus_net.net.names import (
    BadName,
    check_name,
    check_name_bytes,
    instance_label,
)
from rattus_net.net.served import ANY_ADDRESS, Served, listen_host
from rattus_net.net.tasks import cancel_and_wait

log = logging.getLogger(__name__)

SERVICE_TYPE = "_rattus._tcp.local."
STATES = ("open", "full", "playing", "over")
ADVERT_TTL = 15
"""Seconds an advert's SRV/TXT/address records live in a browser's cache. Past that, a
:class:`TableBrowser` asks again, and drops the table if its host does not answer: a host that
vanished without a goodbye (killed, unplugged) leaves the list within about
``ADVERT_TTL + RECHECK + 3`` seconds. (The PTR record alone would keep it for 19 minutes at
least: python-zeroconf enforces that minimum on pointers.)"""
RECHECK = 5.0
"""Seconds between a browser's checks that its tables' hosts still answer."""
_FP = re.compile(r"[0-9a-f]{16}")
_GAME = re.compile(r"[a-z][a-z0-9-]{0,31}")
_MAX_TXT_VALUE = 200


class AdvertError(ValueError):
    """A TXT record that is not a valid table advert (missing, malformed or oversized field)."""


class AmbiguousTable(ValueError):
    """Several tables answer to the name asked for; ``str()`` lists them with their keys."""

    def __init__(self, name: str, tables: list[TableAdvert]) -> None:
        self.tables = tables
        listed = "; ".join(f"key {t.fingerprint} at {t.address}" for t in tables)
        super().__init__(
            f"{len(tables)} tables are called {name!r} ({listed}): "
            "join one with --table and the start of its key"
        )


def clean_table_name(name: str) -> str:
    """A table name checked by the one rule for names (:mod:`rattus_net.net.names`); raises
    BadName (a ValueError) saying what is wrong."""
    return check_name(name, "table name")


@dataclass(frozen=True, slots=True)
class TableAdvert:
    """What a table says about itself on the LAN."""

    name: str
    fingerprint: str
    seats_taken: int
    seats_free: int
    state: str
    game: str
    """The game played at the table; a name this program does not know is kept, to be shown
    as unknown."""
    game_version: int = 1
    version: int = PROTOCOL_VERSION
    host: str = ""
    port: int = 0
    instance: str = ""

    @property
    def compatible(self) -> bool:
        """Whether this program can join the table: same protocol, a game it plays on the
        network, the same version of that game."""
        return self.version == PROTOCOL_VERSION and self.incompatibility is None

    @property
    def incompatibility(self) -> str | None:
        """Why the table's game cannot be joined from here (``None`` if it can): a few words
        for the table list."""
        if self.game not in game_names():
            return f"unknown game {self.game!r}"
        game = get_game(self.game)
        if not game.network_play:
            return f"{game.title}: not on the network yet"
        if self.game_version != game.network_version:
            return f"{game.title} version {self.game_version}"
        return None

    def why_not(self) -> str | None:
        """Why this program cannot join the table, in one line (``None`` if it can)."""
        name = repr(self.name)
        if self.version != PROTOCOL_VERSION:
            return (
                f"table {name} speaks protocol version {self.version}, this program "
                f"{PROTOCOL_VERSION}: update one of them"
            )
        if self.game not in game_names():
            return f"table {name} plays a game this program does not know ({self.game!r})"
        game = get_game(self.game)
        if not game.network_play:
            return f"table {name} plays {game.title}, which cannot be played on the network yet"
        if self.game_version != game.network_version:
            return (
                f"table {name} plays {game.title} version {self.game_version}; this program "
                f"plays version {game.network_version}: update one of them"
            )
        return None

    @property
    def game_title(self) -> str:
        """The game's title (``Rattus Cartus``), or its name if this program does not know it."""
        return get_game(self.game).title if self.game in game_names() else self.game

    @property
    def address(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def to_txt(self) -> dict[str, str]:
        return {
            "v": str(self.version),
            "name": self.name,
            "taken": str(self.seats_taken),
            "free": str(self.seats_free),
            "state": self.state,
            "fp": self.fingerprint,
            "game": self.game,
            "gv": str(self.game_version),
        }

    @classmethod
    def from_txt(cls, txt: Mapping[bytes, bytes | None] | Mapping[str, str | None]) -> TableAdvert:
        """Parse a received TXT record (bounded); AdvertError if it is not a table advert."""
        fields: dict[str, str] = {}
        raw_name: bytes | str | None = None
        for key, value in list(txt.items())[:32]:
            k = key.decode("ascii", "replace") if isinstance(key, bytes) else str(key)
            if value is None:
                continue
            if len(value) > _MAX_TXT_VALUE:
                raise AdvertError(f"TXT field {k!r} too long")
            if k == "name":
                raw_name = value
            fields[k] = value.decode("utf-8", "replace") if isinstance(value, bytes) else value

        def number(key: str, low: int, high: int) -> int:
            text = fields.get(key)
            value = ascii_int(text, max_digits=6) if text is not None else None
            if value is None:
                raise AdvertError(f"TXT field {key!r} missing or not a number")
            if not low <= value <= high:
                raise AdvertError(f"TXT field {key!r} out of range: {value}")
            return value

        version = number("v", 0, 65535)
        fp = fields.get("fp", "")
        if not _FP.fullmatch(fp):
            raise AdvertError("TXT field 'fp' is not a key fingerprint")
        state = fields.get("state", "")
        if state not in STATES:
            raise AdvertError(f"TXT field 'state' unknown: {state[:20]!r}")
        if raw_name is None:
            raise AdvertError("TXT field 'name' missing")
        try:
            if isinstance(raw_name, bytes):
                name = check_name_bytes(raw_name, "table name")
            else:
                name = check_name(raw_name, "table name")
        except BadName as exc:
            raise AdvertError(f"TXT field 'name': {exc}") from None
        if "game" not in fields or "gv" not in fields:  # (an older version's advert)
            raise AdvertError("TXT fields 'game' and 'gv' missing: not an advert of this version")
        game = fields["game"]
        if not _GAME.fullmatch(game):
            raise AdvertError("TXT field 'game' is not a game name")
        return cls(
            name=name,
            fingerprint=fp,
            seats_taken=number("taken", 0, 5),
            seats_free=number("free", 0, 5),
            state=state,
            version=version,
            game=game,
            game_version=number("gv", 0, 65535),
        )


def local_addresses() -> list[str]:
    """IPv4 addresses to advertise: every non-loopback one (loopback only if nothing else);
    only the one a server running this game lets its tables listen on, if it says so."""
    listen = listen_host()
    if listen != ANY_ADDRESS:
        return [listen]
    addrs = sorted(
        {
            ip.ip
            for adapter in ifaddr.get_adapters()
            for ip in adapter.ips
            if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback
        }
    )
    return addrs or ["127.0.0.1"]


def _instance_name(advert: TableAdvert) -> str:
    return f"{instance_label(advert.name, advert.fingerprint)}.{SERVICE_TYPE}"


class Advertiser:
    """Publishes one table and keeps its TXT record current (seats, state)."""

    def __init__(self, aiozc: AsyncZeroconf, advert: TableAdvert, port: int) -> None:
        self.aiozc = aiozc
        self.advert = advert
        self.port = port
        self._info: AsyncServiceInfo | None = None

    def _make_info(self) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            _instance_name(self.advert),
            port=self.port,
            properties=self.advert.to_txt(),
            server=f"rattus-{self.advert.fingerprint[:12]}.local.",
            parsed_addresses=local_addresses(),
            host_ttl=ADVERT_TTL,
            other_ttl=ADVERT_TTL,
        )

    async def start(self) -> None:
        """Register the service (returns once the announcements are sent)."""
        self._info = self._make_info()
        task = await self.aiozc.async_register_service(self._info, allow_name_change=True)
        await task

    async def update(self, **changes: object) -> None:
        """Change advert fields (``seats_taken``, ``seats_free``, ``state``) and re-announce."""
        new = replace(self.advert, **changes)  # type: ignore[arg-type]
        if new == self.advert or self._info is None:
            self.advert = new
            return
        self.advert = new
        name = self._info.name
        self._info = self._make_info()
        self._info.name = name  # keep the (possibly renamed) registered instance name
        task = await self.aiozc.async_update_service(self._info)
        await task

    async def stop(self) -> None:
        if self._info is not None:
            with contextlib.suppress(Exception):
                task = await self.aiozc.async_unregister_service(self._info)
                await asyncio.wait_for(task, 2.0)
            self._info = None


class TableBrowser:
    """Keeps a live dict of the tables on the LAN (by instance name).

    ``on_change`` is called on the loop after every addition, update or removal, so a lobby
    screen can redraw; :meth:`wait_for` lets a command wait for one table. ``guarded``: keep
    only the addresses a served game may connect to (:mod:`.advertguard`); by default, when
    a server runs this game and lets it join listed tables only.
    """

    def __init__(
        self,
        aiozc: AsyncZeroconf,
        on_change: Callable[[dict[str, TableAdvert]], None] | None = None,
        *,
        guarded: bool | None = None,
    ) -> None:
        self.aiozc = aiozc
        self.on_change = on_change
        self.tables: dict[str, TableAdvert] = {}
        self.rejected: dict[str, str] = {}
        if guarded is None:
            guarded = not Served.from_environment().join_by_address
        self.sources = SourceWatch() if guarded else None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()
        self._watch: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.sources is not None:  # (before browsing: every address record is seen)
            self.aiozc.zeroconf.async_add_listener(self.sources, None)
        self._browser = AsyncServiceBrowser(
            self.aiozc.zeroconf, SERVICE_TYPE, handlers=[self._on_state_change]
        )
        self._watch = asyncio.get_running_loop().create_task(self._recheck())

    async def _recheck(self) -> None:
        """Drop the tables whose host no longer answers (their records expired from the cache
        and a new query got no answer)."""
        while True:
            await asyncio.sleep(RECHECK)
            for name in list(self.tables):
                info = AsyncServiceInfo(SERVICE_TYPE, name)
                try:
                    alive = await info.async_request(self.aiozc.zeroconf, 3000)
                except Exception as exc:
                    log.debug("cannot recheck %s: %s", name, exc)
                    continue
                if not alive and self.tables.pop(name, None) is not None:
                    self._notify()

    def _on_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            if self.tables.pop(name, None) is not None:
                self._notify()
            return
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            if not await info.async_request(self.aiozc.zeroconf, 3000):
                return
        except Exception as exc:  # a malformed answer must not stop browsing
            log.debug("cannot resolve %s: %s", name, exc)
            return
        try:
            advert = TableAdvert.from_txt(info.properties)
        except AdvertError as exc:
            self.rejected[name] = str(exc)
            return
        addrs = info.parsed_addresses(IPVersion.V4Only) or info.parsed_addresses()
        if self.sources is not None and addrs:
            addrs = self.allowed(name, info.server or "", addrs)
        if not addrs or info.port is None:
            return
        self.tables[name] = replace(advert, host=addrs[0], port=info.port, instance=name)
        self._notify()

    def allowed(self, name: str, server: str, addrs: list[str]) -> list[str]:
        """The addresses of the advert ``name`` (host name ``server``) a served game may
        connect to; when none is, why is noted in :attr:`rejected`."""
        assert self.sources is not None
        interfaces = local_interfaces()
        kept, why = [], ""
        for address in addrs:
            reason = why_refused(address, self.sources.source(server, address), interfaces)
            if reason is None:
                kept.append(address)
            else:
                why = f"address {address}: {reason}"
        if not kept:
            self.rejected[name] = why
            if self.tables.pop(name, None) is not None:
                self._notify()
        return kept

    def _notify(self) -> None:
        self._changed.set()
        if self.on_change is not None:
            self.on_change(dict(self.tables))

    async def wait_for(
        self, match: Callable[[TableAdvert], bool], timeout: float
    ) -> TableAdvert | None:
        """The first table ``match`` accepts, waiting up to ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            for advert in self.tables.values():
                if match(advert):
                    return advert
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def close(self) -> None:
        watch, self._watch = self._watch, None
        await cancel_and_wait([watch])
        if self.sources is not None:
            with contextlib.suppress(Exception):
                self.aiozc.zeroconf.async_remove_listener(self.sources)
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        await cancel_and_wait(list(self._tasks))


_OUT: dict[Advertiser, asyncio.AbstractEventLoop] = {}
"""The adverts this process has out, each with the loop it lives on (a signal is the
process's: the program's handler withdraws them all, :func:`say_goodbyes`)."""


def keep_for_goodbye(advertiser: Advertiser) -> Callable[[], None]:
    """Keep ``advertiser`` (running on this loop) for :func:`say_goodbyes`; returns a
    function that forgets it (its table closed: it said its goodbye itself)."""
    _OUT[advertiser] = asyncio.get_running_loop()

    def forget() -> None:
        _OUT.pop(advertiser, None)

    return forget


def say_goodbyes(timeout: float = 3.0) -> None:
    """Withdraw every advert this process has out, each on its own loop, waiting up to
    ``timeout`` seconds: a goodbye every browser hears at once, instead of a table that
    lingers in their lists until its records expire. What a program's handler of SIGTERM
    and SIGHUP calls before the signal ends the process (the entry points install it:
    :mod:`rattus_net.cli.signals`). Called on a thread whose loop runs none of them (the
    screen's: adverts live on the network thread); an advert on the caller's own loop is
    passed over, it could not be withdrawn while the caller waits."""
    waiting = []
    for advertiser, loop in list(_OUT.items()):
        if loop.is_closed() or _running_here(loop):
            continue
        with contextlib.suppress(RuntimeError):  # (its loop stopped meanwhile)
            waiting.append(asyncio.run_coroutine_threadsafe(advertiser.stop(), loop))
    if waiting:
        concurrent.futures.wait(waiting, timeout)
    _OUT.clear()


def _running_here(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


class Announcement:
    """A table's advert over its life, all on the one loop it is started on (the network
    thread's): zeroconf made there (it binds to the loop running when it is made), the advert
    sent, updated in order of the changes, kept for the goodbyes a signal says meanwhile
    (:func:`keep_for_goodbye`), and withdrawn with a goodbye."""

    def __init__(self) -> None:
        self._aiozc: AsyncZeroconf | None = None
        self._advertiser: Advertiser | None = None
        self._forget: Callable[[], None] = lambda: None
        self._tasks: set[asyncio.Task[None]] = set()
        self._withdrawn = False

    async def start(self, advert: TableAdvert, port: int) -> None:
        """Announce ``advert`` at ``port``; raises whatever keeps it off the LAN (no
        multicast here: the table is still open by address)."""
        self._aiozc = new_zeroconf()
        advertiser = Advertiser(self._aiozc, advert, port)
        await advertiser.start()
        self._advertiser = advertiser
        self._forget = keep_for_goodbye(advertiser)

    def update(self, **changes: object) -> None:
        """Say ``changes`` soon (a task of the announcement's; nothing once withdrawn)."""
        if self._advertiser is None or self._withdrawn:
            return
        task = asyncio.get_running_loop().create_task(self._advertiser.update(**changes))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def withdraw(self) -> None:
        """The goodbye (every browser drops the table at once), then zeroconf closed."""
        self._withdrawn = True
        await cancel_and_wait(list(self._tasks))
        self._forget()
        if self._advertiser is not None:
            with contextlib.suppress(Exception):
                await self._advertiser.stop()
        if self._aiozc is not None:
            with contextlib.suppress(Exception):
                await self._aiozc.async_close()


class NoLoop(RuntimeError):
    """Zeroconf was asked for outside a running asyncio loop."""


def new_zeroconf() -> AsyncZeroconf:
    """An AsyncZeroconf on the running loop, IPv4 on every interface (what LANs use).

    Only from inside the loop that will use it: made without a running loop, zeroconf runs on
    a loop of its own, and every await of its adverts from another loop fails ("attached to
    a different loop"). Raises :class:`NoLoop` then, for the programmer, at once."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        raise NoLoop("new_zeroconf() needs a running loop: call it on the one using it") from None
    return AsyncZeroconf(ip_version=IPVersion.V4Only)


async def browse(seconds: float) -> list[TableAdvert]:
    """The tables seen within ``seconds`` (for ``rattus tables``), sorted by name."""
    aiozc = new_zeroconf()
    browser = TableBrowser(aiozc)
    try:
        await browser.start()
        await asyncio.sleep(seconds)
        return sorted(browser.tables.values(), key=lambda a: (a.name, a.fingerprint))
    finally:
        await browser.close()
        await aiozc.async_close()


async def find_table(name: str, seconds: float, settle: float = 1.5) -> TableAdvert | None:
    """The table called ``name`` (or whose fingerprint starts with ``name``), if seen in time.

    Once one is seen, the browser listens ``settle`` seconds more: if two tables (two keys)
    answer to the name, AmbiguousTable lists them rather than picking one silently."""
    wanted = name.strip()

    def match(a: TableAdvert) -> bool:
        return a.name == wanted or (len(wanted) >= 4 and a.fingerprint.startswith(wanted))

    aiozc = new_zeroconf()
    browser = TableBrowser(aiozc)
    try:
        await browser.start()
        first = await browser.wait_for(match, seconds)
        if first is None:
            return None
        await asyncio.sleep(settle)
        found = {a.fingerprint: a for a in browser.tables.values() if match(a)}
        found.setdefault(first.fingerprint, first)
        if len(found) > 1:
            raise AmbiguousTable(wanted, sorted(found.values(), key=lambda a: a.fingerprint))
        return first
    finally:
        await browser.close()
        await aiozc.async_close()
