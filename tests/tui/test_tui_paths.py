"""Typed paths under ``rattus serve``: confined to the player's folder (``RATTUS_FILES_ROOT``),
with ``..``, absolute paths and symbolic links that lead out refused; and anywhere without it.
The verify dialog refuses another player's record in one line and checks the player's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static
from tui_helpers import pushed, sync, until

from rattus_net.kit.registry import get_game
from rattus_net.selfplay import play_secure_game
from tui.app import RattusNetApp
from tui.shell.paths import ENV_FILES_ROOT, OUTSIDE, FileAccess, PathRefused
from tui.shell.verify import VerifyScreen


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """Alice's folder (the root) and Bob's beside it, each with a file."""
    alice, bob = tmp_path / "players" / "alice", tmp_path / "players" / "bob"
    for who in (alice, bob):
        (who / "data").mkdir(parents=True)
        (who / "data" / "secret").write_text(who.name)
    return alice, bob


def test_inside_the_root_relative_and_absolute(folders: tuple[Path, Path]) -> None:
    alice, _ = folders
    access = FileAccess(alice)
    assert access.confined
    assert access.resolve("data/secret") == alice.resolve() / "data" / "secret"
    assert access.resolve(str(alice / "data" / "secret")) == alice.resolve() / "data" / "secret"
    assert access.resolve("data/../data/secret") == alice.resolve() / "data" / "secret"
    assert access.resolve("data/not-yet") == alice.resolve() / "data" / "not-yet"
    # the root itself is inside (reading it then says it is a folder)
    assert access.resolve(".") == access.resolve(str(alice)) == alice.resolve()


@pytest.mark.parametrize(
    "typed",
    ["../bob/data/secret", "data/../../bob/data/secret", "..", "/etc/passwd", "/", "~root"],
)
def test_paths_that_lead_out_are_refused(folders: tuple[Path, Path], typed: str) -> None:
    alice, _ = folders
    with pytest.raises(PathRefused) as refused:
        FileAccess(alice).resolve(typed)
    assert str(refused.value) == f"{typed}: {OUTSIDE}"


def test_absolute_path_into_another_folder_is_refused(folders: tuple[Path, Path]) -> None:
    alice, bob = folders
    with pytest.raises(PathRefused, match=OUTSIDE):
        FileAccess(alice).resolve(str(bob / "data" / "secret"))
    # a sibling whose name merely starts like the root's is outside too
    (alice.parent / "alice2").mkdir()
    with pytest.raises(PathRefused, match=OUTSIDE):
        FileAccess(alice).resolve(str(alice.parent / "alice2"))


def test_symbolic_links_are_followed(folders: tuple[Path, Path]) -> None:
    alice, bob = folders
    (alice / "to-bob").symlink_to(bob / "data" / "secret")
    (alice / "bob-folder").symlink_to(bob)
    (alice / "mine").symlink_to(alice / "data" / "secret")
    (alice / "loop").symlink_to(alice / "loop")
    access = FileAccess(alice)
    for typed in ("to-bob", "bob-folder/data/secret", str(alice / "to-bob")):
        with pytest.raises(PathRefused, match=OUTSIDE):
            access.resolve(typed)
    assert access.resolve("mine") == alice.resolve() / "data" / "secret"
    with pytest.raises(PathRefused):
        access.resolve("loop")


def test_a_root_reached_through_a_link_still_holds(folders: tuple[Path, Path]) -> None:
    alice, _ = folders
    link = alice.parent.parent / "alice-link"
    link.symlink_to(alice)
    access = FileAccess(link)
    assert access.resolve("data/secret") == alice.resolve() / "data" / "secret"
    with pytest.raises(PathRefused, match=OUTSIDE):
        access.resolve("../bob/data/secret")
    assert access.shown(access.resolve("data/secret")) == "data/secret"


def test_without_a_root_any_path_is_taken(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, bob = folders
    monkeypatch.delenv(ENV_FILES_ROOT, raising=False)
    access = FileAccess.from_environment()
    assert not access.confined
    assert access.resolve(str(bob / "data" / "secret")) == bob / "data" / "secret"
    assert access.resolve("../x") == Path("../x")
    assert access.shown(bob) == str(bob)


def test_the_root_comes_from_the_environment(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, _ = folders
    monkeypatch.setenv(ENV_FILES_ROOT, str(alice))
    assert FileAccess.from_environment().root == alice.resolve()
    monkeypatch.setenv(ENV_FILES_ROOT, "")  # empty: not set
    assert FileAccess.from_environment().root is None


# --- the verify dialog ---------------------------------------------------------------------------


def body(app: RattusNetApp) -> str:
    return str(app.screen.query_one("#form-body", Static).render())


@sync
async def test_verify_dialog_opens_only_the_players_own_records(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = folders
    record = play_secure_game(get_game("cartus"), 2, 5, ["random"], {}).record
    mine = alice / "data" / "games" / "0123abcd" / "seat-1" / "record.rattusnet"
    theirs = bob / "data" / "games" / "4567cdef" / "seat-1" / "record.rattusnet"
    for path in (mine, theirs):
        path.parent.mkdir(parents=True)
        path.write_bytes(record)
    (alice / "link").symlink_to(theirs)
    monkeypatch.setenv("RATTUS_DATA_DIR", str(alice / "data"))
    monkeypatch.setenv(ENV_FILES_ROOT, str(alice))
    monkeypatch.chdir(alice)
    app = RattusNetApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pushed(pilot, VerifyScreen())
        screen = app.screen
        assert isinstance(screen, VerifyScreen)
        folder = str(screen.query_one("#verify-folder", Static).render())
        assert str(alice.resolve()) in folder.replace("\n", "")
        own = "data/games/0123abcd/seat-1/record.rattusnet"
        assert own in body(app)  # listed, as a path in the folder
        field = screen.query_one("#path", Input)
        assert field.value == own  # and filled in
        for typed in ("../bob/data/games/4567cdef/seat-1/record.rattusnet", str(theirs), "link"):
            field.value = typed
            await pilot.press("enter")
            await pilot.pause()
            assert body(app) == f"{typed}: {OUTSIDE}"
        field.value = ""
        await pilot.press("down")  # picks the player's own record from the list
        assert field.value == own
        await pilot.press("enter")
        await until(lambda: "FAIR" in body(app))
        assert "seat 1:" in body(app) and str(alice) not in body(app)
