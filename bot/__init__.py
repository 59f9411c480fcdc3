"""The Discord bot: cogs that translate slash commands into engine service calls and events into
DMs. Built on engine.service.GameService, the one way in."""
