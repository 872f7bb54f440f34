"""Parsing beside the groups of a lint by parts (:class:`kapsulint.scan.loader.Background`): what a
segment holds is in the cache once it is asked for, whoever parsed it, and the worker is gone once
everything is. No timed assertions: speed lives in benchmarks/."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cache import entries

from kapsulint.parsing.sources import parser_name
from kapsulint.scan import parallel
from kapsulint.scan.cache import ParseCache, decode_entry
from kapsulint.scan.loader import PARALLEL_THRESHOLD, Background
from kapsulint.scan.parallel import File, parse_file

POOL = 'resource "scaleway_k8s_pool" "p%d" {\n  cluster_id = "c"\n  name       = "p%d"\n  node_type  = "DEV1-M"\n}\n'


def segments(cache: ParseCache, count: int, per_segment: int) -> list[list[File]]:
    """``count`` segments of ``per_segment`` configuration files (12 kB each) and a values file."""
    made: list[list[File]] = []
    for segment in range(count):
        files: list[File] = []
        for index in range(per_segment):
            content = "".join(POOL % (n, n) for n in range(120)).replace('"c"', f'"c{segment}-{index}"').encode()
            path = f"/project/s{segment}/f{index}.tf"
            files.append((path, "config", content, cache.key(parser_name(path, "config"), content)))
        values = f"controller:\n  replicaCount: {segment + 2}\n".encode()
        path = f"/project/s{segment}/values.yaml"
        files.append((path, "values", values, cache.key(parser_name(path, "values"), values)))
        made.append(files)
    return made


def above_threshold(made: list[list[File]]) -> bool:
    """Whether the segments hold enough to parse for a worker to start."""
    return sum(len(file[2]) for files in made for file in files) > PARALLEL_THRESHOLD


def stored(directory: Path, files: list[File]) -> list[bool]:
    """Whether another run's cache finds each file's entry, the one the parser gives."""
    found = entries(directory)
    return [file[3] in found and decode_entry(file[3], found[file[3]]) == parse_file(file)[0] for file in files]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_segment_asked_for_is_in_the_cache_and_finish_leaves_no_worker(tmp_path, running_workers, jobs):
    cache = ParseCache(tmp_path)
    made = segments(cache, 4, 8)
    assert above_threshold(made)
    background = Background(made, cache, jobs)
    assert running_workers == ([1] if jobs == 2 else [])
    background.ready(1)
    assert stored(tmp_path, made[0] + made[1]) == [True] * 18
    if jobs == 1:  # alone, this process parses a segment when it is asked for, not before
        assert stored(tmp_path, made[3]) == [False] * 9
    background.finish()
    assert running_workers == []
    assert stored(tmp_path, [file for files in made for file in files]) == [True] * 36
    background.close()  # after finish, nothing left to do


def test_a_worker_that_dies_leaves_what_it_took_to_this_process(tmp_path, monkeypatch):
    real = parallel.Worker
    killed: list[bool] = []

    class Dying(real):  # the real worker, killed once its first record came back
        def __init__(self, take, sink=None):
            def first_kills(record):
                if record is not None and not killed:
                    killed.append(True)
                    assert self._process is not None
                    self._process.kill()
                if sink is not None:
                    sink(record)

            super().__init__(take, first_kills)

    monkeypatch.setattr(parallel, "Worker", Dying)
    cache = ParseCache(tmp_path)
    made = segments(cache, 3, 8)
    assert above_threshold(made)
    background = Background(made, cache, 2)
    background.ready(2)
    assert killed == [True]
    assert stored(tmp_path, [file for files in made for file in files]) == [True] * 27
    background.finish()


def test_close_gives_the_worker_nothing_more_and_waits_for_it(tmp_path, running_workers):
    cache = ParseCache(tmp_path)
    made = segments(cache, 6, 8)
    assert above_threshold(made)
    background = Background(made, cache, 2)
    background.close()
    assert running_workers == []  # its process is gone
    background.ready(5)  # what it did not take is parsed here when asked for
    assert stored(tmp_path, [file for files in made for file in files]) == [True] * 54


def test_a_content_at_several_paths_is_parsed_once_at_its_first_path(tmp_path, monkeypatch):
    from kapsulint.scan import loader

    cache = ParseCache(tmp_path)
    made = segments(cache, 3, 2)
    same = made[0][0][2]
    made[1].append(("/project/s1/copy.tf", "config", same, made[0][0][3]))
    made[2].insert(0, ("/project/s2/copy.tf", "config", same, made[0][0][3]))
    parsed: list[str] = []
    real = loader._parsed
    monkeypatch.setattr(loader, "_parsed", lambda file: (parsed.append(file[0]), real(file))[1])
    background = Background(made, cache, 1)
    background.ready(0)
    assert stored(tmp_path, made[0]) == [True] * 3
    background.finish()
    assert stored(tmp_path, [file for files in made for file in files]) == [True] * 11
    assert len(parsed) == 9 and "/project/s0/f0.tf" in parsed  # one parse per content, the first
