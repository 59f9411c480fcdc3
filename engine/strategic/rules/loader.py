"""Load and validate rulesets from data/rulesets/strategic-initiative/*.toml."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from pydantic import ValidationError

from engine.strategic.rules.models import Ruleset

RULESET_DIR = Path(__file__).resolve().parents[3] / "data" / "rulesets" / "strategic-initiative"
DEFAULT_RULESET = "standard"


class RulesetError(ValueError):
    """A ruleset file is missing or malformed; the message names the file and the field."""


def available() -> list[str]:
    return sorted(p.stem for p in RULESET_DIR.glob("*.toml"))


def load_file(path: Path) -> Ruleset:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise RulesetError(f"{path}: no such ruleset file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path}: not valid TOML: {exc}") from exc
    try:
        return Ruleset.model_validate(raw)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            where = _field_path(raw, err["loc"])
            lines.append(f"{path.name}: {where}: {err['msg']}")
        raise RulesetError("\n".join(lines)) from None


def _field_path(raw: dict, loc: tuple) -> str:
    """Turn ('units', 3, 'hp') into 'units[3] (tank).hp' so the bad row is easy to find."""
    parts: list[str] = []
    node: object = raw
    for key in loc:
        if isinstance(key, int):
            label = f"[{key}]"
            if isinstance(node, list) and key < len(node) and isinstance(node[key], dict):
                name = node[key].get("name")
                if name:
                    label += f" ({name})"
            parts.append(label)
        else:
            parts.append(("." if parts else "") + str(key))
        try:
            node = node[key]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            node = None
    return "".join(parts) or "(top level)"


@cache
def load(name: str = DEFAULT_RULESET) -> Ruleset:
    if name not in available():
        raise RulesetError(f"unknown ruleset {name!r}; available: {', '.join(available())}")
    return load_file(RULESET_DIR / f"{name}.toml")
