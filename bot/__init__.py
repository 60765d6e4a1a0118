"""Conductor's bot layer: store, game service, Discord cogs and the CLI."""
