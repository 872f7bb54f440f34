"""The language server: the protocol's handlers, the debounced lints, what is published.

Each workspace folder is a project of its own (``folders.py``). A change to an open buffer, an open,
a save or a close schedules a lint of the folder that holds the file; the lint starts once the
buffers have been still for ``DEBOUNCE`` seconds (at once on open, save and close), runs in one
worker thread (so hover and code actions are answered meanwhile), and reads every open buffer in
place of its file. A lint judges again only the parts of the project the changes reach
(``folders.Partition``); settings, folders and files changed on disk call for a lint of the whole.
A lint that a newer change has superseded publishes nothing. Diagnostics are
published for the open buffers, each with the version it was judged at, and cleared on close.
A failure of a lint never stops the server: it is a KAP008 diagnostic on the folder's open buffers
and a log message.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from kapsulint import __version__
from kapsulint.cli.server.convert import (
    FIX_ALL,
    code_points,
    diagnostic,
    fixed_texts,
    hover_text,
    loc_range,
    minimal_edit,
    overlaps,
    rules_in_directive,
    suppression_covers,
    suppression_text,
)
from kapsulint.cli.server.folders import Folder, Judgement, client_settings, internal_error_judgement
from kapsulint.cli.settings import SettingsError, settings_lines
from kapsulint.errors import describe
from kapsulint.findings import Finding, Loc
from kapsulint.lint.registry import INTERNAL_ERROR
from kapsulint.text import decoded

DEBOUNCE = 0.05  # seconds of stillness after a change before the lint starts: a keystroke's worth
# A lint leaves its model as cyclic garbage, which a full collection frees: it runs once the
# buffers have been still for IDLE_COLLECT seconds, or before the next lint when UNCOLLECTED_LINTS
# lints' garbage is waiting (which bounds the memory held), a lint of parts counting for the share
# of the project's files it read. A lint that read at least COLLECT_AT_ONCE of the project (the
# first scan, a lint of the whole) is collected as soon as its diagnostics are published: its
# garbage is the size of the model of the whole project, and the next lint, were it left waiting,
# would build its own model beside it (the server's peak would be two models, not one).
IDLE_COLLECT = 1.0
UNCOLLECTED_LINTS = 2
COLLECT_AT_ONCE = 0.5
# An edit private to one root module tree is judged with that tree alone; the files it shares with
# other trees (a module several roots call) are judged again, with all those trees, once the
# buffers have been still for SETTLE seconds.
SETTLE = 1.0
SHOW_SETTINGS = "kapsulint.showSettings"
CONFIGURATION_SECTION = "kapsulint"


class KapsulintServer(LanguageServer):
    """The server's state: folders, their lints, the worker that runs them."""

    def __init__(self) -> None:
        super().__init__("kapsulint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.folders: dict[str, Folder] = {}  # by real path
        self.defaults: dict[str, Any] = {}  # initializationOptions' settings, for every folder
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kapsulint-lint")
        self.lint_lock = asyncio.Lock()
        self.pending: set[asyncio.Task] = set()
        self.uncollected = 0.0  # lints whose garbage no collection has freed yet (a lint of parts: its share)
        self.lints = 0  # lints run, for the idle collection
        self.collections = 0  # collections run between lints (the idle ones and those after a large lint)
        self.compaction: asyncio.Future | None = None  # a compaction under way, which hover and code actions wait for

    # folders and documents

    def folder_for(self, path: str) -> Folder:
        """The deepest workspace folder holding ``path``; outside every folder, the file's directory."""
        holding = [folder for folder in self.folders.values() if folder.holds(path)]
        if holding:
            return max(holding, key=lambda folder: len(folder.path))
        directory = os.path.dirname(path)
        folder = self.folders.get(directory)
        if folder is None:
            folder = self.folders[directory] = Folder(directory, settings=dict(self.defaults))
        return folder

    def open_buffers(self) -> tuple[dict[str, str], dict[str, tuple[str, int | None]]]:
        """Every open document's text by real path, and each path's uri and version."""
        texts: dict[str, str] = {}
        documents: dict[str, tuple[str, int | None]] = {}
        for uri, document in self.workspace.text_documents.items():
            path = real_path(uri)
            if path is None:
                continue
            texts[path] = document.source
            documents[path] = (uri, document.version)
        return texts, documents

    def units(self, text: str) -> int:
        return self.workspace.position_codec.client_num_units(text)

    # linting

    def schedule(self, folder: Folder, delay: float) -> None:
        folder.generation += 1
        task = asyncio.ensure_future(self.lint_later(folder, folder.generation, delay))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def lint_later(self, folder: Folder, generation: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        async with self.lint_lock:  # one lint at a time: the buffers are read in place of files process-wide
            if generation != folder.generation:
                return  # a newer change: its own lint follows
            texts, documents = self.open_buffers()
            judgement = await self.judged(folder, texts)
        if not self.keep(folder, generation, judgement, documents):
            return
        del judgement  # the folder's is the one a compaction rebuilds
        await self.collect_large()
        if folder.stale:  # files shared by several root trees wait for the buffers to be still
            self.schedule(folder, SETTLE)

    async def collect_large(self) -> None:
        """Free the garbage of the lints that read at least ``COLLECT_AT_ONCE`` of a project now,
        once their diagnostics are out, before another lint builds a model beside it."""
        if self.uncollected >= COLLECT_AT_ONCE:
            async with self.lint_lock:
                if self.uncollected >= COLLECT_AT_ONCE:
                    await self.compact_now()

    async def compact_now(self) -> None:
        """A collection with what the folders keep rebuilt packed (:func:`compact`), in the worker;
        the caller holds the lint lock."""
        folders = list(self.folders.values())
        self.compaction = asyncio.get_running_loop().run_in_executor(self.worker, compact, folders)
        try:
            await self.compaction
        finally:
            self.compaction = None
        self.uncollected = 0
        self.collections += 1

    async def compacted(self) -> None:
        """Wait for a compaction under way (:func:`compact`): the folders' judgements are back after it."""
        running = self.compaction
        if running is not None:
            try:
                await asyncio.shield(running)
            except Exception:  # its own caller sees the failure; an answer goes on with what is there
                pass

    async def collect_when_idle(self) -> None:
        """Free the lints' garbage once no lint has run for ``IDLE_COLLECT`` seconds, and give the
        memory freed back to the system (the server holds only the last lint's findings and how
        the project splits, not its model, packed again by :func:`compact`)."""
        lints = self.lints
        await asyncio.sleep(IDLE_COLLECT)
        if lints == self.lints and self.uncollected:
            async with self.lint_lock:
                if lints == self.lints and self.uncollected:
                    await self.compact_now()

    async def judged(self, folder: Folder, texts: dict[str, str]) -> Judgement | None:
        """One lint in the worker thread (the lock held); its messages are sent from here, the
        event loop's thread."""
        loop = asyncio.get_running_loop()
        if self.uncollected >= UNCOLLECTED_LINTS:
            await loop.run_in_executor(self.worker, gc.collect)
            self.uncollected = 0
        # As the command does: collections over the growing model cost more than the lint. The
        # caller turns the collector on again once the diagnostics are published (keep): on at the
        # end of the lint, it would run at once, over all the lint made, before they are.
        gc.disable()
        try:
            judgement, message, shown = await loop.run_in_executor(self.worker, judge, folder, texts)
        except BaseException:
            gc.enable()
            raise
        self.uncollected += folder.share
        self.lints += 1
        task = asyncio.ensure_future(self.collect_when_idle())
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)
        if message is not None:
            (self.tell if shown else self.log)(types.MessageType.Error, message)
        return judgement

    def keep(self, folder: Folder, generation: int, judgement: Judgement | None,
             documents: dict[str, tuple[str, int | None]]) -> bool:
        """Keep and publish the judgement of a lint that ``judged`` ran, unless it failed or a newer
        change superseded it (False); either way, the collector is on again: the lint's garbage is
        collected once its diagnostics are out."""
        try:
            if judgement is None or generation != folder.generation:
                return False
            folder.judgement = judgement
            self.publish(folder, judgement, documents)
            return True
        finally:
            gc.enable()

    def publish(self, folder: Folder, judgement: Judgement, documents: dict[str, tuple[str, int | None]]) -> None:
        """The diagnostics of every open document of the folder (none: an empty list), each with
        the version the lint read."""
        for path, (uri, version) in documents.items():
            if self.folder_for(path) is not folder:
                continue
            findings = judgement.findings.get(path, [])
            lines = judgement.texts[path].split("\n") if path in judgement.texts else []
            diagnostics = [self.diagnostic(finding, lines, judgement.texts) for finding in findings]
            for finding in findings:
                if finding.rule == INTERNAL_ERROR:
                    self.log(types.MessageType.Error, f"kapsulint: {path}:{finding.loc.line}: {finding.message}")
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, diagnostics, version))

    def diagnostic(self, finding: Finding, lines: list[str], texts: dict[str, str]) -> types.Diagnostic:
        """The finding's diagnostic; ``lines`` are its file's, ``texts`` the buffers of the lint."""

        def related_place(loc: Loc) -> types.Location | None:
            uri = _client_uri(self, loc.path) or from_fs_path(loc.path)
            if uri is None:
                return None
            return types.Location(uri, loc_range(loc, text_lines(loc.path, texts), self.units))

        from kapsulint.lint.registry import by_id

        return diagnostic(finding, lines, self.units, by_id(), related_place)

    def clear(self, uri: str) -> None:
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))

    # messages

    def log(self, kind: types.MessageType, message: str) -> None:
        self.window_log_message(types.LogMessageParams(kind, message))

    def tell(self, kind: types.MessageType, message: str) -> None:
        self.log(kind, message)
        self.window_show_message(types.ShowMessageParams(kind, message))

    # settings

    async def pull_settings(self) -> None:
        """Each folder's settings from the client (``workspace/configuration``, section
        ``kapsulint``), over the initialization options."""
        capabilities = self.client_capabilities.workspace
        if capabilities is None or not capabilities.configuration:
            return
        folders = list(self.folders.values())
        if not folders:
            return
        items = [types.ConfigurationItem(scope_uri=from_fs_path(folder.path), section=CONFIGURATION_SECTION)
                 for folder in folders]
        try:
            answers = await self.workspace_configuration_async(types.ConfigurationParams(items))
        except Exception as error:
            self.log(types.MessageType.Warning, f"kapsulint: workspace/configuration failed: {describe(error)}")
            return
        for folder, answer in zip(folders, answers or []):
            settings, unknown = client_settings(answer)
            folder.settings = {**self.defaults, **settings}
            self.warn_unknown(unknown)

    def warn_unknown(self, unknown: list[str]) -> None:
        if unknown:
            self.log(types.MessageType.Warning, f"kapsulint: unknown settings ignored: {', '.join(unknown)}")

    def relint_all(self) -> None:
        """Lint every folder whole: the settings, the files on disk or the folders changed."""
        for folder in list(self.folders.values()):
            folder.forget_parts()
            self.schedule(folder, 0)


def judge(folder: Folder, texts: dict[str, str]) -> tuple[Judgement | None, str | None, bool]:
    """One lint, in the worker thread: the judgement, and a message to log (shown to the user
    when True). A failure inside kapsulint is a KAP008 judgement; settings that cannot be used
    are a message shown, and no judgement (the diagnostics stay)."""
    try:
        return folder.lint(texts), None, False
    except SettingsError as error:
        return None, f"kapsulint: {folder.name}: {error}", True
    except Exception as error:
        detail = describe(error)
        return (internal_error_judgement(folder, texts, detail),
                f"kapsulint: internal error while linting {folder.path}: {detail}\n{traceback.format_exc()}", False)


def collect_and_trim() -> None:
    """A full collection, then the C library's free memory returned to the system where it can
    (``malloc_trim`` of the GNU C library; elsewhere the collection alone)."""
    gc.collect()
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # another C library (musl has no malloc_trim)
        return
    trim(0)


def compact(folders: list[Folder]) -> None:
    """A full collection and trim (:func:`collect_and_trim`) with what the folders keep of their
    lints rebuilt after it, packed together.

    What a lint keeps (its findings, the buffers' texts, comments, how the project splits) was
    made among the objects of the lint's model; once the model is freed, each kept object holds
    the block of memory it lies in, and those blocks (of objects of the whole project) stay with
    the process: at 1,000 modules they are most of the memory a server holds. Kept as bytes while
    the model is freed, and read back afterwards, the same data fills few blocks. When the data
    cannot be copied so, it is kept as it is, and the collection alone runs."""
    import pickle

    held = [(folder.judgement, folder.basis) for folder in folders]
    forgotten = [folder.forgotten for folder in folders]
    try:
        packed = pickle.dumps(held, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a value that does not copy: nothing is rebuilt
        packed = None
    if packed is None:
        del held
        collect_and_trim()
        return
    for folder in folders:  # hover and code actions wait for the compaction (KapsulintServer.compacted)
        folder.judgement = folder.basis = None
    del held
    collect_and_trim()
    for folder, forgot, (judgement, basis) in zip(folders, forgotten, pickle.loads(packed)):
        if folder.judgement is None:
            folder.judgement = judgement
        if folder.basis is None and folder.forgotten == forgot:  # not forgotten meanwhile (a relint of the whole)
            folder.basis = basis


def real_path(uri: str) -> str | None:
    path = to_fs_path(uri)
    return os.path.realpath(path) if path else None


def text_lines(path: str, texts: dict[str, str]) -> list[str]:
    """The lines of a file as the lint read it: its buffer, else the file on disk (none if unreadable)."""
    if path in texts:
        return texts[path].split("\n")
    try:
        with open(path, "rb") as handle:
            return decoded(handle.read(), errors="replace").split("\n")
    except OSError:
        return []


server = KapsulintServer()


@server.feature(types.INITIALIZE)
def initialize(ls: KapsulintServer, params: types.InitializeParams) -> None:
    ls.defaults, unknown = client_settings(params.initialization_options)
    ls.warn_unknown(unknown)
    folders = params.workspace_folders or []
    if not folders and params.root_uri:
        folders = [types.WorkspaceFolder(params.root_uri, os.path.basename(params.root_uri.rstrip("/")))]
    for item in folders:
        path = real_path(item.uri)
        if path is not None:
            ls.folders[path] = Folder(path, item.name, dict(ls.defaults))


@server.feature(types.INITIALIZED)
async def initialized(ls: KapsulintServer, params: types.InitializedParams) -> None:
    await ls.pull_settings()
    await watch_files(ls)
    await first_scan(ls, list(ls.folders.values()))


async def watch_files(ls: KapsulintServer) -> None:
    """Ask the client to tell of every file changed on disk (``workspace/didChangeWatchedFiles``),
    when it takes dynamic registration: a lint judges again only what the buffers' changes reach,
    so a file changed outside the editor (a checkout, a formatter) must call for a lint of the whole."""
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(watchers=[types.FileSystemWatcher(glob_pattern="**/*")])
    try:
        await ls.client_register_capability_async(types.RegistrationParams([types.Registration(
            "kapsulint-watched-files", types.WORKSPACE_DID_CHANGE_WATCHED_FILES, options)]))
    except Exception as error:
        ls.log(types.MessageType.Warning, f"kapsulint: registering file watchers failed: {describe(error)}")


async def first_scan(ls: KapsulintServer, folders: list[Folder]) -> None:
    """Lint each new folder once, reporting progress (``window/workDoneProgress``) when the client
    takes it: the parse cache is then warm for the first edit."""
    folders = [folder for folder in folders if not folder.scanned]
    if not folders:
        return
    window = ls.client_capabilities.window
    token = None
    if window is not None and window.work_done_progress:
        token = f"kapsulint-first-scan-{id(folders)}"
        try:
            await ls.work_done_progress.create_async(token)
        except Exception:
            token = None
    if token is not None:
        ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title="kapsulint", message=f"scanning {len(folders)} folder{'s' if len(folders) != 1 else ''}",
            percentage=0))
    for done, folder in enumerate(folders):
        if token is not None:
            ls.work_done_progress.report(token, types.WorkDoneProgressReport(
                message=f"scanning {folder.name}", percentage=done * 100 // len(folders)))
        folder.scanned = True
        async with ls.lint_lock:
            generation = folder.generation
            texts, documents = ls.open_buffers()
            judgement = await ls.judged(folder, texts)
        ls.keep(folder, generation, judgement, documents)
        judgement = None  # the folder's is the one a compaction rebuilds
        if done + 1 < len(folders):  # the next folder's model is not built beside this one's garbage
            await ls.collect_large()
    if token is not None:
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="scanned"))
    await ls.collect_large()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: KapsulintServer, params: types.DidOpenTextDocumentParams) -> None:
    path = real_path(params.text_document.uri)
    if path is not None:
        ls.schedule(ls.folder_for(path), 0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: KapsulintServer, params: types.DidChangeTextDocumentParams) -> None:
    path = real_path(params.text_document.uri)
    if path is not None:
        ls.schedule(ls.folder_for(path), DEBOUNCE)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KapsulintServer, params: types.DidSaveTextDocumentParams) -> None:
    path = real_path(params.text_document.uri)
    if path is not None:
        ls.schedule(ls.folder_for(path), 0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KapsulintServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.clear(params.text_document.uri)
    path = real_path(params.text_document.uri)
    if path is not None:  # the file on disk is read again in place of the buffer
        ls.schedule(ls.folder_for(path), 0)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: KapsulintServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A file changed on disk: every folder is linted whole, unless each change is to a file open in
    the editor (a save): its buffer is read in place of the file while it is open."""
    opened = set(ls.open_buffers()[0])
    if all(change.type == types.FileChangeType.Changed and real_path(change.uri) in opened
           for change in params.changes):
        return
    ls.relint_all()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: KapsulintServer, params: types.DidChangeConfigurationParams) -> None:
    if isinstance(params.settings, dict) and params.settings:
        settings, unknown = client_settings(params.settings)
        ls.warn_unknown(unknown)
        ls.defaults = settings
        for folder in ls.folders.values():
            folder.settings = dict(settings)
    await ls.pull_settings()
    ls.relint_all()


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
async def did_change_workspace_folders(ls: KapsulintServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    for item in params.event.removed:
        path = real_path(item.uri)
        if path is not None:
            ls.folders.pop(path, None)
    added = []
    for item in params.event.added:
        path = real_path(item.uri)
        if path is not None:
            ls.folders[path] = Folder(path, item.name, dict(ls.defaults))
            added.append(ls.folders[path])
    await ls.pull_settings()
    await first_scan(ls, added)
    ls.relint_all()  # open buffers may now belong to another folder


def _judged(ls: KapsulintServer, uri: str) -> tuple[str, Folder, Judgement] | None:
    """The document's path, folder and last judgement, when the judgement read its current text."""
    path = real_path(uri)
    if path is None:
        return None
    folder = ls.folder_for(path)
    judgement = folder.judgement
    document = ls.workspace.text_documents.get(uri)
    if judgement is None or document is None or judgement.texts.get(path) != document.source:
        return None  # not judged yet, or edited since: the next lint's diagnostics will carry the actions
    return path, folder, judgement


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=False))
async def code_action(ls: KapsulintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    await ls.compacted()
    judged = _judged(ls, params.text_document.uri)
    if judged is None:
        return None
    path, _, judgement = judged
    lines = judgement.texts[path].split("\n")
    only = params.context.only
    actions: list[types.CodeAction] = []
    wants_quick_fixes = not only or any(kind.startswith(types.CodeActionKind.QuickFix) for kind in only)
    wants_fix_all = not only or any(FIX_ALL.startswith(kind) for kind in only)
    if wants_quick_fixes:
        start = code_points(lines, params.range.start, ls.units)
        end = code_points(lines, params.range.end, ls.units)
        for finding in judgement.findings.get(path, []):
            if not overlaps(finding.loc, *start, *end):
                continue
            diagnostic = ls.diagnostic(finding, lines, judgement.texts)
            fix = finding.autofix
            if fix is not None and (fix.applicability == "safe" or judgement.unsafe_fixes):
                edit = workspace_edit(ls, [fix], judgement)
                if edit is not None:
                    actions.append(types.CodeAction(
                        title=f"{finding.rule}: {fix.description}" + (" (unsafe)" if fix.applicability != "safe" else ""),
                        kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic], edit=edit,
                        is_preferred=fix.applicability == "safe"))
            suppression = suppression_edit(ls, finding, path, judgement)
            if suppression is not None:
                actions.append(types.CodeAction(
                    title=f"{finding.rule}: add a suppression with a reason", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic], edit=suppression))
    if wants_fix_all:
        safe = [finding.autofix for finding in judgement.findings.get(path, [])
                if finding.autofix is not None and finding.autofix.applicability == "safe"
                and all(edit.path == path for edit in finding.autofix.edits)]
        chosen = non_overlapping(safe)
        if chosen:
            edit = workspace_edit(ls, chosen, judgement)
            if edit is not None:
                actions.append(types.CodeAction(title="kapsulint: fix all safe fixes",
                                                kind=FIX_ALL, edit=edit))
    return actions


def non_overlapping(fixes: list) -> list:
    """The fixes whose edits overlap no earlier one's, in file order (as one round of ``--fix``)."""
    from kapsulint.lint.fixes import overlaps_taken

    taken: list = []
    chosen = []
    for fix in sorted(fixes, key=lambda f: min((e.line, e.column) for e in f.edits)):
        if any(overlaps_taken(edit, taken) for edit in fix.edits):
            continue
        taken.extend(fix.edits)
        chosen.append(fix)
    return chosen


def workspace_edit(ls: KapsulintServer, fixes: list, judgement: Judgement) -> types.WorkspaceEdit | None:
    """The fixes' edits applied as ``--fix`` applies them, one minimal text edit per file."""
    from kapsulint.findings import Fix

    edits = tuple(edit for fix in fixes for edit in fix.edits)
    texts = fixed_texts(Fix("safe", edits, ""), lambda p: _text_of(p, judgement), judgement.kinds)
    if texts is None:
        return None
    changes = {}
    for path, (before, after) in texts.items():
        uri = from_fs_path(path)
        if uri is None:
            return None
        changes[_client_uri(ls, path) or uri] = [minimal_edit(before, after, ls.units)]
    return types.WorkspaceEdit(changes=changes)


def suppression_edit(ls: KapsulintServer, finding: Finding, path: str, judgement: Judgement) -> types.WorkspaceEdit | None:
    """A suppression comment with a reason to write, where one would cover the finding (an
    internal error is never suppressed)."""
    text = judgement.texts.get(path)
    if text is None or finding.rule == INTERNAL_ERROR:
        return None
    suppressed = suppression_text(finding, text)
    kind = judgement.kinds.get(path, "config")
    if suppressed is None or not suppression_covers(finding, path, kind, suppressed):
        return None
    uri = _client_uri(ls, path) or from_fs_path(path)
    return types.WorkspaceEdit(changes={uri: [minimal_edit(text, suppressed, ls.units)]})


def _text_of(path: str, judgement: Judgement) -> str | None:
    if path in judgement.texts:
        return judgement.texts[path]
    try:
        with open(path, "rb") as handle:
            return decoded(handle.read())
    except (OSError, UnicodeDecodeError):
        return None


def _client_uri(ls: KapsulintServer, path: str) -> str | None:
    """The uri the client opened ``path`` under (it may name it through a symbolic link)."""
    for uri in ls.workspace.text_documents:
        if real_path(uri) == path:
            return uri
    return None


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: KapsulintServer, params: types.HoverParams) -> types.Hover | None:
    await ls.compacted()
    judged = _judged(ls, params.text_document.uri)
    if judged is None:
        return None
    path, _, judgement = judged
    lines = judgement.texts[path].split("\n")
    line, column = code_points(lines, params.position, ls.units)
    rules = rules_in_directive(judgement.comments.get(path, []), line, column)
    if not rules:
        from kapsulint.lint.registry import by_id

        known = by_id()
        ids = dict.fromkeys(f.rule for f in judgement.findings.get(path, [])
                            if overlaps(f.loc, line, column, line, column) and f.rule in known)
        rules = [known[rule_id] for rule_id in ids]
        if not rules:
            return None
        text = "\n\n---\n\n".join(rule.explanation for rule in rules)
    else:
        text = hover_text(rules)
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))


@server.command(SHOW_SETTINGS)
def show_settings(ls: KapsulintServer, *arguments: Any) -> str:
    """``--show-settings`` of the folder holding the uri given (else the first folder)."""
    uri = arguments[0] if arguments and isinstance(arguments[0], str) else None
    path = real_path(uri) if uri else None
    folder = ls.folder_for(path) if path else next(iter(ls.folders.values()), None)
    if folder is None:
        return "no workspace folder"
    try:
        resolved = folder.resolve()
    except SettingsError as error:
        return f"error: {error}\n"
    for key in folder.settings:  # the client's settings stand where the command line's flags do
        if key in resolved.origins and resolved.origins[key][1] == "command line":
            resolved.origins[key] = (resolved.origins[key][0], "client settings")
    return "\n".join(settings_lines(resolved)) + "\n"


@server.feature(types.SHUTDOWN)
def shutdown(ls: KapsulintServer, params: None) -> None:
    ls.worker.shutdown(wait=False, cancel_futures=True)


def serve() -> None:
    """Serve on stdin and stdout; anything else written to stdout goes to stderr instead."""
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr
    gc.enable()  # the console script turned it off for a single run; the server lives on
    server.start_io(sys.stdin.buffer, protocol_out)
