"""The thin layer between the Discord tests and SimCord (an in-memory Discord running the real discord.py).

Tests use these helpers only (and the fixtures `bot_settings`, `game_seed` and
`simcord_bot` of tests/conftest.py, made of them), so that SimCord can be swapped or
upgraded in one place: a guild with a games channel and members, slash
commands, clicks and menu choices by custom-id prefix, and the replies, DMs
and public messages they produce.

Time is SimCord's: the bot's game service reads `sim_clock` (SimCord runs
discord.py's clock on its simulated time, so it is `env.now()`), and the
scheduler sleeps with asyncio.sleep, which `env.advance_time` moves. So
`await env.advance_time(3600)` is an hour of the turn clocks, with every
deadline and reminder in it fired on the way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord
import simcord.actors as simcord_actors
import simcord.interactions as simcord_interactions
from simcord import Env, InteractionResult, MemberActor, ResponseMessage
from simcord.builders import ChannelHandle, GuildHandle

from bot import Settings, create_bot
from bot.runtime.app import ConductorBot

Message = discord.Message | ResponseMessage


# seconds between the bot's heartbeats: each is a step of simulated time, so fewer than the real bot's
SIM_HEARTBEAT = 10 * 60


def sim_clock() -> datetime:
    """SimCord's simulated time (`env.now()`): SimCord runs discord.py's clock on it, for the bot and the tests."""
    return discord.utils.utcnow()


async def restart(env: Env, settings: Settings | None = None, *, down_for: float = 0) -> ConductorBot:
    """Stop the running bot and start a new one (on the same database by default), as after a crash or a deploy.

    `down_for`: seconds the bot is down in between. SimCord swaps bots in one
    step, so the downtime is simulated: the old bot's scheduler is stopped
    first (no timer of the old process fires any more; its last heartbeat is
    written), then time moves on, then the new bot starts: it moves the
    running clocks on by the downtime (bot/runtime/scheduler.py).
    """
    old = env.bot
    assert isinstance(old, ConductorBot)
    await old.scheduler.stop()
    if down_for:
        await env.advance_time(down_for)
    new = create_bot(settings or old.settings, clock=old.clock, heartbeat=old.heartbeat)
    await env.restart_bot(new)
    await old.close()
    return new


@dataclass
class Room:
    """A server with a games channel and its members."""

    env: Env
    guild: GuildHandle
    channel: ChannelHandle
    members: list[MemberActor]

    @property
    def bot(self) -> ConductorBot:
        bot = self.env.bot
        assert isinstance(bot, ConductorBot)
        return bot

    def member(self, user_id: int) -> MemberActor:
        return next(m for m in self.members if m.id == user_id)

    def add_member(self, name: str, **kwargs: Any) -> MemberActor:
        member = self.guild.add_member(self.env.create_user(name), **kwargs)
        self.members.append(member)
        return member

    def public_messages(self) -> list[discord.Message]:
        """What anyone reading the channel sees (no ephemeral replies)."""
        return [m for m in self.channel.history() if not m.flags.ephemeral]

    def stage_message(self) -> discord.Message:
        """The newest public message with buttons: the live turn (or setup) message."""
        for message in reversed(self.public_messages()):
            if custom_ids(message):
                return message
        raise AssertionError("no message with buttons in the channel")

    def dms(self, member: MemberActor) -> list[discord.Message]:
        return member.user.dm_channel.history()


def make_room(env: Env, names: Sequence[str]) -> Room:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in names]
    return Room(env, guild, channel, members)


# ----- locales: SimCord 3.2.1 sends "en-US" for every interaction; here each member's client has its own --------

_LOCALES = "_conductor_locales"  # backend attribute: user id -> the Discord locale of that member's client
_sim_base_payload = simcord_interactions.base_payload


def _base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """SimCord's interaction payload, with the member's client locale and the server's preferred locale."""
    record, payload = _sim_base_payload(backend, **kwargs)
    locale = getattr(backend, _LOCALES, {}).get(kwargs["user_id"])
    if locale is not None:
        payload["locale"] = locale
    guild_id = kwargs.get("guild_id")
    if guild_id is not None:
        payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
    return record, payload


simcord_interactions.base_payload = _base_payload  # SimCord's actors call it through the module


def set_locale(env: Env, member: MemberActor, locale: str) -> None:
    """From now on every interaction of this member comes from a Discord client in `locale` ("sv-SE", "fi")."""
    locales: dict[int, str] = env.backend.__dict__.setdefault(_LOCALES, {})
    locales[member.id] = locale


def make_room_in(env: Env, names: Sequence[str], *, guild_locale: str, locale: str | None = None) -> Room:
    """A room whose server prefers `guild_locale` in Discord; its members' clients speak `locale` (if given)."""
    guild = env.create_guild(preferred_locale=guild_locale)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in names]
    if locale is not None:
        for member in members:
            set_locale(env, member, locale)
    return Room(env, guild, channel, members)


async def slash(member: MemberActor, room: Room, command: str, /, **options: Any) -> InteractionResult:
    return await member.slash(room.channel, command, **options)


def replies(result: InteractionResult) -> list[ResponseMessage]:
    """The messages an interaction answered with, first to last."""
    seen: dict[int, ResponseMessage] = {}
    if result.response is not None:
        seen[result.response.id] = result.response
    for message in result.followups:
        seen.setdefault(message.id, message)
    return [seen[k] for k in sorted(seen)]


def reply_text(result: InteractionResult) -> str:
    return "\n".join(m.content for m in replies(result))


def all_private(result: InteractionResult) -> bool:
    return all(m.ephemeral for m in replies(result))


def _walk(items: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """Every component of a message or of a request's body (as the wire's dicts), nested ones too: a container's,
    an action row's, a section's (and its accessory)."""
    for item in items:
        data = item if isinstance(item, dict) else item.to_dict()
        yield data
        yield from _walk(data.get("components") or [])
        if isinstance(data.get("accessory"), dict):
            yield from _walk([data["accessory"]])


def body_text(body: Any) -> str:
    """The words of a message the bot sent (a request's body): its content, or its layout's texts, in order."""
    body = body if isinstance(body, dict) else {}
    texts = [str(body.get("content") or "")]
    texts += [str(c["content"]) for c in _walk(body.get("components") or []) if c.get("type") == 10]
    return "\n".join(t for t in texts if t)


def message_text(message: Message) -> str:
    """The words of a message: its content, or its layout's texts (components v2 carry no content), in order."""
    texts = [message.content or ""]
    texts += [str(c["content"]) for c in _walk(message.components) if c.get("type") == 10]
    return "\n".join(t for t in texts if t)


def layout_of(message: Message) -> dict[str, Any] | None:
    """A layout message's container (the wire's dict), None if the message is no layout."""
    if not message.flags.value & discord.MessageFlags.components_v2.flag:
        return None
    return next((c for c in _walk(message.components) if c.get("type") == 17), None)


def gallery_of(message: Message) -> list[dict[str, Any]]:
    """The items of a layout message's media galleries: each its media (url) and description (alt text)."""
    return [item for c in _walk(message.components) if c.get("type") == 12 for item in c.get("items") or []]


def button_labels(message: Message) -> list[str]:
    """The labels of a message's buttons, in order (in its action rows, or in its layout's)."""
    return [str(c.get("label") or "") for c in _walk(message.components) if c.get("type") == 2]


def custom_ids(message: Message) -> list[str]:
    out: list[str] = []

    def walk(items: Iterable[Any]) -> None:
        for item in items:
            data = item if isinstance(item, dict) else item.to_dict()
            if data.get("custom_id"):
                out.append(str(data["custom_id"]))
            walk(data.get("components") or [])

    walk(message.components)
    return out


def select_options(message: Message, prefix: str) -> list[dict[str, Any]]:
    def walk(items: Iterable[Any]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for item in items:
            data = item if isinstance(item, dict) else item.to_dict()
            if str(data.get("custom_id", "")).startswith(prefix):
                found.extend(data.get("options") or [])
            found.extend(walk(data.get("components") or []))
        return found

    return walk(message.components)


def find_id(message: Message, prefix: str) -> str:
    found = [c for c in custom_ids(message) if c.startswith(prefix)]
    if not found:
        raise AssertionError(f"no component {prefix!r}* on the message; it has {custom_ids(message)}")
    return found[0]


def panel(result: InteractionResult, prefix: str) -> ResponseMessage:
    """The reply of an interaction that holds a component whose custom id starts with `prefix`."""
    for message in reversed(replies(result)):
        if any(c.startswith(prefix) for c in custom_ids(message)):
            return message
    raise AssertionError(f"no reply with a component {prefix!r}*: {reply_text(result)!r}")


async def click(member: MemberActor, message: Message, prefix: str) -> InteractionResult:
    return await member.click(message, custom_id=find_id(message, prefix))


async def choose(member: MemberActor, message: Message, prefix: str, values: Sequence[str]) -> InteractionResult:
    return await member.select(message, list(values), custom_id=find_id(message, prefix))


async def forge_choice(
    member: MemberActor, message: Message, custom_id: str, values: Sequence[str]
) -> InteractionResult:
    """A menu choice as a modified client could send it: any custom id and values, none of them checked.

    SimCord (like Discord) refuses values a menu does not offer, so this goes
    one step below `member.select`, to the interaction it would send.
    """
    stored = simcord_actors._visible_message(member, message)
    data = {"custom_id": custom_id, "component_type": discord.ComponentType.string_select.value, "values": list(values)}
    return await simcord_actors._component_interaction(member, stored, data)


def close_dms(env: Env, member: MemberActor) -> None:
    """From now on Discord refuses DMs to this member (403, code 50007), as when they closed them."""
    channel = member.user.dm_channel
    env.inject_error(
        "POST",
        f"/channels/{channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


def fail_requests(
    env: Env, method: str, path: str, *, status: int = 500, code: int = 0, times: int | None = None
) -> Callable[[], None]:
    """Make Discord fail the matching requests (`path` an fnmatch pattern; every one of them by default).

    Returns what ends the failure (as when Discord recovers), if it has not ended by itself after `times`.
    """
    env.inject_error(method, path, status=status, code=code, times=times)
    fault = env.backend.faults[-1]

    def recover() -> None:
        if fault in env.backend.faults:
            env.backend.faults.remove(fault)

    return recover


def keep_buttons(env: Env, message: Message) -> Callable[[], None]:
    """Make Discord fail every edit of this (stage) message, so that it keeps its buttons when a newer one is posted.

    The bot takes the buttons off an older turn message; when that edit fails
    (a flaky Discord), the old buttons stay and a click on them must be
    refused as out of date. Returns what ends the failure.
    """
    return fail_requests(env, "PATCH", f"/channels/{message.channel.id}/messages/{message.id}")


def fail_answers(env: Env, times: int = 1) -> Callable[[], None]:
    """Make Discord fail the bot's next `times` answers to interactions (after their acknowledgement)."""
    return fail_requests(env, "POST", "/webhooks/*", status=404, code=10015, times=times)


def fail_channel(env: Env, channel: ChannelHandle, times: int | None = None) -> Callable[[], None]:
    """Make Discord fail the bot's posts in a channel (all of them until recovered, by default)."""
    return fail_requests(env, "POST", f"/channels/{channel.id}/messages", times=times)


async def reconnect(env: Env, event: str = "resumed") -> None:
    """The bot's gateway session comes back after a loss: `resumed`, or a new session's `ready`."""
    with env._bot_scope():  # as SimCord's gateway feeds events: the work they start is the bot's, and awaited
        env.bot.dispatch(event)
    await env.settle()


def dm_attempts(env: Env, member: MemberActor) -> int:
    """How many times the bot tried to DM this member."""
    channel = member.user.dm_channel
    return sum(1 for r in env.http_requests if r.method == "POST" and r.path == f"/channels/{channel.id}/messages")


def posted_texts(env: Env, channel: ChannelHandle) -> list[str]:
    """The text of every message the bot tried to post in a channel, deleted ones included, oldest first."""
    out = []
    for r in env.http_requests:
        if r.method == "POST" and r.path == f"/channels/{channel.id}/messages" and isinstance(r.json, dict):
            out.append(body_text(r.json))
    return out


def table_texts(env: Env, channel: ChannelHandle) -> list[tuple[str, list[dict[str, Any]]]]:
    """What the bot posted or edited into the channel's messages with an image, oldest first: (text, attachments).

    At the table (the default) a game's turns are shown by one message, edited after every move: its edits
    are its history."""
    out = []
    for r in env.http_requests:
        if r.path.startswith(f"/channels/{channel.id}/messages") and r.method in ("POST", "PATCH"):
            body = r.json if isinstance(r.json, dict) else {}
            if body.get("attachments"):
                out.append((body_text(body), list(body["attachments"])))
    return out


async def turn_messages(room: Room) -> None:
    """The room's server plays with a message per turn (the style before the table, `turn_messages` on)."""
    await room.bot.service.settings.set_guild_config(room.guild.id, "turn_messages", True)


async def turn_dms(room: Room, *members: MemberActor) -> None:
    """These members chose a "your turn" DM on every turn (`/ttr settings turn_dms:every`)."""
    for member in members:
        result = await slash(member, room, "ttr settings", turn_dms="every")
        assert all_private(result), reply_text(result)


def dm_texts(room: Room, member: MemberActor) -> list[str]:
    return [m.content for m in room.dms(member)]


async def attachment(result: InteractionResult) -> tuple[str, bytes]:
    """The name and bytes of the first file an interaction answered with."""
    for message in replies(result):
        if message.attachments:
            file = message.attachments[0]
            return file.filename, await file.read()
    raise AssertionError(f"no file in the answer: {reply_text(result)!r}")


def allow_command(room: Room, command: str, targets: dict[Any, bool]) -> None:
    """A command's permission overrides in the server (what an admin sets under Server Settings > Integrations)."""
    found = room.env.backend.find_command(command, room.guild.id)
    assert found is not None, f"no command /{command}"
    room.guild.set_command_permissions(int(found["id"]), targets)


def can_use(member: MemberActor, room: Room, command: str) -> bool:
    """Would Discord let this member run the command in the room's channel?"""
    return command in member.available_commands(room.channel)


@dataclass
class Moderation:
    """A server set up for moderation: a moderator role and a member with it, a log channel, a server manager."""

    role: Any
    moderator: MemberActor
    manager: MemberActor
    log: ChannelHandle

    def log_lines(self) -> list[str]:
        return [m.content for m in self.log.history()]


async def moderate(room: Room) -> Moderation:
    """Give the room's server a moderator role (opened to `/ttrmod` by the admin), a moderator and a log channel."""
    managers = room.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    manager = room.add_member("manager", roles=[managers])
    role = room.guild.create_role("Game mods")
    moderator = room.add_member("mod", roles=[role])
    log = room.guild.create_text_channel("mod-log")
    result = await slash(manager, room, "ttr config", moderator_role=role, log_channel=log)
    assert "Settings of this server" in reply_text(result), reply_text(result)
    allow_command(room, "ttrmod", {role: True})
    return Moderation(role, moderator, manager, log)


async def end_game(mods: Moderation, room: Room, **options: Any) -> InteractionResult:
    """`/ttrmod end` with `options`, confirmed with its button: the answer to the press."""
    question = await slash(mods.moderator, room, "ttrmod end", **options)
    return await click(mods.moderator, panel(question, "ttrmod:end:yes"), "ttrmod:end:yes")
