"""The sentence parser round-trips every relation type and rejects what it does not know."""

from __future__ import annotations

import pytest

from models.common import MethodInputError, no_progress
from models.layout.params import Params
from models.layout.run import run
from models.layout.scene import CORNER_WALLS, RELATION_TYPES, WALLS, Relation
from models.layout.sentences import parse_sentence, parse_statements, render
from tests.models.layout.helpers import boxes, scene

NAMES = ["lamp", "nightstand_a", "wardrobe", "bed", "office chair"]


def every_relation() -> list[Relation]:
    out = []
    for kind in RELATION_TYPES:
        if kind == "against_wall":
            out += [Relation(type=kind, a="wardrobe", wall=w) for w in WALLS]  # type: ignore[arg-type]
        elif kind == "corner":
            out += [Relation(type=kind, a="office chair", corner=c) for c in CORNER_WALLS]  # type: ignore[arg-type]
        elif kind == "clearance":
            out += [Relation(type=kind, a="bed"), Relation(type=kind, a="office chair", distance=1.25)]
        else:
            out.append(Relation(type=kind, a="lamp", b="nightstand_a"))  # type: ignore[arg-type]
            out.append(Relation(type=kind, a="office chair", b="bed"))  # type: ignore[arg-type]
    out += [Relation(type="facing", a="bed", wall=w) for w in WALLS]  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("relation", every_relation(), ids=lambda r: f"{r.type}-{r.a}-{r.b or r.wall or r.corner}")
def test_round_trip(relation: Relation) -> None:
    assert parse_sentence(render(relation), NAMES) == relation


@pytest.mark.parametrize("sentence,expected", [
    ("the lamp is on top of nightstand a", Relation(type="on_top_of", a="lamp", b="nightstand_a")),
    ("wardrobe faces bed", Relation(type="facing", a="wardrobe", b="bed")),
    ("The wardrobe is against the east wall.", Relation(type="against_wall", a="wardrobe", wall="east")),
    ("the office chair is to the left of the bed", Relation(type="left_of", a="office chair", b="bed")),
    ("lamp sits on nightstand_a", Relation(type="on_top_of", a="lamp", b="nightstand_a")),
    ("the bed is far away from the wardrobe", Relation(type="far", a="bed", b="wardrobe")),
    ("the bed is next to the wardrobe", Relation(type="near", a="bed", b="wardrobe")),
])
def test_variants(sentence: str, expected: Relation) -> None:
    assert parse_sentence(sentence, NAMES) == expected


def test_unknown_sentences_are_reported_with_their_index() -> None:
    outcome = parse_statements(["the lamp is on top of the bed", "the moon is made of cheese", "the sofa is near the bed",
                                "the bed is left of the bed"], NAMES)
    assert len(outcome.relations) == 1 and outcome.sources == [0]
    assert outcome.errors[0].startswith("statements[1]") and "not a relation" in outcome.errors[0]
    assert "unknown object 'sofa'" in outcome.errors[1]
    assert "itself" in outcome.errors[2]


def test_run_rejects_an_unparsable_statement_with_one_line() -> None:
    s = scene(boxes(("lamp", 0.3, 0.3, 0.4), ("bed", 1.6, 2.0, 0.5)), [])
    with pytest.raises(MethodInputError) as err:
        run(Params(scene=s, statements=["the lamp is on top of the bed", "hello world"]), no_progress)
    assert "statements[1]" in str(err.value) and "\n" not in str(err.value)
