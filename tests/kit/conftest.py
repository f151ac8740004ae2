"""The kit's tests: the ``writes`` fixture watches the offline save's writes."""

from savewrites import writes

__all__ = ["writes"]
