"""Rule scenarios: a position, a script of decisions, expectations (docs/scenarios.md)."""

from exlibris.scenario.loader import load_scenario, scenario_files
from exlibris.scenario.model import Scenario
from exlibris.scenario.runner import Result, ScriptDone, ScriptMismatch, run_scenario

__all__ = ["Result", "Scenario", "ScriptDone", "ScriptMismatch", "load_scenario",
           "run_scenario", "scenario_files"]
