# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

from exlibris.engine.card_moves cimport CardMoves
from exlibris.engine.context cimport EffectContext
from exlibris.engine.events cimport EventLog
from exlibris.engine.state cimport Assistant, GameState, LocationState, PlayerState
from exlibris.engine.triggers cimport Triggers

cdef class Board:
    cdef public object game, _artifact_rules
    cdef public EffectContext ctx
    cdef public EventLog log
    cdef public GameState state
    cdef public Triggers triggers
    cdef public CardMoves moves
