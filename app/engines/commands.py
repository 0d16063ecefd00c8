"""``sweeplab triage`` and ``sweeplab fuzz``: other engines' answers on the command line.

* ``sweeplab triage LOG.jsonl [--fixtures DIR] [--t-tolerance X] [--normal-tolerance A]
  [--graze-tolerance G] [--no-reference]`` answers every logged query with sweeplab
  (and the second opinion), prints the disagreements worst first (with a flip's
  margin) and a summary line that counts real disagreements apart from tolerance
  effects, and writes each disagreement as a fixture into DIR.  Exit 1 when any
  query disagrees for real (``compare.REAL``; grazes and conventions alone: 0).
* ``sweeplab fuzz --engine fcl --pair capsule-capsule -n 100000 --seed 1 --out DIR``
  draws configurations, answers each with the engine and sweeplab, prints counts by
  draw and kind, and writes the disagreements to ``DIR/disagreements.jsonl`` (every
  one, as drawn), ``DIR/shrunk.jsonl`` (each shrunk one after the line of it as
  drawn) and ``DIR/fixtures/`` (the shrunk ones, named by their line there); in
  ``--jobs N`` worker processes (every core by default) or on a Dask cluster
  (``--scheduler ADDRESS``), where an engine's crash is a finding (``fuzz.run``).
  Exit 1 when it found a real disagreement or a crash (grazes and conventions
  alone: 0).  ``--turning slerp`` (or ``nlerp``) turns every drawn configuration's
  moving shape about its centroid by up to 3 rad, about its direction or a random
  axis (``fuzz.draw_turn``), swept so.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

from sweeplab.engines import ADAPTERS, DRAWS, PAIRS

# (the parsers are built from names only: ``--help`` imports neither the physics nor the compiler)


def _tolerance_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--t-tolerance", type=float, default=None,
                        help="|dt| allowed (default 1e-6 for float64 engines, 1e-4 for float32)")
    parser.add_argument("--normal-tolerance", type=float, default=None,
                        help="angle between normals allowed, radians (default 1e-3 float64, 1e-2 float32)")
    parser.add_argument("--graze-tolerance", type=float, default=None,
                        help="a hit/miss disagreement whose margin is within this fraction of the configuration's "
                             "size is a graze (default 1e-12 float64, 1e-5 float32)")


def _tolerances(parser: argparse.ArgumentParser, args: argparse.Namespace):
    from sweeplab.engines.compare import Tolerances

    try:
        return Tolerances(args.t_tolerance, args.normal_tolerance, args.graze_tolerance)
    except ValueError as error:
        parser.error(str(error))


def triage_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sweeplab triage", description="Answer a query log with sweeplab and list "
                                     "where the engine that logged it disagrees, worst first (docs/query-log.md).")
    parser.add_argument("log", type=Path, help="a query log (JSON Lines)")
    parser.add_argument("--fixtures", type=Path, default=None, help="write each disagreement as a fixture here")
    parser.add_argument("--no-reference", action="store_true", help="skip the second opinion (faster)")
    _tolerance_arguments(parser)
    args = parser.parse_args(argv)
    tolerances = _tolerances(parser, args)
    from sweeplab.engines.triage import disagreement_fixture, reference_side, summary, triage
    from sweeplab.scene.fixture import save_fixture
    from sweeplab.scene.query_log import QueryLogError, read_good_lines

    try:
        reading = read_good_lines(args.log)
    except QueryLogError as error:
        print(f"sweeplab triage: {error}", file=sys.stderr)
        return 2
    for problem in reading.bad_lines:  # the rest is judged: a log cut off by a crash keeps its good lines
        print(f"sweeplab triage: skipped {problem}", file=sys.stderr)
    for warning in reading.warnings:  # a line judged as logged, that looks wrong (a t outside [0, 1])
        print(f"sweeplab triage: warning: {warning}", file=sys.stderr)
    verdicts = triage(reading.queries, tolerances, reference=not args.no_reference, numbers=reading.lines)
    disagreeing = [verdict for verdict in verdicts if verdict.disagrees]
    if disagreeing:
        print(f"{'line':>5}  {'kind':<10} {'pair':<22} {'margin':>9}  {'reference':<9}  detail")
    for verdict in disagreeing:
        scene = verdict.query.scene
        pair = "-".join(scene.object(name).kind for name in ("moving", "target"))
        depth = "-" if verdict.margin is None else f"{verdict.margin:.3g}"
        print(f"{verdict.number:>5}  {verdict.kind:<10} {pair:<22} {depth:>9}  {reference_side(verdict) or '-':<9}  "
              f"{verdict.detail}")
    for verdict in verdicts:
        if verdict.kind == "unsupported":
            print(f"{verdict.number:>5}  not judged: {verdict.detail}")
    print(summary(verdicts))
    if args.fixtures is not None:
        try:
            for verdict in disagreeing:
                name = f"query{verdict.number:05d}-{verdict.kind}"
                path = save_fixture(disagreement_fixture(verdict), args.fixtures, name, overwrite=True)
                print(f"wrote {path}")
        except OSError as error:
            print(f"sweeplab triage: cannot write the fixtures: {error}", file=sys.stderr)
            return 2
    return 1 if any(verdict.real for verdict in verdicts) else 0


def _cores() -> int:
    """The cores this process may run on (``os.process_cpu_count`` from Python 3.13)."""
    counted = getattr(os, "process_cpu_count", None)
    if counted is not None:
        return counted() or 1
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def fuzz_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sweeplab fuzz", description="Differential fuzzing: random, near-grazing "
                                     "and degenerate configurations answered by an engine and by sweeplab.")
    parser.add_argument("--engine", required=True, choices=sorted(ADAPTERS))
    parser.add_argument("--pair", required=True, choices=PAIRS)
    parser.add_argument("-n", "--count", type=int, default=10_000, help="configurations to draw")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True,
                        help="folder for the log and fixtures: new or empty, unless --overwrite")
    parser.add_argument("--overwrite", action="store_true",
                        help="use a folder holding files: an earlier run's log and fixtures there are replaced")
    parser.add_argument("--shrink-each", type=int, default=5,
                        help="disagreements shrunk (and written as fixtures) per draw and kind")
    parser.add_argument("--solver", default=None, help="fcl's CCD solver (conservative_advancement, naive, ...)")
    parser.add_argument("--turning", choices=("slerp", "nlerp"), default=None,
                        help="turn each configuration's moving shape about its centroid (about its direction or "
                             "a random axis, under 3 rad), interpolated so (#35; fcl turns by slerp, Box3D by nlerp)")
    parser.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                        help=f"worker processes (default: every core, {_cores()} here); the report is the same "
                             "for a seed whatever N; 0 runs in this process (a debugger steps in; a crash of the "
                             "engine ends the run)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run on the Dask distributed cluster whose scheduler is at ADDRESS "
                             "(tcp://host:8786; pip install 'sweeplab[cluster]') instead of --jobs processes here")
    _tolerance_arguments(parser)
    args = parser.parse_args(argv)
    tolerances = _tolerances(parser, args)
    from sweeplab.engines import EngineUnavailable, engine
    from sweeplab.engines.campaign import AdapterRecipe, ClusterUnavailable, WorkerLost
    from sweeplab.engines.compare import REAL, SEVERITY
    from sweeplab.engines.fuzz import CRASHED, run
    from sweeplab.engines.triage import disagreement_fixture, triage
    from sweeplab.scene.fixture import save_fixture
    from sweeplab.scene.query_log import write_log

    if args.count < 1:
        parser.error("-n must be 1 or more")
    if args.jobs is not None and (args.jobs < 0 or args.scheduler is not None):
        parser.error("--jobs must be 0 or more" if args.jobs < 0 else "--jobs and --scheduler exclude each other")
    if args.out.is_dir() and any(args.out.iterdir()) and not args.overwrite:
        print(f"sweeplab fuzz: {args.out} already holds files (an earlier run's?): name a new or empty folder, "
              "or add --overwrite to replace a run's log and fixtures there", file=sys.stderr)
        return 2
    options = {"solver": args.solver} if args.solver else {}
    try:
        adapter = engine(args.engine, **options)
    except (EngineUnavailable, ValueError) as error:
        print(f"sweeplab fuzz: {error}", file=sys.stderr)
        return 2
    try:  # before the run: a long run's findings are not lost to a folder it cannot write
        args.out.mkdir(parents=True, exist_ok=True)
        if not os.access(args.out, os.W_OK):
            raise PermissionError(f"{args.out} is not writable")
    except OSError as error:
        print(f"sweeplab fuzz: cannot write to {args.out}: {error}", file=sys.stderr)
        return 2
    try:
        report = run(AdapterRecipe.of_engine(args.engine, **options), args.pair, args.count, args.seed,
                     tolerances, args.shrink_each,
                     _cores() if args.jobs is None else args.jobs, args.scheduler, turning=args.turning)
    except (ClusterUnavailable, WorkerLost) as error:
        print(f"sweeplab fuzz: {error}", file=sys.stderr)
        return 2
    if report.unsupported:
        print(f"sweeplab fuzz: {report.unsupported}", file=sys.stderr)
        return 2
    print(f"{adapter.info.version}, {args.pair}: {report.count:,} configurations in {report.seconds:.1f} s "
          f"({report.count / report.seconds * 60:,.0f} a minute; {report.count / report.cpu_seconds:,.0f} a second "
          "of a worker's CPU)")
    kinds = [kind for kind in SEVERITY if kind != "unsupported"] + [CRASHED]
    print(f"{'draw':<11}" + "".join(f"{kind:>12}" for kind in kinds))
    for draw in DRAWS:
        print(f"{draw:<11}" + "".join(f"{report.counts[(draw, kind)]:>12}" for kind in kinds))
    refused = sum(report.counts[(draw, "unsupported")] for draw in DRAWS)
    if refused:
        print(f"{refused} drawn configurations {adapter.info.name} refused to build (not judged)")
    shrunk = [finding for finding in report.findings if finding.shrunk is not finding.original]
    pairs = []  # shrunk.jsonl: each finding as drawn, then shrunk (line 2k - 1, line 2k)
    for number, finding in enumerate(shrunk, 1):
        finding.shrunk.note = f"{finding.draw} draw, shrunk from line {2 * number - 1}: {finding.detail}"
        pairs += [replace(finding.original, note=f"{finding.draw} draw, as drawn; shrunk on line {2 * number}"),
                  finding.shrunk]
    fixtures = args.out / "fixtures"
    verdicts = triage([finding.shrunk for finding in shrunk], tolerances,
                      numbers=list(range(2, 2 * len(shrunk) + 1, 2)))
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        for earlier in fixtures.glob("*.json"):  # --overwrite: never two runs' fixtures mixed
            earlier.unlink()
        write_log([finding.original for finding in report.findings], args.out / "disagreements.jsonl")
        write_log(pairs, args.out / "shrunk.jsonl")
        for verdict in verdicts:
            if verdict.disagrees:
                save_fixture(disagreement_fixture(verdict), fixtures,
                             f"{args.pair}-{verdict.number:03d}-{verdict.kind}", overwrite=True)
    except OSError as error:
        print(f"sweeplab fuzz: cannot write to {args.out}: {error}", file=sys.stderr)
        return 2
    print(f"wrote {len(report.findings):,} disagreements to {args.out / 'disagreements.jsonl'}, {len(shrunk)} shrunk "
          f"to {args.out / 'shrunk.jsonl'} and {fixtures}")
    return 1 if any(finding.kind in REAL or finding.kind == CRASHED for finding in report.findings) else 0
