"""Verify a signed game record from the TUI: the same verifier and report as ``rattus
verify``, the file typed (or one of the player's own recent records)."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Footer, Input, Static

from protocol.errors import ProtocolError
from protocol.verify import verify_record
from rattus_net.net.persist import list_games
from rattus_net.net.verdicts import remember_verdict
from rattus_net.paths import RECORD_FILE
from tui.shell.forms import FormScreen
from tui.shell.paths import FileAccess, PathRefused


def recent_records() -> list[Path]:
    """Records of finished or aborted games in the data directory, newest first."""
    try:
        games = list_games()
    except Exception:
        return []
    paths = [Path(str(meta.get("dir"))) / RECORD_FILE for _, meta in games]
    found = [p for p in paths if p.is_file()]
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def verify_file(path: Path, shown: str | None = None) -> tuple[bool | None, str]:
    """The verdict on a record file (as ``rattus verify`` prints it); ``None`` if the file
    cannot be read or is not a record. Messages name the file ``shown`` (default: ``path``)."""
    name = str(path) if shown is None else shown
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, f"{name}: no such file"
    except IsADirectoryError:
        return None, f"{name}: is a directory, not a game record"
    except OSError as exc:
        return None, f"{name}: {exc.strerror or exc}"
    try:
        verdict = verify_record(data)
    except ProtocolError as exc:
        return None, f"{name}: {exc}"
    remember_verdict(data, verdict)  # (the recent games say who won from it)
    return verdict.fair, verdict.text()


MAX_LISTED = 8
"""Records of his own a confined player is offered in the verify dialog (newest first)."""


class VerifyScreen(FormScreen):
    """Check a signed game record: the same verifier and report as ``rattus verify``.

    Under ``rattus serve`` (``RATTUS_FILES_ROOT`` set, see :mod:`tui.shell.paths`) only files in the
    player's own folder are opened: the dialog says which folder, takes paths from it, and
    lists his own records (Up/Down fills one in)."""

    ROWS = ("path",)
    INPUTS = ("path",)

    def __init__(self, path: str | None = None) -> None:
        super().__init__()
        self.access = FileAccess.from_environment()
        recent = recent_records() if path is None or self.access.confined else []
        if self.access.confined:
            recent = [p for p in recent if self.access.allows(p)]
        self.records = [self.access.shown(p) for p in recent]
        if path is None:
            path = self.records[0] if self.records else ""
        self.initial = path
        self.picked = -1
        self.report = self._intro()

    def _intro(self) -> Text:
        t = Text(f"Type the path of a record ({RECORD_FILE}) and press Enter.", style="italic")
        if self.access.confined:
            listed = self.records[:MAX_LISTED]
            if not listed:
                t.append("\nYou have no game records here yet.")
            else:
                t.append("\nYour records, newest first (Up/Down fills one in):")
            for shown in listed:
                t.append(f"\n  {shown}")
        return t

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static(Text("VERIFY A GAME RECORD", style="bold"), id="form-title")
            if self.access.confined:
                yield Static(
                    Text(f"Your folder: {self.access.root} (paths are taken from it)"),
                    id="verify-folder",
                )
            yield Static("Record file (your newest game's record is filled in)", classes="label")
            yield Input(self.initial, id="path", classes="field")
            with VerticalScroll(id="verify-scroll"):
                yield Static(id="form-body")
        yield Footer()

    def redraw(self) -> None:
        self.query_one("#form-body", Static).update(self.report)

    def action_cursor(self, delta: int) -> None:
        if not self.records:
            super().action_cursor(delta)
            return
        listed = self.records[:MAX_LISTED]
        self.picked = (self.picked + delta) % len(listed)
        field = self.query_one("#path", Input)
        field.value = listed[self.picked]
        field.cursor_position = len(field.value)

    def action_select(self) -> None:
        text = self.query_one("#path", Input).value.strip()
        if not text:
            self.report = Text("Type the path of a record file first.", style="bold")
            self.redraw()
            return
        try:
            path = self.access.resolve(text)
        except PathRefused as exc:
            self.report = Text(str(exc), style="bold reverse")
            self.redraw()
            return
        self.report = Text("Verifying (every shuffle and every share is checked)...")
        self.redraw()
        shown = self.access.shown(path)
        self.run_worker(lambda: self._verify(path, shown), thread=True, group="verify")

    def _verify(self, path: Path, shown: str) -> None:
        fair, report = verify_file(path, shown)
        self.app.call_from_thread(self._show, fair, report)

    def _show(self, fair: bool | None, report: str) -> None:
        style = "bold" if fair else "bold reverse"
        head, _, rest = report.partition("\n")
        t = Text(head, style=style)
        if rest:
            t.append("\n" + rest)
        self.report = t
        self.redraw()


__all__ = ["VerifyScreen", "recent_records", "verify_file"]
