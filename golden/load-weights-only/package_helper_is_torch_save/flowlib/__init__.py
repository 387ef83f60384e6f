"""Flows."""
