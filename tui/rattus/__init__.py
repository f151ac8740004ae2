"""The Rattus (board game) table in the TUI: the offline game, the map, its dialogs."""
