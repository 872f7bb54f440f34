"""The parse cache and parallel parsing (no timed assertions: speed lives in benchmarks/)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path

from fixture_support import lint

from kapsulint.scan.cache import DATABASE, ParseCache
from kapsulint.scan.loader import PARALLEL_THRESHOLD

CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.31"
  cni                         = "cilium"
  delete_additional_resources = %s
}
"""


def entries(cache_dir: Path) -> dict[str, bytes]:
    """The stored entries, read straight from the database: key -> entry."""
    database = cache_dir / DATABASE
    if not database.exists():
        return {}
    with closing(sqlite3.connect(database)) as connection:
        return dict(connection.execute("SELECT key, blob FROM entries"))


def one_cluster(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """(cache directory, project): a project of one file with one KAP101 finding."""
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(cache_dir))
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.tf").write_text(CLUSTER % "true")
    return cache_dir, project


def store(cache_dir: Path, key: str, entry: bytes) -> None:
    with closing(sqlite3.connect(cache_dir / DATABASE)) as connection, connection:
        connection.execute("UPDATE entries SET blob = ? WHERE key = ?", (entry, key))


def test_a_warm_run_reads_the_cache_and_an_edited_file_is_parsed_again(tmp_path, monkeypatch):
    cache_dir, project = one_cluster(tmp_path, monkeypatch)
    _, first, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    assert len(entries(cache_dir)) == 1
    _, warm, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    assert warm == first and len(first) == 1
    (project / "main.tf").write_text(CLUSTER % "false")
    _, edited, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    assert edited == []
    assert len(entries(cache_dir)) == 2


def test_corrupted_and_foreign_entries_are_ignored(tmp_path, monkeypatch):
    cache_dir, project = one_cluster(tmp_path, monkeypatch)
    _, expected, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    ((key, entry),) = entries(cache_dir).items()
    store(cache_dir, key, entry[:40])  # truncated
    assert ParseCache(cache_dir).get(key) is None
    assert lint(project, ["--select", "KAP101"], monkeypatch)[1] == expected
    assert entries(cache_dir)[key] == entry  # rewritten after the corrupted read
    assert ParseCache(cache_dir).get(key) is not None
    store(cache_dir, key, b"KAPSULINT-CACHE\nsome-other-version\n" + entry.split(b"\n", 2)[2])
    assert ParseCache(cache_dir).get(key) is None
    assert lint(project, ["--select", "KAP101"], monkeypatch)[1] == expected
    assert entries(cache_dir)[key] == entry


def test_a_damaged_database_is_replaced(tmp_path, monkeypatch):
    cache_dir, project = one_cluster(tmp_path, monkeypatch)
    _, expected, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    (cache_dir / DATABASE).write_bytes(b"this is not a database" * 100)
    assert lint(project, ["--select", "KAP101"], monkeypatch)[1] == expected
    assert len(entries(cache_dir)) == 1


def test_an_unwritable_cache_directory_only_turns_the_cache_off(tmp_path, monkeypatch):
    cache_dir, project = one_cluster(tmp_path, monkeypatch)
    cache_dir.mkdir()
    (cache_dir / DATABASE).mkdir()  # a directory where the database should be: SQLite cannot open it
    code, found, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    assert (code, len(found)) == (1, 1)


def test_the_cache_key_depends_on_the_toolchain(tmp_path, monkeypatch):
    from kapsulint.scan import cache as cache_module

    cache = ParseCache(tmp_path)
    key = cache.key("hcl", b"x = 1\n")
    cache_module.toolchain.cache_clear()
    monkeypatch.setattr(cache_module, "__version__", "999.0.0")
    try:
        assert cache.key("hcl", b"x = 1\n") != key
    finally:
        cache_module.toolchain.cache_clear()


def test_no_cache_writes_nothing(tmp_path, monkeypatch):
    cache_dir, project = one_cluster(tmp_path, monkeypatch)
    lint(project, ["--select", "KAP101", "--no-cache"], monkeypatch)
    assert not (cache_dir / "parse").exists() or entries(cache_dir) == []


def test_eviction_keeps_the_cache_under_its_bound(tmp_path):
    cache = ParseCache(tmp_path)
    keys = [cache.key("hcl", str(index).encode()) for index in range(20)]
    for key in keys:
        cache.put(key, {"data": "x" * 1000})
        cache.flush()
    cache.evict(limit=5000)
    kept = entries(tmp_path)
    assert sum(len(entry) for entry in kept.values()) <= 5000
    assert kept and set(kept) == set(keys[-len(kept):])  # the most recently used stay


def big_project(root: Path) -> Path:
    """A project above the parallel threshold: many modules, each with a footgun."""
    for index in range(120):
        module = root / f"m{index:03d}"
        module.mkdir(parents=True)
        body = CLUSTER.replace('"main"', f'"c{index}"') % ("true" if index % 3 == 0 else "false")
        pools = "".join(
            f'resource "scaleway_k8s_pool" "p{n}" {{\n  cluster_id = scaleway_k8s_cluster.c{index}.id\n'
            f'  name       = "p{n}"\n  node_type  = "{"PRO2-S" if n % 2 else "POP2-2C-8G"}"\n  size       = {n + 1}\n'
            f'  tags       = ["env=prod", "team=platform", "noprefix=tier=t{n}"]\n}}\n\n'
            for n in range(12)
        )
        (module / "main.tf").write_text(body + "\n" + pools)
    return root


def test_one_and_two_jobs_give_identical_reports(tmp_path, monkeypatch):
    project = big_project(tmp_path / "mono")
    size = sum(p.stat().st_size for p in project.rglob("*.tf"))
    assert size > PARALLEL_THRESHOLD
    _, one, _ = lint(project, ["--no-cache", "--jobs", "1"], monkeypatch)
    _, two, _ = lint(project, ["--no-cache", "--jobs", "2"], monkeypatch)
    assert one and one == two


def test_two_concurrent_runs_share_the_cache_safely(tmp_path):
    project = big_project(tmp_path / "mono")
    env = {"KAPSULINT_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "kapsulint", "--format", "json", "--jobs", "1", str(project)]
    runs = [subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [1, 1], [o[1] for o in outputs]
    reports = [json.loads(out) for out, _ in outputs]
    assert reports[0] == reports[1]
    third = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, timeout=300)
    assert json.loads(third.stdout) == reports[0]


def test_a_worker_returns_what_this_process_would_parse(tmp_path):
    from kapsulint.parsing.sources import parse_content
    from kapsulint.scan.cache import decode_entry
    from kapsulint.scan.parallel import Worker

    files = [
        (str(tmp_path / "main.tf"), "config", (CLUSTER % "true").encode(), "k1"),
        (str(tmp_path / "broken.tf"), "config", b'resource "x" {\n', "k2"),
        (str(tmp_path / "values.yaml"), "values", b"controller:\n  replicaCount: 2\n", "k3"),
    ]
    places = list(range(len(files)))
    received, left = Worker(lambda: (places[0], files[places.pop(0)]) if places else None).result()
    assert left == [] and [index for index, _ in received] == [0, 1, 2]
    assert [decode_entry(key, entry) for (_, _, _, key), (_, (entry, _)) in zip(files, received)] == [
        parse_content(path, kind, content) for path, kind, content, _ in files
    ]
    assert [cacheable for _, (_, cacheable) in received] == [True, True, True]


def test_a_worker_output_is_read_record_by_record_and_a_record_cut_short_fails_the_worker():
    import io
    import threading

    from kapsulint.scan import parallel

    class Process:  # what the exchange uses of a worker process: its pipes and its exit
        def __init__(self, output: bytes, code: int = 0) -> None:
            self.stdin, self.stdout, self.returncode, self._code = io.BytesIO(), io.BytesIO(output), None, code

        def wait(self) -> int:
            self.returncode = self._code
            return self._code

    def record(entry: bytes, cacheable: bool) -> bytes:
        return len(entry).to_bytes(8, "little") + (b"\x01" if cacheable else b"\x00") + entry

    def exchanged(output: bytes, code: int = 0, sink=None, sent: int = 3):
        """What the run keeps of a worker's output, when it sent files at places 7, 8, 9...: the
        records read whole, with the file each answers, and the places of the files left."""
        worker = parallel.Worker.__new__(parallel.Worker)
        worker._process, worker._sink, worker._received = Process(output, code), sink, []
        worker._sent, worker._sizes = list(range(7, 7 + sent)), [10] * sent
        worker._ahead, worker._answered, worker._stopped = 11 * sent, 0, False
        worker._room = threading.Condition()
        worker._threads = [threading.Thread(target=worker._read)]
        worker._threads[0].start()
        return worker.result()

    both = record(b"first entry", True) + record(b"", False) + record(b"third", True)
    records = [(7, (b"first entry", True)), (8, (b"", False)), (9, (b"third", True))]
    assert exchanged(both) == (records, [])
    assert exchanged(b"") == ([], [7, 8, 9])  # the worker died at once: every file is left to the run
    assert exchanged(both[:-2]) == (records[:2], [9])  # the last entry cut short
    assert exchanged(both[:len(record(b"first entry", True)) + 4]) == (records[:1], [8, 9])  # a header cut short
    assert exchanged(both, code=1) == (records, [])  # every record read whole: kept though the worker failed
    assert exchanged(both, sent=2) == (records[:2], [])  # a record no file asked for ends the exchange
    streamed: list = []  # with a sink, each record as it arrives, then None; no entries kept
    assert exchanged(both, sink=streamed.append) == ([], [])
    assert streamed == [*records, None]
    streamed.clear()
    assert exchanged(both[:-2], sink=streamed.append) == ([], [9])
    assert streamed == [*records[:2], None]


def test_a_failed_worker_leaves_its_share_to_the_run(tmp_path, monkeypatch):
    from kapsulint.scan import parallel

    class Failed:  # takes every file it can, as a worker's feeder does (in a thread), and returns none of them
        def __init__(self, take, sink=None):
            self.left: list[int] = []
            self.thread = threading.Thread(target=self.take_all, args=(take, sink))
            self.thread.start()

        def take_all(self, take, sink):
            self.left.extend(taken[0] for taken in iter(take, None))
            if sink is not None:
                sink(None)

        def result(self):
            self.thread.join()
            return [], self.left

    project = big_project(tmp_path / "mono")
    _, expected, _ = lint(project, ["--no-cache", "--jobs", "1"], monkeypatch)
    monkeypatch.setattr(parallel, "Worker", Failed)
    _, found, _ = lint(project, ["--no-cache", "--jobs", "2"], monkeypatch)
    assert found == expected


def test_a_warm_run_parses_nothing_and_imports_no_parser(tmp_path, monkeypatch):
    from kapsulint.parsing import sources

    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(cache_dir))
    project = tmp_path / "project"
    for name in ("a", "b"):  # identical files share one entry
        (project / name).mkdir(parents=True)
        (project / name / "main.tf").write_text(CLUSTER % "true")
        (project / name / "values.yaml").write_text("controller:\n  replicaCount: 2\n")
    _, first, _ = lint(project, [], monkeypatch)

    def parse_content(*args):
        raise AssertionError(f"parsed on a warm run: {args[0]}")

    monkeypatch.setattr(sources, "parse_content", parse_content)
    assert lint(project, [], monkeypatch)[1] == first
    probe = (
        "import sys\n"
        "from kapsulint.cli.command import main\n"
        "try:\n    main(['--format', 'json', '.'], standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in ('lark', 'hcl2', 'ruamel.yaml', 'sarif_om') if m in sys.modules))\n"
    )
    environment = {"KAPSULINT_CACHE_DIR": str(cache_dir), "PATH": "/usr/bin:/bin"}
    shown = subprocess.run([sys.executable, "-c", probe], cwd=project, env=environment, capture_output=True,
                           text=True, timeout=120)
    assert shown.stdout.strip().splitlines()[-1] == "[]", shown.stderr


def test_a_values_file_read_with_file_is_parsed_once(tmp_path, monkeypatch):
    """The release's values come from the parse the scan already made of the file."""
    from fixture_support import copy_case

    from kapsulint.model import project as project_module

    case = copy_case(Path(__file__).resolve().parents[1] / "fixtures" / "KAP302" / "haproxy-values-from-file",
                     tmp_path)

    def parse_again(text):
        raise AssertionError("a values file was parsed a second time")

    monkeypatch.setattr(project_module, "_parse_yaml_cached", parse_again)
    _, found, _ = lint(case, ["--no-cache", "--select", "KAP302"], monkeypatch)
    assert [(f["path"], f["line"], f["column"]) for f in found] == [("haproxy-values.yaml", 3, 21)]


def test_many_entries_are_written_in_batches_and_found_in_one_lookup(tmp_path, monkeypatch):
    from kapsulint.scan import cache as cache_module

    monkeypatch.setattr(cache_module, "_FLUSH_BYTES", 50_000)  # several batches before the last flush
    writer = ParseCache(tmp_path)
    keys = [writer.key("hcl", str(index).encode()) for index in range(1200)]
    for index, key in enumerate(keys):
        writer.put(key, {"data": index})
    assert 0 < len(entries(tmp_path)) < len(keys)  # batches already written, the last one held
    writer.flush()
    reader = ParseCache(tmp_path)
    found = reader.lookup(keys)  # more keys than one query takes
    assert len(found) == len(keys)
    assert [cache_module.decode_entry(key, found[key])["data"] for key in keys] == list(range(1200))


def checks(cache_dir: Path) -> dict[str, int | None]:
    """Each stored entry's recorded check: key -> the checksum it was written or checked with."""
    with closing(sqlite3.connect(cache_dir / DATABASE)) as connection:
        return dict(connection.execute("SELECT key, checked FROM entries"))


def test_an_entry_is_shape_checked_once_and_again_after_any_rewrite(tmp_path, monkeypatch):
    import kapsulint.scan.loader as loader
    from kapsulint.scan.cache import decode_entry, encode_entry, entry_checksum

    cache_dir, project = one_cluster(tmp_path, monkeypatch)
    _, first, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    ((key, entry),) = entries(cache_dir).items()
    assert checks(cache_dir) == {key: entry_checksum(key, entry)}  # written by this run's parse

    checked: list[str] = []
    real = loader.valid_parse

    def counting(value, parser):
        checked.append(parser)
        return real(value, parser)

    monkeypatch.setattr(loader, "valid_parse", counting)
    assert lint(project, ["--select", "KAP101"], monkeypatch)[1] == first
    assert checked == []  # the entry is the one its row vouches for: used as it is

    value = decode_entry(key, entry)
    value["comments"] = [{"line": 7, "column": 1, "text": "# a note", "own_line": True, "before_code": False,
                          "next_line": None}]  # still a valid parse, rewritten with a valid header and checksum
    rewritten = encode_entry(key, value)
    assert entry_checksum(key, rewritten) != entry_checksum(key, entry)
    store(cache_dir, key, rewritten)
    assert lint(project, ["--select", "KAP101"], monkeypatch)[1] == first
    assert checked == ["hcl"]  # checked again, then vouched for
    assert checks(cache_dir) == {key: entry_checksum(key, rewritten)}
    assert lint(project, ["--select", "KAP101"], monkeypatch)[1] == first
    assert checked == ["hcl"]


def test_a_database_of_rows_without_their_check_gets_the_column_and_checks_them(tmp_path, monkeypatch):
    import kapsulint.scan.loader as loader
    from kapsulint.scan.cache import entry_checksum

    cache_dir, project = one_cluster(tmp_path, monkeypatch)
    _, first, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    ((key, entry),) = entries(cache_dir).items()
    with closing(sqlite3.connect(cache_dir / DATABASE)) as connection, connection:  # the former layout
        connection.execute("ALTER TABLE entries DROP COLUMN checked")
    checked: list[str] = []
    real = loader.valid_parse
    monkeypatch.setattr(loader, "valid_parse", lambda value, parser: checked.append(parser) or real(value, parser))
    assert lint(project, ["--select", "KAP101"], monkeypatch)[1] == first
    assert checked == ["hcl"] and checks(cache_dir) == {key: entry_checksum(key, entry)}


def test_a_survey_starts_its_workers_while_it_still_reads_and_keeps_what_one_process_keeps(tmp_path, monkeypatch):
    """The survey's workers parse the first shares of files while the run reads the next, and what
    it keeps (the parses asked for, every entry stored) is what it keeps parsing alone."""
    from kapsulint.boundary import Boundary
    from kapsulint.parsing.sources import FileReads
    from kapsulint.scan import loader, parallel

    project = big_project(tmp_path / "mono")
    for index in range(0, 120, 2):  # copies of one content: parsed once, kept for each path
        (project / f"m{index:03d}" / "versions.tf").write_text('terraform {\n  required_version = ">= 1.5"\n}\n')
    entries = [(str(path), "config") for path in sorted(project.rglob("*.tf"))]
    boundary = Boundary(project, 1 << 20)
    monkeypatch.setattr(loader, "_LOOKUP_FILES", 10)
    reads_at_start: list[int] = []
    read = 0

    class Counting(FileReads):
        def read_bytes(self, path, boundary):
            nonlocal read
            read += 1
            return super().read_bytes(path, boundary)

    class Recorded(parallel.Worker):
        def __init__(self, take, sink=None):
            reads_at_start.append(read)
            super().__init__(take, sink)

    def wanted(path, kind, content):
        return path.endswith(("m000/main.tf", "m007/main.tf", "versions.tf"))

    monkeypatch.setattr(parallel, "Worker", Recorded)
    for name in ("two", "one"):
        (tmp_path / name).mkdir()
    caches = ParseCache(tmp_path / "two"), ParseCache(tmp_path / "one")
    two = loader.prime_sources(entries, boundary, caches[0], 2, Counting(), wanted)
    one = loader.prime_sources(entries, boundary, caches[1], 1, FileReads(), wanted)
    assert len(reads_at_start) == 2 and max(reads_at_start) < len(entries)
    assert two.sources.keys() == one.sources.keys() == {path for path, _ in entries if wanted(path, "", b"")}
    assert {path: source.parsed for path, source in two.sources.items()} == \
        {path: source.parsed for path, source in one.sources.items()}
    assert two.sizes == one.sizes and not two.unreadable
    keys = {caches[0].key("hcl", Path(path).read_bytes()) for path, _ in entries}
    assert caches[0].lookup(keys).keys() == caches[1].lookup(keys).keys() == keys
