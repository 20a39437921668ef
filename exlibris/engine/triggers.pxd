# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

from exlibris.engine.abilities cimport CompiledAbility, Source
from exlibris.engine.context cimport EffectContext
from exlibris.engine.state cimport Assistant, GameState, LocationState

cdef class Triggers:
    cdef public object game, _specials, _wakes, _sorted_at, _carriers
    cdef public EffectContext ctx
    cdef public GameState state
    cdef public list _ruling, _house
    cdef public dict _after_modes, _listening, _shelved
