"""The two pages of ``rattus web``: the door (a name, and a password where players are listed)
and the game (textual-serve's terminal client, connected to the player's own session).

Plain HTML written here, every value escaped; nothing is fetched from anywhere else (no web
fonts), so a browser on a closed network shows the same page.
"""

from __future__ import annotations

from html import escape

from rattus_net.kit.registry import games

STYLE = """
body { background: #0c181f; color: #e8eef2; font-family: monospace; margin: 0; }
.door { max-width: 34em; margin: 10vh auto; padding: 2em; background: #12232d; }
.door h1 { font-size: 1.4em; margin-top: 0; }
.door label { display: block; margin-top: 1em; }
.door input { font: inherit; width: 100%; padding: .4em; box-sizing: border-box; }
.door button { font: inherit; margin-top: 1.5em; padding: .5em 2em; }
.door .why { color: #ffb4a8; font-weight: bold; }
.door .note { color: #9fb3c0; font-size: .9em; }
#terminal { position: absolute; inset: 0; }
.ended { display: none; position: absolute; inset: 0; z-index: 10; background: #0c181fe0;
  align-items: center; justify-content: center; }
body.-closed .ended { display: flex; }
.ended a { color: #e8eef2; font-size: 1.2em; }
"""


DOWNLOADS = """
window.open = (url) => {
  const link = document.createElement("a");
  link.href = url;
  link.download = "";
  document.body.appendChild(link);
  link.click();
  link.remove();
  return null;
};
"""
"""The client opens a file the game delivers (the record) in a new window, which a browser
blocks as a pop-up it did not ask for: a download link clicked in the page is not blocked."""

KEYS = """
window.addEventListener("keydown", (event) => {
  if (event.ctrlKey && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "c") {
    event.stopImmediatePropagation();
  }
}, true);
new MutationObserver((changes, watch) => {
  if (document.body.classList.contains("-loaded")) {
    watch.disconnect();
    const keys = document.querySelector(".xterm-helper-textarea");
    if (keys) keys.focus();
  }
}).observe(document.body, {attributes: true, attributeFilter: ["class"]});
"""
"""Two keys' worth of browser manners. Ctrl+C copies in a browser: it is kept from the
terminal (which would pass it to the game as an interrupt) and left to the browser, which
copies what is selected (Shift and the mouse select in the terminal); the game is left with
q, asked first, as everywhere. And the terminal takes the keys as soon as the game is
connected (the page's ``-loaded``), with no click first."""


def _titles() -> str:
    """The registered games' titles, as a sentence says them ("A, B and C")."""
    titles = [g.title for g in games()]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else titles[0]


def door(*, passwords: bool, why: str = "", name: str = "") -> str:
    """The login page; ``why`` is the reason the last try was refused."""
    refused = f'<p class="why" id="why">{escape(why)}</p>' if why else ""
    password = (
        '<label>Password <input type="password" name="password" id="password" '
        'autocomplete="current-password"></label>'
        if passwords
        else ""
    )
    note = (
        "Your games, saves and records are kept under your name."
        if passwords
        else "You play as a guest: nothing is kept once you leave."
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Rattus Net</title>
<style>{STYLE}</style></head>
<body><form class="door" method="post" action="/login">
<h1>Rattus Net</h1>
<p>{escape(_titles())} in your browser: the whole game, in a process of your own.</p>
{refused}
<label>Your player name <input name="name" id="name" value="{escape(name)}" maxlength="24"
 autocomplete="username" autofocus></label>
{password}
<button type="submit" id="enter">Enter</button>
<p class="note">{note} A name is 1 to 24 letters, digits, '-' or '_'.</p>
</form></body></html>
"""


def game(websocket_url: str, static_url: str, font_size: int = 16) -> str:
    """The page that runs the game: textual-serve's client, its websocket ours."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Rattus Net</title>
<link rel="stylesheet" href="{escape(static_url)}css/xterm.css">
<script>{DOWNLOADS}</script>
<script src="{escape(static_url)}js/textual.js"></script>
<style>{STYLE}</style></head>
<body>
<div class="ended"><a href="/">The game has ended: back to the door</a></div>
<div id="terminal" class="textual-terminal"
 data-session-websocket-url="{escape(websocket_url)}" data-font-size="{font_size}"></div>
<script>{KEYS}</script>
</body></html>
"""
