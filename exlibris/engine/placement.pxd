# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

from exlibris.engine.state cimport Assistant, GameState, LocationState, PlayerState

cdef class _Check:
    cdef public object at, kind, owner, parts, rule, this, values

cdef class RuleMemo:
    cdef public object checks, mute, names, rt, shares, signature
