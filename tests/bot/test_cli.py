"""`si` names no game: its verbs reach each game through the game's side (`GameSide.cli`),
by `--kind` (the registry's names), by a stored game's kind, or by asking each game whose
scenario file it is. Each game's own options and verbs come from it."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from bot.game_side import side
from tests.games.counter.registration import registered

STRATEGIC_SCENARIO = "map: |\n  ~~~\n  ~.~\n  ~~~\nsteps:\n  - advance: 1t\n  - expect: {tick: 1}\n"
SUPPLY_CASES = (
    "- name: a walk into a neutral city takes it\n"
    "  roads: H1-C1 C1-H2\n"
    "  owners: {a: H1, b: H2}\n"
    "  units: [a 1 infantry @ H1]\n"
    "  orders: {a: [H1 > C1]}\n"
    "  expect: {owners: {C1: a}}\n"
)


@pytest.fixture
def counter() -> Iterator[None]:
    """A third game, registered with its bot side, whose command line says what it was asked
    (tests/games/counter/cli.py)."""
    with registered():
        asked().clear()  # the side is the module's, from one test to the next
        yield


def asked() -> list:
    return side("counter").cli.asked  # type: ignore[attr-defined]


def test_simulate_plays_the_game_of_its_kind(capsys) -> None:
    """--kind strategic-initiative (the default) and --kind supply-lines each reach their own
    game, with their own options and the shared ones (--seed, --json)."""
    argv = ["simulate", "--nations", "2", "--size", "32x32", "--days", "1", "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert (first["nations"], first["size"], first["days"]) == (2, "32x32", 1)
    assert main([*argv, "--kind", "strategic-initiative", "--seed", "2"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["nations"] == 2 and second["hash"] != first["hash"]  # another seed
    assert main(["simulate", "--kind", "supply-lines", "--players", "ai,random", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["map"] == "duel" and result["seed"] == 1 and result["strategies"]


def test_an_unknown_kind_is_refused_naming_the_games(capsys) -> None:
    for verb in (["simulate"], ["sandbox"], ["run"], ["rules", "standard"]):
        with pytest.raises(SystemExit) as refused:
            main([*verb, "--kind", "chess"])
        assert refused.value.code == 2
        err = capsys.readouterr().err
        assert "argument --kind: invalid choice: 'chess'" in err, verb
        assert "'strategic-initiative', 'supply-lines'" in err


def test_a_game_without_a_bot_side_is_refused_by_name_and_the_others_still_work(
    capsys,
) -> None:
    with registered(bot=None):
        assert main(["simulate", "--kind", "counter"]) == 2
        assert capsys.readouterr().err == (
            "si: the game 'counter' has no bot side: the bot cannot host it\n"
        )
        assert main(["rules", "classic", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["name"] == "classic"


def test_a_game_brings_its_own_options_and_verbs(counter, capsys) -> None:
    assert main(["simulate", "--kind", "counter", "--laps", "3", "--seed", "9"]) == 0
    assert main(["count", "--to", "4"]) == 0
    assert main(["rules", "standard", "--kind", "counter", "--json"]) == 0
    assert asked() == [("simulate", (3, 9)), ("count", 4), ("rules", ("standard", True))]
    assert capsys.readouterr().out == "counted 3 laps, seed 9\n1 2 3 4\ncounter rules standard\n"
    with pytest.raises(SystemExit) as shown:
        main(["simulate", "--help"])
    assert shown.value.code == 0
    help_text = capsys.readouterr().out
    assert "\nCounter (counter):\n  --laps LAPS " in help_text
    assert "\nSupply Lines (supply-lines):\n  --map MAP " in help_text
    assert "\nStrategic Initiative (strategic-initiative):\n  --nations NATIONS" in help_text


def test_rules_are_the_default_games_unless_kind_says(capsys) -> None:
    assert main(["rules", "standard"]) == 0
    assert capsys.readouterr().out.startswith("Standard (standard): ")
    assert main(["rules", "standard", "--kind", "supply-lines"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Supply Lines (standard): ")
    assert "\ntank                4      2      2\n" in out
    assert "\nhome              H      1      1  yes    yes\n" in out
    assert main(["rules", "standard", "--kind", "supply-lines", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["units"]["tank"] == {"strength": 4, "popcap": 2, "supply": 2}
    assert main(["rules", "classic", "--kind", "supply-lines"]) == 2
    assert "unknown rules 'classic'; available: standard" in capsys.readouterr().err


def test_scenario_runs_each_file_by_the_game_whose_it_is(tmp_path, counter, capsys) -> None:
    """A mix of games' files in one run: each is run by the game that claims it, a file no
    game claims by the default game (which says what is wrong), and one total."""
    scenario, cases, number, neither = (
        tmp_path / name for name in ("s.yaml", "c.yaml", "n.yaml", "x.yaml")
    )
    scenario.write_text(STRATEGIC_SCENARIO)
    cases.write_text(SUPPLY_CASES)
    number.write_text("42\n")
    neither.write_text("just words\n")
    assert main(["scenario", str(cases), str(scenario), str(number)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"ok   {cases}: a walk into a neutral city takes it",
        f"ok   {scenario}: s",
        f"ok   {number}: counted",
        "3 passed, 0 failed",
    ]
    assert asked() == [("scenario", str(number))]
    assert main(["scenario", str(neither), str(scenario)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {neither}: x\n     - scenario error: " in out and "1 passed, 1 failed" in out


async def _supply_lines_game(db: Path) -> int:
    from engine.host.service import GameService

    service = await GameService.open(str(db), synchronous="NORMAL")
    try:
        game = await service.create_game(
            name="Duel", kind="supply-lines", map="duel", max_nations=2, seed=3
        )
        for name, colour in (("Ann", "#e6194b"), ("Bob", "#4363d8")):
            await service.join(game, name=name, colour=colour, player=None)
        return game
    finally:
        await service.close()


def test_render_draws_a_stored_game_by_its_kind(tmp_path, capsys) -> None:
    """A Supply Lines game is drawn as its board (everyone's, or a player's) and its
    timelapse; what its pictures cannot show is refused, naming the option."""
    import asyncio

    db = tmp_path / "games.db"
    game = asyncio.run(_supply_lines_game(db))

    def si(*args: str) -> int:
        return main(["render", str(db), str(game), *args])

    board, ann, gif = tmp_path / "board.png", tmp_path / "ann.png", tmp_path / "game.gif"
    assert si("-o", str(board)) == 0 and si("--nation", "ann", "-o", str(ann)) == 0
    assert si("--timelapse", "-o", str(gif)) == 0
    assert Image.open(board).format == Image.open(ann).format == "PNG"
    assert Image.open(board).size == (900, 900)
    assert Image.open(gif).format == "GIF"
    assert board.read_bytes() != ann.read_bytes()  # everyone's orders, or Ann's
    assert capsys.readouterr().out.startswith(f"{board} (")
    assert si("--timelapse", "--nation", "Bob") == 2
    assert "leave out --nation" in capsys.readouterr().err
    assert si("--nation", "Cid") == 2
    assert capsys.readouterr().err == f"no nation 'Cid' in game {game} (Ann, Bob)\n"


def test_sandbox_passes_every_games_options_and_the_chosen_game_refuses_others(
    tmp_path, capsys, monkeypatch
) -> None:
    """As `/game create` does: --map is Supply Lines', --size Strategic Initiative's."""
    db = str(tmp_path / "s.db")
    assert main(["sandbox", "--map", "duel", "--db", db]) == 2
    assert "Strategic Initiative games have no map_name option" in capsys.readouterr().out
    assert main(["sandbox", "--kind", "supply-lines", "--size", "small", "--db", db]) == 2
    assert "Supply Lines' maps are chosen with map:" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("game info\nquit\n"))
    argv = ["sandbox", "--kind", "supply-lines", "--map", "duel", "--turn-hours", "6"]
    assert main([*argv, "--db", db, "--out", str(tmp_path / "pictures")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Supply Lines sandbox (no Discord).")
    assert "Supply Lines on Duel (2 players), a turn every 6 hours of game time" in out
    assert "Nations (2/2):" in out
