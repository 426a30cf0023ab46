"""Munchkin: a rules engine (`munchkin.engine`, pure rules, no I/O) and what plays it.

Importing the package hands the engine its card definitions: the YAML set files read by
`munchkin.cards.loader`. The engine never imports the loader; this is the one place they meet."""

from munchkin.cards.loader import load_set
from munchkin.engine.cards import provide_sets

provide_sets(load_set)
