"""The web pages of the bot (issue 28): an aiohttp server in the bot's process that shows public views only."""
