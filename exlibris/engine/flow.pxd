# Read only by Cython (hatch_build.py): the cimports type this module's annotated
# parameters and locals (its first line turns annotation_typing on).

from exlibris.engine.game cimport Game
from exlibris.engine.state cimport Assistant, GameState, LocationState, PlayerState
