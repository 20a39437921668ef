# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

cimport cython

cdef class Worth:
    cdef public object _smallest, banned, focus, per_prominent, prominent, rivals, rules, solo
    cdef public object variety
    cdef public dict _awards, _books

cdef class ShelfReading:
    cdef public object _cards, _cells, _depths, _letters, _run, artifact_cells, artifacts
    cdef public object base_books
    cdef public object entombed, flips
    cdef public object foresight, order
    cdef public object rules, shelf, slow, stability, sum_z, sum_zz, value, z_count
    cdef public dict _books, _built, _gains, _lifted, _losses, _scored, _stability
    cdef public object _shown
    cdef public list keys, kept, kept_cards, lasts, starts, tombs, zs
    cdef public tuple tally
    cdef public Worth worth

    # the greedy bot's costliest loop, its numbers as C's: the same IEEE doubles and the
    # same operations in the same order as the plain module's floats, so the same worths
    # (tests/test_compiled_engine.py plays the same games compiled)
    @cython.locals(n=Py_ssize_t, scale=double, mean=double, shift=double, target=double,
                   share=double, flipped=double, books=double, best=double, value=double,
                   z=double, layout=double, start=Py_ssize_t, end=Py_ssize_t,
                   below=Py_ssize_t, stability=long)
    cpdef double _best_book_gain(self, card)
