"""Benchmark modules: each exposes figures(quick: bool = False) -> dict, gathered by python -m bot.bench."""
