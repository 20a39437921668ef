# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

cdef class Worth:
    cdef public object _smallest, banned, focus, per_prominent, prominent, rivals, rules, solo
    cdef public object variety
    cdef public dict _awards, _books

cdef class ShelfReading:
    cdef public object _cards, _cells, _depths, _run, artifacts, base_books, entombed, flips
    cdef public object foresight, order
    cdef public object rules, shelf, slow, stability, sum_z, sum_zz, value, z_count
    cdef public dict _books, _gains, _lifted, _losses, _stability
    cdef public list keys, kept, kept_cards, lasts, starts, tombs, zs
    cdef public tuple tally
    cdef public Worth worth
