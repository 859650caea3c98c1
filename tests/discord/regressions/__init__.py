"""Regression tests from a review of the turn flow: each failed before its fix."""
