"""The Discord front end's parts, wired together once per bot; the cogs and the clock's notifier use them."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.service import GameService
from bot.table.controls import Controls
from bot.table.delivery import Delivery
from bot.table.languages import Languages
from bot.table.lobby import Lobby
from bot.table.lookup import Lookup
from bot.table.notify import Notifier
from bot.table.outbox import Outbox
from bot.table.play import Play
from bot.table.stage import StageMessages


@dataclass(frozen=True)
class Front:
    service: GameService
    lookup: Lookup
    stage: StageMessages
    delivery: Delivery
    lobby: Lobby
    play: Play
    controls: Controls
    languages: Languages

    @classmethod
    def build(cls, client: discord.Client, service: GameService) -> Front:
        # each part of the front is handed the parts of the service it uses (their Protocols list them)
        lookup = Lookup(service.reading, service.front)
        notifier = Notifier(client, service.reading, service.members, service.front)
        languages = Languages(client, service.members, service.settings)
        stage = StageMessages(client, service, notifier, languages=languages)
        delivery = Delivery(client, service, notifier, stage, Outbox(client), languages)
        play = Play(service, delivery)
        lobby = Lobby(service, lookup, delivery)
        controls = Controls(lookup, play, stage, lobby)
        return cls(service, lookup, stage, delivery, lobby, play, controls, languages)

    def close(self) -> None:
        """Stop posting again what Discord failed to take (the bot is closing)."""
        self.stage.close()
        self.delivery.outbox.close()
