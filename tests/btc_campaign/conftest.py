"""Fixtures: campaigns over the shared test service (fake clock, fixed seeds)."""

from __future__ import annotations

import pytest

from bot.btc_campaigns import Campaigns
from bot.composition import compose
from bot.service import Service


@pytest.fixture
def campaigns(service: Service) -> Campaigns:
    """The campaigns feature as the composition root builds and subscribes it."""
    return compose(service).campaigns
