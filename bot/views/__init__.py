"""Buttons and menus: persistent components whose custom ids carry the game, its version and the choice."""
