"""marketfold next to boardgame.io on the same machine (issue #34.2): the peer's game and
server (Node, boardgame.io 0.50), the one driver that plays both (driver.cjs, whose header
says how to run it), and `report`, its section of docs/performance.md for run_all."""
