"""Farlander bots. The strong bot is filled in below."""
