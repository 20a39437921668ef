from exlibris.engine.game cimport Game
from exlibris.engine.state cimport Assistant, GameState, LocationState, PlayerState
