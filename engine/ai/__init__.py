"""AI nations: they play through the same commands and the same fog-filtered view as humans."""

from .brain import STYLES, Decision, Memory, decide

__all__ = ["STYLES", "Decision", "Memory", "decide"]
