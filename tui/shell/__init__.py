"""The shell: the main menu, the host and join forms, the lobby of a network table, the record
verifier, and the way back to an unfinished network game. It takes every game from the
registry and opens each game's table through ``tui/common/gameui.py``; it names no game."""
