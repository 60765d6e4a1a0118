"""The try-out's page shows the commands in its language (bot/tryout/page.py), and reads what it sends back.

Checked on the commands as the bot declares them to Discord (tests/commands.json, kept current by
tests/test_i18n_commands.py), in SimCord's wire form of the page's command list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simcord.interactions import command_leaves
from simcord.preview._commands import entry_for_leaf

from bot.tryout.page import localize_catalog, own_names

COMMANDS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "commands.json").read_text())
for number, declared in enumerate(COMMANDS, start=1):
    declared["id"] = str(1000 + number)


def catalog() -> dict[str, Any]:
    entries = [entry_for_leaf(c, path, leaf) for c in COMMANDS for path, leaf in command_leaves(c)]
    return {"entries": entries}


def entry(shown: dict[str, Any], invocation: str) -> dict[str, Any]:
    found = [e for e in shown["entries"] if e["invocation"] == invocation]
    assert len(found) == 1, sorted(e["invocation"] for e in shown["entries"])
    return found[0]


def test_the_swedish_page_names_commands_options_and_choices_in_swedish() -> None:
    shown = catalog()
    localize_catalog(shown, COMMANDS, "sv-SE")
    invocations = {e["invocation"] for e in shown["entries"]}
    assert {"ttr bygg", "ttr gå-med", "ttr ny", "ttr inställningar"} <= invocations
    assert "ttr claim" not in invocations and "ttr join" not in invocations
    new = entry(shown, "ttr ny")
    assert new["path"] == ["ttr", "new"]  # what the page sends stays the command's own
    assert new["description"].startswith("Öppna ett parti")
    options = {o["name"]: o for o in new["options"]}
    assert "karta" in options and "map" not in options
    assert {c["name"]: c["value"] for c in options["karta"]["choices"]}["Schweiz"] == "switzerland"
    finnish = catalog()
    localize_catalog(finnish, COMMANDS, "fi")
    assert "ttr aloita" in {e["invocation"] for e in finnish["entries"]}


def test_what_the_page_sends_is_read_under_the_commands_own_names() -> None:
    shown = catalog()
    localize_catalog(shown, COMMANDS, "sv-SE")
    new = entry(shown, "ttr ny")
    body = {"kind": "run_command", "command_id": new["commandId"], "path": new["path"], "options": {"karta": "usa"}}
    assert own_names(body, COMMANDS, "sv-SE")["options"] == {"map": "usa"}
    typed = {**body, "kind": "autocomplete_command", "focused": "karta"}
    assert own_names(typed, COMMANDS, "sv-SE")["focused"] == "map"
    key = f"command:{new['commandId']}:ttr.new:option:karta"
    browse = own_names({"kind": "browse_candidates", "control_key": key}, COMMANDS, "sv-SE")
    assert browse["control_key"].endswith(":option:map")
    click = {"kind": "click_button", "custom_id": "x"}
    assert own_names(click, COMMANDS, "sv-SE") == click  # anything else goes as it came
