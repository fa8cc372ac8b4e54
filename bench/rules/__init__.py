"""The pure rules, no Redis or HTTP: games per second and fold time per event (speed),
the computer players' strength and cost (computer_players)."""
