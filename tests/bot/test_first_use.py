"""Nothing a game needs is imported for the first time while players wait: the bot's start-up
(`bot.client.prepare`, before its store and Discord) imports every registered game's modules
and what libraries import at their first use, so a game's first commands and pictures import
none on the event loop (issue 30: a module compiled at its first import held the loop 60 ms).
Checked in a fresh process (tests/first_use_child.py): in this one, other tests have imported
everything already."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_games_first_commands_and_pictures_import_nothing_after_start_up() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tests.first_use_child"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert imported == [], f"imported at first use: {imported}"


def test_a_game_module_that_does_not_import_stops_the_bot_at_start_up(tmp_path, monkeypatch):
    """Start-up imports every module of a registered game's packages, not only those its first
    command needs: one that fails is named (and the bot refuses to start), not met by a player
    later."""
    from bot.game_side import game_packages, import_all
    from engine.interface.kind import KINDS, register

    package = tmp_path / "brokengame"
    (package / "ai").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core.py").write_text("KIND = None\n")
    (package / "ai" / "__init__.py").write_text("")
    (package / "ai" / "plans.py").write_text("raise RuntimeError('its rules file is missing')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    register("broken", "brokengame.core:KIND")
    try:
        assert "brokengame" in game_packages()
        problems = import_all(["brokengame"])
    finally:
        KINDS.pop("broken", None)
        for name in [m for m in sys.modules if m.startswith("brokengame")]:
            del sys.modules[name]
    assert problems == ["module brokengame.ai.plans: RuntimeError('its rules file is missing')"]
