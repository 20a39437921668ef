# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

cdef class Shelf:
    cdef public object rules, _legal, _legal_order, _order, _joints, _removable, _removable_cards, _key
    cdef public dict _slots, _rows
