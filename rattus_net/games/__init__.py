"""The games of Rattus Net, one subpackage each; every one registers itself when imported.

The registry (``rattus_net.kit.registry``) imports every subpackage here: a new game is a new
folder, and nothing else names it. Ask the registry for a game (``get_game``), never this
package.
"""
