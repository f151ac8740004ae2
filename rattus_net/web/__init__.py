"""`rattus web`: play in a browser, with nothing installed but the browser.

An adapter at the outer edge, like :mod:`rattus_net.serve` (whose identities, limits and
preloaded parent it shares): every visitor gets the whole game in a process of his own, drawn
by textual-serve's terminal client in the page.

- :mod:`.players`: the players file (a name and a scrypt hash per line).
- :mod:`.pages`: the door and the game page.
- :mod:`.visits`: the logins (a token per visitor, its cookie's expiry, one login per name).
- :mod:`.games`: the running games, each outliving its page for a grace (a reload).
- :mod:`.server`: the aiohttp server in front of textual-serve (who enters, limits, sessions).
- :mod:`.command`: the ``rattus web`` subcommand.
"""
