"""Every value limit on untrusted input, in one place.

Content, variants, scenarios, table files and saves come from other people.
Sizes are capped in bytes, nodes and nesting, and every value is capped too, so
a small file can neither exhaust memory nor hang a command. docs/limits.md
lists these numbers and what happens past each; change them here only.
"""

from __future__ import annotations

# ---- files -------------------------------------------------------------------------------------
MAX_FILE_BYTES = 200_000  # a content, rules, scenario or table file (the largest shipped: 8 KB)
MAX_SAVE_BYTES = 20_000_000  # a saved game (a long game records a few thousand decisions)
MAX_FOLDER_DEPTH = 32  # folders nested in a content folder
MAX_FOLDER_ENTRIES = 100_000  # files and folders walked under one content folder
MAX_PATH_CHARS = 4_096  # a path named in a file (a scenario's content:)

# ---- YAML ----------------------------------------------------------------------------------------
MAX_DEPTH = 32  # nested maps and lists
MAX_SCALAR_CHARS = 20_000  # one value's text
MAX_NODES = 20_000  # values in one file

# ---- numbers in any parser -----------------------------------------------------------------------
MAX_INT_DIGITS = 15  # an integer written in a file (YAML, table token, effect literal, save)

# ---- table files ---------------------------------------------------------------------------------
MAX_HAND = 200  # cards left in a hand (the deck has fewer)
# tucked cards under an artifact: at most the deck's size, and only under an artifact that tucks

# ---- saves ---------------------------------------------------------------------------------------
MAX_DECISIONS = 100_000  # decisions recorded in one save
MAX_NAME_CHARS = 40  # a player's name
MIN_SEATS, MAX_SEATS = 1, 5  # seats in a saved game (solo to five players); the rules
# file then says which counts it plays (engine/flow.py: check_playable)
# seeds are whole numbers from -MAX_SEED to MAX_SEED: every seed of at most 15 digits,
# so a seed that plays is one a save, a scenario and every parser read back
MAX_SEED = 10**MAX_INT_DIGITS - 1
MAX_PREVIOUS_SAVES = 20  # numbered *.previous*.json files kept beside one save

# ---- effects at run time -------------------------------------------------------------------------
MAX_EFFECT_INT = 10**12  # any number an effect computes
MAX_EFFECT_LIST = 10_000  # elements of any list an effect builds
MAX_ACTIVATE_DEPTH = 8  # locations activated from inside other activations (deeper: nothing)

# ---- games -----------------------------------------------------------------------------------
MAX_GAME_ROUNDS = 60  # rounds of one game: a fixed count (final_round.rounds) is at most
# this, and a game whose rules have not ended it by then ends (the stuck-game guard)

# ---- error messages ------------------------------------------------------------------------------
MAX_QUOTED_CHARS = 120  # characters of a line quoted under an error, around the caret


def int_too_long(digits: str) -> bool:
    """True if a run of digits (sign, ``_`` and a ``0x`` prefix ignored) is too long."""
    body = digits.lstrip("+-").replace("_", "")
    if body[:2].lower() == "0x":
        body = body[2:]
    return len(body.lstrip("0")) > MAX_INT_DIGITS

# ---- simulate runs -------------------------------------------------------------------------------
MAX_SIM_GAMES = 1_000_000  # --games: games in each cell (variant at a player count)
MAX_SIM_TOTAL = 10_000_000  # games in one run, over every cell
MAX_SIM_WORKERS = 64  # --workers (each local worker is a process of ~55 MB)
RAY_CONNECT_SECONDS = 8  # a Ray cluster address that does not answer within this fails
