# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

cdef class Cards:
    cdef public dict _seen, _where
    cdef public object where, zone_of
