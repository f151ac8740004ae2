"""Rattus Cartus in the TUI: its table screen, dialogs, rendering, offline game and save.

The shell (menu, forms, lobby, app) reaches it only through ``tui.games``."""
