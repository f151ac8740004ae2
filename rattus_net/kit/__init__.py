"""The kit every game of Rattus Net plugs into: the typed game interface (``interface.py``),
the registry the games join (``registry.py``), their options (``options.py``), the requests a
game makes of its table (``table.py``, ``chance.py``), the lines of a log that say whose they
are (``said.py``) and the errors (``errors.py``)."""
