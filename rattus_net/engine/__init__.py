"""Moved to ``rattus_net.kit``; these names stay only until ``protocol/`` imports the kit."""
