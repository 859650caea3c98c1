"""Between Two Cities: 3-7 players, the official 2-player variant, and solo against two Automas.

The rules object is :data:`bot.rules.btc.rules.RULES` (spec:
shared/rules/between-two-cities.md).
"""
