"""The tables hosted on one server (``rattus serve``/``rattus web``), listed for its players.

Every table a served player hosts is listed in a folder the server shares between its
sessions (``RATTUS_SERVER_TABLES``), one small JSON file per table written to a temporary name
and renamed (never read half written), so that the server's players find each other's tables
even where multicast (LAN discovery) does not work, and join them without typing an address.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path

from rattus_net.net.discovery import AdvertError, TableAdvert
from rattus_net.net.served import Served


@dataclass
class ServerTables:
    """The folder where the tables hosted by a server's players are listed."""

    folder: Path

    def _file(self, fingerprint: str) -> Path:
        return self.folder / f"{fingerprint}.json"

    def publish(self, advert: TableAdvert) -> None:
        """List (or update) a table hosted here; a folder that cannot be written only means
        the others do not see it listed (they may still see it on the LAN)."""
        entry = {"txt": advert.to_txt(), "host": advert.host, "port": advert.port}
        entry["pid"] = os.getpid()
        path = self._file(advert.fingerprint)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        with contextlib.suppress(OSError):
            tmp.write_text(json.dumps(entry), encoding="utf-8")
            os.replace(tmp, path)

    def withdraw(self, fingerprint: str) -> None:
        with contextlib.suppress(OSError):
            self._file(fingerprint).unlink()

    def tables(self) -> list[TableAdvert]:
        """The tables listed whose host is still running (a crashed host's entry is skipped)."""
        found = []
        try:
            files = sorted(self.folder.glob("*.json"))[:64]
        except OSError:
            return []
        for path in files:
            try:
                entry = json.loads(path.read_text(encoding="utf-8")[:8192])
                pid, host, port = int(entry["pid"]), str(entry["host"]), int(entry["port"])
                advert = TableAdvert.from_txt(
                    {str(k): str(v) for k, v in dict(entry["txt"]).items()}
                )
            except (OSError, ValueError, KeyError, TypeError, AdvertError):
                continue
            if not _alive(pid) or not 0 < port < 65536:
                continue
            found.append(replace(advert, host=host, port=port, instance=path.stem))
        return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def server_tables() -> ServerTables | None:
    """The listing of this server's tables, if a server runs this game."""
    folder = Served.from_environment().tables
    return ServerTables(folder) if folder is not None else None
