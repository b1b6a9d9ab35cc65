"""The agents that evaluate standard backgammon boards (pubeval, td, ppo, gnubg) warn once
when they play a variant whose boards are not backgammon boards, and play on."""

import importlib.util
import warnings

import pytest

from agents import load_agent
from agents.players.base import VariantWarning
from agents.evaluation.evaluate import evaluate
from bg_env.rules.variants import VARIANTS, get_variant

EVALUATORS = ["pubeval", "td", "ppo"] + (
    ["gnubg"] if importlib.util.find_spec("gnubg_nn") else [])


def test_only_plakoto_and_long_nardy_boards_are_not_backgammon_boards():
    unread = {get_variant(name).name for name in VARIANTS
              if not get_variant(name).backgammon_boards}
    assert unread == {"plakoto", "long_nardy"}


@pytest.mark.parametrize("spec", EVALUATORS)
@pytest.mark.parametrize("variant", ["plakoto", "long_nardy"])
def test_an_evaluator_warns_once_in_a_variant_it_does_not_read(spec, variant):
    with pytest.warns(VariantWarning, match=f"{spec} judges standard backgammon boards; "
                                            f"in {variant}") as caught:
        result = evaluate(load_agent(spec), load_agent("random"), games=2, variant=variant)
    assert result.games == 2
    assert sum(isinstance(w.message, VariantWarning) for w in caught) == 1


@pytest.mark.parametrize("spec", EVALUATORS)
def test_an_evaluator_is_silent_in_the_backgammon_family(spec):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for variant in ("standard", "nackgammon", "hypergammon", "sudden_death"):
            evaluate(load_agent(spec), load_agent("random"), games=1, variant=variant)


def test_agents_without_board_judgement_never_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        evaluate(load_agent("random"), load_agent("random"), games=2, variant="plakoto")
