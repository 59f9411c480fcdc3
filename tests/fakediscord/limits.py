"""Discord's documented limits that the OpenAPI schema does not (fully) express.

They are checked here whether or not the spec could be loaded (:mod:`.spec`). Sources
(discord/discord-api-docs): resources/message.mdx (content, embeds, nonce,
allowed_mentions), components/reference.mdx (action rows, buttons, selects, custom ids,
the 40 components of an IS_COMPONENTS_V2 message), reference.mdx "Uploading Files" (10 MiB a
file), interactions/receiving-and-responding.mdx (autocomplete: 25 choices) and
interactions/application-commands.mdx (commands, options and choices).

Every checker returns a list of :class:`Problem` (an error path inside the
request body, a Discord-style error code and a message); an empty list means
the payload is acceptable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_EMBED_FIELD_NAME = 256
MAX_EMBED_FIELD_VALUE = 1024
MAX_EMBED_FOOTER = 2048
MAX_EMBED_AUTHOR = 256
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_FILES = 10
DEFAULT_FILE_LIMIT = 10 * 1024 * 1024
MAX_COMMAND_OPTIONS = 25
MAX_CHOICES = 25
MAX_CHAT_INPUT_COMMANDS = 100
MAX_CONTEXT_MENU_COMMANDS = 5
MAX_COMMAND_CHARS = 4000
MAX_AUTOCOMPLETE_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100
MAX_BUTTON_LABEL = 80
MAX_BUTTON_URL = 512
MAX_SELECT_OPTIONS = 25
MAX_SELECT_PLACEHOLDER = 150
MAX_SELECT_VALUES = 25
MAX_OPTION_TEXT = 100
MAX_V2_COMPONENTS = 40
MAX_NONCE = 25
MAX_ALLOWED_MENTION_IDS = 100
SELECT_TYPES = (3, 5, 6, 7, 8)

IS_COMPONENTS_V2 = 1 << 15
_NAME_RE = re.compile(r"^[-_\w]{1,32}$")


@dataclass(frozen=True)
class Problem:
    path: tuple[str | int, ...]
    code: str
    message: str


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


# --------------------------------------------------------------------------- commands


def _check_name(name: Any, path: tuple, *, chat_input: bool) -> list[Problem]:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return [Problem(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")]
    if chat_input and (not _NAME_RE.match(name) or name != name.lower()):
        return [
            Problem(
                path,
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid: {name!r} (lowercase, ^[-_\\w]{{1,32}}$)",
            )
        ]
    return []


def _check_description(desc: Any, path: tuple) -> list[Problem]:
    if not isinstance(desc, str) or not 1 <= len(desc) <= 100:
        return [Problem(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")]
    return []


def _command_chars(obj: dict[str, Any]) -> int:
    total = _len(obj.get("name")) + _len(obj.get("description"))
    for choice in obj.get("choices") or []:
        total += _len(choice.get("name")) + len(str(choice.get("value", "")))
    for opt in obj.get("options") or []:
        total += _command_chars(opt)
    return total


def _check_options(options: Any, path: tuple, *, depth: int) -> list[Problem]:
    problems: list[Problem] = []
    if not options:
        return problems
    if len(options) > MAX_COMMAND_OPTIONS:
        problems.append(
            Problem(
                path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMMAND_OPTIONS} or fewer in length."
            )
        )
    seen: set[str | None] = set()  # None: an option without a name (reported above)
    optional_seen = False
    kinds = {opt.get("type") for opt in options if isinstance(opt, dict)}
    if kinds & {1, 2} and kinds - {1, 2}:
        problems.append(
            Problem(
                path,
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-commands and sub-command groups cannot be mixed with other option types.",
            )
        )
    for i, opt in enumerate(options):
        if not isinstance(opt, dict):
            continue
        p = (*path, i)
        name = opt.get("name")
        problems += _check_name(name, (*p, "name"), chat_input=True)
        problems += _check_description(opt.get("description"), (*p, "description"))
        if name in seen:
            problems.append(
                Problem(
                    (*p, "name"),
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    f"Option name {name!r} is already used in these options.",
                )
            )
        seen.add(name)
        kind = opt.get("type")
        if kind in (1, 2):
            if depth >= 2 or (kind == 2 and depth >= 1):
                problems.append(
                    Problem(
                        (*p, "type"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-command groups can only be nested one level and contain only sub-commands.",
                    )
                )
            if kind == 2 and any(
                isinstance(o, dict) and o.get("type") != 1 for o in opt.get("options") or []
            ):
                problems.append(
                    Problem(
                        (*p, "options"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-command groups can only contain sub-commands.",
                    )
                )
            problems += _check_options(opt.get("options"), (*p, "options"), depth=depth + 1)
            continue
        if opt.get("required"):
            if optional_seen:
                problems.append(
                    Problem(
                        (*p, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options.",
                    )
                )
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(
                Problem(
                    (*p, "choices"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_CHOICES} or fewer in length.",
                )
            )
        if choices and opt.get("autocomplete"):
            problems.append(
                Problem(
                    (*p, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES_INVALID",
                    "Autocomplete cannot be enabled on options that have choices.",
                )
            )
        for j, choice in enumerate(choices):
            if not 1 <= _len(choice.get("name")) <= 100:
                problems.append(
                    Problem(
                        (*p, "choices", j, "name"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
                )
            if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
                problems.append(
                    Problem(
                        (*p, "choices", j, "value"),
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 100 or fewer in length.",
                    )
                )
    return problems


def check_command(cmd: Any, path: tuple = ()) -> list[Problem]:
    """Limits of one application command create/update payload."""
    if not isinstance(cmd, dict):
        return []
    kind = cmd.get("type", 1) or 1
    chat_input = kind == 1
    problems = _check_name(cmd.get("name"), (*path, "name"), chat_input=chat_input)
    if chat_input:
        problems += _check_description(cmd.get("description"), (*path, "description"))
        problems += _check_options(cmd.get("options"), (*path, "options"), depth=0)
        if _command_chars(cmd) > MAX_COMMAND_CHARS:
            problems.append(
                Problem(
                    path,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({MAX_COMMAND_CHARS})",
                )
            )
    else:
        if cmd.get("description"):
            problems.append(
                Problem(
                    (*path, "description"),
                    "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID",
                    "Context menu commands cannot have description",
                )
            )
        if cmd.get("options"):
            problems.append(
                Problem(
                    (*path, "options"),
                    "APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS_INVALID",
                    "Context menu commands cannot have options",
                )
            )
    return problems


def check_command_list(cmds: Any) -> list[Problem]:
    """Limits of a bulk overwrite (``PUT .../commands``) payload."""
    if not isinstance(cmds, list):
        return []
    problems: list[Problem] = []
    seen: set[tuple[int, str | None]] = set()  # None: a command without a name
    counts: dict[int, int] = {}
    for i, cmd in enumerate(cmds):
        problems += check_command(cmd, (i,))
        if not isinstance(cmd, dict):
            continue
        kind = cmd.get("type", 1) or 1
        counts[kind] = counts.get(kind, 0) + 1
        key = (kind, cmd.get("name"))
        if key in seen:
            problems.append(
                Problem(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {cmd.get('name')!r}",
                )
            )
        seen.add(key)
    if counts.get(1, 0) > MAX_CHAT_INPUT_COMMANDS:
        problems.append(
            Problem(
                (),
                "BASE_TYPE_MAX_LENGTH",
                f"Maximum number of chat input commands reached ({MAX_CHAT_INPUT_COMMANDS})",
            )
        )
    for kind in (2, 3):
        if counts.get(kind, 0) > MAX_CONTEXT_MENU_COMMANDS:
            problems.append(
                Problem(
                    (),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Maximum number of context menu commands reached ({MAX_CONTEXT_MENU_COMMANDS})",
                )
            )
    return problems


# --------------------------------------------------------------------------- messages


def _embed_chars(embed: dict[str, Any]) -> int:
    total = _len(embed.get("title")) + _len(embed.get("description"))
    total += _len((embed.get("footer") or {}).get("text"))
    total += _len((embed.get("author") or {}).get("name"))
    for fld in embed.get("fields") or []:
        total += _len(fld.get("name")) + _len(fld.get("value"))
    return total


def _check_embeds(embeds: list[Any], path: tuple) -> list[Problem]:
    problems: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(
            Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
        )
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        p = (*path, i)
        total += _embed_chars(embed)
        for key, limit in (("title", MAX_EMBED_TITLE), ("description", MAX_EMBED_DESCRIPTION)):
            if _len(embed.get(key)) > limit:
                problems.append(
                    Problem(
                        (*p, key), "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
                    )
                )
        if _len((embed.get("footer") or {}).get("text")) > MAX_EMBED_FOOTER:
            problems.append(
                Problem(
                    (*p, "footer", "text"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 2048 or fewer in length.",
                )
            )
        if _len((embed.get("author") or {}).get("name")) > MAX_EMBED_AUTHOR:
            problems.append(
                Problem(
                    (*p, "author", "name"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 256 or fewer in length.",
                )
            )
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            problems.append(
                Problem((*p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            )
        for j, fld in enumerate(fields):
            if not 1 <= _len(fld.get("name")) <= MAX_EMBED_FIELD_NAME:
                problems.append(
                    Problem(
                        (*p, "fields", j, "name"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 256 in length.",
                    )
                )
            if not 1 <= _len(fld.get("value")) <= MAX_EMBED_FIELD_VALUE:
                problems.append(
                    Problem(
                        (*p, "fields", j, "value"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 1024 in length.",
                    )
                )
    if total > MAX_EMBED_TOTAL:
        problems.append(
            Problem(
                path,
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
            )
        )
    return problems


def _iter_custom_ids(components: Iterable[Any], path: tuple):
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        p = (*path, i)
        if "custom_id" in comp:
            yield (*p, "custom_id"), comp["custom_id"]
        for key in ("components", "accessory"):
            sub = comp.get(key)
            if isinstance(sub, dict):
                yield from _iter_custom_ids([sub], (*p, key))
            elif isinstance(sub, list):
                yield from _iter_custom_ids(sub, (*p, key))


def _walk_components(components: Iterable[Any], path: tuple):
    """Every component with its path, depth first (rows, containers, sections' accessories)."""
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        p = (*path, i)
        yield p, comp
        for key in ("components", "accessory"):
            sub = comp.get(key)
            if isinstance(sub, dict):
                yield from _walk_components([sub], (*p, key))
            elif isinstance(sub, list):
                yield from _walk_components(sub, (*p, key))


def _too_long(value: Any, limit: int, path: tuple) -> list[Problem]:
    if isinstance(value, str) and len(value) > limit:
        return [Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def _check_button(comp: dict[str, Any], p: tuple) -> list[Problem]:
    problems = _too_long(comp.get("label"), MAX_BUTTON_LABEL, (*p, "label"))
    problems += _too_long(comp.get("url"), MAX_BUTTON_URL, (*p, "url"))
    style = comp.get("style")
    if style == 5:
        if not comp.get("url") or "custom_id" in comp:
            problems.append(
                Problem(
                    p,
                    "BUTTON_COMPONENT_INVALID_URL",
                    "A link button needs a url and has no custom_id.",
                )
            )
    elif style != 6 and not comp.get("custom_id"):
        problems.append(Problem((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
    return problems


def _check_select(comp: dict[str, Any], p: tuple) -> list[Problem]:
    """A select menu: placeholder 150, min_values 0-25, max_values 1-25 (and, for a string
    select, at most its options), min <= max, 1-25 options of label/value 1-100 and
    description 100, defaults within max_values (components/reference.mdx)."""
    problems = _too_long(comp.get("placeholder"), MAX_SELECT_PLACEHOLDER, (*p, "placeholder"))
    lo = comp.get("min_values", 1)
    hi = comp.get("max_values", 1)
    if isinstance(lo, int) and not 0 <= lo <= MAX_SELECT_VALUES:
        problems.append(Problem((*p, "min_values"), "NUMBER_TYPE_MAX", "Must be between 0 and 25."))
    if isinstance(hi, int) and not 1 <= hi <= MAX_SELECT_VALUES:
        problems.append(Problem((*p, "max_values"), "NUMBER_TYPE_MAX", "Must be between 1 and 25."))
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        problems.append(
            Problem(
                (*p, "min_values"),
                "SELECT_COMPONENT_MIN_VALUES_TOO_HIGH",
                "min_values must be less than or equal to max_values.",
            )
        )
    if comp.get("type") == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            problems.append(
                Problem(
                    (*p, "options"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                )
            )
        if isinstance(hi, int) and options and hi > len(options):
            problems.append(
                Problem(
                    (*p, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH",
                    f"max_values ({hi}) must be at most the number of options ({len(options)}).",
                )
            )
        defaults = 0
        for j, opt in enumerate(options):
            if not isinstance(opt, dict):
                continue
            q = (*p, "options", j)
            for key in ("label", "value"):
                text = opt.get(key)
                if not isinstance(text, str) or not 1 <= len(text) <= MAX_OPTION_TEXT:
                    problems.append(
                        Problem(
                            (*q, key),
                            "BASE_TYPE_BAD_LENGTH",
                            f"Must be between 1 and {MAX_OPTION_TEXT} in length.",
                        )
                    )
            problems += _too_long(opt.get("description"), MAX_OPTION_TEXT, (*q, "description"))
            defaults += bool(opt.get("default"))
        if isinstance(hi, int) and defaults > hi:
            problems.append(
                Problem(
                    (*p, "options"),
                    "SELECT_COMPONENT_TOO_MANY_DEFAULTS",
                    f"{defaults} default options, more than max_values ({hi}).",
                )
            )
    else:
        given = comp.get("default_values")
        bounded = isinstance(lo, int) and isinstance(hi, int)
        if isinstance(given, list) and given and bounded and not lo <= len(given) <= hi:
            problems.append(
                Problem(
                    (*p, "default_values"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between {lo} and {hi} in length (min_values, max_values).",
                )
            )
    return problems


def _check_allowed_mentions(mentions: Any, path: tuple) -> list[Problem]:
    """``parse`` excludes ``users``/``roles`` lists of its own kind; at most 100 ids each."""
    if not isinstance(mentions, dict):
        return []
    problems: list[Problem] = []
    parse = mentions.get("parse") or []
    for kind in ("users", "roles"):
        ids = mentions.get(kind)
        if ids and kind in parse:
            problems.append(
                Problem(
                    (*path, "parse"),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                )
            )
        if isinstance(ids, list) and len(ids) > MAX_ALLOWED_MENTION_IDS:
            problems.append(
                Problem(
                    (*path, kind),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_ALLOWED_MENTION_IDS} or fewer in length.",
                )
            )
    return problems


def _check_components(components: list[Any], path: tuple, flags: int) -> list[Problem]:
    problems: list[Problem] = []
    if not flags & IS_COMPONENTS_V2:
        if len(components) > MAX_ACTION_ROWS:
            problems.append(
                Problem(
                    path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ACTION_ROWS} or fewer in length."
                )
            )
        for i, row in enumerate(components):
            if not isinstance(row, dict):
                continue
            if row.get("type") != 1:
                problems.append(
                    Problem(
                        (*path, i, "type"),
                        "UNION_TYPE_CHOICES",
                        "Top-level components must be action rows without the IS_COMPONENTS_V2 flag.",
                    )
                )
                continue
            children = row.get("components") or []
            if len(children) > MAX_ROW_BUTTONS:
                problems.append(
                    Problem(
                        (*path, i, "components"),
                        "BASE_TYPE_MAX_LENGTH",
                        f"Must be {MAX_ROW_BUTTONS} or fewer in length.",
                    )
                )
            kinds = [c.get("type") for c in children if isinstance(c, dict)]
            if any(k != 2 for k in kinds) and len(kinds) > 1:
                problems.append(
                    Problem(
                        (*path, i, "components"),
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "The specified component exceeds the maximum width",
                    )
                )
    else:
        total = sum(1 for _ in _walk_components(components, path))
        if total > MAX_V2_COMPONENTS:
            problems.append(
                Problem(
                    path,
                    "BASE_TYPE_MAX_LENGTH",
                    f"A message may hold {MAX_V2_COMPONENTS} components in all ({total} given).",
                )
            )
    for p, comp in _walk_components(components, path):
        kind = comp.get("type")
        if kind == 2:
            problems += _check_button(comp, p)
        elif kind in SELECT_TYPES:
            problems += _check_select(comp, p)
    seen: set[str] = set()
    for p, custom_id in _iter_custom_ids(components, path):
        if isinstance(custom_id, str) and len(custom_id) > MAX_CUSTOM_ID:
            problems.append(Problem(p, "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
        if isinstance(custom_id, str) and not custom_id:
            problems.append(Problem(p, "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."))
        if custom_id in seen:
            problems.append(
                Problem(
                    p, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
                )
            )
        seen.add(custom_id)
    return problems


def check_message(
    payload: Any,
    files: list[tuple[str, bytes]] | None = None,
    *,
    create: bool = True,
    file_limit: int = DEFAULT_FILE_LIMIT,
    path: tuple = (),
    existing_attachments: int = 0,
) -> list[Problem]:
    """Limits of a message create/edit payload (also webhook and interaction data)."""
    if not isinstance(payload, dict):
        payload = {}
    files = files or []
    problems: list[Problem] = []
    content = payload.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(
            Problem(
                (*path, "content"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CONTENT} or fewer in length.",
            )
        )
    embeds = payload.get("embeds") or []
    if isinstance(embeds, list):
        problems += _check_embeds(embeds, (*path, "embeds"))
    flags = payload.get("flags") or 0
    components = payload.get("components") or []
    if isinstance(components, list):
        problems += _check_components(components, (*path, "components"), flags)
    nonce = payload.get("nonce")
    if isinstance(nonce, str) and len(nonce) > MAX_NONCE:
        problems.append(
            Problem(
                (*path, "nonce"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_NONCE} or fewer in length."
            )
        )
    problems += _check_allowed_mentions(
        payload.get("allowed_mentions"), (*path, "allowed_mentions")
    )
    if flags & IS_COMPONENTS_V2 and (content or embeds or payload.get("poll")):
        problems.append(
            Problem(
                path,
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "With IS_COMPONENTS_V2 a message holds only components (no content, embeds, poll).",
            )
        )
    if len(files) > MAX_FILES:
        problems.append(
            Problem(
                (*path, "files"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."
            )
        )
    for i, (name, data) in enumerate(files):
        if len(data) > file_limit:
            problems.append(
                Problem(
                    (*path, f"files[{i}]"),
                    "FILE_TOO_LARGE",
                    f"File {name!r} is {len(data)} bytes, over the {file_limit} byte limit",
                )
            )
    if create:
        has_body = (
            bool(content)
            or bool(embeds)
            or bool(components)
            or bool(files)
            or bool(payload.get("sticker_ids"))
            or bool(payload.get("poll"))
            or existing_attachments > 0
        )
        if not has_body:
            problems.append(Problem(path, "50006", "Cannot send an empty message"))
    return problems


def check_autocomplete(data: Any) -> list[Problem]:
    """At most 25 choices, each a name of 1-100 characters and a string value of at most 100."""
    choices = (data or {}).get("choices") or []
    problems: list[Problem] = []
    if len(choices) > MAX_AUTOCOMPLETE_CHOICES:
        problems.append(
            Problem(
                ("data", "choices"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_AUTOCOMPLETE_CHOICES} or fewer in length.",
            )
        )
    for i, choice in enumerate(choices):
        if not isinstance(choice, dict):
            continue
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_NAME:
            problems.append(
                Problem(
                    ("data", "choices", i, "name"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_CHOICE_NAME} in length.",
                )
            )
        problems += _too_long(
            choice.get("value"), MAX_CHOICE_VALUE, ("data", "choices", i, "value")
        )
    return problems


def errors_object(problems: Iterable[Problem]) -> dict[str, Any]:
    """Nest problems the way Discord's ``errors`` field does."""
    root: dict[str, Any] = {}
    for prob in problems:
        node = root
        for key in prob.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": prob.code, "message": prob.message})
    return root
