"""Urban Panic (2–4 players): basic, advanced and party variants.

Spec: the Urban Panic rules specification. The legend and the tiles' passage patterns are a
reconstruction loaded from ``legend.json`` and ``tiles.json``; the goal cards from ``goals.json``.
``rules.RULES`` is the game object; ``calculator.score_text`` scores a physical game's city.
"""
