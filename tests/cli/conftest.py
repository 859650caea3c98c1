from tests.fakediscord.fixtures import bot_process, fake_discord

__all__ = ["bot_process", "fake_discord"]
