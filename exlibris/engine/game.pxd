# Declarations for the compiled build (hatch_build.py): the classes below become
# extension types whose methods read their own attributes directly. The attributes
# are exactly each class's __slots__ (tests/test_pxd_declarations.py).

from exlibris.engine.abilities cimport CompiledAbility, Source
from exlibris.engine.board cimport Board
from exlibris.engine.card_moves cimport CardMoves
from exlibris.engine.context cimport EffectContext
from exlibris.engine.decisions cimport Decision
from exlibris.engine.events cimport EventLog
from exlibris.engine.state cimport Assistant, GameState, LocationState, PlayerState
from exlibris.engine.triggers cimport Triggers
from exlibris.engine.zones cimport Cards

cdef class Game:
    cdef public object settings, categories, rt, views, decisions, has_artifacts
    cdef public object variant, seed, scoring, solo, forward
    cdef public EffectContext ctx
    cdef public EventLog log
    cdef public GameState state
    cdef public list agents
    cdef public Triggers triggers
    cdef public CardMoves moves
    cdef public Board board
    cdef public dict by_code, artifact_specs, assistant_cards, location_specs
    cdef public dict _fixed_names
