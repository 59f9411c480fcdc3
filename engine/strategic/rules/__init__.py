"""Rules as data: the pydantic models and the loader of data/rulesets/strategic-initiative/*.toml."""

from engine.strategic.rules.loader import DEFAULT_RULESET, RulesetError, available, load, load_file
from engine.strategic.rules.models import CityType, Ruleset, UnitClass, UnitType

__all__ = [
    "DEFAULT_RULESET",
    "CityType",
    "Ruleset",
    "RulesetError",
    "UnitClass",
    "UnitType",
    "available",
    "load",
    "load_file",
]
