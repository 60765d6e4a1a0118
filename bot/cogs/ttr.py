"""The `/ttr` command group, shared by the cogs of its features.

Discord sees one command, `/ttr`, with a subcommand per action. discord.py
builds a group from one class (a `GroupCog`, or a `Group` attribute of one
cog); so that each feature has a cog of its own, the bot makes the `/ttr`
group once (`ttr_group`) and every `/ttr` cog (a `TtrCog`) moves its slash
commands into it when it is made. The commands stay bound to their cog (the
callbacks and autocompletes get the cog as `self`), and `Group.add_command`
refuses two subcommands of one name. The cogs are made in the order in which
Discord lists their subcommands.
"""

from __future__ import annotations

from collections.abc import Sequence

from discord import app_commands
from discord.ext import commands


def ttr_group() -> app_commands.Group:
    return app_commands.Group(name="ttr", description="Play Ticket to Ride in this channel", guild_only=True)


class TtrCog(commands.Cog):
    """A cog whose slash commands are subcommands of the shared `/ttr` group."""

    def __init__(self, ttr: app_commands.Group) -> None:
        for command in self.get_app_commands():
            ttr.add_command(command)


async def add_ttr_cogs(bot: commands.Bot, ttr: app_commands.Group, cogs: Sequence[TtrCog]) -> None:
    """Put `/ttr` in the bot's command tree, with the subcommands of `cogs`."""
    bot.tree.add_command(ttr)
    for cog in cogs:
        # Adding a cog adds its commands' root to the tree: that is `ttr`, there already. `override` lets
        # discord.py put the same group in its own place (it would also replace a cog of the same class name:
        # each cog has its own); a second `/ttr` subcommand of one name is refused by `TtrCog`.
        await bot.add_cog(cog, override=True)
