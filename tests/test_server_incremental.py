"""``kapsulint server`` re-judges only what an edit reaches, and publishes what a whole lint would.

On a small generated monorepo (eight root modules, two of them calling one shared module)
and on a sample of fixtures, seeded random edits are sent as unsaved buffers; after each one the
diagnostics the server publishes for every open document equal the findings of a whole run of the
command line's runner over the same texts, converted as the server converts them. The same edits
also drive one folder's lints directly, so that each intermediate judgement (a tree judged alone,
then its shared files settled) is compared too. No timing is asserted: ``TIMEOUT`` bounds a hang.
"""

from __future__ import annotations

import asyncio
import functools
import random
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench import generate_monorepo  # noqa: E402

from kapsulint.cli.server.convert import diagnostic  # noqa: E402
from kapsulint.cli.server.folders import Folder  # noqa: E402
from kapsulint.cli.settings import CommandLine, resolve_settings  # noqa: E402
from kapsulint.findings import Loc  # noqa: E402
from kapsulint.lint.registry import by_id  # noqa: E402
from kapsulint.lint.runner import run  # noqa: E402
from kapsulint.parsing.sources import FileReads  # noqa: E402

TIMEOUT = 120  # seconds; bounds a hang, never a speed
TODAY = "2026-12-01"
SEED = 28
MODULES = 8  # the fourth and the eighth root call one shared module
EDITS = 12  # per folder, through the server
FIXTURES = ("KAP016/silent-module-called-twice", "KAP011/silent-downloaded-modules",
            "KAP401/cluster-in-nested-module-tfvars-root", "KAP003/fires-unused", "KAP006/fires-duplicate-resource")
SAMPLED = 3  # more fixtures, drawn with SEED
SUFFIXES = (".tf", ".tofu", ".tfvars", ".tf.json", ".yaml", ".yml")

pytestmark = pytest.mark.asyncio(loop_scope="module")


def fixture_sample() -> list[Path]:
    every = sorted(path for path in (ROOT / "fixtures").glob("KAP*/*") if path.is_dir())
    named = [ROOT / "fixtures" / name for name in FIXTURES if (ROOT / "fixtures" / name).is_dir()]
    others = [path for path in every if path not in named]
    return named + random.Random(SEED).sample(others, SAMPLED)


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> list[Path]:
    """The monorepo and the fixtures, each a folder outside any git repository (its own root)."""
    top = tmp_path_factory.mktemp("incremental")
    generate_monorepo(top / "monorepo", MODULES, SEED)
    made = [top / "monorepo"]
    for index, case in enumerate(fixture_sample()):
        target = top / f"case{index}-{case.parent.name}-{case.name}"
        shutil.copytree(case, target, symlinks=True)
        made.append(target)
    return made


def documents(folder: Path) -> list[Path]:
    """The files an editor would open: configuration, tfvars and YAML, outside ``.terraform``."""
    return sorted(path for path in folder.rglob("*") if path.is_file() and path.name.endswith(SUFFIXES)
                  and ".terraform" not in path.relative_to(folder).parts and not path.is_symlink())


def edited(text: str, rng: random.Random, disk: str) -> str:
    """One random edit of ``text``: a value flipped, a number changed, a line removed or doubled,
    a suppression comment added, a module source or a resource name changed, or the text on disk."""
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    choice = rng.randrange(8)
    if choice == 0:
        return text.replace("= false", "= true", 1) if "= false" in text else text.replace("= true", "= false", 1)
    if choice == 1:
        digits = [index for index, char in enumerate(text) if char.isdigit()]
        if digits:
            index = rng.choice(digits)
            return text[:index] + str(rng.randrange(10)) + text[index + 1:]
    if choice == 2:
        del lines[at]
    elif choice == 3:
        lines.insert(at, lines[at])
    elif choice == 4:
        lines.insert(at, f"# kapsulint: ignore[{rng.choice(['KAP101', 'KAP201', 'KAP202', 'KAP301'])}] accepted")
    elif choice == 5 and 'source' in text:
        return text.replace("../../modules/pool", "../../modules/missing", 1) if "modules/pool" in text \
            else text.replace('source', 'source = "./gone"\n  other_source', 1)
    elif choice == 6 and '"' in lines[at]:
        lines[at] = lines[at].replace('"', '"x', 1)
    else:
        return disk
    return "\n".join(lines)


def settings_for(folder: Path):
    return resolve_settings(CommandLine(targets=[folder], today=TODAY))


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def expected_diagnostics(folder: Path, buffers: dict[str, str]) -> dict[str, list[tuple]]:
    """What a whole run over ``buffers`` reports, per open path, converted as the server converts it."""
    resolved = settings_for(folder)
    reads = FileReads()
    reads.set_overlay({path: text.encode("utf-8") for path, text in buffers.items()})
    result = run(resolved.settings, reads)
    resolved.fix_policy.annotate(result.findings)
    rules = by_id()

    def lines_of(path: str) -> list[str]:
        if path in buffers:
            return buffers[path].split("\n")
        try:
            return Path(path).read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            return []

    def related_place(loc: Loc) -> types.Location:
        from kapsulint.cli.server.convert import loc_range

        return types.Location(Path(loc.path).as_uri(), loc_range(loc, lines_of(loc.path), utf16))

    found: dict[str, list[tuple]] = {path: [] for path in buffers}
    for finding in result.findings:
        if finding.suppressed_by is None and finding.loc.path in found:
            found[finding.loc.path].append(
                shape(diagnostic(finding, lines_of(finding.loc.path), utf16, rules, related_place)))
    return found


def shape(item: types.Diagnostic) -> tuple:
    def place(r: types.Range) -> tuple:
        return r.start.line, r.start.character, r.end.line, r.end.character

    related = tuple((info.location.uri, place(info.location.range), info.message)
                    for info in item.related_information or [])
    return (place(item.range), item.message, item.severity, item.code, tuple(item.tags or ()), related)


def judgement_shapes(folder: Path, judgement, buffers: dict[str, str]) -> dict[str, list[tuple]]:
    """A folder's judgement as the diagnostics of the open paths (the server's conversion)."""
    rules = by_id()

    def lines_of(path: str) -> list[str]:
        return buffers[path].split("\n") if path in buffers else Path(path).read_text(
            encoding="utf-8", errors="replace").split("\n")

    def related_place(loc: Loc) -> types.Location:
        from kapsulint.cli.server.convert import loc_range

        return types.Location(Path(loc.path).as_uri(), loc_range(loc, lines_of(loc.path), utf16))

    return {path: [shape(diagnostic(f, lines_of(path), utf16, rules, related_place))
                   for f in judgement.findings.get(path, [])] for path in buffers}


def edit_sequence(folder: Path, count: int) -> list[tuple[str, str]]:
    """``count`` seeded edits of the folder's documents: (path, the document's whole new text)."""
    rng = random.Random(f"{SEED}:{folder.name}")
    paths = [str(path.resolve()) for path in documents(folder)]
    disk = {path: Path(path).read_text(encoding="utf-8") for path in paths}
    texts = dict(disk)
    sequence = []
    for _ in range(count):
        path = rng.choice(paths)
        texts[path] = edited(texts[path], rng, disk[path])
        sequence.append((path, texts[path]))
    return sequence


@pytest.mark.filterwarnings("ignore::pytest.PytestWarning")
def test_folder_lints_of_parts_equal_whole_runs(folders: list[Path]):
    """Each lint of a folder after an edit (a tree alone, then the stale parts settled) gives the
    findings of a whole run; the tree judged alone is the edited one's, not the whole project."""
    judged_alone = 0
    for path in folders:
        folder = Folder(str(path), settings={"today": TODAY})
        buffers = {str(p.resolve()): p.read_text(encoding="utf-8") for p in documents(path)}
        folder.lint(buffers)
        for edited_path, text in edit_sequence(path, 3 * EDITS):
            buffers[edited_path] = text
            judgement = folder.lint(dict(buffers))
            if folder.stale:
                judged_alone += 1
                edited_only = {edited_path: buffers[edited_path]}
                assert judgement_shapes(path, judgement, edited_only) == \
                    {edited_path: expected_diagnostics(path, buffers)[edited_path]}, edited_path
                judgement = folder.lint(dict(buffers))
                assert not folder.stale
            assert judgement_shapes(path, judgement, buffers) == expected_diagnostics(path, buffers), edited_path
    assert judged_alone > 0  # the monorepo's shared module: some edits were judged with one tree alone


class Published:
    def __init__(self) -> None:
        self.latest: dict[str, types.PublishDiagnosticsParams] = {}


PUBLISHED = Published()


def record_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    PUBLISHED.latest[params.uri] = params


def accept_registration(client: LanguageClient, params: types.RegistrationParams) -> None:
    """``client/registerCapability`` (the server's file watchers), accepted as an editor does."""


def client_factory() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES,
                                   types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: record_diagnostics,
                                   types.CLIENT_REGISTER_CAPABILITY: accept_registration})
    return client


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "kapsulint", "server", "--stdio"], client_factory=client_factory))
async def client(lsp_client: LanguageClient, folders: list[Path]):
    lsp_client.set_configuration({"today": TODAY}, section="kapsulint")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(path.resolve().as_uri(), path.name) for path in folders],
        initialization_options={"settings": {"today": TODAY}},
    ))
    yield
    if lsp_client._server is not None and lsp_client._server.returncode is None:
        await lsp_client.shutdown_session()


async def converged(check, what: str) -> None:
    async def poll():
        while not check():
            await asyncio.sleep(0.05)

    try:
        await asyncio.wait_for(poll(), TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


def published_equal(uris: dict[str, str], versions: dict[str, int], expected: dict[str, list[tuple]],
                    edited_path: str | None) -> bool:
    """Whether the diagnostics last published for every open path are ``expected``, those of the
    edited path at its current version."""
    if edited_path is not None:
        latest = PUBLISHED.latest.get(uris[edited_path])
        if latest is None or latest.version != versions[edited_path]:
            return False
    for real, wanted in expected.items():
        latest = PUBLISHED.latest.get(uris[real])
        if latest is None or [shape(d) for d in latest.diagnostics] != wanted:
            return False
    return True


async def edit_through_the_server(client: LanguageClient, folder: Path) -> None:
    opened = documents(folder)
    uris = {str(path.resolve()): path.resolve().as_uri() for path in opened}
    buffers = {real: Path(real).read_text(encoding="utf-8") for real in uris}
    versions = dict.fromkeys(uris, 1)
    for real, text in buffers.items():
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uris[real], "terraform", 1, text)))
    expected = expected_diagnostics(folder, buffers)
    await converged(functools.partial(published_equal, uris, versions, expected, None),
                    f"the diagnostics of {folder.name} once opened")
    for edited_path, text in edit_sequence(folder, EDITS):
        versions[edited_path] += 1
        buffers[edited_path] = text
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=versions[edited_path], uri=uris[edited_path]),
            [types.TextDocumentContentChangeWholeDocument(text=text)]))
        expected = expected_diagnostics(folder, buffers)
        await converged(functools.partial(published_equal, uris, versions, expected, edited_path),
                        f"{edited_path} at version {versions[edited_path]} to equal a whole run")
    for real in buffers:
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uris[real])))


async def test_published_diagnostics_after_random_unsaved_edits_equal_a_whole_run(
        client: LanguageClient, folders: list[Path]):
    for folder in folders:
        await edit_through_the_server(client, folder)
