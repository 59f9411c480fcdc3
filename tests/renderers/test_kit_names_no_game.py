"""The drawing kit (the modules at the top of `renderers/`: palette, text, encoding, the drawing
pool...) names no game: what one game draws lives in its own subpackage (`renderers/<game>/`).
Read from the source: its imports, the names it defines and uses, its strings (docstrings may
say which game uses what, so they are left out). import-linter's "drawing-kit" contract, which
keeps the kit from importing a game, lists every module of the kit."""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "renderers"
GAMES = ("strategic", "supplylines", "supply-lines", "supply lines", "strategic initiative")
# the games' names with their words run together, as in an identifier or a module path
_NAMES = re.compile("|".join(sorted({re.sub(r"[-_ ]", "", g) for g in GAMES}, key=len)))


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstrings' nodes (a module's, a class's, a function's)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                found.add(id(body[0].value))
    return found


def words(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of what the code says: the modules imported and the names taken from them,
    every name defined or used (variables, attributes, functions, classes, arguments), every
    string but the docstrings."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield line, alias.name
                if alias.asname:
                    yield line, alias.asname
        elif isinstance(node, ast.ImportFrom):
            yield line, node.module or ""
            for alias in node.names:
                yield line, alias.name
                if alias.asname:
                    yield line, alias.asname
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.arg):
            yield line, node.arg
        elif isinstance(node, ast.keyword):
            yield line, node.arg or ""  # None: **kwargs
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield line, node.value


def games_named(source: str) -> list[tuple[int, str]]:
    """Where the code names a game: (line, the text that does)."""
    return [
        (line, text)
        for line, text in words(source)
        if _NAMES.search(re.sub(r"[-_ ]", "", text.lower()))
    ]


def kit_modules() -> list[Path]:
    return sorted(KIT.glob("*.py"))


def test_the_check_sees_a_game_named_in_code_but_not_in_a_docstring() -> None:
    source = '''"""Drawn for Strategic Initiative and Supply Lines alike."""
import renderers.supplylines
from engine.strategic.view import View
from renderers import pool as strategic_pool


def draw(supply_lines: int) -> str:
    """A Supply-Lines thing."""
    return f"Strategic Initiative {supply_lines}" + "supply-lines"


class SupplyLinesPen:
    pass
'''
    named = {text for _, text in games_named(source)}
    assert named == {
        "renderers.supplylines",
        "engine.strategic.view",
        "strategic_pool",
        "supply_lines",
        "Strategic Initiative ",
        "supply-lines",
        "SupplyLinesPen",
    }
    assert games_named('"""Strategic Initiative."""\nX = 1\n') == []


def test_the_drawing_kit_names_no_game() -> None:
    modules = kit_modules()
    assert {p.name for p in modules} >= {"__init__.py", "pool.py", "style.py"}
    named = {
        f"renderers/{path.name}:{line}": text
        for path in modules
        for line, text in games_named(path.read_text())
    }
    assert named == {}


def test_the_import_contract_covers_every_module_of_the_kit() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (kit,) = [c for c in contracts["contracts"] if c.get("id") == "drawing-kit"]
    modules = {f"renderers.{p.stem}" for p in kit_modules() if p.stem != "__init__"}
    assert set(kit["source_modules"]) == modules
    assert {"renderers.strategic", "renderers.supplylines"} <= set(kit["forbidden_modules"])
