"""`si sandbox --kind caldera`: a captain's setup typed as the slash commands without the slash,
an AI captain in the other seat, the turn resolved by a moderator's `/mod turn`, the report
and its star map printed."""

from __future__ import annotations

import re
from collections import deque
from types import SimpleNamespace

import pytest

from bot.sandbox import run_sandbox
from engine.caldera import kind as kind_module

SEED = 7  # the campaign's (drawn at random otherwise: an event card may forbid what is typed)


@pytest.mark.slow
async def test_a_caldera_sandbox_session(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(
        kind_module, "os", SimpleNamespace(urandom=lambda n: SEED.to_bytes(n, "big"))
    )
    lines = deque(
        [
            "captain status",
            "captain character cha:3 int:4 eng:2 arm:2 com:2 eco:2",
            "captain bonus bonus:earth-interceptor",
            "captain move ships:{ship} to:0,-1",
            "captain move ships:{ship} to:5,5",
            "captain submit",
            "mod turn now:true",
            "captain map",
            "help topic:missions",
            "quit",
        ]
    )
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        line = lines.popleft() if lines else "quit"
        if "{ship}" in line:  # the ship bought (the AI captain may have bought one before)
            bought = re.findall(r"ship (\d+) waits at Earth", "\n".join(out))
            line = line.format(ship=bought[-1] if bought else "1")
        return line

    code = await run_sandbox(
        kind="caldera",
        nations=2,
        players=["Ann"],
        db=str(tmp_path / "s.db"),
        out_dir=str(tmp_path / "pictures"),
        read=read,
        write=out.append,
        live=False,
    )
    text = "\n".join(out)
    assert code == 0, text
    assert "Caldera sandbox" in text and "Caldera for 2 captains with the starter deck" in text
    assert "Your stats are not set: `/captain character`" in text  # status before them
    assert "Your captain: Charisma 3, Intelligence 4" in text
    ship = re.findall(r"Bought Earth interceptor: ship (\d+) waits at Earth\.", text)[0]
    assert f"Ships {ship} will move to 0,-1 when the turn resolves" in text
    assert f"5,5 is beyond ship {ship}'s engine range from 0,0. Nothing changed." in text
    assert "[DM to Ann]" in text and "Turn 1 has resolved." in text
    assert "Scouted 0,-1 (you)" in text  # the ship's move scouted the place
    assert "The star map, turn 2." in text and "`0,-1`" in text
    assert "Help: Caldera: missions, trust and zones" in text
    assert list((tmp_path / "pictures").glob("ann-*-map.png"))
