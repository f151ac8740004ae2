"""Rattus Net's games in OpenSpiel (the optional extra ``pip install '.[openspiel]'``).

``register_games()`` registers every game that supplies action numbers (``codec.py``) with
``pyspiel`` as ``rattus_net_<game>`` (parameter ``players``); ``game.py`` says how chance,
information, moves and returns map. Only this package imports OpenSpiel.
"""
