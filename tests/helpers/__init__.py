"""Helpers shared by the store and service tests."""
