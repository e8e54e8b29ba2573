"""Stable piece slot ids (gpids): a function of the game and the counter's id, not of its rank.

VASSAL's "Refresh Counters" maps each piece of a saved game back to the palette slot with the same gpid.
Numbering slots by sorted order renumbered every slot after an added counter, so a refresh after a
module update gave pieces the wrong definitions. Here each key's slot id comes from a hash of
(game id, key); a collision (about one in a million per added counter) moves the later key of the
two, in key order, to its next hash, so only the colliding pair can be affected.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

FIRST_ID = 1_000_000
SPAN = 999_000_000
"""Slot ids lie in [FIRST_ID, FIRST_ID + SPAN): numeric, as the engine's GpIdChecker needs, and below
2**31 so that the module's `nextPieceSlotId` (the largest plus one) stays a Java int."""


def _candidate(game_id: str, key: str, attempt: int) -> int:
    text = f"{game_id}\0{key}\0{attempt}".encode()
    return FIRST_ID + int.from_bytes(hashlib.sha256(text).digest()[:8], "big") % SPAN


def slot_ids(game_id: str, keys: Iterable[str]) -> dict[str, int]:
    """Each key's slot id, unique within the game; the same key of the same game always gets the same
    id whatever other keys there are, unless one of them hashes to the very same number."""
    taken: dict[int, str] = {}
    out: dict[str, int] = {}
    for key in sorted(set(keys)):
        attempt = 0
        while (gpid := _candidate(game_id, key, attempt)) in taken:
            attempt += 1
        taken[gpid] = key
        out[key] = gpid
    return out


def counter_key(counter_id: str) -> str:
    """The key of a counter's slot (other slots use keys that no counter id can take)."""
    return "counter:" + counter_id
