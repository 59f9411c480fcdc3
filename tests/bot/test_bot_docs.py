"""The documentation of the slash commands is the bot's own payload (no drift), and that
payload is what Discord accepts (names, lengths, counts)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.client import command_payload
from bot.commands_doc import BEGIN, END, markdown

ROOT = Path(__file__).resolve().parents[2]


def test_commands_md_lists_exactly_the_registered_commands() -> None:
    doc = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    start, stop = doc.index(BEGIN), doc.index(END) + len(END)
    assert doc[start:stop] == markdown(command_payload()), (
        "docs/COMMANDS.md is out of date: paste the output of `si commands --markdown`"
    )


def test_the_payload_keeps_discords_limits() -> None:
    payload = command_payload()
    assert len(payload) <= 100
    name = re.compile(r"^[-_\w]{1,32}$")

    def check(item: dict) -> None:
        assert name.match(item["name"]) and item["name"] == item["name"].lower()
        assert 1 <= len(item["description"]) <= 100
        options = item.get("options", [])
        assert len(options) <= 25
        required_done = False
        for o in options:
            if o["type"] in (1, 2):
                check(o)
                continue
            assert name.match(o["name"]) and 1 <= len(o["description"]) <= 100
            assert len(o.get("choices", [])) <= 25
            if not o.get("required"):
                required_done = True
            else:
                assert not required_done, f"{item['name']}: required option after optional"

    for command in payload:
        check(command)
