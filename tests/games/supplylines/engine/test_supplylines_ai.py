"""Supply Lines' AI: its orders are always ones the bot accepts (over generated positions), it
answers supply questions validly, it decides the same way from the same view, it plays through
the kind's commands as the host's runner would, and it beats a player giving random valid
orders on the 2-player map from either seat, and on the 3-player map against two of them."""

from __future__ import annotations

import copy
import random

import pytest
from pydantic import BaseModel

from engine.interface.entries import Advance, CommandEntry
from engine.supplylines import adjudicator, ai, supply, turns
from engine.supplylines.board import available, load_map
from engine.supplylines.kind import KIND, ChooseSupply, ClearOrders, GiveOrder, SubmitOrders
from engine.supplylines.rules import load as load_rules
from engine.supplylines.simulate import AiPlayer, RandomPlayer, play
from engine.supplylines.state import NEUTRAL, TICKS_PER_HOUR, Player, State
from engine.supplylines.view import view_for

RULES = load_rules()
MAPS = {name: load_map(name, RULES) for name in available()}
GAMES = 20  # seeded games for each measurement
MAX_TURNS = 60


def generated(seed: int) -> State:
    """A game in the middle, as a turn leaves one: structures owned at random (each player
    keeps at least one), units (some marked, some immobile) only in their owner's structures,
    neutral units in structures nobody owns, sometimes a player out."""
    rng = random.Random(seed)
    board = MAPS[rng.choice(sorted(MAPS))]
    players = [Player(id=f"p{s}", name=f"P{s}", seat=s) for s in range(1, board.seats + 1)]
    ids = [p.id for p in players]
    owners: dict[str, str | None] = {
        label: rng.choice([*ids, None, None]) for label in board.labels()
    }
    for p in players:
        if rng.random() < 0.8:
            owners[board.home_of(p.seat)] = p.id
    state = State(board=board, owners=owners, players={p.id: p for p in players})
    for p in players:
        if not state.structures_of(p.id):
            free = [s for s, o in owners.items() if o is None] or board.labels()
            owners[rng.choice(free)] = p.id
    if board.seats > 2 and rng.random() < 0.2:
        out = rng.choice(players)
        out.out = out.conceded = True
        for label, owner in owners.items():
            if owner == out.id:
                owners[label] = None
    for label, owner in owners.items():
        if rng.random() < 0.55:
            who = owner if owner is not None else (NEUTRAL if rng.random() < 0.3 else None)
            if who is None:
                continue
            for _ in range(rng.randint(1, 4)):
                marks = rng.choice([0, 0, 0, 1, 2, 3])
                state.add_unit(rng.choice(["infantry", "tank"]), who, label, marks=marks)
    state.turn = rng.randint(0, 8)
    state.started = True
    state.deadline = state.turn_ticks
    return state


def refusals(state: State, player: str, commands: list) -> list[str]:
    """The commands applied as the kind applies them, on a copy; what was refused."""
    copied = copy.deepcopy(state)
    refused = []
    for command in commands:
        try:
            KIND.apply(copied, CommandEntry(nation=player, command=command.model_dump()))
        except Exception as exc:  # any refusal fails the test, with its reason
            refused.append(f"{command!r}: {exc}")
    return refused


@pytest.mark.parametrize("seed", range(150))
def test_every_order_of_the_ai_is_accepted(seed: int) -> None:
    state = generated(seed)
    for player in state.active():
        view = view_for(state, player)
        notes: list[str] = []
        texts = ai.orders_for(view, notes)
        assert not [n for n in notes if n.startswith("left out")], notes
        commands = ai.decide(view, ai.Memory())
        assert [c.text for c in commands if isinstance(c, GiveOrder)] == texts
        assert isinstance(commands[-1], SubmitOrders)
        assert refusals(state, player, commands[:-1]) == []
        # it never moves more units than are free, never builds past the PopCap
        used = sum(RULES.units[u.type].popcap for u in state.units_of(player))
        built = 0
        for text in texts:
            if text.startswith("Build"):
                count, unit = text.split("@")[0].split()[1:3]
                built += int(count) * RULES.units[unit.lower()].popcap
        assert built <= max(state.popcap(player) - used, 0)


@pytest.mark.parametrize("seed", range(150))
def test_supply_questions_are_answered_validly_and_the_marked_come_first(seed: int) -> None:
    state = generated(seed)
    questions = supply.questions(state)
    state.phase = "supply"
    state.asked = sorted({q.player for q in questions})
    for player in state.asked:
        view = view_for(state, player)
        assert view.questions
        commands = ai.decide(view, ai.Memory())
        assert len(commands) == 1 and isinstance(commands[0], ChooseSupply)
        chosen = set(commands[0].units)
        assert refusals(state, player, commands) == []
        for q in questions:
            if q.player != player:
                continue
            picked = [i for i in q.network.units if i in chosen]
            need = sum(RULES.units[state.units[i].type].supply for i in picked)
            assert need <= q.network.lines
            # no line left that a unit left out could use
            left = q.network.lines - need
            assert all(
                RULES.units[state.units[i].type].supply > left
                for i in q.network.units
                if i not in chosen
            )
            # units about to become immobile (or immobile) first, while lines allow
            at_risk = [
                i for i in q.network.units if state.units[i].marks >= RULES.marks.immobile_at - 1
            ]
            if sum(RULES.units[state.units[i].type].supply for i in at_risk) <= q.network.lines:
                assert set(at_risk) <= chosen


def test_no_question_no_answer_and_nothing_twice() -> None:
    state = generated(3)
    player = state.active()[0]
    memory = ai.Memory()
    first = ai.decide(view_for(state, player), memory)
    assert first and isinstance(first[-1], SubmitOrders)
    assert memory.turn == state.turn + 1 and memory.phase == "orders"
    before = state.turn
    for command in first:
        turns_apply(state, player, command)
    if still_playing(state, before):  # the others have not submitted: the turn waits
        assert ai.decide(view_for(state, player), memory) == []  # submitted: done
    # it never rests (its phase shows only in a view): `decide` gives nothing twice instead
    assert not ai.resting(memory, "normal", state.tick, TICKS_PER_HOUR)
    assert ai.resting(memory, "no-such-style", state.tick, TICKS_PER_HOUR)
    # a refused submission: it decides again
    ai.failed(memory, SubmitOrders(), view_for(state, player))
    assert memory == ai.Memory(refused=memory.refused) and len(memory.refused) == 1
    # a supply phase with no question for it: nothing
    state.phase = "supply"
    view = view_for(state, player)
    if not view.questions:
        assert ai.decide(view, ai.Memory()) == []


def turns_apply(state: State, player: str, command: BaseModel) -> None:
    KIND.apply(state, CommandEntry(nation=player, command=command.model_dump()))


def still_playing(state: State, turn: int) -> bool:
    return state.turn == turn and state.phase == "orders"


def test_orders_given_before_are_cleared_first() -> None:
    state = generated(5)
    player = state.active()[0]
    mine = [u for u in state.units_of(player) if not state.immobile(u)]
    if not mine:
        state.add_unit("infantry", player, state.structures_of(player)[0])
        mine = state.units_of(player)
    unit = mine[0]
    turns.add_order(state, player, f"Hold@{unit.at}")
    commands = ai.decide(view_for(state, player), ai.Memory())
    assert isinstance(commands[0], ClearOrders)
    assert refusals(state, player, commands) == []


@pytest.mark.parametrize("seed", range(100))
def test_a_caretaker_attacks_nobody_and_gives_only_accepted_orders(seed: int) -> None:
    """A player away (`/game caretaker`): the AI keeps the seat (builds, defends, supplies)
    and moves only into its own structures or empty neutral ones, never into another
    player's structure or onto anybody's units (those the turn's PopCap check leaves)."""
    state = generated(seed)
    left = state.model_copy(deep=True)
    adjudicator.resolve_orders(left, {})  # no orders: only the PopCap check's disbanding
    for player in state.active():
        view = view_for(state, player)
        commands = ai.decide(view, ai.Memory(), "caretaker")
        assert isinstance(commands[-1], SubmitOrders)
        assert refusals(state, player, commands[:-1]) == []
        for command in commands:
            if not isinstance(command, GiveOrder) or command.text.startswith("Build"):
                continue
            dst = command.text.rsplit(">", 1)[1].strip()
            owner = state.owners[dst]
            assert owner in (player, None), f"{command.text}: {dst} is {owner}'s"
            if owner is None:
                assert not left.units_at(dst), f"{command.text}: {dst} has units"


def test_orders_a_player_submitted_stand_when_the_caretaker_takes_over() -> None:
    """A player who submitted orders and then hands the seat over: the caretaker leaves
    this turn's orders alone (and, having decided once, never clears orders the player adds
    later in the same turn)."""
    state = generated(5)
    player = state.active()[0]
    mine = [u for u in state.units_of(player) if not state.immobile(u)]
    if not mine:
        state.add_unit("infantry", player, state.structures_of(player)[0])
        mine = state.units_of(player)
    turns.add_order(state, player, f"Hold@{mine[0].at}")
    turns.submit(state, player)
    assert state.phase == "orders" and player in state.submitted  # the others have not
    handed = ai.Memory()
    assert ai.decide(view_for(state, player), handed, "caretaker") == []
    turns.add_order(state, player, f"Hold@{mine[0].at}")  # back: takes the submission back
    assert player not in state.submitted
    assert ai.decide(view_for(state, player), handed, "caretaker") == []  # and keeps it
    state = generated(5)
    memory = ai.Memory()
    first = ai.decide(view_for(state, player), memory, "caretaker")
    assert first
    turns.add_order(state, player, f"Hold@{mine[0].at}")  # the player is back meanwhile
    assert ai.decide(view_for(state, player), memory, "caretaker") == []


def test_the_same_view_gives_the_same_commands_and_the_same_seed_the_same_game() -> None:
    for seed in range(20):
        state = generated(seed)
        for player in state.active():
            view = view_for(state, player)
            assert ai.decide(view, ai.Memory()) == ai.decide(view, ai.Memory())
    a = play("duel", {1: "ai", 2: "random"}, seed=11, max_turns=MAX_TURNS)
    b = play("duel", {1: "ai", 2: "random"}, seed=11, max_turns=MAX_TURNS)
    assert a == b
    c = play("triangle", {1: "random", 2: "ai", 3: "random"}, seed=4, max_turns=MAX_TURNS)
    d = play("triangle", {1: "random", 2: "ai", 3: "random"}, seed=4, max_turns=MAX_TURNS)
    assert c == d


def test_the_ai_plays_through_the_kinds_commands_as_the_runner_drives_it() -> None:
    """Both seats AI, driven as the host's runner does: once a tick, `resting` asked first,
    each command applied as a log entry; a turn lasts an hour at most. Nothing is refused."""
    world = KIND.setup({"map": "duel", "seed": 1, "turn_hours": 1, "choice_hours": 0.25})
    turns.join(world, "ann", "Ann", "#c0392b", "ai")
    turns.join(world, "bob", "Bob", "#2980b9", "ai")
    turns.start(world)
    runner = ai.AI
    assert runner.styles == ("normal", "caretaker")
    memories = {p: runner.memory() for p in ("ann", "bob")}
    refused = []
    for _ in range(40):
        if world.ended:
            break
        for nation in ("ann", "bob"):
            memory = memories[nation]
            if runner.resting(memory, "normal", world.tick, TICKS_PER_HOUR):
                continue
            view = KIND.view_for(world, nation)
            for command in runner.decide(view, memory, "normal"):
                data = command.model_dump(mode="json")
                try:
                    KIND.apply(world, CommandEntry(nation=nation, command=data))
                except Exception as exc:
                    refused.append((command, exc))
                    runner.failed(memory, command, view)
        KIND.apply(world, Advance(ticks=1))
    assert refused == []
    assert world.turn >= 10


def _measure(map_name: str, ai_seat: int, seeds: range) -> tuple[int, list[int]]:
    seats = MAPS[map_name].seats
    wins, lengths = 0, []
    for seed in seeds:
        players = {s: ("ai" if s == ai_seat else "random") for s in range(1, seats + 1)}
        result = play(map_name, players, seed=seed, max_turns=MAX_TURNS)
        assert result.refused == dict.fromkeys(range(1, seats + 1), 0)
        if result.winner == ai_seat:
            wins += 1
            lengths.append(result.turns)
    return wins, lengths


@pytest.mark.parametrize("ai_seat", [1, 2])
def test_the_ai_beats_random_orders_on_duel_from_either_seat(ai_seat: int) -> None:
    wins, lengths = _measure("duel", ai_seat, range(GAMES))
    assert wins >= GAMES - 2, f"{wins}/{GAMES}"
    assert sum(lengths) / len(lengths) < 20


def test_the_ai_beats_two_random_players_on_triangle() -> None:
    wins = 0
    for ai_seat in (1, 2, 3):
        won, _ = _measure("triangle", ai_seat, range(ai_seat * 100, ai_seat * 100 + 7))
        wins += won
    assert wins >= 17, f"{wins}/21"


def test_random_players_give_only_valid_orders_and_the_result_adds_up() -> None:
    result = play("triangle", {1: RandomPlayer(1), 2: RandomPlayer(2), 3: AiPlayer()}, seed=9)
    assert result.refused == {1: 0, 2: 0, 3: 0}
    assert result.strategies == {1: "random", 2: "random", 3: "ai:normal"}
    assert set(result.structures) == {1, 2, 3}
    if result.winner is not None:
        assert result.reason in ("victory", "last standing")
        assert result.winner not in result.out
    with pytest.raises(ValueError):
        play("duel", {1: "ai", 3: "random"})
    with pytest.raises(ValueError):
        play("duel", {1: "ai", 2: "chess"})


def test_si_simulate_plays_a_supply_lines_game(capsys) -> None:
    """`si simulate --kind supply-lines`: the AI against two random players, and its JSON."""
    import json

    from bot.cli import main

    assert main(["simulate", "--kind", "supply-lines", "--players", "ai,random,random"]) == 0
    out = capsys.readouterr().out
    assert "Supply Lines on triangle, seed 1: seat 1 won" in out and "seat 3 random" in out
    assert main(["simulate", "--kind", "supply-lines", "--players", "ai,random", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["map"] == "duel" and result["winner"] == 1 and result["refused"]["1"] == 0
    assert main(["simulate", "--kind", "supply-lines", "--players", "ai,chess"]) == 2


def test_a_caretaker_keeps_a_supply_answer_the_player_gave() -> None:
    """The player answered their supply question, then handed the seat over: the caretaker
    does not answer again (its answer would replace theirs)."""
    for seed in range(60):
        state = generated(seed)
        questions = supply.questions(state)
        if not questions:
            continue
        state.phase = "supply"
        state.asked = sorted({q.player for q in questions})
        player = state.asked[0]
        assert ai.decide(view_for(state, player), ai.Memory(), "caretaker")
        state.answers[player] = []
        assert view_for(state, player).players[player].answered
        assert ai.decide(view_for(state, player), ai.Memory(), "caretaker") == []
        return
    pytest.fail("no generated game with a supply question")
