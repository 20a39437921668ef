# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

from exlibris.engine.zones cimport Cards
from exlibris.model.shelf cimport Shelf

cdef class Assistant:
    cdef public object bid, home_index, id, kind, location, owner, placed_at, space, spec
    cdef public list sharing_with

cdef class Space:
    cdef public object index, location

cdef class LocationState:
    cdef public object area, auction, bids, effect, held, id, instant, number, permanent
    cdef public object preparation, resolved, spec, version
    cdef public tuple opens_at
    cdef public list spaces, visitors
    cdef public dict open_targets

cdef class PlayerState:
    cdef public object focus, hand, hired, hires, library, name, placements_this_round, seat
    cdef public object shelf_zone
    cdef public Shelf shelf
    cdef public list assistants, home
    cdef public set placed_this_round

cdef class GameState:
    cdef public object rng, deck, discard, assistant_deck, artifact_deck, prominent, banned
    cdef public object also_prominent
    cdef public object first_player, next_first_player, round, phase, final_round
    cdef public object placement_counter, returns, turn_counter, cursor
    cdef public Cards cards
    cdef public list players, in_play, location_stack, location_discard, limbo, temps
    cdef public dict visits, counters
