"""The bot's shell names no game (issue 28: games are plugins of every layer).

The shell (the bot's own modules, its cogs and DMs, the host, the games' interface) reaches a
game only through the registry (`engine.interface.kind.KINDS`) and the game's side
(`bot.game_side`): no import of a game's package, no identifier, attribute, parameter or
string (docstrings aside: they may say what they serve) with a game's name in it. The few
modules that still compose the games by hand are listed, each until it is made of parts the
games bring. The import-linter contract "The bot's shell imports no game" checks the imports;
this walk also catches a game's name in the code itself (`if kind == "supply-lines"`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHELL = (
    "bot",
    "bot/cogs",
    "bot/dm",
    "engine/host",
    "engine/interface",
    "engine/interface/turnbased",
)
# the registry names every game: that is its job
NAMING_GAMES = {"engine/interface/kind.py"}
GAME = re.compile(r"strategic|supply.?lines|supplylines", re.I)
# the product's own name, not a game's: the bot's class and its default database
PRODUCT = {"StrategicBot", "var/strategic-initiative.db"}


def shell_modules() -> list[Path]:
    return sorted(path for folder in SHELL for path in (ROOT / folder).glob("*.py"))


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstrings' nodes: a module's, a class's and a function's."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def words(source: str) -> Iterator[tuple[int, str]]:
    """(line, word) of every name the code uses: what it imports, its names, attributes,
    definitions and parameters, and its strings other than docstrings."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            yield from ((line, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield line, node.module or ""
            yield from ((line, alias.name) for alias in node.names)
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.arg):
            yield line, node.arg
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield line, node.value


def names_of_games(source: str) -> list[str]:
    return [
        f"{line}: {word!r}"
        for line, word in words(source)
        if word not in PRODUCT and GAME.search(word)
    ]


def test_the_walk_finds_a_game_named_in_code_and_not_in_a_docstring() -> None:
    source = (
        '"""Serves Strategic Initiative and Supply Lines alike."""\n'
        "import engine.supplylines.kind\n"
        "from bot.games.strategic import side\n"
        "def f(supply_lines):\n"
        '    """Strategic, in a docstring."""\n'
        "    bot = StrategicBot()\n"
        '    return kind == "supply-lines" or thing.strategic_view or f"{x} Strategic"\n'
    )
    assert sorted(names_of_games(source)) == [
        "2: 'engine.supplylines.kind'",
        "3: 'bot.games.strategic'",
        "4: 'supply_lines'",
        "7: ' Strategic'",
        "7: 'strategic_view'",
        "7: 'supply-lines'",
    ]


def test_the_shell_names_no_game() -> None:
    modules = shell_modules()
    assert ROOT / "bot" / "cli.py" in modules and ROOT / "bot" / "sandbox.py" in modules
    named = {}
    for path in modules:
        where = path.relative_to(ROOT).as_posix()
        if where in NAMING_GAMES:
            continue
        found = names_of_games(path.read_text(encoding="utf-8"))
        if found:
            named[where] = found
    assert named == {}


def test_the_modules_let_off_still_name_a_game() -> None:
    """An exemption no longer needed is dropped (the walk checks the module again)."""
    for where in sorted(NAMING_GAMES):
        assert names_of_games((ROOT / where).read_text(encoding="utf-8")), where
