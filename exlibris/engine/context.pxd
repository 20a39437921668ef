# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

cdef class EffectContext:
    cdef public object cause, last_moved, max_steps
    cdef public Py_ssize_t activating, steps
    cdef public set running, skip, used_this_game, used_this_round, used_this_turn
    cdef public dict stand_ins

cdef class CausedBy:
    cdef public object assistant, saved
    cdef public EffectContext ctx
