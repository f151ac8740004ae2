"""Strings from other peers cannot drive the terminal, nor lay a line out: one function makes
controls and invisible letters visible, caps combining marks, makes a run of spaces one, and
cuts by terminal cells."""

from __future__ import annotations

import pytest

from protocol.safetext import MAX_MARKS, safetext
from rattus_net.kit.cells import cells


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


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Bob\u3164", "Bob\\u3164"),  # the Hangul filler
        ("\u115f\u1160x", "\\u115f\\u1160x"),  # the Hangul choseong and jungseong fillers
        ("a\uffa0b", "a\\uffa0b"),  # the halfwidth Hangul filler
        ("a\u2800b", "a\\u2800b"),  # the blank braille pattern
        ("a\u034fb", "a\\u034fb"),  # the combining grapheme joiner
        ("ok\ufe0f", "ok\\ufe0f"),  # a variation selector
        ("\u00adx\u180ey", "\\xadx\\u180ey"),  # a soft hyphen, the Mongolian separator
    ],
)
def test_letters_that_show_nothing_are_made_visible(raw: str, shown: str) -> None:
    assert safetext(raw) == shown


def test_combining_marks_are_capped_per_letter() -> None:
    zalgo = "Z" + "\u0301" * 50 + "a" + "\u0300\u0308"
    shown = safetext(zalgo)
    assert shown == "Z" + "\u0301" * MAX_MARKS + "\\u0301" * (50 - MAX_MARKS) + "a\u0300\u0308"
    assert safetext("Vie\u0323\u0302t") == "Vie\u0323\u0302t"  # (an accent or two stay)
    assert safetext("\u0301hi") == "\\u0301hi"  # a mark on nothing: it would sit on the name
    assert safetext("a \u0301") == "a \\u0301"


def test_a_run_of_spaces_is_one_space() -> None:
    padded = "gg" + " " * 70 + "\u3000\u00a0\u2003" + "P1: I resign, gg"
    assert safetext(padded) == "gg P1: I resign, gg"
    assert safetext("a \u3164 \u3164 b") == "a \\u3164 \\u3164 b"  # (fillers cannot pad either)


def test_newlines_can_be_kept_and_text_cut_by_cells() -> None:
    assert safetext("a\nb\x1b", keep_newlines=True) == "a\nb\\x1b"
    assert safetext("abcdef", limit=4) == "abc…"
    assert safetext("abcd", limit=4) == "abcd"
    wide = safetext("鼠鼠鼠鼠鼠", limit=6)  # two cells each
    assert wide == "鼠鼠…" and cells(wide) == 5
    assert safetext("e\u0301" * 10, limit=4) == "e\u0301" * 3 + "…"  # marks take no cell
    assert safetext(42) == "42"


def test_the_headless_news_shows_names_and_faults_safely() -> None:
    from rattus_net.net.news import LinkNews

    news = LinkNews(["Ann", "\x1b[31mBob"], lambda: False)
    line = news("link-up", 1, "")
    assert line is not None and "\x1b" not in line and "\\x1b[31mBob" in line
    fault = news("fault", 1, "bad\x1b[2Jproof")
    assert fault is not None and "\x1b" not in fault
