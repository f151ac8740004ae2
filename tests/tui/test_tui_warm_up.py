"""The warm-up a server's preloaded parent runs before it forks sessions: it draws the menu
once, and keeps nothing of that app alive (every forked session would carry it)."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from textual._styles_cache import StylesCache
from textual.filter import ANSIToTruecolor

from tui.app import RattusNetApp, forget_drawn_app, warm_up


def watch(monkeypatch: pytest.MonkeyPatch, cls: type[Any]) -> weakref.WeakSet[Any]:
    """Every instance of ``cls`` made from now on, as long as something else keeps it."""
    made: weakref.WeakSet[Any] = weakref.WeakSet()
    init = cls.__init__

    def recording(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.add(self)

    monkeypatch.setattr(cls, "__init__", recording)
    return made


def test_the_warm_up_draws_the_menu_and_keeps_nothing_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    apps = watch(monkeypatch, RattusNetApp)
    filters = watch(monkeypatch, ANSIToTruecolor)
    style_caches = watch(monkeypatch, StylesCache)
    mounted: list[str] = []
    on_mount = RattusNetApp.on_mount

    def mount(self: RattusNetApp) -> None:
        on_mount(self)
        mounted.append(type(self.screen).__name__)

    monkeypatch.setattr(RattusNetApp, "on_mount", mount)
    warm_up()
    gc.collect()
    assert mounted == ["MenuScreen"]  # it did draw the menu
    assert not list(apps)
    assert not list(filters)  # (held by a method cache of Textual until forgotten)
    assert not list(style_caches)


def test_forgetting_keeps_what_other_apps_can_hit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only caches keyed by a drawn app's own objects are emptied."""
    from textual.color import Color

    Color.parse("#123456")
    before = Color.parse.cache_info().currsize
    forget_drawn_app()
    assert Color.parse.cache_info().currsize == before > 0
