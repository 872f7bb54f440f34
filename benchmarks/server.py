"""Edit-to-diagnostics latency and memory of ``kapsulint server`` on the synthetic monorepo.

It generates the monorepo of ``bench.py`` (``--modules``, 100 by default), starts ``kapsulint
server --stdio`` with a fresh parse cache, and drives it over stdio with pygls's client, as an
editor does:

- **first scan**: from ``initialized`` to the end of the server's first-scan progress (cold: the
  parse cache is empty), next to the cold wall time of ``kapsulint .`` on the same tree (both
  parse in worker processes; the largest number of workers seen below each is printed);
- **edit to diagnostics**: a file is opened, then edited ``--edits`` times, unsaved, toggled
  between its text and an edit giving a finding; each figure is the time from sending
  ``didChange`` to receiving the diagnostics of that version, the server's debounce included.
  Three files: ``cluster.tf`` of a root module that calls the module a quarter of the roots share
  (``delete_additional_resources`` toggled, KAP101; the server judges that root alone, and the
  shared files once the edits pause), ``cluster.tf`` of a root module that shares nothing, and the
  shared module's ``main.tf`` (``autohealing`` toggled, KAP206; every root calling it is judged);
- **memory**: the peak of the summed resident set of the server and its workers, sampled as
  ``bench.py`` samples it, during the first scan (and the collection after it) and during the
  edits, and the server's resident set once the first scan, and then the edits, have been still
  for five seconds (what a server holding the project keeps); next to the same sampled peak of ``kapsulint .`` cold and of
  a warm *judging* run of the CLI, ``kapsulint --format json . --exit-zero --output /dev/null``
  (a plain warm ``kapsulint .`` replays the results cache and judges nothing: its peak is printed
  too, but it is no measure of what judging the project holds).

It needs the ``server`` extra (``pip install -e '.[server]'``)::

    python benchmarks/server.py --modules 100 --edits 20
    python benchmarks/server.py --modules 1000 --edits 5

Progress goes to stderr, the report (Markdown) to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import SAMPLE_INTERVAL, PeakRssSampler, descendants, generate_monorepo

from kapsulint.cli.server.protocol import DEBOUNCE

TIMEOUT = 600.0  # seconds; bounds a hang of the server
PAUSE = 0.3  # seconds between two edits, as a typist pauses (longer than the server's debounce)
HELD_AFTER = 5.0  # seconds of stillness after the edits before the resident set held is read


def log(message: str) -> None:
    print(f"[server-bench] {message}", file=sys.stderr, flush=True)


class TreeSampler(PeakRssSampler):
    """The peak summed resident set of a process and its workers (``bench.py``'s sampler), and
    the largest number of processes seen below it; ``mark()`` starts a new window and returns the
    peak of the one it ends."""

    def __init__(self, pid: int, interval: float = SAMPLE_INTERVAL) -> None:
        super().__init__(pid, interval)
        self.most_workers = 0
        self.window_peak = 0

    def _run(self) -> None:
        from bench import tree_rss_bytes

        while True:
            value = tree_rss_bytes(self.pid)
            self.most_workers = max(self.most_workers, len(descendants(self.pid)))
            self.samples += 1
            self.peak = max(self.peak, value)
            self.window_peak = max(self.window_peak, value)
            if self._stop.wait(self.interval):
                return

    def mark(self) -> int:
        ended, self.window_peak = self.window_peak, 0
        return ended


JUDGING = ["--format", "json", ".", "--exit-zero", "--output", os.devnull]  # not replayed by the results cache


def cli_run(repo: Path, cache: Path, args: list[str] | None = None) -> tuple[float, int, int]:
    """Wall time, peak summed resident set (bytes, the process and its workers, sampled) and the
    most workers seen, of ``kapsulint ARGS`` (``.`` quiet by default) in ``repo``."""
    env = {**os.environ, "KAPSULINT_CACHE_DIR": str(cache)}
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "kapsulint", *(args or [".", "-q"])], cwd=repo, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with TreeSampler(process.pid) as sampler:
        process.wait(TIMEOUT)
    return time.perf_counter() - start, sampler.peak, sampler.most_workers


def peak_kb(pid: int, field: str = "VmHWM") -> int:
    """The process's peak resident set (``VmHWM``), or its resident set now (``VmRSS``), in kB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    return 0


async def keep_stderr(process, path: Path) -> None:
    """Copy the server's stderr to ``path`` (a pipe nobody reads would stop the server once full)."""
    with open(path, "wb") as out:
        while line := await process.stderr.readline():
            out.write(line)


async def drive(repo: Path, cache: Path, edits: int, work_log: Path) -> dict:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("kapsulint-bench", "1")
    arrived: dict[tuple[str, int | None], float] = {}
    progress_ended = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        arrived[(params.uri, params.version)] = time.perf_counter()
        arrived_codes[(params.uri, params.version)] = [str(d.code) for d in params.diagnostics]

    arrived_codes: dict[tuple[str, int | None], list[str]] = {}

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def create(params) -> None:
        return None

    @client.feature(types.PROGRESS)
    def progress(params: types.ProgressParams) -> None:
        value = params.value
        if (isinstance(value, dict) and value.get("kind") == "end") or isinstance(value, types.WorkDoneProgressEnd):
            progress_ended.set()

    env = {**os.environ, "KAPSULINT_CACHE_DIR": str(cache)}
    await client.start_io(sys.executable, "-m", "kapsulint", "server", "--stdio", env=env, cwd=str(repo))
    process = client._server
    pid = process.pid
    drain = asyncio.create_task(keep_stderr(process, work_log))
    sampler = TreeSampler(pid)
    sampler.__enter__()
    capabilities = types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=True))
    await client.initialize_async(types.InitializeParams(
        capabilities=capabilities, process_id=os.getpid(),
        workspace_folders=[types.WorkspaceFolder(repo.as_uri(), repo.name)]))
    started = time.perf_counter()
    client.initialized(types.InitializedParams())
    await asyncio.wait_for(progress_ended.wait(), TIMEOUT)
    first_scan = time.perf_counter() - started
    scan_peak, scan_workers = sampler.mark(), sampler.most_workers
    await asyncio.sleep(HELD_AFTER)  # the first scan's collection runs, then the server holds the project
    scan_peak = max(scan_peak, sampler.mark())
    held_scanned = peak_kb(pid, "VmRSS")

    latencies: dict[str, list[float]] = {}
    for label, path, before, after, code in edit_targets(repo):
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8")
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "terraform", 1, text)))
        await wait_for(arrived, (uri, 1))
        measured = latencies[label] = []
        for version in range(2, edits + 2):
            flipped = version % 2 == 0
            edited = text.replace(before, after) if flipped else text
            sent = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [types.TextDocumentContentChangeWholeDocument(text=edited)]))
            await wait_for(arrived, (uri, version))
            measured.append(arrived[(uri, version)] - sent)
            if flipped and code not in arrived_codes[(uri, version)]:
                raise SystemExit(f"{path}, version {version}: the unsaved edit gave no {code}")
            await asyncio.sleep(PAUSE)  # an editor's pause between edits
    await asyncio.sleep(HELD_AFTER)  # the settling lints and the idle collection run
    edits_peak = sampler.mark()
    held = peak_kb(pid, "VmRSS")
    sampler.__exit__(None, None, None)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    drain.cancel()
    return {"first_scan": first_scan, "latencies": latencies, "edits_peak": edits_peak, "held_kb": held,
            "scan_peak": scan_peak, "scan_workers": scan_workers, "held_scanned_kb": held_scanned}


def edit_targets(repo: Path) -> list[tuple[str, Path, str, str, str]]:
    """The edits measured, each toggled between the text on disk and an edit giving a finding:
    (label, file, text replaced, replacement, the finding's code)."""
    clusters = sorted((repo / "clusters").iterdir())
    calls_pool = [any("modules/pool" in path.read_text(encoding="utf-8") for path in cluster.glob("*.tf"))
                  for cluster in clusters]
    sharing = clusters[calls_pool.index(True)] if True in calls_pool else None
    alone = clusters[calls_pool.index(False)]
    deleting = ("delete_additional_resources = false", "delete_additional_resources = true", "KAP101")
    targets = [("a root module sharing nothing", alone / "cluster.tf", *deleting)]
    if sharing is not None:
        shared_by = sum(calls_pool)
        targets.insert(0, (f"a root module that calls the module {shared_by} roots share", sharing / "cluster.tf",
                           *deleting))
        targets.append((f"the module {shared_by} roots share (all {shared_by} judged)", repo / "modules" / "pool" / "main.tf",
                        "autohealing         = true", "autohealing         = false", "KAP206"))
    return targets


async def wait_for(arrived: dict, key: tuple) -> None:
    async def poll() -> None:
        while key not in arrived:
            await asyncio.sleep(0.002)

    await asyncio.wait_for(poll(), TIMEOUT)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", type=int, default=100, help="modules of the generated monorepo (default 100)")
    parser.add_argument("--edits", type=int, default=20, help="unsaved edits measured (default 20)")
    parser.add_argument("--workdir", metavar="DIR", help="where the monorepo and caches go (default: a temporary directory)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kapsulint-server-bench-") as temporary:
        work = Path(args.workdir or temporary)
        repo = work / f"monorepo-{args.modules}"
        if not repo.exists():
            log(f"generating {repo}")
            generate_monorepo(repo, args.modules)
        log("kapsulint . cold, warm, and warm judging")
        cli_cache = work / "cli-cache"
        for stale in (cli_cache, work / "server-cache"):  # cold means cold, with --workdir reused too
            shutil.rmtree(stale, ignore_errors=True)
        cold, cold_peak, cold_workers = cli_run(repo, cli_cache)
        warm, warm_peak, _ = cli_run(repo, cli_cache)
        judging, judging_peak, _ = cli_run(repo, cli_cache, JUDGING)
        log("the server")
        server_cache = work / "server-cache"
        measured = asyncio.run(drive(repo, server_cache, args.edits, work / "server-stderr.log"))
    load = os.getloadavg()
    print(f"## kapsulint server, {args.modules} modules\n")
    print(f"`python benchmarks/server.py --modules {args.modules} --edits {args.edits}`; load average "
          f"{load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} (1 / 5 / 15 min) at the end, {os.cpu_count()} CPUs\n")
    mb = 1024 * 1024
    scan_peak = max(measured["scan_peak"], measured["edits_peak"])
    first = measured["first_scan"]
    print("| measurement | figure |")
    print("|---|---:|")
    print(f"| first scan, cold parse cache (initialized to progress end), most workers seen | {first:.2f} s, "
          f"{measured['scan_workers']} |")
    print(f"| `kapsulint .` cold (wall, interpreter start included), most workers seen | {cold:.2f} s, {cold_workers} |")
    print(f"| first scan against the cold CLI | {first / cold:.2f}x ({'within' if first <= cold else 'over'}) |")
    print(f"| `kapsulint .` warm (results cache replay) / warm judging (`{' '.join(JUDGING)}`) | "
          f"{warm:.2f} s / {judging:.2f} s |")
    for label, figures in measured["latencies"].items():
        ordered = sorted(figures)
        print(f"| edit to diagnostics in {label}: median of {len(ordered)} (fastest / slowest), debounce of "
              f"{DEBOUNCE} s included | {statistics.median(ordered) * 1000:.0f} ms ({ordered[0] * 1000:.0f} / "
              f"{ordered[-1] * 1000:.0f} ms) |")
    print(f"| server peak RSS, itself and its workers summed: during the first scan / during the edits | "
          f"{measured['scan_peak'] / mb:.1f} / {measured['edits_peak'] / mb:.1f} MB |")
    print(f"| server RSS held {HELD_AFTER:.0f} s after the first scan / after the last edit | "
          f"{measured['held_scanned_kb'] / 1024:.1f} / {measured['held_kb'] / 1024:.1f} MB |")
    held = max(measured["held_scanned_kb"], measured["held_kb"]) * 1024
    print(f"| server RSS held against the CLI's warm judging peak | {held / judging_peak:.2f}x "
          f"({'within' if held <= judging_peak else 'over'}) |")
    print(f"| `kapsulint .` peak RSS, its workers summed: cold / warm (replay) | {cold_peak / mb:.1f} / "
          f"{warm_peak / mb:.1f} MB |")
    print(f"| `kapsulint` warm judging peak RSS | {judging_peak / mb:.1f} MB |")
    print(f"| server peak (first scan and edits) against the CLI's warm judging peak | "
          f"{scan_peak / judging_peak:.2f}x ({'within' if scan_peak <= judging_peak else 'over'}) |")
    print(f"| server peak during the edits against the CLI's warm judging peak | "
          f"{measured['edits_peak'] / judging_peak:.2f}x "
          f"({'within' if measured['edits_peak'] <= judging_peak else 'over'}) |")
    print(f"| server first-scan peak against the CLI's cold peak | {measured['scan_peak'] / cold_peak:.2f}x |")

if __name__ == "__main__":
    main()
