"""`si sandbox`: the real game offline, in a terminal. You lead one nation (or several local
players take turns) against AI nations, typing the slash commands with the same names and
options (`move units:12 13 to:5,6`, or positionally `move 12 5,6`); replies and DM reports
are printed, pictures are written to files. Time runs by itself (adjustable) or on demand.

When no seat left is a local player's (every nation an AI's, or the only player resigned and a
caretaker keeps the seat), the sandbox holds the game between turns: the clock stands still and
the AI seats play on only when asked (`wait`: in a game of turns, one turn), so the onlooker
sees each turn instead of ten going by at once. At the end the whole game's animated map (the
timelapse the game's channel is shown) is written to a file. Buttons keep their number for the
whole session ("[2] Zoom out" is 2 under every map), so `press 2` does what it did before.

What the game's channel is shown is printed too, each line marked `[#channel]`: the game's
public news, a resolved turn's board (its picture written to a file) and its summary, the
reminders before a deadline, and at the end the result with its charts."""

from __future__ import annotations

import asyncio
import logging
import re
import shlex
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from bot import parsing
from bot.background import stop_tasks
from bot.context import Button, Caller, Reply, UserError, explain
from bot.desk import Desk
from bot.dm.delivery import Menu
from bot.dm.notifier import Notifier
from bot.game_channels import NEWS_OFF
from bot.game_side import side
from bot.standings import result_text
from bot.store import BotStore
from bot.ticker import Ticker
from bot.typed import Commands
from engine.host.runner import ROUNDS, AiRunner
from engine.host.service import GameService
from engine.interface.kind import DEFAULT_KIND, KINDS
from engine.loops import every

GUILD, CHANNEL = "sandbox", "sandbox"
# a held game of turns played on by `wait`: game hours the clock may run to reach the next turn
_TURN_HOURS_AT_MOST = 24 * 14
log = logging.getLogger(__name__)
# the local player's name when none is given: it names their nation too, so not "You" (which
# made "You lead You" and "You's view")
DEFAULT_PLAYER = "Player"


async def command_specs() -> dict[str, list[dict]]:
    """Slash command path -> its options, from the payload the bot registers."""
    from bot.client import build_payload

    out: dict[str, list[dict]] = {}

    def add(path: str, command: dict) -> None:
        # a group's options are its subcommands (1) and subcommand groups (2)
        subs = [o for o in command.get("options", []) if o["type"] in (1, 2)]
        if subs:
            for sub in subs:
                add(f"{path} {sub['name']}", sub)
        else:
            out[path] = command.get("options", [])

    for command in await build_payload():
        add(command["name"], command)
    return out


def _convert(option: dict, text: str):
    kind = option["type"]
    try:
        if kind == 4:
            return int(text)
        if kind == 10:
            return float(text)
    except ValueError:
        raise UserError(f"{option['name']} is a number, not {text!r}") from None
    if kind == 5:
        lowered = text.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise UserError(f"{option['name']} is true or false, not {text!r}")
    return text


def parse(line: str, specs: dict[str, list[dict]]) -> tuple[str, dict]:
    """'move units:12 13 to:5,6' -> ('move', {'units': '12 13', 'to': '5,6'})."""
    words = line.strip().lstrip("/").split()
    if not words:
        raise UserError("Type a command (help lists them).")
    # the longest path the words start with (`game create supply-lines`, `mod view`, `map`)
    path = next((" ".join(words[:n]) for n in (3, 2, 1) if " ".join(words[:n]) in specs), words[0])
    if path not in specs:
        raise UserError(_no_command(words, specs))
    rest = line.strip().lstrip("/")[len(path) :].strip()
    options = {o["name"]: o for o in specs[path]}
    values: dict[str, object] = {}
    if re.match(r"^[a-z_]+:", rest):
        for part in re.split(r"\s+(?=[a-z_]+:)", rest):
            name, _, text = part.partition(":")
            if name not in options:
                raise UserError(f"{path} has no option {name!r}: {', '.join(options) or 'none'}.")
            values[name] = _convert(options[name], text.strip())
    elif rest:
        try:
            tokens = shlex.split(rest)
        except ValueError:
            raise UserError('A quote is not closed: put names with spaces in "quotes".') from None
        order = list(options.values())
        if len(order) == 1 and order[0]["type"] == 3:
            # the command's one option is text (`orders add C2 > C3`): all of it
            tokens = [" ".join(tokens)]
        if len(tokens) > len(order) and order and order[0]["name"] in ("units", "nation"):
            # `move all at 12,7 14,7`, `cancel 3 7 tanks`, `diplomacy Robot 1 war`: the words
            # before the other options' values are the first one's (units, a nation)
            extra = len(tokens) - len(order) + 1
            tokens = [" ".join(tokens[:extra]), *tokens[extra:]]
        if len(tokens) > len(order):
            raise UserError(f"{path} takes {len(order)} values: {', '.join(options)}.")
        for option, text in zip(order, tokens, strict=False):
            values[option["name"]] = _convert(option, text)
    missing = [o for o in specs[path] if o.get("required") and o["name"] not in values]
    if missing:
        raise UserError(_missing(path, specs[path], missing))
    return path, values


def _no_command(words: list[str], specs: dict[str, list[dict]]) -> str:
    """A command (or a group's subcommand) that does not exist, with the one it most likely
    meant (`mvoe` -> move, `game creat` -> game create)."""
    group = [p.split()[1] for p in specs if p.startswith(f"{words[0]} ")]
    if group and len(words) > 1:
        guess = parsing.suggest(words[1], sorted(set(group)))
        mean = f" Did you mean {words[0]} {guess}?" if guess else ""
        return f"{words[0]} has no {words[1]!r}.{mean} It has {', '.join(sorted(set(group)))}."
    if group:
        return f"{words[0]} needs one of {', '.join(sorted(set(group)))}."
    guess = parsing.suggest(words[0], sorted({p.split()[0] for p in specs}))
    mean = f" Did you mean {guess}?" if guess else ""
    return f"There is no command {words[0]!r}.{mean} Type help for the list."


def _missing(path: str, options: list[dict], missing: list[dict]) -> str:
    """What a command lacks, in its options' own words: "move needs a value for to: a square
    as the map shows it... Type it as: move units:... to:..."."""
    values = "a value for" if len(missing) == 1 else "values for"
    needs = "; ".join(f"{o['name']}: {o.get('description', '')}" for o in missing)
    shape = " ".join(f"{o['name']}:..." for o in options if o.get("required"))
    return f"{path} needs {values} {needs}. Type it as: {path} {shape}"


_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_MENTION = re.compile(r"<@!?(\d+|local-\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")


def plain(text: str, names: dict[str, str] | None = None, *, now: float | None = None) -> str:
    """Discord markup as a terminal shows it: timestamps as times ("in 3 h 20 min" for the
    relative ones), mentions as names, channels as #channel, no bold or underline marks."""
    now = time.time() if now is None else now

    def when(m: re.Match[str]) -> str:
        at = int(m.group(1))
        if m.group(2) == "R":
            return _relative(at - now)
        return datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M")

    text = _TIMESTAMP.sub(when, text)
    text = _MENTION.sub(lambda m: (names or {}).get(m.group(1), f"user {m.group(1)}"), text)
    text = _CHANNEL.sub("#channel", text)
    return text.replace("**", "").replace("__", "")


def _relative(seconds: float) -> str:
    ahead = seconds >= 0
    left = int(abs(seconds) // 60)
    days, rest = divmod(left, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{days} d"] if days else []
    if hours:
        parts.append(f"{hours} h")
    if minutes or not parts:
        parts.append(f"{minutes} min")
    span = " ".join(parts[:2])
    return f"in {span}" if ahead else f"{span} ago"


class Sandbox:
    def __init__(
        self,
        service: GameService,
        *,
        out_dir: Path,
        players: list[str],
        write: Callable[[str], None] = print,
    ) -> None:
        self.service = service
        self.desk = Desk(service)
        self.out_dir = out_dir
        self._print = write
        self.players = {name.lower(): f"local-{i + 1}" for i, name in enumerate(players)}
        self.names = {uid: name for name, uid in zip(players, self.players.values(), strict=True)}
        self.acting = next(iter(self.players.values()))
        self.specs: dict[str, list[dict]] = {}
        self.commands: Commands | None = None  # the bot's own, loaded at `setup`
        self.pending_confirm: str | None = None
        self.buttons: list[Button] = []  # under the last reply that had any (press N)
        self.numbers: dict[str, int] = {}  # a button's label -> its number, for the session
        self._pictures = 0
        self.game: int | None = None
        self.kind = DEFAULT_KIND
        self.notifier = Notifier(service, self._dm)
        self.desk.notifier = self.notifier
        self.ticker = Ticker(service)
        self.ai = AiRunner(service)
        self.ai.hold_unattended = True  # no player's seat left: the game waits for `wait`
        self._ai_turn = asyncio.Lock()  # one AI pass at a time (the background's, a command's)
        self.onlooking = False  # told that the AI seats play on only when asked
        self.timelapse: Path | None = None  # where the end-of-game timelapse was written
        self.heard: list[list] = []  # events of the game its channel has not been shown yet
        service.subscribe(self._heard)

    def write(self, text: str) -> None:
        """Everything the player reads, without Discord's markup."""
        self._print(plain(text, self.names))

    @property
    def help(self) -> str:
        return side(self.kind).sandbox.help

    def caller(self) -> Caller:
        return Caller(self.acting, self.names[self.acting], GUILD, CHANNEL, moderator=True)

    async def _dm(
        self,
        user_id: str,
        content: str,
        files: list[tuple[str, bytes]],
        *,
        nonce: str | None = None,
        menus: Sequence[Menu] = (),
    ) -> None:
        who = self.names.get(user_id, user_id)
        acting, self.acting = self.acting, user_id if user_id in self.names else self.acting
        try:
            paths = [self._save(name, data) for name, data in files]
        finally:
            self.acting = acting
        text = "\n".join(f"  {line}" for line in content.splitlines())
        self.write(f"[DM to {who}]\n{text}" + "".join(f"\n  picture: {p}" for p in paths))
        for menu in menus:  # the sandbox answers with the command instead (`orders supply`)
            choices = ", ".join(label for label, _, _ in menu.options)
            self.write(f"  ({menu.placeholder}: {choices})")

    def _save(self, name: str, data: bytes) -> Path:
        """One file per player and picture: `you-007-map-1-red-t96.png` (never overwritten)."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._pictures += 1
        who = re.sub(r"[^a-z0-9]+", "-", self.names[self.acting].lower()).strip("-") or "player"
        path = self.out_dir / f"{who}-{self._pictures:03d}-{name}"
        path.write_bytes(data)
        return path

    def show(self, reply: Reply) -> None:
        if reply.text:
            self.write(reply.text)
        if reply.embed is not None:
            self.write(reply.embed.as_text())
        for name, data in reply.files:
            self.write(f"picture: {self._save(name, data)}")
        if reply.buttons:
            self.buttons = list(reply.buttons)
            for b in reply.buttons:
                self.numbers.setdefault(b.label, len(self.numbers) + 1)
            self.write(
                "Buttons: "
                + ", ".join(f"[{self.numbers[b.label]}] {b.label}" for b in reply.buttons)
                + " (type press N)"
            )
        if reply.confirm is not None:
            self.pending_confirm = reply.confirm.token
            self.write(f"Type yes to {reply.confirm.label.lower()}, anything else to cancel.")

    async def setup(
        self,
        *,
        nations: int | None,
        ruleset: str,
        size: str | None,
        speed: str,
        days: int | None,
        kind: str = DEFAULT_KIND,
        map_name: str | None = None,
        turn_hours: float | None = None,
        paused: bool = False,
    ) -> None:
        """Create the game, seat the players and fill the other seats with AI nations; with
        `paused`, its clock stops as soon as the seats are filled, before the AI nations'
        first orders and the welcome DMs (drawing their maps may take seconds)."""
        self.commands = await Commands.load(self.desk)
        self.specs = self.commands.specs()
        first = self.acting
        reply = await self.desk.lifecycle.game_create(
            self.caller(),
            "Sandbox",
            ruleset=ruleset,
            nations=nations,
            size=size,
            speed=speed,
            days=days,
            kind=kind,
            map_name=map_name,
            turn_hours=turn_hours,
        )
        self.game = reply.refresh_game
        self.kind = kind
        self.write(reply.text)
        assert self.game is not None
        nations = (await self.service.summary(self.game)).seats
        for uid in self.players.values():
            self.acting = uid
            self.show(await self.desk.lifecycle.game_join(self.caller(), self.names[uid]))
        self.acting = first
        for i in range(nations - len(self.players)):
            self.show(await self.desk.lifecycle.game_add_ai(self.caller(), f"Robot {i + 1}"))
        if paused:
            await self.service.pause(self.game)
        await self.ai_pass()
        await self.notifier.run_once()

    async def ai_pass(self) -> None:
        """The AI seats' turn (held while no player's seat is left), then what the onlooker
        is told of: the game held between turns, the game's end and its timelapse."""
        async with self._ai_turn:
            await self.ai.run_once()
        await self._after()

    async def _ai_step(self) -> int:
        """One round of the AI seats of a held game (a turn, where everyone's orders resolve
        it), asked for by the onlooker."""
        assert self.game is not None
        async with self._ai_turn:
            self.ai.held.discard(self.game)
            self.ai.hold_unattended, self.ai.rounds = False, 1
            try:
                given = await self.ai.run_once()
            finally:
                self.ai.hold_unattended, self.ai.rounds = True, ROUNDS
                self.ai.held.add(self.game)
        await self._after()
        return given

    def _heard(self, game_id: int, events: list) -> None:
        if game_id == self.game and side(self.kind).posts_after & {e.kind for e in events}:
            self.heard.append(list(events))

    async def show_channel(self) -> None:
        """What the game's channel has been shown since the last look, as the bot posts it
        (`GameSide.posts`): each line marked `[#channel]`, a picture written to a file."""
        assert self.game is not None
        heard, self.heard = self.heard, []
        for events in heard:
            row = await self.service.game(self.game)
            for post in await side(row.kind).posts(self.service, self.game, events):
                if post.news and row.settings.get(NEWS_OFF) is True:
                    continue
                self._to_channel(post.text, post.file)

    def _to_channel(self, text: str, file: tuple[str, bytes] | None) -> None:
        if file is not None:
            text += f"\n(picture: {self._save(f'channel-{file[0]}', file[1])})"
        self.write("\n".join(f"[#channel] {line}" for line in text.splitlines()))

    async def _show_result(self) -> None:
        """The end of the game as its channel is shown it: the result (kept for `/stats`), and
        its charts in a file."""
        assert self.game is not None
        await self.desk.standings.record(self.game)
        result = await BotStore.of(self.service.store).result(self.game)
        if result is None:
            return
        row = await self.service.game(self.game)
        data = await self.desk.standings.charts(row)  # (kept for `/stats game`)
        file = (f"stats-{self.game}.png", data) if data is not None else None
        self._to_channel(result_text(result), file)

    async def _after(self) -> None:
        if self.game is None:
            return
        await self.show_channel()
        summary = await self.service.summary(self.game)
        if self.onlooking and not summary.ended:
            seats = (await self.service.game(self.game)).settings.get("ai") or {}
            if not await self.ai.unattended(self.game, seats):  # a player took a seat back
                self.onlooking = False
                self.ai.held.discard(self.game)
                self.write(
                    "A local player leads a nation again: the AI seats play as the clock "
                    "moves (wait HOURS, or resume)."
                )
        if self.game in self.ai.held and not self.onlooking and not summary.ended:
            self.onlooking = True
            await self.service.pause(self.game)
            self.write(
                "No seat is a local player's any more: the AI plays every nation. The clock "
                "stands still between turns: wait plays on"
                + (
                    " (a turn each time)."
                    if summary.turn is not None
                    else " (wait HOURS: that many game hours)."
                )
            )
        if self.timelapse is None and summary.ended:
            await self._save_timelapse()
            await self._show_result()

    async def _save_timelapse(self) -> None:
        """The whole game as an animated map, as its channel is shown at the end, in a file."""
        assert self.game is not None
        row = await self.service.game(self.game)
        first, entries = await self.service.history(self.game)
        data = await asyncio.to_thread(side(row.kind).timelapse, first, entries, row.name)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"game-{self.game}-timelapse.gif"
        self.timelapse = path
        if data is None:  # a game with no picture of itself
            return
        path.write_bytes(data)
        self.write(f"{row.name} is over. The whole game, as it happened: {path}")

    async def wait(self, hours: float) -> None:
        assert self.game is not None
        summary = await self.service.summary(self.game)
        if self.onlooking and summary.turn is not None and not summary.ended:
            await self._next_turn(summary.turn.number, summary.ticks_per_hour)
        else:
            for _ in range(max(1, round(hours))):
                await self.service.advance(self.game, summary.ticks_per_hour)
                await (self._ai_step() if self.onlooking else self.ai_pass())
        await self.service.set_speed(self.game, (await self.service.game(self.game)).clock["speed"])
        self.write(f"It is now {(await self.service.summary(self.game)).now()}.")

    async def _next_turn(self, turn: int, per_hour: int) -> None:
        """A held game of turns played on to its next turn: the AI seats give their orders
        (everyone's in resolves the phase: orders, then any supply choices), and the clock runs
        to the phase's deadline if they have nothing more to give."""
        assert self.game is not None
        for _ in range(_TURN_HOURS_AT_MOST):
            given = await self._ai_step()
            summary = await self.service.summary(self.game)
            if summary.ended or summary.turn is None or summary.turn.number != turn:
                return
            if not given:  # the AI seats have nothing more to give in this phase: time
                await self.service.advance(self.game, per_hour)

    async def handle(self, line: str) -> bool:
        """One line of input; False when the player quits."""
        text = line.strip()
        if not text:
            return True
        word = text.split()[0].lower()
        if self.pending_confirm is not None:
            token, self.pending_confirm = self.pending_confirm, None
            if word in ("yes", "y"):
                self.show(await self.desk.confirm(self.caller(), token))
                await self._after()
            else:
                self.write("Cancelled.")
            return True
        if word in ("quit", "exit"):
            return False
        if word == "help" and len(text.split()) == 1:  # `help units`: the rules' pages
            self.write(self.help)
            return True
        if word == "press":
            number = text.split()[1] if len(text.split()) > 1 else ""
            shown = {self.numbers[b.label]: b for b in self.buttons}
            if not number.isdigit() or int(number) not in shown:
                numbers = ", ".join(str(n) for n in sorted(shown)) or "none"
                self.write(f"press N: N is a button of the last reply ({numbers}).")
                return True
            button = shown[int(number)]
            try:
                self.show(await self.desk.press(self.caller(), button.action, button.args))
            except Exception as exc:  # noqa: BLE001 - every failure is a message here
                self.write(explain(exc))
            return True
        if word == "as":
            name = text[2:].strip().lower()
            if name not in self.players:
                self.write(f"Local players: {', '.join(self.names.values())}.")
            else:
                self.acting = self.players[name]
                self.write(f"You are now {self.names[self.acting]}.")
            return True
        if word == "wait":
            try:
                hours = float(text.split()[1]) if len(text.split()) > 1 else 1.0
            except ValueError:
                self.write("wait HOURS, for example wait 4")
                return True
            await self.wait(hours)
            await self.notifier.run_once()
            return True
        if word == "resume" and self.onlooking:  # the AI seats play only when asked
            self.write("No seat is a local player's: the clock stands still; wait plays on.")
            return True
        if word in ("speed", "pause", "resume"):
            args = text.split()[1:]
            if word == "speed":
                if not args:
                    self.write("speed SECONDS: real seconds per game hour (3600 = real time)")
                    return True
                text = f"mod speed seconds_per_hour:{args[0]}"
            else:
                text = f"mod {word}"
        try:
            path, values = parse(text, self.specs)
            assert self.commands is not None  # (loaded at `setup`)
            reply = await self.commands.run(path, self.caller(), values)
        except Exception as exc:  # noqa: BLE001 - every failure is a message here
            self.write(explain(exc))
            return True
        self.show(reply)
        await self.ai_pass()  # AI players answer what changed (a new turn)
        await self.notifier.run_once()
        return True

    async def close(self) -> None:
        if self.commands is not None:
            await self.commands.close()

    async def background(self, interval: float) -> list[asyncio.Task]:
        return [
            asyncio.create_task(self.ticker.run_forever(interval)),
            asyncio.create_task(every(interval, self.ai_pass, name="AI pass", logger=log)),
            asyncio.create_task(self.notifier.run_forever(max(interval, 0.5))),
        ]


async def run_sandbox(
    *,
    nations: int | None = 4,
    ruleset: str = "standard",
    size: str | None = None,
    speed: str = "test (x360)",
    days: int | None = None,
    players: list[str] | None = None,
    db: str | None = None,
    out_dir: str | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    live: bool = True,
    clock_runs: bool = False,
    kind: str = DEFAULT_KIND,
    map_name: str | None = None,
    turn_hours: float | None = None,
) -> int:
    players = players or [DEFAULT_PLAYER]
    if kind not in KINDS:
        write(f"There is no game {kind!r}: choose {', '.join(KINDS)}.")
        return 2
    if not 1 <= len(players) <= (nations or 6):
        write("There must be at least one local player, and no more than nations.")
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="si-sandbox-"))  # outside any checkout
    path = db or str(scratch / "sandbox.db")
    pictures = Path(out_dir) if out_dir else scratch / "pictures"
    service = await GameService.open(path, synchronous="NORMAL")
    sandbox = Sandbox(service, out_dir=pictures, players=players, write=write)
    tasks: list[asyncio.Task] = []
    try:
        title = side(kind).words.title
        write(
            f"{title} sandbox (no Discord). Games are stored in {path}; pictures go to {pictures}."
        )
        try:
            await sandbox.setup(
                nations=nations,
                ruleset=ruleset,
                size=size,
                speed=speed,
                days=days,
                kind=kind,
                map_name=map_name,
                turn_hours=turn_hours,
                paused=not clock_runs,  # time stands still while the player types; `wait` moves it
            )
        except UserError as exc:
            write(str(exc))
            return 2
        write(sandbox.help)
        write(
            "The clock runs at the game's speed while you type: pause stops it, resume starts "
            "it again."
            if clock_runs
            else "The clock stands still while you type: wait HOURS moves it on, resume lets "
            "it run by itself, pause stops it again."
        )
        if live:
            tasks = await sandbox.background(0.5)
        while True:
            prompt = f"{sandbox.names[sandbox.acting]}> "
            try:
                line = await asyncio.to_thread(read, prompt)
            except EOFError:
                break
            if not await sandbox.handle(line):
                break
        return 0
    finally:
        await stop_tasks(tasks)
        await sandbox.close()
        await service.close()
