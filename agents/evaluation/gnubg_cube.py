"""GNU Backgammon's own cube verdicts: the reference of the cube benchmark
(``benchmarks/cube_agreement.py``).

The ``gnubg`` package (GNU Backgammon as a Python module, GPL-3.0; the optional
``cube-reference`` extra, ``pip install gnubg==1.1.0a16``; never imported by bg_env) answers
``hint`` for a position before the roll with its cube analysis: the cubeful equities of
no double, double/take and double/pass, and the proper cube action. :class:`GnubgCube`
asks it (0-ply by default, the Jacoby rule and beavers off in money play, as in
:class:`~bg_env.game.game.Rules`' defaults) and :func:`parse_cube_analysis` reads the
answer. Positions are handed over as XGIDs (:func:`bg_env.rules.match_id.to_xgid`).

The verdict's :attr:`CubeVerdict.kind` is one of :data:`KINDS`: "no double" (gnubg:
"No double, take", "No redouble, take"; in a match also "Never double, take (dead
cube)"), "double, take", "double, pass" and "too good" ("Too good to double, pass":
playing on for the gammon is worth more than a pass), or :data:`OPTIONAL` where doubling
and not doubling are worth the same ("Optional double, pass": the benchmark leaves those
out).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from dataclasses import dataclass

from bg_env.rules.match_id import MatchState, to_xgid
from bg_env.rules.position import Position

__all__ = ["KINDS", "OPTIONAL", "CubeVerdict", "GnubgCube", "parse_cube_analysis", "kind_of"]

KINDS = ("no double", "double, take", "double, pass", "too good")
"""The four cube verdicts, in the order of the benchmark's tables."""
OPTIONAL = "optional"
"""The verdict where doubling and not doubling are worth the same."""

_EQUITY = re.compile(r"^\s*\d\.\s+(No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass))\s+"
                     r"([+-]\d+\.\d+)", re.MULTILINE)
_PROBABILITIES = re.compile(r"^\s*(-?\d\.\d+) -?\d\.\d+ -?\d\.\d+ - -?\d\.\d+",
                            re.MULTILINE)
_PROPER = re.compile(r"^Proper cube action:\s*(.+?)\s*(?:\([^)]*\))?\s*$", re.MULTILINE)


@dataclass(frozen=True)
class CubeVerdict:
    """gnubg's cube analysis of a position before the roll (equities of the player on
    roll, cubeful, per unit of the cube now)."""

    kind: str
    """One of :data:`KINDS`, or :data:`OPTIONAL`."""
    action: str
    """gnubg's words: ``"No redouble, take"``, ``"Double, pass"``, ..."""
    no_double: float
    double_take: float
    double_pass: float
    win: float
    """The player on roll's cubeless chance to win."""

    @property
    def doubles(self) -> bool:
        """The player on roll should double (or may: :data:`OPTIONAL`)."""
        return self.kind in ("double, take", "double, pass", OPTIONAL)

    @property
    def takes(self) -> bool:
        """The opponent should take a double (gnubg's words end "take")."""
        return self.action.lower().endswith("take")


def kind_of(action: str) -> str:
    """The :data:`KINDS` entry (or :data:`OPTIONAL`) of gnubg's proper cube action.

    Raises:
        ValueError: words gnubg does not give for a money or match cube decision.
    """
    words = action.strip().lower()
    if words.startswith("too good"):
        return "too good"
    if words.startswith("optional"):
        return OPTIONAL
    if words.startswith(("no double", "no redouble", "never double", "never redouble")):
        return "no double"
    if words in ("double, take", "redouble, take"):
        return "double, take"
    if words in ("double, pass", "redouble, pass"):
        return "double, pass"
    raise ValueError(f"cube action {action!r}: not one gnubg gives for a live cube")


def parse_cube_analysis(text: str) -> CubeVerdict:
    """The verdict in the text gnubg's ``hint`` prints for a cube decision.

    Raises:
        ValueError: the text holds no cube analysis (naming what is missing).
    """
    equities = {}
    for label, value in _EQUITY.findall(text):
        equities[label.lower().replace("redouble", "double")] = float(value)
    proper, win = _PROPER.search(text), _PROBABILITIES.search(text)
    missing = [k for k in ("no double", "double, take", "double, pass") if k not in equities]
    missing += [] if proper else ["the proper cube action"]
    missing += [] if win else ["the probabilities"]
    if missing:
        raise ValueError(f"no cube analysis in gnubg's answer (missing "
                         f"{', '.join(missing)}): {text!r}")
    action = proper.group(1)
    return CubeVerdict(kind_of(action), action, equities["no double"],
                       equities["double, take"], equities["double, pass"],
                       float(win.group(1)))


def _captured(fn, *args) -> str:
    """What ``fn(*args)`` prints on the process's standard output (gnubg writes there
    from C, past ``sys.stdout``)."""
    sys.stdout.flush()
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        saved = os.dup(1)
        os.dup2(tmp.fileno(), 1)
        try:
            fn(*args)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode(errors="replace")


class GnubgCube:
    """GNU Backgammon's cube verdicts through the ``gnubg`` package (one per process: the
    package holds one match state).

    Args:
        plies: the look-ahead of gnubg's cube evaluation (0: its neural net at once).

    Raises:
        ImportError: the ``gnubg`` package is not installed (naming the extra).
    """

    def __init__(self, plies: int = 0) -> None:
        try:
            import gnubg
        except ImportError as exc:
            raise ImportError("GNU Backgammon's cube verdicts need the gnubg package: "
                              "pip install 'bg-env[cube-reference]' (gnubg==1.1.0a16, "
                              "GPL-3.0)") from exc
        if not isinstance(plies, int) or isinstance(plies, bool) or not 0 <= plies <= 4:
            raise ValueError(f"plies={plies!r}: expected 0..4")
        self._gnubg = gnubg
        self.plies = plies
        # threads 1: more threads hang the package's evaluations
        for command in ("set threads 1", "set jacoby off", "set beavers 0",
                        f"set evaluation cubedecision evaluation plies {plies}"):
            _captured(gnubg.command, command)

    def verdict(self, position: Position, cube_value: int = 1, cube_owner: int = -1,
                match_length: int = 0, score: tuple[int, int] = (0, 0),
                crawford: bool = False) -> CubeVerdict:
        """gnubg's verdict on ``position`` (seen from the player on roll, before the
        roll). ``cube_owner``: -1 centred, 0 the player on roll, 1 the opponent (who may
        not be doubled then: gnubg has no verdict); ``score``: the player on roll's, then
        the opponent's (match play).

        Raises:
            ValueError: the player on roll may not double, or gnubg gave no verdict.
        """
        if cube_owner == 1:
            raise ValueError("cube_owner=1: the player on roll may not double")
        state = MatchState(cube_value=cube_value, cube_owner=cube_owner, player_on_roll=0,
                           turn=0, dice=(0, 0), match_length=match_length,
                           score=tuple(score), crawford=crawford)
        _captured(self._gnubg.set_gnubg_id, to_xgid(position, state))
        return parse_cube_analysis(_captured(self._gnubg.command, "hint"))
