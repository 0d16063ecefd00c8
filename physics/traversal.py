"""Walking a sphere tree with a batch of queries at once.

The walk keeps a *frontier* of (query, node) pairs and processes it level by level
as arrays: one node test for every pair (``node_entry``: the earliest t in [0, 1]
at which the query can touch the node's sphere, +inf if never), leaves tested
exactly (``leaf_test``: a sweep against the leaf's triangle), the children of the
surviving inner nodes forming the next frontier.  No Python runs per node.

Pruning: each query has a ``bound``; a node whose entry time exceeds it is culled.
A first-hit query lowers its bound to the best hit found so far, an all-hits query
keeps it at 1, and an overlap classification can set it below 0 to stop a query
early.  Node tests are conservative (``tolerance.BVH_CULL_RTOL``), leaf tests
exact, so pruning changes the work, never the answer.

A ``TraversalTrace`` records every tested pair with its depth and status, for the
editor to draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np
from numba import njit

from physics.bvh import SphereTree
from numba.extending import overload

from physics.geometry import COMPILE, like
from physics.sweep.ball import Contact

VISITED, CULLED, LEAF_MISSED, LEAF_HIT = range(4)
STATUS_NAMES = ("visited", "culled", "leaf missed", "leaf hit")
"""Status of a tested (query, node) pair: an inner node reached and descended, a node
whose sphere is not reached before the bound (culled), a leaf whose triangle was
tested and missed, a leaf whose triangle was hit."""


@dataclass
class TraversalTrace:
    """What a walk did: for every tested (query, node) pair in test order, its
    ``step`` (the walk step that tested it: a frontier of nodes, or a round of
    leaf tests; a frontier holding only leaves records nothing), ``query``,
    ``node``, node ``entry`` time (+inf when the sphere is never reached) and
    ``status`` (see ``STATUS_NAMES``)."""

    _records: list = field(default_factory=list)

    def record(self, step: int, queries, nodes, entry, status) -> None:
        self._records.append((np.full(len(nodes), step), queries, nodes, entry, status))

    def record_walks(self, queries, nodes, entry, status) -> None:
        """Record compiled walks (``walk_query``), whose steps are their node tests:
        the step of a test is its position in its query's walk."""
        queries = np.asarray(queries)
        starts = np.flatnonzero(np.concatenate([[True], queries[1:] != queries[:-1]])) if len(queries) else queries
        step = np.arange(len(queries)) - np.repeat(starts, np.diff(np.concatenate([starts, [len(queries)]])))
        self._records.append((step, queries, nodes, entry, status))

    def _column(self, index: int) -> np.ndarray:
        if not self._records:
            return np.zeros(0, float if index == 3 else np.int64)
        return np.concatenate([record[index] for record in self._records])

    step = property(lambda self: self._column(0), doc="walk step of each tested pair")
    query = property(lambda self: self._column(1), doc="query of each tested pair")
    node = property(lambda self: self._column(2), doc="node of each tested pair")
    entry = property(lambda self: self._column(3), doc="entry time into the node's sphere (+inf: never)")
    status = property(lambda self: self._column(4), doc="status code (``STATUS_NAMES``)")

    def counts(self) -> dict[str, int]:
        """How many pairs ended in each status, by name."""
        counted = np.bincount(self.status, minlength=len(STATUS_NAMES))
        return {name: int(count) for name, count in zip(STATUS_NAMES, counted)}


class LeafContacts(NamedTuple):
    """Every leaf test a walk made: ``query`` and ``face`` per test, and the
    ``contact`` (``physics.sweep.ball.Contact``, ``t`` NaN where the triangle was
    missed)."""

    query: np.ndarray
    face: np.ndarray
    contact: Contact


NodeEntry = Callable[[np.ndarray, np.ndarray], np.ndarray]
LeafTest = Callable[[np.ndarray, np.ndarray], Contact]
BoundUpdate = Callable[[np.ndarray, np.ndarray, Contact], None]

LEVELS_PER_STEP = 2
"""Levels a walk descends between node tests (a speed setting): the grandchildren
of a reached node are tested directly.  Per node test the Python overhead is fixed,
so two levels per step halve it at the price of testing some grandchildren a
child test would have culled."""

SMALL_FRONTIER = 1024
"""A frontier of at most this many reached inner nodes descends one level more
per step (a speed setting): with few pairs the fixed cost of a step outweighs the
extra descendants tested (one query: 8 steps instead of 12 on a 1.3M-triangle
tree; a large batch keeps two levels, where the extra pairs would cost more)."""

FIRST_LEAF_ROUND = 16
"""Leaves per query that a first-hit query without a hit yet tests in its first
round (a speed setting); the round size doubles each round until the query has a
hit.  From then on every pooled leaf entered before that hit is tested in the next
round (they all must be), so a query usually needs two rounds."""

LEAF_ROUND_PAIRS = 128
"""Pairs of leaves a walk gathers before a round of leaf tests, and the fewest a
first round holds (a speed setting; see ``walk``): a round costs a fixed ~1 ms of
kernel calls plus a little per pair, so one query tests its 128 earliest leaves at
once and usually finds every leaf that matters in a single round."""


def lower_to_first_hit(bound: np.ndarray, queries: np.ndarray, contact: Contact) -> None:
    """Bound update of a first-hit query: nothing later than the best hit matters."""
    hit = ~np.isnan(contact.t)
    np.minimum.at(bound, queries[hit], contact.t[hit])


class _LeafPool(NamedTuple):
    """Leaves reached but not yet tested: per pair its query, node and entry time."""

    query: np.ndarray
    node: np.ndarray
    entry: np.ndarray

    def join(self, query, node, entry) -> "_LeafPool":
        return _LeafPool(np.concatenate([self.query, query]), np.concatenate([self.node, node]),
                         np.concatenate([self.entry, entry]))

    def pick(self, mask) -> "_LeafPool":
        return _LeafPool(self.query[mask], self.node[mask], self.entry[mask])


def walk(tree: SphereTree, query_count: int, node_entry: NodeEntry, leaf_test: LeafTest,
         update_bound: BoundUpdate | None = lower_to_first_hit, trace: TraversalTrace | None = None,
         first_round_pairs: int = LEAF_ROUND_PAIRS) -> LeafContacts:
    """Walk ``tree`` for ``query_count`` queries; return every leaf test made.

    ``node_entry(queries, nodes)`` gives each pair's entry time into the node's
    sphere (+inf if never in [0, 1]); ``leaf_test(queries, faces)`` the exact
    contact with the leaf's triangle; ``update_bound(bound, queries, contact)``
    lowers the per-query bounds after each round of leaf tests (``None``: bounds
    stay 1 and every reachable leaf is tested in one round).

    Inner nodes are expanded level by level; reached leaves wait in a pool and are
    tested in rounds: the earliest-entered first until the query has a hit, then
    all those entered before it.  A round runs once the pool holds
    ``first_round_pairs`` pairs (``LEAF_ROUND_PAIRS``), or when no inner node is
    left: a walk of a few queries (whose time goes to the fixed cost of each round)
    then tests its leaves in one round, a large batch (whose time goes to the
    pairs) early enough for its hits to cull what is left.  The first round tests
    ``FIRST_LEAF_ROUND`` leaves per query, more if that makes fewer than
    ``first_round_pairs`` pairs; a test that stops at its first find, as
    ``classify`` does, passes 0 to test every leaf as soon as it is reached.
    """
    bound = np.ones(query_count)
    queries = np.arange(query_count)
    nodes = np.zeros(query_count, np.int64)
    pool = _LeafPool(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    found = []
    round_size = max(FIRST_LEAF_ROUND, -(-first_round_pairs // max(query_count, 1)))
    step = 0
    while len(nodes) or len(pool.query):
        if len(nodes):
            entry = node_entry(queries, nodes)
            reached = entry <= bound[queries]
            children = tree.first_child[nodes]
            leaf = reached & (children < 0)
            pool = pool.join(queries[leaf], nodes[leaf], entry[leaf])
            if trace is not None:
                trace.record(step, queries[~leaf], nodes[~leaf], entry[~leaf],
                             np.where(reached[~leaf], VISITED, CULLED))
            inner = reached & (children >= 0)
            levels = LEVELS_PER_STEP + (np.count_nonzero(inner) <= SMALL_FRONTIER)
            queries, nodes = _descend(tree, queries[inner], nodes[inner], levels)
        if len(pool.query) and (len(pool.query) >= first_round_pairs or not len(nodes)):
            late = pool.entry > bound[pool.query]
            if trace is not None and np.any(late):
                trace.record(step, pool.query[late], pool.node[late], pool.entry[late], np.full(np.sum(late), CULLED))
            pool = pool.pick(~late)
            if len(pool.query):
                tested = np.ones(len(pool.query), bool)
                if update_bound is not None:
                    tested = _earliest_per_query(pool, round_size) | (bound[pool.query] < 1)
                batch = pool.pick(tested)
                faces = tree.face[batch.node]
                contact = leaf_test(batch.query, faces)
                found.append(LeafContacts(batch.query, faces, contact))
                if trace is not None:
                    trace.record(step, batch.query, batch.node, batch.entry,
                                 np.where(np.isnan(contact.t), LEAF_MISSED, LEAF_HIT))
                if update_bound is not None:
                    update_bound(bound, batch.query, contact)
                pool = pool.pick(~tested)
                round_size *= 2
        step += 1
    return _concatenate(found)


def _descend(tree: SphereTree, queries: np.ndarray, nodes: np.ndarray, levels: int) -> tuple[np.ndarray, np.ndarray]:
    """The next frontier below reached inner nodes: their descendants ``levels``
    levels down, or the leaves met on the way."""
    next_queries, next_nodes = [], []
    for _ in range(levels):
        queries = np.repeat(queries, 2)
        nodes = (tree.first_child[nodes][:, None] + np.arange(2)).ravel()
        leaf = tree.first_child[nodes] < 0
        next_queries.append(queries[leaf])
        next_nodes.append(nodes[leaf])
        queries, nodes = queries[~leaf], nodes[~leaf]
    return np.concatenate(next_queries + [queries]), np.concatenate(next_nodes + [nodes])


def _earliest_per_query(pool: _LeafPool, count: int) -> np.ndarray:
    """Mask of the ``count`` pool pairs of each query with the earliest entry."""
    order = np.lexsort((pool.entry, pool.query))
    grouped = pool.query[order]
    group_start = np.flatnonzero(np.concatenate([[True], grouped[1:] != grouped[:-1]]))
    rank = np.arange(len(order)) - np.repeat(group_start, np.diff(np.concatenate([group_start, [len(order)]])))
    mask = np.zeros(len(order), bool)
    mask[order[rank < count]] = True
    return mask


def _concatenate(found: list[LeafContacts]) -> LeafContacts:
    if not found:
        empty = np.zeros(0)
        return LeafContacts(np.zeros(0, np.int64), np.zeros(0, np.int64),
                            Contact(empty, np.zeros((0, 3)), np.zeros((0, 3)), empty, np.zeros(0, np.int64),
                                    np.zeros(0, np.int64)))
    contact = Contact(*[np.concatenate([part.contact[i] for part in found]) for i in range(len(Contact._fields))])
    return LeafContacts(np.concatenate([part.query for part in found]), np.concatenate([part.face for part in found]),
                        contact)


# --- one query, compiled: a depth-first walk ----------------------------------------------
# A query is a NamedTuple of a kind registered with ``register_query``: the walk calls the
# kind's node test and leaf test through ``node_entry`` and ``leaf`` (resolved when the
# walk is compiled for that kind, so every kind gets its own machine code, cached).

_QUERY_KINDS: dict = {}


def register_query(query_class, node_entry_function, leaf_function) -> None:
    """Make ``walk_query`` take queries of ``query_class`` (a NamedTuple):
    ``node_entry_function(query, center, radius)`` is the earliest t in [0, 1] at which
    the query can touch a node's sphere (+inf: never; conservative),
    ``leaf_function(query, face)`` the exact answer (t, point, normal, depth, code,
    index) with the triangle of a leaf."""
    _QUERY_KINDS[query_class] = (node_entry_function, leaf_function)


def node_entry(query, center, radius):
    return _QUERY_KINDS[type(query)][0](query, center, radius)


def leaf(query, face):
    return _QUERY_KINDS[type(query)][1](query, face)


@overload(node_entry)
def _node_entry(query, center, radius):
    kind = _QUERY_KINDS.get(getattr(query, "instance_class", None))
    if kind is not None:
        function = kind[0]
        return lambda query, center, radius: function(query, center, radius)


@overload(leaf)
def _leaf(query, face):
    kind = _QUERY_KINDS.get(getattr(query, "instance_class", None))
    if kind is not None:
        function = kind[1]
        return lambda query, face: function(query, face)


FIRST_HIT, EVERY_HIT = 0, 1
"""Walk modes: keep the first hit by the tie rule (nodes entered after it are culled),
or every hit (only nodes never entered in [0, 1] are culled)."""


@njit(**COMPILE)
def ranks_before(answer, face, best, best_face) -> bool:
    """The first-hit rule: smaller t; at equal t the deeper initial overlap; then a
    face before an edge before a vertex; then the lower face index.  A miss never
    ranks before anything."""
    t, best_t = answer[0], best[0]
    if t != t:
        return False
    if best_t != best_t or t < best_t:
        return True
    if t > best_t:
        return False
    depth = answer[3] if answer[3] == answer[3] else like(t, 0.0)
    best_depth = best[3] if best[3] == best[3] else like(t, 0.0)
    if depth != best_depth:
        return depth > best_depth
    if answer[4] != best[4]:
        return answer[4] > best[4]
    return face < best_face


@njit(**COMPILE)
def _record(trace, count, node, entry, status):
    nodes, entries, statuses = trace
    if count[0] < len(nodes):
        nodes[count[0]], entries[count[0]], statuses[count[0]] = node, entry, status
    count[0] += 1


@njit(**COMPILE)
def walk_query(centers, radii, first_child, node_face, query, mode, stop_depth, found, found_count, trace, trace_count,
               miss):
    """Walk a sphere tree for one query, depth first, the nearer child first.

    ``query`` is of a kind registered with ``register_query``, which gives its node
    and leaf tests.  ``FIRST_HIT``: returns (best answer, its face) by ``ranks_before``; a node entered
    later than the best t is culled (not one entered at it: ties must be seen).
    ``EVERY_HIT``: every hit is written to ``found`` (t, point, normal, depth, code,
    index, face arrays; ``found_count[0]`` counts them, also beyond their length),
    and the walk stops at the first hit deeper than ``stop_depth``.  Every node test
    is written to ``trace`` (node, entry, status arrays; ``trace_count[0]`` likewise).
    ``miss`` is the no-hit answer, in the lane's dtype."""
    best, best_face = miss, -1
    bound = like(radii[0], 1.0)
    stack_nodes = np.empty(64, np.int64)
    stack_entries = np.empty(64, radii.dtype)
    root_entry = node_entry(query, (centers[0, 0], centers[1, 0], centers[2, 0]), radii[0])
    stack_nodes[0], stack_entries[0], depth = 0, root_entry, 1
    while depth > 0:
        depth -= 1
        node, entry = stack_nodes[depth], stack_entries[depth]
        if not entry <= bound:
            _record(trace, trace_count, node, entry, CULLED)
            continue
        child = first_child[node]
        if child < 0:
            face = node_face[node]
            answer = leaf(query, face)
            hit = answer[0] == answer[0]
            _record(trace, trace_count, node, entry, LEAF_HIT if hit else LEAF_MISSED)
            if not hit:
                continue
            if mode == FIRST_HIT:
                if ranks_before(answer, face, best, best_face):
                    best, best_face = answer, face
                    bound = answer[0]
                continue
            _store_found(found, found_count, answer, face)
            if answer[3] == answer[3] and answer[3] > stop_depth:
                return best, best_face
            continue
        _record(trace, trace_count, node, entry, VISITED)
        first = node_entry(query, (centers[0, child], centers[1, child], centers[2, child]), radii[child])
        second = node_entry(query, (centers[0, child + 1], centers[1, child + 1], centers[2, child + 1]),
                            radii[child + 1])
        if depth + 2 > len(stack_nodes):
            stack_nodes = np.concatenate((stack_nodes, np.empty(len(stack_nodes), np.int64)))
            stack_entries = np.concatenate((stack_entries, np.empty(len(stack_entries), radii.dtype)))
        near, far, near_entry, far_entry = child, child + 1, first, second
        if second < first:
            near, far, near_entry, far_entry = child + 1, child, second, first
        stack_nodes[depth], stack_entries[depth] = far, far_entry  # the nearer child is popped first
        stack_nodes[depth + 1], stack_entries[depth + 1] = near, near_entry
        depth += 2
    return best, best_face


@njit(**COMPILE)
def _store_found(found, count, answer, face):
    t, point, normal, depth, code, index = answer
    times, points, normals, depths, codes, indices, faces = found
    i = count[0]
    if i < len(times):
        times[i], depths[i], codes[i], indices[i], faces[i] = t, depth, code, index, face
        for k in range(3):
            points[i, k], normals[i, k] = point[k], normal[k]
    count[0] += 1
