"""Draughts (checkers), the second game of the project's source documents: international
draughts on 10x10 under the FMJD rules and the variants of :mod:`.variants`.

The rules, pure Python (the slow reference): :mod:`.board` (squares in PDN numbering,
positions, FEN), :mod:`.moves` (legal moves, one small function per rule), :mod:`.game`
(a game hop by hop, the draw rules) and :mod:`.pdn` (game records), tested
against ``pydraughts`` (the ``draughts`` extra) on random games and positions of every
variant.

>>> from bg_env.draughts import DraughtsPosition, legal_moves, apply_move
>>> pos = DraughtsPosition.start("international")
>>> [m.notation for m in legal_moves(pos)][:3]
['31-26', '31-27', '32-27']
>>> apply_move(pos, legal_moves(pos)[0]).fen()
'B:W26,32-50:B1-20'
"""

from .board import BLACK, WHITE, DraughtsPosition, InvalidFenError
from .moves import DraughtsMove, apply_move, legal_moves, parse_move
from .pdn import PdnGame, read_pdn, write_pdn
from .variants import VARIANTS, DraughtsVariant, get_variant

__all__ = ["DraughtsPosition", "DraughtsMove", "DraughtsVariant", "InvalidFenError", "VARIANTS",
           "WHITE", "BLACK", "apply_move", "get_variant", "legal_moves", "parse_move",
           "PdnGame", "read_pdn", "write_pdn"]
