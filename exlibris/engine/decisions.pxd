# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

cdef class Decision:
    cdef public object _labeller, _labels, _raw, _values, data, kind, prompt, seat, size
