"""Players' names as a ``.mat`` record holds them (:mod:`bg_env.records`).

GNU Backgammon reads a name from the score line up to the colon and keeps at most 31
bytes of it (its ``MAX_NAME_LEN`` is 32 with the terminating zero), cut anywhere, even
inside a UTF-8 character; a ``,digits`` after a name is read as a rating. The score line
therefore gets the name with ``:``, ``,``, white space and control characters turned to
``_``, cut to 31 UTF-8 bytes on a character boundary; the second player's name, when it
would be the first's, gets ``_2``. The ``; [Player N "..."]`` comments keep the full names,
control characters (a newline would end the comment) turned to spaces.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MAX_NAME_BYTES", "comment_name", "mat_name", "score_line_names"]

MAX_NAME_BYTES = 31
"""The longest name, in UTF-8 bytes, GNU Backgammon reads from a score line."""


def _is_control(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def _cut_utf8(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-8 bytes, on a character boundary."""
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def mat_name(name: str) -> str:
    """``name`` as a ``.mat`` score line holds it: no ``:``, ``,``, white space nor control
    characters (each turned to ``_``), at most 31 UTF-8 bytes."""
    text = "".join("_" if _is_control(c) else c for c in str(name))
    text = _cut_utf8(re.sub(r"[:,\s]", "_", text), MAX_NAME_BYTES)
    return text or "_"


def score_line_names(players: tuple[str, str]) -> tuple[str, str]:
    """The two score-line names (:func:`mat_name`), the second made distinct with ``_2``
    when they would be equal (GNU Backgammon would take them for one player)."""
    first, second = mat_name(players[0]), mat_name(players[1])
    if second == first:
        second = _cut_utf8(second, MAX_NAME_BYTES - 2) + "_2"
    return first, second


def comment_name(name: str) -> str:
    """``name`` for a ``; [Player N "..."]`` comment: control characters turned to spaces."""
    return "".join(" " if _is_control(c) else c for c in str(name))
