"""The sandbox shows what the game's channel is shown (issue 29: each item works in the sandbox
too): the public news, a resolved turn's board and its summary, and at the end the result."""

from __future__ import annotations

from collections import deque

from bot.sandbox import run_sandbox


async def session(tmp_path, lines: list[str], **options) -> str:
    queue = deque(lines)
    out: list[str] = []
    code = await run_sandbox(
        db=str(tmp_path / "s.db"),
        out_dir=str(tmp_path / "pictures"),
        read=lambda prompt: queue.popleft() if queue else "quit",
        write=out.append,
        live=False,
        **options,
    )
    text = "\n".join(out)
    assert code == 0, text
    return text


async def test_a_war_declared_is_the_channels_news(tmp_path) -> None:
    text = await session(
        tmp_path, ['diplomacy "Robot 1" war', "mod news on:false", "quit"], nations=2
    )
    channel = [line for line in text.splitlines() if line.startswith("[#channel]")]
    assert channel == ["[#channel] ⚔️ Player declared war on Robot 1."], text


async def test_a_resolved_turn_shows_its_board_and_summary_in_the_channel(tmp_path) -> None:
    text = await session(
        tmp_path,
        ["orders add H1 > C2", "orders submit", "as Bob", "orders submit", "quit"],
        kind="supply-lines",
        nations=None,
        players=["Ann", "Bob"],
    )
    channel = [line for line in text.splitlines() if line.startswith("[#channel]")]
    assert any("turn 1 has resolved" in line for line in channel), text
    assert any("Ann moved H1 > C2" in line for line in channel), text
    pictures = [line for line in channel if "(picture: " in line]
    assert pictures and all(line.rstrip(")").endswith(".png") for line in pictures)
    assert list((tmp_path / "pictures").glob("*channel-*.png"))


async def test_the_end_shows_the_result_and_its_charts_in_the_channel(tmp_path) -> None:
    text = await session(tmp_path, ["mod end", "yes", "stats server", "quit"], nations=2)
    channel = "\n".join(line for line in text.splitlines() if line.startswith("[#channel]"))
    assert "Player" in channel and "Robot 1" in channel and "stats-" in channel, text
    assert list((tmp_path / "pictures").glob("*stats-*.png"))
    assert "timelapse.gif" in text
