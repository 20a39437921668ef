"""The vocabulary of the effect language, as data: value types, the names that
are always there, attributes, functions, verbs, trigger events, subjects and
places. The checker and the compiler read these tables; docs/language.md
describes them for authors (a test keeps the two in step).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# ---- value types -----------------------------------------------------------------
# A type is a short string. Plural types are collections; a singular value is
# accepted wherever its plural is expected.

PLURAL = {
    "card": "cards",
    "player": "players",
    "assistant": "assistants",
    "space": "spaces",
    "category": "categories",
    "claim": "claims",
    "location": "locations",
    "str": "strs",
    "int": "ints",
}
SINGULAR = {plural: single for single, plural in PLURAL.items()}


def accepts(expected: str, actual: str) -> bool:
    """Whether a value of type ``actual`` may stand where ``expected`` is wanted."""
    if expected == actual or "any" in (expected, actual):
        return True
    if PLURAL.get(actual) == expected:
        return True
    if actual == "home":  # ``home``: a space to move to, with nothing to read of it
        return expected in ("space", "spaces")
    return expected == "cards" and actual == "zone"


def element_of(collection: str) -> str:
    """The type of one element of a collection type (a single value iterates as
    itself)."""
    if collection in SINGULAR:
        return SINGULAR[collection]
    if collection == "zone":
        return "card"
    return collection


# ---- names that are always there ---------------------------------------------------

GLOBAL_NAMES: dict[str, str] = {
    "me": "player",
    "owner": "player",
    "visitor": "player",
    "this": "any",
    "here": "location",
    "area": "zone",
    "hand": "zone",
    "shelf": "zone",
    "deck": "zone",
    "discard_pile": "zone",
    "assistant_deck": "zone",
    "artifact_deck": "zone",
    "players": "players",
    "opponents": "players",
    "prominent": "category",
    "banned": "category",
    "home": "home",  # the home spaces, where ``move_assistant(..., to: home)`` sends one
    "round": "int",
    "final_round": "bool",
    "rounds_left": "int",
}
# Names that exist only in some places: what provides them.
LOCATION_NAMES: dict[str, str] = {"assistant": "assistant"}
SCORE_NAMES: dict[str, str] = {  # what ``dsl/scoring.py: score_names`` binds
    "this": "card",
    "owner": "player",
    "shelf": "zone",
    "players": "players",
    "opponents": "players",
    "prominent": "category",
    "banned": "category",
}
# What a score may read of a player: a name and a shelf (``dsl/scoring.py: ShelfOwner``).
SCORE_PLAYER_ATTRIBUTES = frozenset({"name", "shelf"})
PLACEMENT_NAMES: dict[str, str] = {
    "placing": "assistant",
    "target": "location",
    "space": "space",
    "occupant": "assistant",
    "this": "assistant",
    "owner": "player",
    "players": "players",
    "prominent": "category",
    "banned": "category",
}

# ---- attributes ------------------------------------------------------------------------

ATTRIBUTES: dict[str, dict[str, str]] = {
    "player": {
        "hand": "zone",
        "shelf": "zone",
        "name": "str",
        "focus": "category",
        "assistants": "assistants",
        "placed_this_round": "int",
        "placements_this_round": "int",
        "first": "bool",
        "hires": "zone",
        "hired": "int",
    },
    "card": {
        "letter": "str",
        "order": "int",
        "books": "categories",
        "is_book": "bool",
        "is_artifact": "bool",
        "face_down": "bool",
        "vowel": "bool",
    },
    "assistant": {
        "owner": "player",
        "location": "location",
        "space": "space",
        "bid": "int",
        "standard": "bool",
        "special": "bool",
        "at_location": "bool",
        "at_home": "bool",
        "sharing_with": "assistants",
    },
    "location": {
        "id": "str",
        "name": "str",
        "number": "int",
        "instant": "bool",
        "delayed": "bool",
        "area": "zone",
        "spaces": "spaces",
        "assistants": "assistants",
        "visits_this_round": "int",
        "visitors_this_round": "players",
        "visits_this_game": "int",
        "visitors_this_game": "players",
    },
    "space": {"occupant": "assistant", "occupants": "assistants", "location": "location",
              "index": "int", "open": "bool", "bid": "int"},
    "claim": {"player": "player", "category": "category"},
    "category": {"id": "str", "name": "str"},
}
ATTRIBUTES["zone"] = ATTRIBUTES["card"]  # a zone's attribute is its cards' attribute, each
# The types whose attributes a score may read: a score sees shelf cards and categories.
SCORE_TYPES = frozenset({"card", "zone", "category"})
# Attributes the runtimes read for the language's own functions, never written in source.
INTERNAL_ATTRIBUTES: dict[str, dict[str, str]] = {"category": {"code": "str"}}


# ---- functions and verbs -------------------------------------------------------------------


@dataclass(frozen=True)
class Signature:
    """How a function or verb is called.

    ``params`` are the positional parameters' types (``amount`` marks an
    amount: a number, ``any``, ``all``, ``up to N`` or ``at least N``);
    ``required`` how many of them must be given; ``keywords`` the keyword
    parameters and their types; ``lambdas`` the keywords evaluated once per
    element with ``it`` bound; ``returns`` the result type (``same`` = the type
    of the first argument). Where a word may appear: a verb only in effects; a
    function in effects and conditions, and in ``score:`` expressions too if
    ``in_scores`` (a score sees only a shelf, so the score runtime implements it).
    """

    params: tuple[str, ...] = ()
    required: int | None = None
    keywords: dict[str, str] = field(default_factory=dict)
    required_keywords: frozenset[str] = frozenset()
    lambdas: frozenset[str] = frozenset()
    returns: str = "none"
    variadic: bool = False
    doc: str = ""
    each: int | None = None
    in_scores: bool = False

    @property
    def min_args(self) -> int:
        return len(self.params) if self.required is None else self.required


S = Signature

FUNCTIONS: dict[str, Signature] = {
    "count": S(("any",), returns="int", doc="how many elements", in_scores=True),
    "books": S(("cards", "categories"), required=1, returns="int",
               doc="books on face-up book cards, optionally of some categories", in_scores=True),
    "categories": S(("cards",), returns="categories", doc="categories on face-up book cards",
                    in_scores=True),
    "has": S(("card", "categories"), returns="bool", doc="a card has a book of a category",
             in_scores=True),
    "letters": S(("cards",), returns="strs", doc="distinct letters of book cards", in_scores=True),
    "complete_sets": S(("cards",), returns="int", doc="complete sets of all six categories",
                       in_scores=True),
    "adjacent": S(("cards",), returns="cards", doc="shelf cards adjacent to a shelf card",
                  in_scores=True),
    "tucked": S(("cards",), returns="cards", doc="cards tucked beneath an artifact",
                in_scores=True),
    "entombed": S(("cards",), returns="cards", doc="entombed cards of a shelf", in_scores=True),
    "first": S(("any",), returns="element", doc="the first element (nothing if empty)",
               in_scores=True),
    "top": S(("cards",), returns="cards", doc="the top card of a deck"),
    "sum": S(("any", "int"), each=1, returns="int",
             doc="the total of a number worked out for each element (named it)", in_scores=True),
    "next_letter": S(("str",), returns="str",
                     doc="the letter after a letter in the alphabet (\"\" after Z)",
                     in_scores=True),
    "letter_distance": S(("str", "str"), returns="int",
                         doc="how far apart two letters are in the alphabet (A to C: 2)",
                         in_scores=True),
    "min": S(("int",), variadic=True, returns="int", doc="the smallest", in_scores=True),
    "max": S(("int",), variadic=True, returns="int", doc="the largest", in_scores=True),
    "players": S(keywords={"from": "player", "direction": "str"}, returns="players",
                 doc="players in seat order from a player"),
    "opponents_of": S(("player",), returns="players", doc="a player's opponents in turn order"),
    "assistants_here": S(returns="assistants", doc="assistants at here, in space order"),
    "players_here": S(keywords={"from": "player", "direction": "str"}, returns="players",
                      doc="players with an assistant here"),
    "empty_spaces": S(("location",), returns="spaces", doc="unoccupied usable spaces"),
    "occupied_spaces": S(returns="spaces", doc="location spaces holding an assistant"),
    "comes_before": S(("card", "card"), returns="bool", doc="alphabetical order", in_scores=True),
    "comes_after": S(("card", "card"), returns="bool", doc="alphabetical order", in_scores=True),
    "shelved_before": S(("card", "card"), returns="bool", doc="reading order on the shelf",
                        in_scores=True),
    "shelved_after": S(("card", "card"), returns="bool", doc="reading order on the shelf",
                       in_scores=True),
    "claim": S(("player", "category"), returns="claim", doc="a player's named category",
               in_scores=True),
    "best": S(("any",), keywords={"by": "int", "tiebreak": "players"},
              required_keywords=frozenset({"by"}), lambdas=frozenset({"by"}), returns="element",
              doc="the element with the highest score, ties by player order", in_scores=True),
    "largest": S(("any",), keywords={"by": "int"}, required_keywords=frozenset({"by"}),
                 lambdas=frozenset({"by"}), returns="int",
                 doc="the largest value of a number worked out for each element (named it); "
                     "0 when there are none", in_scores=True),
    "smallest": S(("any",), keywords={"by": "int"}, required_keywords=frozenset({"by"}),
                  lambdas=frozenset({"by"}), returns="int",
                  doc="the smallest value of a number worked out for each element (named "
                      "it); 0 when there are none", in_scores=True),
    "counter": S(("str",), keywords={"of": "any"}, returns="int",
                 doc="a counter an author names, kept over the whole game: the game's, or "
                     "a player's or a location's with of: (0 until it is changed)"),
    "random": S(("any",), returns="same", doc="one element at random (seeded)"),
    "setting": S(("str",), returns="any",
                 doc="a ruling of the rules in play (rules/*.yaml, settings.rulings)"),
}

# Functions the compiler and the functions above call, never written in source: an
# ``@id`` (``ref``), a category by its code letter (``@M``), the codes in play.
INTERNAL_FUNCTIONS: dict[str, Signature] = {
    "ref": S(("str",), returns="any", in_scores=True),
    "category": S(("str",), returns="category", in_scores=True),
    "category_codes": S(returns="strs", in_scores=True),
}

VERBS: dict[str, Signature] = {
    "draw": S(("int",), returns="cards", doc="draw cards from the deck"),
    "take": S(("amount",), keywords={"from": "cards", "instead_of": "cards"},
              required_keywords=frozenset({"from"}), returns="cards",
              doc="take cards into hand (instead_of: in place of cards just gained)"),
    "give": S(("amount",), keywords={"from": "cards", "to": "player", "random": "bool"},
              required_keywords=frozenset({"from", "to"}), returns="cards",
              doc="give cards to a player"),
    "discard": S(("amount",), keywords={"from": "cards", "to": "zone"},
                 required_keywords=frozenset({"from"}), returns="cards", doc="discard cards"),
    "pay": S(("int",), keywords={"from": "cards"}, required_keywords=frozenset({"from"}),
             returns="bool", doc="discard exactly N cards if possible"),
    "shelve": S(("amount",), keywords={"from": "cards", "face_down": "bool"},
                required_keywords=frozenset({"from"}), returns="cards", doc="shelve cards"),
    "trade": S(keywords={"from": "cards", "with": "cards"},
               required_keywords=frozenset({"from", "with"}), returns="cards",
               doc="swap one card for another"),
    "reveal": S(("amount",), keywords={"from": "cards"}, required_keywords=frozenset({"from"}),
                returns="cards", doc="reveal cards"),
    "look": S(("cards",), returns="cards", doc="look at face-down cards privately"),
    "show": S(("cards",), keywords={"to": "player"}, required_keywords=frozenset({"to"}),
              doc="show cards to one player"),
    "tuck": S(("amount",), keywords={"from": "cards", "under": "cards"},
              required_keywords=frozenset({"from", "under"}), returns="cards",
              doc="tuck cards beneath an artifact"),
    "name_category": S(keywords={"except": "categories"}, returns="category",
                       doc="name a category"),
    "choose": S(("amount",), keywords={"from": "any", "prompt": "str"},
                required_keywords=frozenset({"from"}), returns="from",
                doc="choose elements without moving them (prompt: the question asked)"),
    "home_action": S(doc="one home action"),
    "both_home_actions": S(doc="one draw and one shelving"),
    "home_actions": S(("int",), keywords={"max_each": "int"}, doc="several home actions"),
    "become_first_player": S(doc="take the first-player token"),
    "move_assistant": S(("assistant",), keywords={"to": "space", "visit": "bool"},
                        required_keywords=frozenset({"to"}),
                        doc="move an assistant (visit: true = it arrives as if placed)"),
    "place_assistant": S(("assistants",), doc="place an assistant now, as an extra placement"),
    "return_assistant": S(("assistants",), doc="send assistants back to their owners"),
    "retire": S(("assistants",), doc="send assistants to the supply"),
    "activate": S(("location",), doc="carry out a location's effect"),
    "skip_location": S(doc="the visiting assistant forgoes the location's effect"),
    "hire": S(("cards",), returns="assistant", doc="hire a special assistant and place it"),
    "borrow": S(("cards",), returns="assistant",
                doc="control a special assistant this round"),
    "shift_row": S(doc="slide a run of cards along a row"),
    "rearrange_shelf": S(keywords={"only": "str"},
                         doc="swap or re-shelve shelf cards; only: \"swap\" (two shelf "
                             "cards), \"hand\" (a shelf card with a hand card) or \"move\""),
    "flip": S(("cards",), returns="cards", doc="turn shelf cards face down"),
    "entomb": S(("cards",), returns="cards", doc="entomb a card above or below a shelf card"),
    "levitate": S(("cards",), keywords={"style": "str"}, returns="cards",
                  doc="shift shelf cards one space and shelve into the gap"),
    "replace_shelved": S(("cards",), returns="cards", doc="discard a shelf card, shelve into it"),
    "add_counter": S(("str", "int"), keywords={"of": "any"}, returns="int",
                     doc="add to a counter an author names (of: a player or a location; "
                         "else the game's); returns its new value"),
    "set_counter": S(("str", "int"), keywords={"of": "any"}, returns="int",
                     doc="set a counter an author names (of: a player or a location; else "
                         "the game's); returns its value"),
}

# ---- triggers --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """A trigger event: which modes it allows and the names it provides."""

    names: dict[str, str]
    modes: frozenset[str]
    doc: str


_REACT = frozenset({"on", "after", "before"})
EVENTS: dict[str, Event] = {
    "placed": Event({}, frozenset({"on", "after"}), "this assistant is placed"),
    "arrival": Event({"arriving": "assistant"}, _REACT, "an assistant arrives where this is"),
    "visit": Event({"location": "location", "assistant": "assistant"}, _REACT,
                   "an assistant visits a location"),
    "activate": Event({"location": "location", "assistant": "assistant"},
                      _REACT | {"instead"}, "a location's effect is about to be carried out"),
    "shelve": Event({"card": "card"}, _REACT | {"instead"}, "a card is shelved"),
    "acquire": Event({"card": "card"}, _REACT, "a card comes into a hand or shelf"),
    "draw": Event({"drawn": "cards", "value": "int"}, _REACT | {"instead", "modify"},
                  "cards are drawn"),
    "home_action": Event({}, _REACT | {"instead"}, "a home action is taken"),
    "returned": Event({"assistant": "assistant"}, _REACT, "a placed assistant comes back"),
    "area_discard": Event({"location": "location"}, _REACT,
                          "a resolving location's card area is about to be discarded"),
    "payment": Event({"value": "int", "location": "location"}, frozenset({"modify"}),
                     "a bid is paid"),
    # the round and its phases: "before X" wakes as X begins, "after X" as it ends
    "round": Event({}, frozenset({"before", "after"}),
                   "a round (before: as it begins, before preparation; after: as it ends, "
                   "after cleanup, or after resolution in the final round)"),
    "preparation": Event({}, frozenset({"before", "after"}), "the preparation phase"),
    "placement": Event({}, frozenset({"before", "after"}), "the placement phase"),
    "resolution": Event({}, frozenset({"before", "after"}), "the resolution phase"),
    "cleanup": Event({}, frozenset({"before", "after"}),
                     "the cleanup phase (there is none after the final round)"),
    "inspection": Event({}, frozenset({"before"}),
                        "the inspection (before: before the voluntary flips)"),
}
# The events of the round's flow: no one does them, so they take no 'by' and no 'at';
# each wakes every ability that listens, for its owner.
PHASE_EVENTS = frozenset({"round", "preparation", "placement", "resolution", "cleanup",
                          "inspection"})
# Words authors reach for, with the word the language has: a trigger event (unknown
# events get these before any "did you mean").
EVENT_SPELLINGS: dict[str, str] = {
    "end_of_round": "after round", "start_of_round": "before round",
    "round_end": "after round", "round_start": "before round",
    "end": "after round", "start": "before round",
    "inspect": "before inspection", "scoring": "before inspection",
    "prepare": "preparation", "place": "placed", "resolve": "resolution",
    "clean_up": "cleanup", "visited": "visit", "shelved": "shelve", "drawn": "draw",
}
# The phases in which each event can happen (nothing happens during preparation but
# revealing tiles and dealing card areas), and the events that wake only the assistant
# that carries the ability (so never an artifact).
EVENT_PHASES: dict[str, frozenset[str]] = {
    **{event: frozenset({"placement", "resolution"}) for event in EVENTS},
    "area_discard": frozenset({"resolution"}),
    "payment": frozenset({"resolution"}),
    "round": frozenset(),
    "preparation": frozenset({"preparation"}),
    "placement": frozenset({"placement"}),
    "resolution": frozenset({"resolution"}),
    "cleanup": frozenset(),
    "inspection": frozenset(),
}
ASSISTANT_EVENTS = frozenset({"placed", "arrival"})
SUBJECTS = ("this", "me", "owner", "opponent", "anyone")
LIMITS = ("turn", "round", "game")  # once per ...
REARRANGEMENTS = ("swap", "hand", "move")
PLACES = ("location", "home", "here")
PHASES = ("preparation", "placement", "resolution")
RULE_KINDS = ("deny", "allow", "share")

# Which trigger modes and events fit each ability timing.
TIMING_MODES: dict[str, frozenset[str]] = {
    "on-placement": frozenset({"on", "after"}),
    "reaction": frozenset({"on", "after", "before"}),
    "ongoing": frozenset({"after", "before", "instead", "modify"}),
}
TIMING_EVENTS: dict[str, frozenset[str] | None] = {
    "on-placement": frozenset({"placed"}),
    "reaction": frozenset(EVENTS) - {"placed", "payment"},
    "ongoing": None,  # any event
}
