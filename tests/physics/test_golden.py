"""The golden corpus (``tests.physics.golden``) replayed: every record answers now as
it was recorded, field by field, floats bit for bit."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.physics.golden import CORPUS, FAMILIES, answer_json, differences, query, read_corpus


@pytest.fixture(scope="module")
def corpus():
    return read_corpus(CORPUS)


def test_corpus_covers_every_family_and_pair_both_ways(corpus):
    _, records = corpus
    pairs = {record["pair"] for record in records}
    assert all(f"{target}-{moving}" in pairs for moving, target in (pair.split("-") for pair in pairs))
    families = Counter(record["family"] for record in records)
    assert set(families) == set(FAMILIES)
    assert sum(record["answer"]["hit"] for record in records) > len(records) / 3
    assert sum(record["answer"]["overlapping"] for record in records) > len(records) / 10
    assert Counter(record["dtype"] for record in records)["float32"] >= families["float32"]


def test_every_record_answers_as_recorded(corpus):
    meshes, records = corpus
    changed = [(record["id"], record["pair"], record["family"], differences(record, answer_json(query(record, meshes))))
               for record in records]
    changed = [entry for entry in changed if entry[3]]
    assert not changed, f"{len(changed)} of {len(records)} records answer differently (first 20): {changed[:20]}"
