"""A strategy for the bot-hook test: never bid; take the first choice otherwise."""


def never_bid(game: dict, actions: list[dict], rng) -> dict:
    """Pass whenever passing is allowed, else take the first listed choice."""
    by_type = {a["type"]: a for a in actions}
    if "pass" in by_type:
        return {"type": "pass"}
    first = actions[0]
    return first["choices"][0]
