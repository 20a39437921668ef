# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

cdef class Bound:
    pass

cdef class Env:
    cdef public object globals, me, rt, vars

cdef class _Compiled:
    cdef public object _by_class, _closures, _cls, _code, _fn, _tree, _warm, source_name

cdef class Handler(_Compiled):
    pass

cdef class ExprHandler(_Compiled):
    pass
