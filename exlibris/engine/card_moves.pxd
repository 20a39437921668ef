# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

from exlibris.engine.events cimport EventLog
from exlibris.engine.state cimport GameState, PlayerState
from exlibris.engine.triggers cimport Triggers
from exlibris.engine.zones cimport Cards

cdef class CardMoves:
    cdef public object game
    cdef public EventLog log
    cdef public GameState state
    cdef public Triggers triggers
