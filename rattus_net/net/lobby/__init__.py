"""The lobby: open a table, join it, take a seat, set options, get ready, start.

``values.py`` (the table's options, its seats and state, and their wire forms), ``core.py``
(the rules of a lobby, sans-IO, and its messages), ``host.py`` (hosting a table: the asyncio
adapter, links authenticated with ``rattus_net.net.handshake``) and ``guest.py`` (joining one).
The lobby only decides *who* plays with which options; the game itself runs on the mesh links
that the peer node opens afterwards.
"""

from rattus_net.net.lobby.core import (
    LobbyCore,
    colour_message,
    ready_message,
    refuse_message,
    sit_message,
    state_message,
)
from rattus_net.net.lobby.guest import JOIN_RETRY, join_table
from rattus_net.net.lobby.host import (
    LOBBY_FRAME,
    LOBBY_PURPOSE,
    SIT_TIMEOUT,
    HostedTable,
    authenticate,
)
from rattus_net.net.lobby.values import (
    MAX_GAME_NAME,
    SEAT_COLOURS,
    STARTED,
    LobbyRefusal,
    LobbyState,
    Seat,
    TableOptions,
    clean_name,
    network_game,
)

__all__ = [
    "JOIN_RETRY",
    "LOBBY_FRAME",
    "LOBBY_PURPOSE",
    "MAX_GAME_NAME",
    "SEAT_COLOURS",
    "SIT_TIMEOUT",
    "STARTED",
    "HostedTable",
    "LobbyCore",
    "LobbyRefusal",
    "LobbyState",
    "Seat",
    "TableOptions",
    "authenticate",
    "clean_name",
    "colour_message",
    "join_table",
    "network_game",
    "ready_message",
    "refuse_message",
    "sit_message",
    "state_message",
]
