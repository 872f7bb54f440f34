"""``kapsulint server`` end to end: pytest-lsp drives the real server over stdio, as an editor does.

One server for the module, on a workspace of two folders: a copy of ``examples/production`` and a
small project whose pool builds its node type from a variable. The tests run in file order on
that one session (initialize, open, change, hover, code actions, apply edits, save, close), and
the last one shuts the server down. No timing is asserted: ``TIMEOUT`` only bounds a hang.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "production"
TIMEOUT = 120  # seconds; bounds a hang, never a speed
TODAY = "2026-12-01"

pytestmark = pytest.mark.asyncio(loop_scope="module")

FAMILY_POOLS = """\
resource "scaleway_k8s_pool" "apps" {
  cluster_id  = "fr-par/11111111-1111-1111-1111-111111111111"
  node_type   = "${var.apps_family}-M"
  size        = 3
  autohealing = true

  lifecycle {
    create_before_destroy = true
  }
}
"""
FAMILY_VARIABLES = """\
variable "apps_family" {
  type    = string
  default = "PRO2"
}
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """Two folders outside any git repository, so each folder is its own project root."""
    top = tmp_path_factory.mktemp("server-workspace")
    shutil.copytree(EXAMPLE, top / "production")
    (top / "family").mkdir()
    (top / "family" / "pools.tf").write_text(FAMILY_POOLS, encoding="utf-8")
    (top / "family" / "variables.tf").write_text(FAMILY_VARIABLES, encoding="utf-8")
    return top


class Published:
    """Every publishDiagnostics the client received, in order."""

    def __init__(self) -> None:
        self.items: list[types.PublishDiagnosticsParams] = []


PUBLISHED = Published()


def record_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    PUBLISHED.items.append(params)
    client.diagnostics[params.uri] = params.diagnostics


REGISTERED: list[types.Registration] = []


def record_registration(client: LanguageClient, params: types.RegistrationParams) -> None:
    """``client/registerCapability``, answered as an editor does (the file watchers)."""
    REGISTERED.extend(params.registrations)


def client_factory() -> LanguageClient:
    """pytest-lsp's test client, recording every publishDiagnostics with its version."""
    client = LanguageClient(converter_factory=default_converter)
    features = {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: record_diagnostics,
                types.CLIENT_REGISTER_CAPABILITY: record_registration}
    register_lsp_features(client, features)
    return client


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "kapsulint", "server", "--stdio"], client_factory=client_factory))
async def client(lsp_client: LanguageClient, workspace: Path, tmp_path_factory):
    lsp_client.set_configuration({"today": TODAY}, section="kapsulint")
    capabilities = client_capabilities("visual-studio-code")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities,
        workspace_folders=[types.WorkspaceFolder(uri(workspace / "production"), "production"),
                           types.WorkspaceFolder(uri(workspace / "family"), "family")],
        initialization_options={"settings": {"today": TODAY}},
    ))
    yield
    if lsp_client._server is not None and lsp_client._server.returncode is None:
        await lsp_client.shutdown_session()


def uri(path: Path) -> str:
    return path.resolve().as_uri()


async def eventually(check, what: str):
    """Wait until ``check()`` gives something truthy (the diagnostics of a debounced lint)."""
    async def poll():
        while True:
            value = check()
            if value:
                return value
            await asyncio.sleep(0.02)

    try:
        return await asyncio.wait_for(poll(), TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


def latest(path: Path, version: int | None = None) -> list[types.Diagnostic] | None:
    """The last diagnostics published for ``path`` (at ``version``, when given)."""
    for params in reversed(PUBLISHED.items):
        if params.uri == uri(path):
            return params.diagnostics if version is None or params.version == version else None
    return None


def codes(diagnostics) -> list[str]:
    return sorted(str(d.code) for d in diagnostics or [])


OPENED: set[str] = set()


def open_document(client: LanguageClient, path: Path, text: str | None = None) -> str:
    text = path.read_text(encoding="utf-8") if text is None else text
    OPENED.add(uri(path))
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri(path), "terraform", 1, text)))
    return text


async def opened(client: LanguageClient, path: Path) -> list[types.Diagnostic]:
    """The diagnostics of ``path``, opened first when no earlier test of the session opened it."""
    if uri(path) not in OPENED:
        open_document(client, path)
    return await eventually(lambda: latest(path), f"diagnostics of {path.name}")


def change_document(client: LanguageClient, path: Path, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=version, uri=uri(path)),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply edits as a client does (UTF-16 positions; the example files are ASCII)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(position: types.Position) -> int:
        return starts[position.line] + position.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


async def test_first_scan_reports_progress(client: LanguageClient):
    def ended():
        return [kind for reports in client.progress_reports.values() for kind in reports
                if isinstance(kind, types.WorkDoneProgressEnd)]

    await eventually(ended, "the first scan's progress to end")
    reports = next(iter(client.progress_reports.values()))
    assert isinstance(reports[0], types.WorkDoneProgressBegin)
    assert reports[0].title == "kapsulint"


async def test_open_publishes_kap201_at_the_apps_pool_header(client: LanguageClient, workspace: Path):
    pools = workspace / "production" / "pools.tf"
    open_document(client, pools)
    diagnostics = await eventually(lambda: latest(pools, 1), "diagnostics of pools.tf")
    kap201 = next(d for d in diagnostics if d.code == "KAP201")
    assert kap201.range == types.Range(types.Position(18, 0), types.Position(18, 37))
    assert kap201.severity == types.DiagnosticSeverity.Warning
    assert kap201.source == "kapsulint"
    assert kap201.code_description.href.endswith("/README.md#kap201")
    assert "scaleway_k8s_pool.apps has no lifecycle" in kap201.message
    kap202 = next(d for d in diagnostics if d.code == "KAP202")
    assert kap202.severity == types.DiagnosticSeverity.Error
    assert (kap202.range.start.line, kap202.range.start.character) == (3, 16)


async def test_hover_on_a_finding_shows_the_rules_documentation(client: LanguageClient, workspace: Path):
    pools = workspace / "production" / "pools.tf"
    await opened(client, pools)
    result = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(pools)), types.Position(18, 5)))
    assert result is not None
    explained = subprocess.run([sys.executable, "-m", "kapsulint", "--explain", "KAP201"], capture_output=True,
                               text=True, timeout=TIMEOUT, check=True).stdout
    assert result.contents.value.strip() == explained.strip()
    nothing = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(pools)), types.Position(0, 3)))  # the comment line: no finding
    assert nothing is None


async def test_unsafe_quick_fix_is_offered_only_when_the_settings_allow_it(client: LanguageClient, workspace: Path):
    pools = workspace / "production" / "pools.tf"
    await opened(client, pools)
    at_header = types.Range(types.Position(18, 3), types.Position(18, 3))
    actions = await code_actions(client, pools, at_header)
    titles = [action.title for action in actions]
    assert "KAP201: add a suppression with a reason" in titles
    assert not any(title.startswith("KAP201") and "unsafe" in title for title in titles), titles

    client.set_configuration({"today": TODAY, "unsafeFixes": True}, section="kapsulint")
    published = len(PUBLISHED.items)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await eventually(lambda: any(p.uri == uri(pools) for p in PUBLISHED.items[published:]), "a new lint")
    actions = await code_actions(client, pools, at_header)
    fix = next(action for action in actions if action.title.startswith("KAP201") and "unsafe" in action.title)
    assert fix.kind == types.CodeActionKind.QuickFix
    assert not fix.is_preferred  # unsafe: offered, never preferred
    assert [d.code for d in fix.diagnostics] == ["KAP201"]


async def code_actions(client: LanguageClient, path: Path, where: types.Range, only=None) -> list[types.CodeAction]:
    diagnostics = latest(path) or []
    result = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri(path)), where, types.CodeActionContext(diagnostics, only=only)))
    return result or []


async def test_quick_fix_edits_are_what_fix_writes(client: LanguageClient, workspace: Path, tmp_path: Path):
    pools = workspace / "production" / "pools.tf"
    original = pools.read_text(encoding="utf-8")
    actions = await code_actions(client, pools, types.Range(types.Position(18, 0), types.Position(18, 0)))
    fix = next(action for action in actions if action.title.startswith("KAP201") and "unsafe" in action.title)
    assert list(fix.edit.changes) == [uri(pools)]
    fixed = apply_text_edits(original, fix.edit.changes[uri(pools)])

    copy = tmp_path / "production"
    shutil.copytree(EXAMPLE, copy)
    subprocess.run([sys.executable, "-m", "kapsulint", str(copy), "--fix", "--unsafe-fixes", "--select", "KAP201",
                    "--fix-only"], capture_output=True, text=True, timeout=TIMEOUT, check=True)
    assert fixed == (copy / "pools.tf").read_text(encoding="utf-8")
    assert fixed != original

    # The client applies the edit to its buffer: the finding goes away.
    change_document(client, pools, 2, fixed)
    await eventually(lambda: latest(pools, 2) is not None, "diagnostics after the fix")
    assert "KAP201" not in codes(latest(pools, 2))


async def test_typing_delete_additional_resources_true_unsaved_gives_kap101(client: LanguageClient, workspace: Path):
    cluster = workspace / "production" / "cluster.tf"
    text = open_document(client, cluster)
    await eventually(lambda: latest(cluster, 1) is not None, "diagnostics of cluster.tf")
    assert "KAP101" not in codes(latest(cluster, 1))
    typed = text.replace("delete_additional_resources = false", "delete_additional_resources = true")
    assert typed != text
    change_document(client, cluster, 2, typed)
    diagnostics = await eventually(lambda: latest(cluster, 2), "diagnostics of the unsaved cluster.tf")
    kap101 = next(d for d in diagnostics if d.code == "KAP101")
    assert kap101.range == types.Range(types.Position(6, 32), types.Position(6, 36))
    assert cluster.read_text(encoding="utf-8") == text  # nothing was written


async def test_a_variable_default_in_another_unsaved_buffer_rejudges_the_file_that_reads_it(
        client: LanguageClient, workspace: Path):
    pools = workspace / "family" / "pools.tf"
    variables = workspace / "family" / "variables.tf"
    open_document(client, pools)
    open_document(client, variables)
    await eventually(lambda: latest(pools, 1) is not None or None, "diagnostics of family/pools.tf")
    assert "KAP204" not in codes(latest(pools))
    change_document(client, variables, 2, FAMILY_VARIABLES.replace('"PRO2"', '"NOPE2"'))
    diagnostics = await eventually(lambda: [d for d in latest(pools) or [] if d.code == "KAP204"],
                                   "KAP204 in family/pools.tf")
    assert diagnostics[0].range == types.Range(types.Position(2, 16), types.Position(2, 38))
    assert '"NOPE2-M"' in diagnostics[0].message
    change_document(client, variables, 3, FAMILY_VARIABLES)
    await eventually(lambda: not [d for d in latest(pools) or [] if d.code == "KAP204"] or None,
                     "KAP204 gone once the default is back")


async def test_suppression_hover_unused_tag_and_suppression_action(client: LanguageClient, workspace: Path):
    pools = workspace / "family" / "pools.tf"
    text = "# kapsulint: ignore[KAP206] nothing to suppress here\n" + FAMILY_POOLS.replace(
        '"${var.apps_family}-M"', '"NOPE3-M"')
    change_document(client, pools, 2, text)
    diagnostics = await eventually(lambda: latest(pools, 2), "diagnostics of the edited family/pools.tf")
    unused = next(d for d in diagnostics if d.code == "KAP003")
    assert list(unused.tags) == [types.DiagnosticTag.Unnecessary]
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(pools)), types.Position(0, 22)))
    assert hover is not None and hover.contents.value.startswith("# KAP206 autohealing-disabled")

    kap204 = next(d for d in diagnostics if d.code == "KAP204")
    actions = await code_actions(client, pools, kap204.range)
    suppress = next(action for action in actions if action.title == "KAP204: add a suppression with a reason")
    suppressed = apply_text_edits(text, suppress.edit.changes[uri(pools)])
    assert suppressed.split("\n")[3].strip().startswith("# kapsulint: ignore[KAP204] ")
    change_document(client, pools, 3, suppressed)
    after = await eventually(lambda: latest(pools, 3) is not None and [latest(pools, 3)], "diagnostics, suppressed")
    assert "KAP204" not in codes(after[0])


async def test_fix_all_applies_the_safe_fixes(client: LanguageClient, workspace: Path):
    pools = workspace / "family" / "pools.tf"
    text = "# kapsulint: ignore[KAP206] nothing to suppress here\n" + FAMILY_POOLS
    change_document(client, pools, 4, text)
    await eventually(lambda: "KAP003" in codes(latest(pools, 4)), "KAP003 in family/pools.tf")
    actions = await code_actions(client, pools, types.Range(types.Position(0, 0), types.Position(0, 0)),
                                 only=["source.fixAll.kapsulint"])
    assert [action.kind for action in actions] == ["source.fixAll.kapsulint"]
    assert apply_text_edits(text, actions[0].edit.changes[uri(pools)]) == FAMILY_POOLS


async def test_save_and_close(client: LanguageClient, workspace: Path):
    pools = workspace / "family" / "pools.tf"
    pools.write_text(FAMILY_POOLS, encoding="utf-8")
    change_document(client, pools, 5, FAMILY_POOLS)
    published = len(PUBLISHED.items)
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri(pools))))
    await eventually(lambda: any(p.uri == uri(pools) for p in PUBLISHED.items[published:]) or None,
                     "diagnostics after save")
    cluster = workspace / "production" / "cluster.tf"
    assert "KAP101" in codes(latest(cluster))
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri(cluster))))
    OPENED.discard(uri(cluster))
    await eventually(lambda: latest(cluster) is not None and len(latest(cluster)) == 0, "diagnostics of cluster.tf cleared")


async def test_a_file_changed_on_disk_is_judged_once_the_client_tells(client: LanguageClient, workspace: Path):
    """The server registers file watchers; a change on disk to a file no buffer holds is judged
    (a lint of only what the buffers changed would never read it again)."""
    assert any(item.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for item in REGISTERED)
    pools = workspace / "family" / "pools.tf"
    variables = workspace / "family" / "variables.tf"
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri(variables))))
    OPENED.discard(uri(variables))
    for text, wanted in ((FAMILY_VARIABLES.replace('"PRO2"', '"NOPE2"'), True), (FAMILY_VARIABLES, False)):
        variables.write_text(text, encoding="utf-8")
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri(variables), types.FileChangeType.Changed)]))
        await eventually(lambda wanted=wanted: ("KAP204" in codes(latest(pools))) == wanted or None,
                         f"KAP204 {'in' if wanted else 'gone from'} family/pools.tf after the change on disk")


async def test_show_settings_command(client: LanguageClient, workspace: Path):
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        "kapsulint.showSettings", [uri(workspace / "production")]))
    lines = result.splitlines()
    assert any(line.startswith("today") and TODAY in line and "(client settings)" in line for line in lines), lines
    assert any(line.startswith("unsafe-fixes") and "true" in line for line in lines), lines


async def test_settings_that_cannot_be_used_are_a_message_and_the_server_goes_on(client: LanguageClient,
                                                                                workspace: Path):
    client.set_configuration({"today": TODAY, "select": "KAP9999"}, section="kapsulint")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    message = await eventually(lambda: [m for m in client.messages if "KAP9999" in m.message], "the error message")
    assert message[0].type == types.MessageType.Error
    client.set_configuration({"today": TODAY}, section="kapsulint")
    published = len(PUBLISHED.items)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    pools = workspace / "production" / "pools.tf"
    await eventually(lambda: any(p.uri == uri(pools) for p in PUBLISHED.items[published:]) or None,
                     "a lint with the settings mended")
    assert "KAP202" in codes(latest(pools))


async def test_shutdown_ends_the_server_cleanly(client: LanguageClient):
    await client.shutdown_session()
    assert client._server.returncode == 0
