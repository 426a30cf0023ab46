"""Agents: each picks one legal action for its seat."""

from munchkin.agents.base import Agent, make_agent
from munchkin.agents.random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent", "make_agent"]
