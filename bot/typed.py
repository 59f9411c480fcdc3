"""The bot's slash commands run without Discord: the offline sandbox types them, and the tests'
authorization matrix tries them. A command is found by its path in the bot's own command tree
(the cogs the bot loads: the shell's and each game's), and its callback runs as Discord would
call it, with a `Typed` in place of the interaction: so what a command does is written once,
in its cog, and no list of routes is kept by hand."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from discord import AppCommandOptionType, app_commands

from bot.context import Caller, Reply
from bot.discord_io import Typed

if TYPE_CHECKING:  # pragma: no cover
    from bot.client import StrategicBot
    from bot.desk import Desk


class Commands:
    """The registered slash commands of a bot that answers with `desk`."""

    def __init__(self, host: StrategicBot) -> None:
        self.host = host
        self._commands: dict[str, app_commands.Command] = {}
        for command in host.tree.walk_commands():
            if isinstance(command, app_commands.Command):
                self._commands[command.qualified_name] = command

    @classmethod
    async def load(cls, desk: Desk) -> Commands:
        """The bot's commands (never connected to Discord), answering with this desk."""
        from bot.client import StrategicBot, add_cogs
        from bot.config import Settings

        host = StrategicBot(Settings(_env_file=None), background=False)  # type: ignore[call-arg]
        host.desk = desk
        await add_cogs(host)
        return cls(host)

    async def close(self) -> None:
        await self.host.close()

    def paths(self) -> list[str]:
        return sorted(self._commands)

    def specs(self) -> dict[str, list[dict[str, Any]]]:
        """Command path -> its options, as the payload the bot registers says."""
        return {
            path: command.to_dict(self.host.tree).get("options", [])
            for path, command in self._commands.items()
        }

    async def run(self, path: str, caller: Caller, options: Mapping[str, Any]) -> Reply:
        """Run the command at `path` for `caller` with these option values (already of their
        types; a user is given by id). Raises what the desk raises (a `UserError`...)."""
        command = self._commands.get(path)
        if command is None:
            raise KeyError(f"there is no command /{path}")
        kwargs = {}
        # options by the names Discord shows (a parameter may be renamed: `class:`)
        params = {p.display_name: p for p in command._params.values()}  # noqa: SLF001
        for name, value in options.items():
            parameter = params.get(name)
            if parameter is None:
                raise TypeError(f"/{path} has no option {name!r}")
            if parameter.type is AppCommandOptionType.user and isinstance(value, str | int):
                value = SimpleNamespace(id=value, display_name=str(value))
            kwargs[parameter.name] = value
        typed = Typed(self.host, caller)
        bound = () if command.binding is None else (command.binding,)
        await command.callback(*bound, typed, **kwargs)
        if typed.reply is None:
            raise RuntimeError(f"/{path} answered nothing")
        return typed.reply
