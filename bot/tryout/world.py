"""The try-out's simulated Discord server: one game channel, the person trying the bot, and friends to switch to.

The world is built afresh at every start, in the same order at the same
simulated instant, so every id (server, channel, members, roles, the bot's
application) is the same each time: the games in the try-out's database go on
after a restart, in the same channel, with the same players.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord
from simcord import ChannelHandle, Env, GuildHandle, MemberActor

from bot.service.kinds import Language

SERVER_NAME = "Conductor try-out"
CHANNEL_NAME = "games"
BOT_NAME = "Conductor"
FRIENDS = ("Robin", "Sam", "Kim", "Noor")
# the Discord locale of the server (its public texts) for each of the bot's languages
DISCORD_LOCALES = {Language.EN: "en-US", Language.SV: "sv-SE", Language.FI: "fi"}


@dataclass(frozen=True)
class World:
    """The server as the try-out built it: the person first, then the friends."""

    guild: GuildHandle
    channel: ChannelHandle
    person: MemberActor
    friends: tuple[MemberActor, ...]

    @property
    def members(self) -> tuple[MemberActor, ...]:
        return (self.person, *self.friends)


def build_world(env: Env, *, name: str, friends: int, language: Language) -> World:
    """Create the server in `env` (before the bot starts, at SimCord's first instant: the ids never change).

    The person has Manage Server (a role), so `/ttr config` and `/ttrmod`
    work for them as for a server's owner; the friends are plain members.
    Every name is created whatever `friends` is, so the ids stay the same
    when a restart asks for fewer or more friends (only the first `friends`
    join the server).
    """
    env.backend.edit_bot_profile(BOT_NAME)
    person_user = env.create_user(name)
    friend_users = [env.create_user(friend) for friend in FRIENDS]
    guild = env.create_guild(SERVER_NAME, preferred_locale=DISCORD_LOCALES[language])
    hosts = guild.create_role("Hosts", permissions=discord.Permissions(manage_guild=True))
    channel = guild.create_text_channel(CHANNEL_NAME)
    person = guild.add_member(person_user, roles=[hosts])
    members = tuple(guild.add_member(user) for user in friend_users[:friends])
    return World(guild, channel, person, members)
