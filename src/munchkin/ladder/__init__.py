"""The ladder: seat-rotated games among agents, read as Plackett-Luce ratings (`munchkin ladder`).

`schedule` says who sits where in each game (every agent in every seat equally often, the pairs
meeting about equally), `games` plays one game and times each agent's decisions, `ratings` reads the
finished games, in game order, into ratings and tables, `report` writes the folder, and `command`
is the command line. docs/ladder.md says how to read the report.
"""
