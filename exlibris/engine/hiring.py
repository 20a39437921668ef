"""Special assistants from the special assistant deck: hiring (the Job Faire) and
temporary assistants (the Temp Agency), EXP-JF and EXP-TEMP.

Each special assistant card has one token (EXP-JF-06): while its card is in the
deck or on display the token is in the supply; a hired assistant's card lies
before its player (``PlayerState.hires``) and its token is in that player's pool;
a temporary assistant's card stays in the deck while a player controls its token
for the round (``GameState.temps``). The expansion text of the card governs
(EXP-SETUP-08).
"""

from __future__ import annotations

from exlibris.draws import shuffle
from exlibris.dsl.compiler import Env, as_list
from exlibris.dsl.words import GAME
from exlibris.engine.decisions import DecisionKind
from exlibris.engine.events import EventKind
from exlibris.engine.ports import GamePort, Value
from exlibris.engine.state import Assistant, LocationState
from exlibris.model.cards import ResumeCard


def build_assistant_deck(game: GamePort, modules: set[str]) -> None:
    """Shuffle the special assistant deck (EXP-SETUP-04): every card whose modules are
    in play and that is not left out at this player count (the Witch at five); in
    solo, only the cards whose content says ``solo: true`` (SA-00-2, EXP-SOLO-07)."""
    n = game.n_players
    solo = game.settings.solo is not None
    ids = sorted(aid for aid, card in game.assistant_cards.items()
                 if set(card.requires) <= modules and n not in card.not_with_players
                 and (card.solo or not solo))
    shuffle(game.rng, ids)
    for aid in ids:
        game.state.cards.put(ResumeCard(aid), game.state.assistant_deck)
    game.event(EventKind.ASSISTANT_DECK, cards=len(ids))


def token_holder(game: GamePort, aid: str) -> Assistant | None:
    """The token of special assistant ``aid`` if a player has it (hired or temporary)."""
    for player in game.state.players:
        for assistant in player.assistants:
            if assistant.spec is not None and assistant.spec.id == aid:
                return assistant
    return None


def _new_token(game: GamePort, seat: int, aid: str) -> Assistant:
    player = game.player(seat)
    assistant = Assistant(f"{seat}:{aid}", seat, game.assistant_cards[aid])
    player.assistants.append(assistant)
    game.triggers.assistants_changed()
    return assistant


def hire(game: GamePort, seat: int, cards: list[Value], here: LocationState | None
         ) -> Assistant | None:
    """Pick one of ``cards`` (a display), take its assistant and place it at once on a
    location not yet resolved (never ``here``) or a home space, as a normal placement
    (EXP-JF-03, EXP-JF-08 reading b)."""
    offered = [c for c in cards if isinstance(c, ResumeCard)
               and token_holder(game, c.assistant_id) is None]
    if not offered:
        return None
    index = game.ask(seat, DecisionKind.HIRE, "which assistant to hire?", offered,
                     lambda c: f"hire {game.assistant_cards[c.assistant_id].name}")
    card = offered[index]
    player = game.player(seat)
    game.state.cards.move(card, player.hires)
    player.hired += 1
    assistant = _new_token(game, seat, card.assistant_id)
    game.event(EventKind.HIRE, seat=seat, assistant=card.assistant_id)
    pool = [loc for loc in game.state.in_play if loc is not here]
    targets = game.board.placement_targets(seat, assistant, pool=pool)
    if targets:
        i = game.ask(seat, DecisionKind.PLACE, f"where does {assistant.name} go?",
                     [(assistant, t) for t in targets],
                     lambda o: game.board.target_label(o[0], o[1]), resolving=here)
        game.board.place(seat, assistant, targets[i])
    return assistant


def release_card(game: GamePort, assistant: Assistant) -> None:
    """A hired assistant leaves for the supply: its card goes under the special
    assistant deck (EXP-JF-07, as EXP-SOLO-12 says for solo play)."""
    if assistant.spec is None:
        return
    player = game.player(assistant.owner)
    card = next((c for c in player.hires.cards if c.name == assistant.spec.id), None)
    if card is not None:
        game.state.cards.move(card, game.state.assistant_deck, bottom=True)


def borrow(game: GamePort, seat: int, cards: list[Value]) -> Assistant | None:
    """Take control of the token of the card given (the deck's top card, which stays
    put) for this round (EXP-TEMP-01). A token another player holds passes only while
    it is unplaced (EXP-TEMP-04); one in a pool for good cannot be borrowed."""
    card = next((c for c in cards if isinstance(c, ResumeCard)), None)
    if card is None:
        return None
    aid = card.assistant_id
    holder = token_holder(game, aid)
    temps = game.state.temps
    if holder is not None:
        if holder not in temps or not holder.available or holder.owner == seat:
            game.event(EventKind.BORROW, seat=seat, assistant=aid, got=False)
            return None
        game.player(holder.owner).assistants.remove(holder)
        temps.remove(holder)
    assistant = _new_token(game, seat, aid)
    temps.append(assistant)
    game.event(EventKind.BORROW, seat=seat, assistant=aid, got=True,
               **({"from": holder.owner} if holder is not None else {}))
    return assistant


def dismiss_temps(game: GamePort) -> None:
    """Temporary assistants go back to the supply when resolution ends (EXP-TEMP-03)."""
    for assistant in list(game.state.temps):
        game.board.lift_assistant(assistant)
        player = game.player(assistant.owner)
        if assistant in player.assistants:
            player.assistants.remove(assistant)
        game.event(EventKind.DISMISS, seat=assistant.owner, assistant=assistant.spec.id
                   if assistant.spec else assistant.id)
    if game.state.temps:
        game.state.temps.clear()
        game.triggers.assistants_changed()


class HiringVerbs:
    """Mixed into ``EffectRuntime``: ``hire`` and ``borrow``."""

    game: GamePort

    @GAME.verb("hire")
    def v_hire(self, env: Env, cards: Value) -> Assistant | None:
        here = env.globals.get("here")
        return hire(self.game, env.me.seat, as_list(cards),
                    here if isinstance(here, LocationState) else None)

    @GAME.verb("borrow")
    def v_borrow(self, env: Env, cards: Value) -> Assistant | None:
        return borrow(self.game, env.me.seat, as_list(cards))
