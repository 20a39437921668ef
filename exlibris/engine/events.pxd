# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

cdef class EventLog:
    cdef public bint enabled
    cdef public object kinds
    cdef public list records
