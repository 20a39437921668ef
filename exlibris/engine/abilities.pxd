# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

cdef class Source:
    cdef public object abilities, has_rules, order, owner, rules, rules_for_others, shares
    cdef public object this
    cdef public dict wakes

cdef class CompiledAbility:
    cdef public object condition, effect, key, keyword, score, text, timing, trigger
    cdef public list rules
