"""The effect context: the state that lives only while effects resolve.

Who caused what is happening, which abilities are running or were used this
turn, round or game, whose location effect is forgone, how deep activations
nest, which assistant an effect moved last, the step budget of the current
turn, and the cards kept in place of ones just gained. ``Game`` owns one
``EffectContext`` (``game.ctx``), the runtime and the verbs read and write it,
and ``flow.py`` marks the turns, rounds and game with its named methods.
"""

from __future__ import annotations

from exlibris.dsl.errors import EffectBudgetExceeded
from exlibris.engine.state import Assistant
from exlibris.model.cards import Card

# An ability in play: its compiled key (``mummy@base#0``) and ``id()`` of its carrier.
AbilityUse = tuple[str, int]


class EffectContext:
    """Effect-scoped state of one game (plain slots: read on the hot path)."""

    __slots__ = ("activating", "cause", "last_moved", "max_steps", "running", "skip",
                 "stand_ins", "steps", "used_this_game", "used_this_round", "used_this_turn")

    def __init__(self, max_steps: int) -> None:
        self.max_steps = max_steps  # the step budget of one turn (rules: max_steps)
        self.cause: Assistant | None = None  # the assistant whose placement acts now
        self.running: set[AbilityUse] = set()  # an ability never wakes itself
        self.used_this_turn: set[AbilityUse] = set()
        self.used_this_round: set[AbilityUse] = set()
        self.used_this_game: set[AbilityUse] = set()
        self.skip: set[int] = set()  # ``id()`` of assistants whose location effect is forgone
        self.activating = 0  # locations being activated, one inside another
        self.last_moved: Assistant | None = None  # by an effect's ``move_assistant``
        self.steps = 0  # effect steps taken this turn
        # a card kept in place of one just gained (``take(..., instead_of: C)``): a verb
        # whose result held the gained card hands on the card kept instead
        self.stand_ins: dict[Card, Card] = {}

    # ------------------------------------------------------------------ marks
    def new_game(self) -> None:
        """Forget everything: a game starts."""
        self.cause = self.last_moved = None
        for found in (self.running, self.used_this_turn, self.used_this_round,
                      self.used_this_game, self.skip, self.stand_ins):
            found.clear()
        self.activating = self.steps = 0

    def new_round(self) -> None:
        """A round starts: "once per round" abilities are fresh."""
        self.used_this_round.clear()

    def new_turn(self) -> None:
        """A placement turn, or one location's resolution, starts: "once per turn"
        abilities are fresh and the step budget is whole again."""
        self.used_this_turn.clear()
        self.steps = 0

    def home_spaces_cleared(self) -> None:
        """Cleanup: no assistant's location effect is forgone any more."""
        self.skip.clear()

    # ------------------------------------------------------------------ questions
    def used_for(self, span: str) -> set[AbilityUse]:
        """The abilities already used in this turn, round or game."""
        if span == "round":
            return self.used_this_round
        return self.used_this_game if span == "game" else self.used_this_turn

    def tick(self) -> None:
        """One step of an effect; raises when the turn's budget is spent."""
        self.steps += 1
        if self.steps > self.max_steps:
            raise EffectBudgetExceeded(
                f"an effect took more than {self.max_steps} steps (rules: max_steps)")

    def caused_by(self, assistant: Assistant | None) -> CausedBy:
        """``with ctx.caused_by(assistant):`` ``assistant`` is the cause inside."""
        return CausedBy(self, assistant)


class CausedBy:
    """The context manager of :meth:`EffectContext.caused_by` (a class: cheaper than a
    generator context)."""

    __slots__ = ("assistant", "ctx", "saved")

    def __init__(self, ctx: EffectContext, assistant: Assistant | None) -> None:
        self.ctx = ctx
        self.assistant = assistant
        self.saved: Assistant | None = None

    def __enter__(self) -> None:
        self.saved = self.ctx.cause
        self.ctx.cause = self.assistant

    def __exit__(self, *exc: object) -> None:
        self.ctx.cause = self.saved
