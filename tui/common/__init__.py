"""What every game's screens share, and the screens every game uses: the table's play
(``table.py``), the decision dialog's frame (``dialog.py``), the end of a game (``end.py``),
the log, the rules summary, the keys' help, the generic table of a game without screens of its
own (``generic.py``) and the door to each game's screens (``gameui.py``). Nothing here imports
the shell (``tui/shell``)."""
