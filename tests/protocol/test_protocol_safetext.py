"""Strings from other peers cannot drive the terminal: one function makes them visible."""

from __future__ import annotations

import pytest

from protocol.safetext import safetext


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Anna", "Anna"),
        ("Zoë 🐀", "Zoë 🐀"),
        ("\x1b[2J\x1b[Hgone", "\\x1b[2J\\x1b[Hgone"),  # clear the screen
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),  # set the window title
        ("a\rb\nc\td\x7f", "a\\x0db\\x0ac\\x09d\\x7f"),
        ("\x9b31m", "\\x9b31m"),  # the 8-bit CSI
        ("Anna\u202eanöJ", "Anna\\u202eanöJ"),  # a right-to-left override
        ("a\u200bb\u2028c", "a\\u200bb\\u2028c"),  # zero-width space, line separator
        ("\U000e0041x", "\\U000e0041x"),  # a tag character
    ],
)
def test_control_and_invisible_characters_are_made_visible(raw: str, shown: str) -> None:
    assert safetext(raw) == shown
    assert all(ch.isprintable() for ch in safetext(raw))


def test_newlines_can_be_kept_and_text_cut() -> None:
    assert safetext("a\nb\x1b", keep_newlines=True) == "a\nb\\x1b"
    assert safetext("abcdef", limit=4) == "abc…"
    assert safetext(42) == "42"


def test_the_headless_news_shows_names_and_faults_safely() -> None:
    from rattus_net.net.news import LinkNews

    news = LinkNews(["Ann", "\x1b[31mBob"], lambda: False)
    line = news("link-up", 1, "")
    assert line is not None and "\x1b" not in line and "\\x1b[31mBob" in line
    fault = news("fault", 1, "bad\x1b[2Jproof")
    assert fault is not None and "\x1b" not in fault
