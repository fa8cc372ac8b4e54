"""The `marketfold` command: serve, worker, bot, demo, verify."""
