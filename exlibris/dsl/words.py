"""The registry of the effect language's implementations, word by word.

Each word is declared once, in ``vocabulary.py``: its signature and where it may
appear (a verb in effects; a function in effects and conditions, and in scores if
``in_scores``; an attribute wherever a value of its type is, scores reading only
``SCORE_TYPES``). Each runtime registers its implementation of a word here, by the
word's name, and dispatches from its table:

* ``SHARED``: functions that need nothing but attributes, the same code in both
  runtimes (``exlibris/dsl/generic.py``; the compiler calls them directly);
* ``GAME``: the game's verbs, functions and attributes (``exlibris/engine/runtime.py``,
  ``game_functions.py``, ``game_attributes.py`` and the verb modules);
* ``SCORE``: the score runtime's functions and attributes (``exlibris/dsl/scoring.py``).

An implementation is a plain callable the compiler may fetch once per call site:
``impl(rt, env, *args, **kw)`` for a verb or a function, ``impl(rt, value)`` for
an attribute. Registering a word that is not declared fails at import;
``missing()`` lists the declared words a runtime lacks where they can appear.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from exlibris.dsl import vocabulary as vocab
from exlibris.dsl.values import TYPE_NAMES

Impl = Callable[..., Any]  # impl(rt, env, *args, **kw): a verb or a function
AttributeImpl = Callable[[Any, Any], Any]  # impl(rt, value)
F = TypeVar("F", bound=Impl)


class UndeclaredWord(ValueError):
    """An implementation registered for a word the vocabulary does not declare."""


def declared_functions() -> dict[str, vocab.Signature]:
    """Every function, the ones only the runtimes call included."""
    return {**vocab.FUNCTIONS, **vocab.INTERNAL_FUNCTIONS}


def declared_attributes(kind: str) -> dict[str, str]:
    """The attributes of a value type, the ones only the runtimes read included."""
    return {**vocab.ATTRIBUTES.get(kind, {}), **vocab.INTERNAL_ATTRIBUTES.get(kind, {})}


class Implementations:
    """One runtime's table of implementations, filled by its modules as they load."""

    def __init__(self, runtime: str) -> None:
        self.runtime = runtime
        self.verbs: dict[str, Impl] = {}
        self.functions: dict[str, Impl] = {}
        # by the Python class of the value (one dict lookup at run time), with the
        # language type each class stands for
        self.attributes: dict[type, dict[str, AttributeImpl]] = {}
        self.types: dict[type, str] = {}

    def verb(self, name: str) -> Callable[[F], F]:
        """Register the decorated ``impl(rt, env, *args, **kw)`` as the verb ``name``."""
        if name not in vocab.VERBS:
            raise UndeclaredWord(f"{self.runtime}: verb {name!r} is not in the vocabulary")
        return self._into(self.verbs, name, vocab.VERBS[name])

    def function(self, name: str) -> Callable[[F], F]:
        """Register the decorated ``impl(rt, env, *args, **kw)`` as the function ``name``."""
        if name not in declared_functions():
            raise UndeclaredWord(f"{self.runtime}: function {name!r} is not in the vocabulary")
        return self._into(self.functions, name, declared_functions()[name])

    def attributes_of(self, kind: str, cls: type, readers: Mapping[str, AttributeImpl]
                      ) -> None:
        """Register how the values of class ``cls``, of language type ``kind``, answer
        each attribute: ``readers[name](rt, value)``."""
        declared = declared_attributes(kind)
        unknown = sorted(set(readers) - set(declared))
        if not declared or unknown:
            raise UndeclaredWord(f"{self.runtime}: {kind} has no attribute(s) {unknown}")
        self.types[cls] = kind
        TYPE_NAMES.setdefault(cls, kind)
        self.attributes.setdefault(cls, {}).update(readers)

    def _into(self, table: dict[str, Impl], name: str, sig: vocab.Signature
              ) -> Callable[[F], F]:
        def register(impl: F) -> F:
            if name in table:
                raise ValueError(f"{self.runtime}: {name!r} is implemented twice")
            table[name] = given_one(impl, sig)
            return impl

        return register


# The types of a parameter that names one thing the word acts on or for: given
# nothing there (``first`` of no opponents, ``here`` outside a location), the word
# does nothing and gives nothing (docs/language.md: "Nothing").
NEEDS_ONE = frozenset({"player", "location", "assistant", "space", "claim", "category"})


def nothing_of(returns: str) -> Any:
    """What a word that did nothing gives: an empty collection, 0, false or nothing."""
    if returns in vocab.SINGULAR or returns in ("zone", "cards"):
        return []
    return {"int": 0, "bool": False}.get(returns)


def given_one(impl: Impl, sig: vocab.Signature) -> Impl:
    """``impl``, doing nothing when a parameter that names one thing is given nothing
    (``impl`` itself when the word has no such parameter: no cost on every call)."""
    places = tuple(i for i, kind in enumerate(sig.params) if kind in NEEDS_ONE)
    keys = tuple(k for k, kind in sig.keywords.items() if kind in NEEDS_ONE)
    if not places and not keys:
        return impl
    empty = nothing_of(sig.returns)

    def guarded(rt: Any, env: Any, *args: Any, **kw: Any) -> Any:
        for i in places:
            if i < len(args) and args[i] is None:
                return [] if isinstance(empty, list) else empty
        for key in keys:
            if key in kw and kw[key] is None:
                return [] if isinstance(empty, list) else empty
        return impl(rt, env, *args, **kw)

    return guarded


SHARED = Implementations("shared")
GAME = Implementations("game")
SCORE = Implementations("score")


def missing() -> list[str]:
    """Declared words a runtime lacks where they can appear, one line each; and words a
    runtime implements twice (its own and the shared one). Empty when all is well.

    Only the modules already imported have registered: import the runtimes first
    (``exlibris.engine.runtime``, ``exlibris.dsl.scoring``)."""
    problems: list[str] = []
    for name in vocab.VERBS:
        if name not in GAME.verbs:
            problems.append(f"game: verb {name!r} is not implemented")
    for name, sig in declared_functions().items():
        runtimes = (GAME, SCORE) if sig.in_scores else (GAME,)
        for runtime in runtimes:
            mine, shared = name in runtime.functions, name in SHARED.functions
            if not mine and not shared:
                problems.append(f"{runtime.runtime}: function {name!r} is not implemented")
            elif mine and shared:
                problems.append(f"{runtime.runtime}: function {name!r} is implemented twice "
                                "(also shared)")
    for runtime, kinds in ((GAME, set(vocab.ATTRIBUTES)), (SCORE, set(vocab.SCORE_TYPES))):
        for kind in sorted(kinds - {"zone"}):  # a zone answers with its cards' attributes
            classes = [cls for cls, k in runtime.types.items() if k == kind]
            if not classes:
                problems.append(f"{runtime.runtime}: no value is {_a(kind)}, so none of its "
                                "attributes is implemented")
            for cls in classes:
                for name in declared_attributes(kind):
                    if name not in runtime.attributes[cls]:
                        problems.append(f"{runtime.runtime}: attribute {name!r} of {_a(kind)} "
                                        f"is not implemented for {cls.__name__}")
    return problems


def orphans() -> list[str]:
    """Implementations of words the vocabulary does not declare (registration refuses
    them; this catches a table written to directly)."""
    problems: list[str] = []
    for runtime in (SHARED, GAME, SCORE):
        problems += [f"{runtime.runtime}: verb {name!r}" for name in runtime.verbs
                     if name not in vocab.VERBS]
        problems += [f"{runtime.runtime}: function {name!r}" for name in runtime.functions
                     if name not in declared_functions()]
        for cls, readers in runtime.attributes.items():
            declared = declared_attributes(runtime.types.get(cls, ""))
            problems += [f"{runtime.runtime}: attribute {name!r} of {cls.__name__}"
                         for name in readers if name not in declared]
    return problems


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind
