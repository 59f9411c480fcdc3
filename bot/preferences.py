"""A player's settings: quiet hours, what to be told, sitreps and pictures (`/notify`), and how
their maps colour the nations (`map_colours`, chosen on a game's map command)."""

from __future__ import annotations

from pydantic import ValidationError

from bot.context import Caller, Context, Reply, UserError
from bot.dm.notifier import Notifier, PlayerSettings, load_settings, save_settings
from bot.dm.text import CATEGORIES
from bot.store import BotStore


class Preferences:
    def __init__(self, ctx: Context, notifier: Notifier | None = None) -> None:
        self.ctx = ctx
        self.notifier = notifier  # (set by the bot once it has one)

    async def notify(
        self,
        caller: Caller,
        *,
        quiet_from: int | None = None,
        quiet_to: int | None = None,
        utc_offset: int | None = None,
        mute: str | None = None,
        unmute: str | None = None,
        sitrep: bool | None = None,
        pictures: bool | None = None,
        no_quiet_hours: bool = False,
    ) -> Reply:
        store = BotStore.of(self.ctx.service.store)
        current = PlayerSettings.model_validate(await store.get_player_settings(caller.user_id))
        data = current.model_dump()
        if no_quiet_hours:
            data["quiet_from"] = data["quiet_to"] = None
        if quiet_from is not None:
            data["quiet_from"] = quiet_from
        if quiet_to is not None:
            data["quiet_to"] = quiet_to
        if utc_offset is not None:
            data["utc_offset"] = utc_offset
        muted = set(data["muted"])
        for text, add in ((mute, True), (unmute, False)):
            for word in (text or "").replace(",", " ").split():
                if word.lower() not in CATEGORIES:
                    raise UserError(f"{word!r} is not one of {', '.join(CATEGORIES)}.")
                (muted.add if add else muted.discard)(word.lower())
        data["muted"] = sorted(muted)
        if sitrep is not None:
            data["sitrep"] = sitrep
        if pictures is not None:
            data["pictures"] = pictures
        try:
            settings = PlayerSettings.model_validate(data)
        except ValidationError as exc:
            raise UserError(exc.errors()[0]["msg"].removeprefix("Value error, ")) from None
        await store.set_player_settings(caller.user_id, settings.model_dump())
        notifier = self.notifier
        if notifier is not None:  # reports held back by the old quiet hours go out now
            await notifier.release(caller.user_id)
        return Reply(text=describe(settings))


MAP_COLOURS = {"nation": "each nation in its own colour", "relation": "by relation to you"}


async def map_colours(store: BotStore, user_id: str, choice: str | None = None) -> str:
    """How the player's maps colour the nations: `choice` when given (kept for their next maps
    and DM pictures), else what they chose last ("nation" until they choose)."""
    settings = await load_settings(store, user_id)
    if choice is None or choice == settings.map_colours:
        return settings.map_colours
    if choice not in MAP_COLOURS:
        raise UserError(f"Maps colour nations by {' or '.join(MAP_COLOURS)}, not {choice!r}.")
    settings = settings.model_copy(update={"map_colours": choice})
    await save_settings(store, user_id, settings)
    return settings.map_colours


def describe(s: PlayerSettings) -> str:
    if s.quiet_from is None or s.quiet_from == s.quiet_to:
        quiet = "no quiet hours"
    else:
        sign = "+" if s.utc_offset >= 0 else "-"
        off = abs(s.utc_offset)
        quiet = (
            f"quiet from {s.quiet_from:02d}:00 to {s.quiet_to:02d}:00 "
            f"(UTC{sign}{off // 60:02d}:{off % 60:02d}); reports wait until then"
        )
    told = [c for c in CATEGORIES if c not in s.muted]
    return (
        f"Your DM settings: {quiet}; told about {', '.join(told) or 'nothing'}"
        + (f" (muted: {', '.join(s.muted)})" if s.muted else "")
        + f"; daily sitrep {'on' if s.sitrep else 'off'}; map pictures {'on' if s.pictures else 'off'}"
        + (f" (nations coloured {MAP_COLOURS[s.map_colours]})" if s.map_colours != "nation" else "")
        + "."
    )
