"""Rattus Cartus, the card game: its rules engine, data, records and views."""
