"""Per-game presenters: labels, pictures and status lines for Discord."""
