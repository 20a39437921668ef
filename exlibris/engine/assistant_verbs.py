"""Verbs of the effect language that act on assistants and turn order."""

from __future__ import annotations

from exlibris.dsl.compiler import Env, as_list
from exlibris.dsl.words import GAME
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.events import EventKind
from exlibris.engine.ports import GamePort, Value
from exlibris.engine.state import Assistant, LocationState, Space
from exlibris.engine.targets import Target


class AssistantVerbs:
    """Mixed into ``EffectRuntime``: move, place, return and retire assistants."""

    game: GamePort

    @GAME.verb("become_first_player")
    def v_become_first_player(self, env: Env) -> None:
        if self.game.settings.rulings.get("first_player_takes_effect") == "immediately":
            self.game.state.first_player = env.me.seat
        else:  # LOC-01-6 (a): from the next round
            self.game.state.next_first_player = env.me.seat
        self.game.event(EventKind.FIRST_PLAYER, seat=env.me.seat)

    @GAME.verb("move_assistant")
    def v_move_assistant(self, env: Env, assistant: Value, **kw: Value) -> None:
        game = self.game
        assistant = as_list(assistant)[0] if as_list(assistant) else None
        if not isinstance(assistant, Assistant):
            return
        to = kw["to"]
        seat = assistant.owner
        if to == "home":
            free = [i for i, a in enumerate(game.player(seat).home) if a is None]
            if not free:
                return
            game.board.lift_assistant(assistant)
            target = Target(None, free[0])
            game.board.place(seat, assistant, target, visit=False)
            return
        space = as_list(to)[0] if as_list(to) else None
        if not isinstance(space, Space):
            return
        game.board.lift_assistant(assistant)
        game.ctx.last_moved = assistant
        auction = space.location.auction
        bid = auction.bids[space.index] if auction else 0
        game.board.place(seat, assistant, Target(space.location, space.index, bid),
                   visit=bool(kw.get("visit")), activate=False)

    @GAME.verb("place_assistant")
    def v_place_assistant(self, env: Env, assistants: Value) -> None:
        game = self.game
        for assistant in as_list(assistants):
            if not isinstance(assistant, Assistant) or not assistant.available:
                continue
            targets = game.board.placement_targets(env.me.seat, assistant)
            if not targets:
                continue
            # options are (assistant, target), as in the placement phase
            index = game.ask(env.me.seat, DecisionKind.PLACE, "place the assistant",
                             [(assistant, t) for t in targets],
                             lambda o: game.board.target_label(o[0], o[1]))
            game.board.place(env.me.seat, assistant, targets[index])

    @GAME.verb("return_assistant")
    def v_return_assistant(self, env: Env, assistants: Value) -> None:
        for assistant in as_list(assistants):  # only one that is placed comes back
            if isinstance(assistant, Assistant) and (
                    assistant.location is not None or assistant.home_index is not None):
                self.game.board.return_assistant(assistant)

    @GAME.verb("retire")
    def v_retire(self, env: Env, assistants: Value) -> None:
        for assistant in as_list(assistants):
            if isinstance(assistant, Assistant):
                self.game.board.retire_assistant(assistant)

    @GAME.verb("activate")
    def v_activate(self, env: Env, location: Value) -> None:
        loc = as_list(location)[0] if as_list(location) else None
        if isinstance(loc, LocationState):
            ctx = self.game.ctx
            moved = ctx.last_moved
            visitor = moved if moved is not None and moved.location is loc else ctx.cause
            self.game.board.activate(env.me.seat, loc, visitor)

    @GAME.verb("skip_location")
    def v_skip_location(self, env: Env) -> None:
        ctx = self.game.ctx
        if ctx.cause is not None:
            ctx.skip.add(id(ctx.cause))
