"""Mutations of untrusted inputs, shared by the fuzz tests and scripts/fuzz_inputs.py.

A mutation takes the bytes of a real input (a shipped file, a save) and damages
them the way a hostile or careless hand would: flipped and inserted bytes, cut
and repeated spans, and tokens known to upset parsers.
"""

from __future__ import annotations

import random

# Tokens that have broken parsers before (issue 16) or often do.
NASTY = [
    b"9" * 5000, b"0x_", b"\x00", b"\xff\xfe", b"*a", b"&a ", b"!!python/object:os.system ",
    b"[" * 200, b"{", b"? [a]\n", b"<<: ", b"\t", b"\n  ", b"\n      ", b"---\n", b"%YAML 1.1\n",
    b"\x1b[31m", b"'", b'"', b"|", b"-", b":", b"[100000000]", b"\n" + b"x" * 100_000,
    b"1e999", b"-0", b"null", b"true", b"[]", b"{}", b"@ghost.foo", b"activate(here)",
]


def mutate(data: bytes, rng: random.Random, rounds: int | None = None) -> bytes:
    """``data`` damaged by one to four random edits."""
    out = bytearray(data)
    for _ in range(rounds or rng.randint(1, 4)):
        pos = rng.randint(0, len(out))
        kind = rng.randrange(7)
        if kind == 0 and out:  # flip one byte
            out[min(pos, len(out) - 1)] ^= 1 << rng.randrange(8)
        elif kind == 1:  # insert random bytes
            out[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif kind == 2:  # delete a span
            del out[pos:pos + rng.randint(1, 40)]
        elif kind == 3:  # repeat a span
            span = out[pos:pos + rng.randint(1, 40)]
            out[pos:pos] = span * rng.randint(1, 8)
        elif kind == 4:  # a nasty token
            out[pos:pos] = rng.choice(NASTY)
        elif kind == 5:  # swap two lines
            lines = out.split(b"\n")
            if len(lines) > 2:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                out = bytearray(b"\n".join(lines))
        else:  # cut the end
            del out[pos:]
    return bytes(out)


def mutate_text(text: str, rng: random.Random) -> str:
    """Like :func:`mutate`, for text (damaged bytes decoded with replacement)."""
    return mutate(text.encode("utf-8"), rng).decode("utf-8", "replace")
