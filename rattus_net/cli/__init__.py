"""The `rattus` command, every game through the kit's interface, no game named.

``main.py`` (the parser and the dispatch), ``args.py`` (checked argument types and the games'
own flags), ``local.py`` (``play``, ``selfplay``, ``replay``), ``verify.py`` (``verify``) and
``network.py`` (``host``, ``join``, ``tables``, ``resume``); ``serve`` and ``web`` add their
own parsers (``rattus_net/serve``, ``rattus_net/web``).
"""

from rattus_net.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
