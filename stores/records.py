"""What the ports that keep a player's records as JSON in a hash share (stores/webhooks.py,
stores/push.py): their order."""

from __future__ import annotations

import json
from typing import Any


def oldest_first(records: Any) -> list[dict[str, Any]]:
    """Records (dicts, or their JSON) sorted by their `created`."""
    loaded = (json.loads(r) if isinstance(r, (str, bytes)) else r for r in records)
    return sorted(loaded, key=lambda r: r["created"])
