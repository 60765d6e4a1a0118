"""Starting the bot, its settings, syncing the commands, the lobby, server settings, rules and records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from discord.ext import commands
from discord_harness import all_private, make_room, message_text, reply_text, restart, slash, turn_dms
from discord_play import Player, open_game
from simcord import Env

from bot import Settings, create_bot
from bot.runtime.settings import SettingsError, read_env_file
from bot.runtime.sync import command_digest, command_payload, sync_target

ROOT = Path(__file__).parent.parent


# ----- settings and the command line ---------------------------------------------------


def test_settings_read_the_token_and_the_development_server() -> None:
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "secret.token.value", "DISCORD_GUILD_ID": "123", "CONDUCTOR_LOG_LEVEL": "debug"},
        env_file=None,
    )
    assert settings.token == "secret.token.value"
    assert settings.dev_guild_id == 123
    assert settings.log_level == "DEBUG"
    assert "secret.token.value" not in repr(settings)
    empty = Settings.from_env({"DISCORD_TOKEN": " ", "DISCORD_GUILD_ID": ""}, env_file=None)
    assert empty.token is None and empty.dev_guild_id is None
    with pytest.raises(SettingsError, match="DISCORD_GUILD_ID must be a server id"):
        Settings.from_env({"DISCORD_GUILD_ID": "my server"}, env_file=None)
    with pytest.raises(SettingsError, match="CONDUCTOR_LOG_LEVEL"):
        Settings.from_env({"CONDUCTOR_LOG_LEVEL": "loud"}, env_file=None)


def test_the_example_env_file_lists_every_setting_with_a_comment() -> None:
    example = ROOT / ".env.example"
    values = read_env_file(example)
    assert set(values) == {
        "DISCORD_TOKEN",
        "DISCORD_GUILD_ID",
        "CONDUCTOR_DATABASE",
        "CONDUCTOR_LOG_LEVEL",
        "CONDUCTOR_DISCORD_LOG_LEVEL",
        "SHARD_COUNT",
        "SHARD_IDS",
        "CONDUCTOR_SHARED_RATE_LIMIT",
        "CONDUCTOR_EXPERT_SECONDS",
        "CONDUCTOR_EXPERT_PROCESSES",
        "CONDUCTOR_METRICS_ADDRESS",
        "CONDUCTOR_LOG_FORMAT",
    }
    lines = example.read_text(encoding="utf-8").splitlines()
    for key in values:
        index = next(i for i, line in enumerate(lines) if line.startswith(key + "="))
        assert lines[index - 1].startswith("#"), f"{key} has no comment above it"
    assert values["DISCORD_TOKEN"] == ""  # never a real token in the repository


def test_without_a_token_the_bot_says_where_to_read_up(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DISCORD_GUILD_ID")}
    env["PYTHONPATH"] = str(ROOT)
    for argv in ([], ["run"]):
        done = subprocess.run(
            [sys.executable, "-m", "bot", *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2
        assert "DISCORD_TOKEN" in done.stderr and 'section "Running the bot"' in done.stderr
        assert "Traceback" not in done.stderr
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## Running the bot" in readme


def test_help_lists_the_run_command() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "run" in done.stdout and "replay" in done.stdout


async def test_create_bot_gives_an_unstarted_bot(tmp_path: Path) -> None:
    bot = create_bot(Settings(database=tmp_path / "db.sqlite3"))
    assert isinstance(bot, commands.Bot)
    assert not bot.is_ready() and not bot.is_closed()
    assert not (tmp_path / "db.sqlite3").exists()  # nothing is opened before it starts


# ----- syncing the commands ------------------------------------------------------------


def _syncs(env: Env) -> list[str]:
    return [r.path for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]


async def test_the_commands_are_exactly_the_recorded_ones(simcord_env: Env) -> None:
    """What Discord is sent for the slash commands: any change to a name, option, description, choice or
    permission, and their Swedish and Finnish localizations, shows here (and makes the bot sync again at its next
    start); tests/commands.json records it (regenerate it by writing `sent` there, then read the diff)."""
    bot = simcord_env.bot
    assert isinstance(bot, commands.Bot)
    sent = sorted(await command_payload(bot.tree, None), key=lambda c: str(c.get("name")))
    recorded = json.loads((Path(__file__).parent / "commands.json").read_text(encoding="utf-8"))
    assert json.loads(json.dumps(sent, default=str)) == recorded
    ttr = next(c for c in sent if c["name"] == "ttr")
    assert [o["name"] for o in ttr["options"]][-1] == "config"  # a subcommand of /ttr, listed last


async def test_commands_are_synced_only_when_they_changed(simcord_env: Env) -> None:
    assert len(_syncs(simcord_env)) == 1  # the first start syncs (globally: no development server)
    await restart(simcord_env)
    assert len(_syncs(simcord_env)) == 1  # same definitions: no sync
    bot = simcord_env.bot
    assert isinstance(bot, commands.Bot)
    target = sync_target(bot.application_id, None)
    assert await bot.service.store.settings.command_digest(target) == await command_digest(bot.tree, None)  # type: ignore[attr-defined]
    await bot.service.store.settings.set_command_digest(target, "from an older version")  # type: ignore[attr-defined]
    await restart(simcord_env)
    assert len(_syncs(simcord_env)) == 2  # changed definitions: synced again
    # the commands work after all that
    room = make_room(simcord_env, ["alice"])
    result = await slash(room.members[0], room, "ttr rules", map="usa")
    assert "USA" in reply_text(result)


@pytest.mark.simcord(strict_sync=True)
async def test_a_development_server_gets_the_commands_at_once(simcord_env: Env, tmp_path: Path) -> None:
    guild = simcord_env.create_guild("dev", id=4242 << 22)
    settings = Settings(database=tmp_path / "dev.sqlite3", dev_guild_id=guild.id)
    await restart(simcord_env, settings)
    assert _syncs(simcord_env)[-1].endswith(f"/guilds/{guild.id}/commands")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    result = await alice.slash(channel, "ttr rules", map="india")
    assert "India" in reply_text(result)


# ----- the lobby ---------------------------------------------------------------------


async def test_the_lobby_new_join_leave_start_cancel(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob", "carol"])
    alice, bob, carol = room.members
    opened = await slash(alice, room, "ttr new", map="india", max_players=2)
    assert all_private(opened) and "You opened game #1" in reply_text(opened)
    assert "alice opens an India game for up to 2 players" in message_text(room.public_messages()[-1])
    busy = await slash(bob, room, "ttr new", map="usa")
    assert all_private(busy) and "already has a game" in reply_text(busy)
    early = await slash(alice, room, "ttr start")
    assert "needs at least 2 players" in reply_text(early)
    await slash(bob, room, "ttr join")
    assert "bob joins (2/2)" in message_text(room.public_messages()[-1])
    full = await slash(carol, room, "ttr join")
    assert all_private(full) and "All 2 seats" in reply_text(full)
    not_host = await slash(bob, room, "ttr start")
    assert "Only the host can start" in reply_text(not_host)
    not_host = await slash(bob, room, "ttr cancel")
    assert "Only the host can cancel" in reply_text(not_host)
    await slash(bob, room, "ttr leave")
    assert "bob leaves" in message_text(room.public_messages()[-1])
    status = await slash(carol, room, "ttr status")
    assert all_private(status) and "1/2 seated" in reply_text(status)
    cancelled = await slash(alice, room, "ttr cancel")
    assert "Game #1 is cancelled" in reply_text(cancelled)
    assert "cancelled by the host" in message_text(room.public_messages()[-1])
    nothing = await slash(alice, room, "ttr join")
    assert "There is no game in this channel" in reply_text(nothing) and "/ttr new" in reply_text(nothing)


async def test_start_begins_at_once_and_everyone_chooses_privately(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob", "carol"])
    await turn_dms(room, *room.members[1:])  # bob and carol chose DMs; alice is told by the start's mention
    game_id, started = await open_game(room, "usa", 3)
    assert all_private(started)
    setup = room.stage_message()
    assert "starts!" in message_text(setup) and "Choose my tickets" in str(setup.components)
    info = await room.bot.service.core.game(game_id)
    assert room.dms(room.members[0]) == [] and room.members[0].id in [u.id for u in setup.mentions]
    for member in room.members[1:]:
        dms = [m.content for m in room.dms(member)]
        assert any("Choose your starting tickets" in text for text in dms)
        assert all(info.title in text for text in dms)
    late = await slash(room.members[0], room, "ttr leave")
    assert "Only a game that has not started can be left" in reply_text(late)
    cancel = await slash(room.members[0], room, "ttr cancel")
    assert "only be cancelled by a moderator" in reply_text(cancel)
    # the menu has the right minimum, and "/ttr tickets" shows it again
    result = await slash(room.members[1], room, "ttr tickets")
    menu = next(c for row in result.response.components for c in row["components"])  # type: ignore[union-attr]
    assert menu["min_values"] == 2 and menu["max_values"] == 3


# ----- server settings, moderators and records ---------------------------------------


async def test_config_is_for_server_managers_and_moderators_export_early(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    managers = room.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    mods = room.guild.create_role("Game mods")
    manager = room.add_member("manager", roles=[managers])
    mod = room.add_member("mod", roles=[mods])
    game_id, _ = await open_game(room, "amsterdam", 2, trains=6)

    refused = await slash(room.members[0], room, "ttr config", moderator_role=mods)
    assert all_private(refused) and "manage this server" in reply_text(refused)
    early = await slash(mod, room, "ttr export")
    assert "available once the game is over" in reply_text(early)

    done = await slash(manager, room, "ttr config", moderator_role=mods, log_channel=room.channel)
    assert all_private(done) and f"<@&{mods.id}>" in reply_text(done) and f"<#{room.channel.id}>" in reply_text(done)
    settings = await room.bot.service.store.settings.guild_settings(room.guild.id)
    assert settings == {"moderator_role_id": mods.id, "mod_log_channel_id": room.channel.id}

    for member in (mod, manager):
        result = await slash(member, room, "ttr export")
        assert result.response is not None and result.response.ephemeral
        record = json.loads(await result.response.attachments[0].read())
        assert record["conductor"]["game_id"] == game_id and record["map"] == "amsterdam"
    player_early = await slash(room.members[1], room, "ttr export")
    assert "available once the game is over" in reply_text(player_early)


async def test_rules_name_the_projects_own_boards(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice"])
    alice = room.members[0]
    for name, own in (
        ("usa", False),
        ("india", False),
        ("switzerland", False),
        ("amsterdam", True),
        ("san_francisco", True),
    ):
        text = reply_text(await slash(alice, room, "ttr rules", map=name))
        assert ("Conductor's own" in text) is own, (name, text)
        assert len(text) <= 2000
    swiss = reply_text(await slash(alice, room, "ttr rules", map="switzerland"))
    assert "Tunnels" in swiss and "removed from the game" in swiss


async def test_status_history_board_and_hand(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    game_id, _ = await open_game(room, "san_francisco", 2, trains=6)
    player = Player(room, game_id)
    for _ in range(6):
        await player.step(await player.game())
    alice = room.members[0]
    status = await slash(alice, room, "ttr status")
    assert all_private(status) and "Face up:" in reply_text(status)
    history = await slash(alice, room, "ttr history")
    assert all_private(history) and "Tickets at the start" in reply_text(history)
    board = await slash(alice, room, "ttr board")
    assert all_private(board)
    assert board.response is not None and board.response.attachments[0].description
    hand = await slash(alice, room, "ttr hand")
    assert all_private(hand) and "Your cards" in reply_text(hand) and "Your tickets" in reply_text(hand)
    image = hand.response.attachments[0]  # type: ignore[union-attr]
    assert image.filename == "hand.png" and image.description


def _section(page: str, heading: str) -> str:
    """One section of a docs page: from its heading to the next heading of the same level."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    level = heading.split(" ")[0] + " "
    end = text.find(f"\n{level}", start + len(heading) + 2)
    return text[start : end if end != -1 else len(text)]


async def test_the_readme_lists_every_command(simcord_env: Env) -> None:
    # the command tables moved from the README to the players' and moderators' pages of docs/
    readme = _section("players.md", "## Commands") + _section("moderators.md", "## Moderation commands")
    group = simcord_env.bot.tree.get_command("ttr")  # type: ignore[attr-defined]
    assert isinstance(group, discord.app_commands.Group)
    names = [c.name for c in group.commands]
    assert len(names) >= 16
    for name in names:
        assert f"| `/ttr {name}" in readme, f"/ttr {name} is missing from docs/players.md's command table"
    moderation = simcord_env.bot.tree.get_command("ttrmod")  # type: ignore[attr-defined]
    assert isinstance(moderation, discord.app_commands.Group)
    assert moderation.default_permissions is not None and moderation.default_permissions.manage_guild
    mod_names = [c.name for c in moderation.commands]
    assert set(mod_names) >= {"pause", "resume", "extend", "replace", "autopilot", "undo", "end", "log", "export"}
    for name in mod_names:
        assert f"| `/ttrmod {name}" in readme, f"/ttrmod {name} is missing from docs/moderators.md's command table"
