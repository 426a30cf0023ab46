"""Munchkin for reinforcement learning (the `munchkin[rl]` extra): a PettingZoo AEC environment
(`munchkin.rl.env`), a Gymnasium single-agent wrapper (`munchkin.rl.single`), the fixed action
catalogue (`munchkin.rl.catalogue`) and the observation encoding (`munchkin.rl.encoding`). See docs/rl.md.

Everything here sits on the engine's public interface: a seat is given only what `Game.view(seat)`
shows it, and acts only through `legal_actions` / `apply`.
"""
