"""A position as an SVG picture (what a notebook shows for a :class:`Position`).

Plain text, no dependencies. The board is drawn from the player on roll's side, as the
text board is: his checkers (white, ``X`` on the text board) move from his 24-point (top
right) round to his 1-point (bottom right), his bar checkers sit in the lower half of the
bar and his borne-off checkers are counted in the lower half of the tray; the opponent's
(black, ``O``) are at the top. Point numbers are the player on roll's. A point holding
more than five checkers shows its count on the fifth. The Position ID is written below.
"""

from __future__ import annotations

from .board import BAR, OFF, Board

__all__ = ["position_svg"]

_W, _H = 330, 264
_FONT = 10
"""The footer's lettering size: its lines are kept under the width at 0.6 em a letter."""
_LEFT, _TOP = 10, 20
_POINT_W, _CHECKER = 20, 18
_HALF = 6 * _POINT_W
_BAR_W = 18
_BOARD_H = 200
_STACK = 5
_WHITE, _BLACK = "#f0ecde", "#26262a"


def _point_x(point: int) -> float:
    """Centre x of the player on roll's ``point`` (1..24)."""
    column = point - 13 if point >= 13 else 12 - point  # 0..11, left to right
    x = _LEFT + column * _POINT_W + _POINT_W / 2
    return x + _BAR_W if column >= 6 else x


def _checker_y(point: int, k: int) -> float:
    """Centre y of the ``k``-th checker (0 at the edge) on ``point`` (top half from 13)."""
    if point >= 13:
        return _TOP + _CHECKER / 2 + k * _CHECKER
    return _TOP + _BOARD_H - _CHECKER / 2 - k * _CHECKER


def _checkers(x: float, ys: list[float], fill: str, count: int) -> list[str]:
    out = [f'<circle cx="{x:g}" cy="{y:g}" r="{_CHECKER / 2 - 1:g}" fill="{fill}" '
           f'stroke="#777"/>' for y in ys]
    if count > _STACK:
        ink = _BLACK if fill == _WHITE else _WHITE
        out.append(f'<text x="{x:g}" y="{ys[-1] + 4:g}" font-size="11" text-anchor="middle" '
                   f'fill="{ink}">{count}</text>')
    return out


def _stack(point: int, count: int, fill: str) -> list[str]:
    ys = [_checker_y(point, k) for k in range(min(count, _STACK))]
    return _checkers(_point_x(point), ys, fill, count)


def _bar(count: int, fill: str, lower: bool) -> list[str]:
    x = _LEFT + _HALF + _BAR_W / 2
    mid = _TOP + _BOARD_H / 2
    sign = 1 if lower else -1
    ys = [mid + sign * (_CHECKER * 0.8 + k * _CHECKER) for k in range(min(count, _STACK))]
    return _checkers(x, ys, fill, count)


def _frame() -> list[str]:
    right = _LEFT + 2 * _HALF + _BAR_W
    out = [f'<rect width="{_W}" height="{_H}" fill="#26342c"/>',
           f'<rect x="{_LEFT}" y="{_TOP}" width="{2 * _HALF + _BAR_W}" height="{_BOARD_H}" '
           f'fill="#d6be8c"/>',
           f'<rect x="{_LEFT + _HALF}" y="{_TOP}" width="{_BAR_W}" height="{_BOARD_H}" '
           f'fill="#50321c"/>',
           f'<rect x="{right + 4}" y="{_TOP}" width="{_W - right - 14}" height="{_BOARD_H}" '
           f'fill="#462c18"/>']
    for point in range(1, 25):
        x = _point_x(point)
        top = point >= 13
        base = _TOP if top else _TOP + _BOARD_H
        tip = base + (1 if top else -1) * _STACK * _CHECKER
        colour = "#962823" if point % 2 else "#f5e8c8"
        out.append(f'<polygon points="{x - _POINT_W / 2:g},{base} {x + _POINT_W / 2:g},{base} '
                   f'{x:g},{tip}" fill="{colour}"/>')
        label_y = _TOP - 5 if top else _TOP + _BOARD_H + 13
        out.append(f'<text x="{x:g}" y="{label_y}" font-size="9" text-anchor="middle" '
                   f'fill="#f5e1b4">{point}</text>')
    return out


def position_svg(pos: Board) -> str:
    """An SVG picture of ``pos`` (a :class:`~bg_env.rules.position.Position`, read as a
    :class:`~bg_env.rules.board.Board` with its ``position_id()``; the Position imports this
    module) from the player on roll's side (see the module doc).

    >>> from bg_env.rules.position import Position
    >>> position_svg(Position.start()).startswith('<svg')
    True
    """
    out = _frame()
    for point in range(1, 25):
        if pos.me[point]:
            out += _stack(point, pos.me[point], _WHITE)
        if pos.opp[point]:
            out += _stack(25 - point, pos.opp[point], _BLACK)
    if pos.me[BAR]:
        out += _bar(pos.me[BAR], _WHITE, lower=True)
    if pos.opp[BAR]:
        out += _bar(pos.opp[BAR], _BLACK, lower=False)
    tray_x = _W - 18
    for side, y in ((pos.me, _TOP + _BOARD_H - 8), (pos.opp, _TOP + 14)):
        out.append(f'<text x="{tray_x}" y="{y}" font-size="10" text-anchor="middle" '
                   f'fill="#f5e1b4">{side[OFF]}</text>')
    try:
        pid = pos.position_id()
    except Exception:  # a board no Position ID can hold
        pid = ""
    mine, theirs = pos.pips()
    for y, line in ((_H - 22, f"on roll (white): pips {mine}   opponent: pips {theirs}"),
                    (_H - 8, f"Position ID {pid}")):
        out.append(f'<text x="{_LEFT}" y="{y}" font-size="{_FONT}" fill="#ebebe6">{line}</text>')
    body = "".join(out)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" '
            f'viewBox="0 0 {_W} {_H}">{body}</svg>')
