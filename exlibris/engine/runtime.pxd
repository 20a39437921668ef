from exlibris.engine.state cimport Assistant, GameState, LocationState, PlayerState
from exlibris.engine.zones cimport Cards
