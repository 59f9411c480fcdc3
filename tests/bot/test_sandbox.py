"""The offline sandbox: the slash commands typed in a terminal, replies and DMs printed,
pictures written to files, AI nations playing, time on demand."""

from __future__ import annotations

import re
import time
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from bot.context import UserError
from bot.sandbox import command_specs, parse, run_sandbox


async def _played(
    tmp_path: Path, commands: list[str], pictures: str = "pics", **options: Any
) -> tuple[int, list[str]]:
    """Run a sandbox offline on the typed commands (then `quit`), its pictures written under
    tmp_path/pictures: the exit code and every line it printed."""
    lines = deque(commands)
    out: list[str] = []
    code = await run_sandbox(
        db=str(tmp_path / "s.db"),
        out_dir=str(tmp_path / pictures),
        read=lambda prompt: lines.popleft() if lines else "quit",
        write=out.append,
        live=False,
        **options,
    )
    return code, out


async def test_commands_are_parsed_like_slash_commands() -> None:
    specs = await command_specs()
    assert parse("move units:12 13 to:5,6", specs) == ("move", {"units": "12 13", "to": "5,6"})
    assert parse("/move 12 5,6", specs) == ("move", {"units": "12", "to": "5,6"})
    assert parse("game join name:Red", specs) == ("game join", {"name": "Red"})
    assert parse("units page:2", specs) == ("units", {"page": 2})
    with pytest.raises(UserError, match="no command"):
        parse("fly 1 2", specs)
    with pytest.raises(UserError) as missing:
        parse("move units:3", specs)
    # which option, in the command's own words, and how to type it
    assert str(missing.value) == (
        "move needs a value for to: a square as the map shows it: x,y (for example 12,7). "
        "Type it as: move units:... to:..."
    )
    with pytest.raises(UserError, match="no option"):
        parse("move units:3 where:4,4", specs)


async def test_a_mistyped_command_suggests_the_one_meant() -> None:
    """Issue 29: `mvoe` is one swap away from `move`; a group's subcommand too; a word near
    nothing gets no guess."""
    specs = await command_specs()
    for typed, meant in (
        ("mvoe 5 12,7", "move"),
        ("atack 1 2,2", "attack"),
        ("game creat", "game create"),
    ):
        with pytest.raises(UserError) as caught:
            parse(typed, specs)
        assert f"Did you mean {meant}?" in str(caught.value), caught.value
    with pytest.raises(UserError) as caught:
        parse("xyzzy 1", specs)
    assert "Did you mean" not in str(caught.value)


def test_a_mistyped_unit_type_suggests_the_one_meant() -> None:
    from bot.parsing import choice

    with pytest.raises(UserError, match="Did you mean heavy bomber?"):
        choice("heavy bomer", ["infantry", "heavy_bomber", "tank"], "unit type")
    with pytest.raises(UserError) as caught:
        choice("xyzzy", ["infantry", "heavy_bomber", "tank"], "unit type")
    assert "Did you mean" not in str(caught.value)


async def test_a_sandbox_session(tmp_path) -> None:
    lines = deque(
        [
            "status",
            "map",
            "units",
            "wait 6",
            "nations",
            "move units:999 to:1,1",
            "as Bob",
            "status",
            "game resign",
            "yes",
            "quit",
        ]
    )
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        if not lines:
            raise EOFError
        return lines.popleft()

    code = await run_sandbox(
        nations=3,
        players=["Alice", "Bob"],
        db=str(tmp_path / "s.db"),
        out_dir=str(tmp_path / "maps"),
        read=read,
        write=out.append,
        live=False,
    )
    text = "\n".join(out)
    assert code == 0
    assert "Alice in Sandbox" in text and "Bob in Sandbox" in text
    # no Discord markup in a terminal: no bold marks, timestamps or mentions as codes
    assert "**" not in text and "<t:" not in text and "<@" not in text
    # one file per player and picture, named for whom it was drawn
    assert list((tmp_path / "maps").glob("alice-*-map-*.png"))
    assert "It is now day 1 06:00." in text
    assert "Robot 1" in text  # the AI nation filled the third seat
    assert "999" in text  # a clear error for a unit that is not yours
    assert "Bob has resigned" in text
    assert "Bob> " in out  # the prompt says who acts
    assert "[DM to ai]" not in text  # AI nations get no DMs


def test_discord_markup_reads_as_plain_text_in_the_terminal() -> None:
    from bot.sandbox import plain

    text = "**Red** - ends <t:7800:R> (<t:7800:f>), led by <@local-1>, in <#123>"
    shown = plain(text, {"local-1": "Alice"}, now=0)
    assert shown.startswith("Red - ends in 2 h 10 min (")
    assert "led by Alice, in #channel" in shown
    assert "<" not in shown and "**" not in shown
    assert plain("<t:0:R>", now=3 * 86400 + 3600) == "3 d 1 h ago"


async def test_unit_selectors_are_typed_in_order_too() -> None:
    specs = await command_specs()
    assert parse('move "all at 12,7" 14,7', specs) == (
        "move",
        {"units": "all at 12,7", "to": "14,7"},
    )
    assert parse("move all at 12,7 14,7", specs) == (
        "move",
        {"units": "all at 12,7", "to": "14,7"},
    )
    assert parse("move units:tanks at 12,7 to:14,7", specs) == (
        "move",
        {"units": "tanks at 12,7", "to": "14,7"},
    )
    assert parse("cancel idle tanks", specs) == ("cancel", {"units": "idle tanks"})
    assert parse("board 3 7 infantry at 4,4 9", specs) == (
        "board",
        {"units": "3 7 infantry at 4,4", "carrier": 9},
    )
    assert parse("units group:square ready:true orders:without at:3,4", specs) == (
        "units",
        {"group": "square", "ready": True, "orders": "without", "at": "3,4"},
    )
    with pytest.raises(UserError, match="takes 3 values"):  # only units take many words
        parse("build 3,4 tank yes please", specs)


@pytest.mark.parametrize("clock_runs", [False, True])
async def test_the_clock_stands_still_while_the_player_types(tmp_path, clock_runs) -> None:
    lines = deque(["speed 1", "status", "status", "quit"])  # a game hour a real second
    out: list[str] = []

    def read(prompt: str) -> str:
        if not lines:
            raise EOFError
        line = lines.popleft()
        if line == "status":
            time.sleep(1.6)  # the player thinks and types
        return line

    code = await run_sandbox(
        nations=2,
        db=str(tmp_path / "s.db"),
        out_dir=str(tmp_path / "maps"),
        read=read,
        write=out.append,
        live=True,
        clock_runs=clock_runs,
    )
    assert code == 0
    clocks = [
        m.group(1) for m in re.finditer(r"Player in Sandbox - (day \d+ \d\d:\d\d)", "\n".join(out))
    ]
    assert len(clocks) == 2
    if clock_runs:
        assert clocks[1] != "day 1 00:00"  # asked for: it ran while the player typed
    else:
        assert clocks == ["day 1 00:00", "day 1 00:00"]


async def test_a_player_learns_and_follows_the_game_in_the_sandbox(tmp_path) -> None:
    """The issue's player tools, typed in the terminal: the cards, the map's buttons, the
    rules' pages, the news, names with spaces, and nothing of Discord's markup."""
    commands = [
        "help units",
        "status",
        "cities",
        "nations",
        "units",
        "map",
        "press 2",  # zoom out: a wider window round the same place
        "press 9",
        'diplomacy "Robot 1" war',
        "wait 2",
        "news",
        "quit",
    ]
    code, out = await _played(tmp_path, commands, nations=2)
    text = "\n".join(out)
    assert code == 0
    assert "Infantry" in text and "build hours" in text  # the units page of the rules
    assert "Player in Sandbox - day 1 00:00" in text and "Command points:" in text  # a card
    assert "Your cities (" in text and "left)" in text
    assert "most cities wins" in text and "Player (you):" in text
    assert "Buttons: [1] Zoom in, [2] Zoom out, [3] North, [4] South, [5] West, [6] East" in text
    assert "Your map around " in text
    assert "press N: N is a button of the last reply (1, " in text
    assert "Your relation to Robot 1 is now war." in text  # a name with a space, quoted
    assert "Your news" in text or "report" in text.lower()
    pictures = sorted(p.name for p in (tmp_path / "pics").glob("*.png"))
    assert any(name.startswith("player-") and "-map-" in name for name in pictures)
    assert len(pictures) == len(set(pictures)) >= 2  # one file per picture, none overwritten
    assert "**" not in text and "<t:" not in text


async def test_a_supply_lines_sandbox_session(tmp_path) -> None:
    """`si sandbox --kind supply-lines`: orders typed as the seed writes them (the whole rest
    of the line is the order), a refused order explained, the AI seats' orders in as soon as a
    turn begins, the turn resolved once both local players have submitted, the report and its
    picture printed for each, and `wait` moving the clock on to the next deadline."""
    lines = deque(
        [
            "game info",
            "orders add H1 > C1",
            "orders add H1 > C2",
            "orders list",
            "orders submit",
            "as Bob",
            "orders submit",
            "game info",
            "orders board",
            "wait 24",
            "game info",
            "quit",
        ]
    )
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        return lines.popleft() if lines else "quit"

    code = await run_sandbox(
        kind="supply-lines",
        nations=None,
        players=["Ann", "Bob"],
        db=str(tmp_path / "s.db"),
        out_dir=str(tmp_path / "pictures"),
        read=read,
        write=out.append,
        live=False,
    )
    text = "\n".join(out)
    assert code == 0, text
    assert "Supply Lines sandbox" in text and "Supply Lines on Four Winds (4 players)" in text
    assert "move units:12 13 to:5,6" not in text  # Strategic Initiative's help is not shown...
    assert "orders add Build 1 Tank@M1" in text  # ...Supply Lines' is
    # the AI seats gave their orders at the start: two of four are in before anyone typed
    assert "turn 1, orders (2/4 submitted) until day 2 00:00" in text
    assert "C1 is not next to H1" in text  # a refused order, with the roads that exist
    assert "Order kept: `H1 > C2`" in text
    assert "Submitted. Waiting for Bob." in text
    assert "Submitted: turn 1 has resolved." in text
    # the new turn began between ticks, and the AI seats gave its orders at once
    assert "turn 2, orders (2/4 submitted)" in text
    assert "[DM to Ann]" in text and "[DM to Bob]" in text and "Turn 1:" in text
    assert list((tmp_path / "pictures").glob("bob-*-board.png"))  # Bob's `orders board`
    assert list((tmp_path / "pictures").glob("ann-*-map.png"))  # the report's picture
    # nobody submitted turn 2 for the local players: its deadline resolved it
    assert "It is now turn 3, orders (2/4 submitted) until day 3 00:00." in text
    assert "<t:" not in text and "**" not in text


@pytest.mark.slow  # three pictures of the map, one of them the whole board
async def test_map_buttons_keep_their_numbers_from_reply_to_reply(tmp_path) -> None:
    """Zooming out step by step to the whole board (which has no "Zoom out") and in again: a
    button keeps its number under every map (Refresh is the same number under each), and a
    number not under the last reply is refused."""
    code, out = await _played(tmp_path, ["map", *["press 2"] * 12, "press 1", "quit"], nations=2)
    assert code == 0
    rows = [line for line in out if line.startswith("Buttons: ")]
    numbered = [dict(re.findall(r"\[(\d+)\] ([A-Za-z ]+?)(?:,|$| \()", row)) for row in rows]
    assert numbered[0]["2"] == "Zoom out" and numbered[-1]["2"] == "Zoom out"  # zoomed in again
    assert any("2" not in row for row in numbered)  # the whole board was reached
    labels: dict[str, str] = {}
    numbers: dict[str, str] = {}
    for row in numbered:
        for number, label in row.items():
            assert labels.setdefault(number, label) == label  # one number, one button
            assert numbers.setdefault(label, number) == number  # one button, one number
    text = "\n".join(out)
    assert "Your map, the whole board" in text
    assert "press N: N is a button of the last reply (" in text  # `press 2` under the board


async def test_a_game_with_no_player_left_waits_for_the_onlooker(tmp_path) -> None:
    """The only player resigns: the AI seats play every nation, one turn each time the
    onlooker types `wait`, and no turn goes by while they type something else."""
    code, out = await _played(
        tmp_path,
        [
            "game resign",
            "yes",
            "game info",
            "resume",
            "game info",
            "wait",
            "game info",
            "wait",
            "quit",
        ],
        pictures="pictures",
        kind="supply-lines",
        nations=None,
        players=["Ann"],
    )
    text = "\n".join(out)
    assert code == 0, text
    assert "Ann has resigned." in text
    assert "No seat is a local player's any more" in text and "a turn each time" in text
    # the clock does not run by itself while nobody but the AI plays
    assert "No seat is a local player's: the clock stands still; wait plays on." in text
    turns = [int(t) for t in re.findall(r"Status: running \(paused\) - turn (\d+)", text)]
    assert len(turns) == 3 and turns[0] == turns[1]  # nothing moved while the onlooker read
    assert turns[2] == turns[1] + 1  # `wait`: one turn
    waited = [int(t) for t in re.findall(r"It is now turn (\d+)", text)]
    assert waited == [turns[1] + 1, turns[1] + 2]


async def test_the_sandbox_writes_the_end_of_game_timelapse_to_a_file(tmp_path) -> None:
    code, out = await _played(tmp_path, ["wait 1", "mod end", "yes", "status", "quit"], nations=2)
    text = "\n".join(out)
    assert code == 0, text
    gif = tmp_path / "pics" / "game-1-timelapse.gif"
    assert f"Sandbox is over. The whole game, as it happened: {gif}" in text
    assert gif.read_bytes()[:6] in (b"GIF87a", b"GIF89a")
    assert text.count("The whole game, as it happened") == 1  # told once


async def test_the_caretaker_holds_the_game_until_the_player_takes_the_seat_back(tmp_path) -> None:
    code, out = await _played(
        tmp_path,
        ["game caretaker on:true", "resume", "game caretaker on:false", "wait 1", "quit"],
        nations=2,
    )
    text = "\n".join(out)
    assert code == 0, text
    held = text.index("No seat is a local player's any more")
    refused = text.index("No seat is a local player's: the clock stands still; wait plays on.")
    back = text.index("A local player leads a nation again")
    assert held < refused < back
    assert "It is now day 1 01:00." in text[back:]
