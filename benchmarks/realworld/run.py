"""kapsulint on a corpus of public repositories: rebuild it from fetched git directories, lint it,
and write REALWORLD.md and findings.json.

The corpus is third-party code and is never committed: ``manifest.tsv`` pins each repository to a
commit and names the paths that matter; this script ``git archive``s those paths out of bare git
directories (``--mirrors DIR`` holds them as ``owner+name``), lints every repository alone and all
of them together as one tree, and reports:

* the repositories and the files kapsulint read (``--show-files``);
* findings per rule, alone and together, and internal errors (exit code 2, stderr lines, findings
  that say so);
* every KAP001 with whether Terraform parses the same file (``terraform fmt -`` reads the file on
  stdin and fails only when it cannot parse it);
* the isolation check: a repository's findings alone and inside the tree must be the same; every
  difference is listed;
* timings: cold (``--no-cache``) and warm (a second run over a filled parse cache) next to the
  parse floor of the same tree, measured as ``benchmarks/bench.py`` measures it.

stdlib only, plus the kapsulint of this Python (``sys.executable -m kapsulint``).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent.parent
KAPSULINT = [sys.executable, "-m", "kapsulint"]
LINT_ARGS = ["--format", "json", "--exit-zero"]
TERRAFORM_SUFFIXES = (".tf", ".tofu")

# The floor of benchmarks/bench.py (FLOOR_CODE: python-hcl2's raw lark tree for every .tf file,
# ruamel.yaml's round-trip load for every values file), with one change: a file that fails to
# parse does not end the process. Real repositories hold such files; the floor still pays for
# reading them and for parsing up to the error, as kapsulint does.
FLOOR_CODE = r"""
import os, sys, time
start = time.perf_counter()
import hcl2
from ruamel.yaml import YAML
root = sys.argv[1]
tf, values = [], []
for directory, dirs, files in os.walk(root):
    dirs[:] = sorted(d for d in dirs if d != ".git")
    for name in sorted(files):
        path = os.path.join(directory, name)
        if name.endswith(".tf"):
            tf.append(path)
        elif name.endswith(("-values.yaml", "-values.yml")) or (name.startswith("values") and name.endswith((".yaml", ".yml"))):
            values.append(path)
yaml = YAML(typ="rt")
failed = 0
for path, load in [(p, hcl2.parses_to_tree) for p in tf] + [(p, yaml.load) for p in values]:
    try:
        with open(path, encoding="utf-8") as handle:
            load(handle.read())
    except Exception:
        failed += 1
print(len(tf), len(values), failed, time.perf_counter() - start)
"""


@dataclass
class Repo:
    """One manifest row."""

    name: str  # owner/name
    commit: str
    paths: list[str]
    kind: str
    note: str
    categories: list[str] = field(default_factory=list)  # the ways it writes a Service (CATEGORIES)

    @property
    def slug(self) -> str:
        return self.name.replace("/", "+", 1)


@dataclass
class Lint:
    """One kapsulint run: its findings (paths relative to the repository), stderr and exit code."""

    findings: list[dict]
    stderr: str
    returncode: int
    seconds: float
    files: list[tuple[str, str, str]] = field(default_factory=list)  # (path, kind, state)

    @property
    def internal_errors(self) -> list[str]:
        lines = [line for line in self.stderr.splitlines() if "internal error" in line.lower()]
        lines += [f"{f['path']}:{f.get('line')}: {f['rule']} {f['message']}" for f in self.findings
                  if "internal error" in f.get("message", "").lower()]
        return lines


def read_manifest(path: Path) -> list[Repo]:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return [Repo(r["repository"], r["commit"], [p for p in r["paths"].split(",") if p], r["kind"], r["note"],
                     [c for c in (r.get("categories") or "").split(",") if c])
                for r in rows]


def git_dir(mirrors: Path, repo: Repo) -> Path | None:
    """The git directory of ``repo`` under ``mirrors``: ``owner+name`` itself, or its ``repo``
    (bare) or ``repo/.git`` (with a work tree)."""
    base = mirrors / repo.slug
    for candidate in (base, base / "repo", base / "repo" / ".git"):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def _safe_member(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    """tarfile's ``data`` filter, skipping (not failing on) a member it refuses, such as a
    symbolic link that points outside the repository."""
    try:
        return tarfile.data_filter(member, dest)
    except tarfile.FilterError:
        return None


def extract(git: Path, repo: Repo, dest: Path) -> str | None:
    """``git archive`` the manifest paths of ``repo`` at its commit into ``dest``; an error text."""
    paths = [] if repo.paths == ["."] else repo.paths
    proc = subprocess.run(["git", "--git-dir", str(git), "archive", "--format=tar", repo.commit, "--", *paths],
                          capture_output=True)
    if proc.returncode:
        return proc.stderr.decode(errors="replace").strip() or f"git archive exited {proc.returncode}"
    dest.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as archive:
        archive.extractall(dest, filter=_safe_member)
    return None


KAPSULINT_PATH: list[str] = []  # set by --kapsulint-rev: where the pinned kapsulint package lies


def kapsulint_env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["KAPSULINT_CACHE_DIR"] = str(cache)
    if KAPSULINT_PATH:
        env["PYTHONPATH"] = os.pathsep.join([*KAPSULINT_PATH, *filter(None, [env.get("PYTHONPATH")])])
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for name in [n for n in env if n.startswith("TF_VAR_")]:
        del env[name]
    return env


def lint(directory: Path, cache: Path, *, cached: bool = False, show_files: bool = True) -> Lint:
    """kapsulint on ``directory``, its project root (the PATH itself: no configuration, no git)."""
    args = [*KAPSULINT, *LINT_ARGS, *([] if cached else ["--no-cache"]), "."]
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=directory, capture_output=True, text=True, env=kapsulint_env(cache))
    seconds = time.perf_counter() - start
    try:
        findings = json.loads(proc.stdout) if proc.stdout.strip() else []
    except json.JSONDecodeError:
        findings = []
        proc.stderr += f"\n(report is not JSON: internal error of the report: {proc.stdout[:200]!r})"
    # stderr names files by absolute path: relative to the project, the report is the same wherever --work is
    result = Lint(findings, proc.stderr.replace(f"{directory.resolve()}{os.sep}", ""), proc.returncode, seconds)
    if show_files:
        shown = subprocess.run([*KAPSULINT, "--show-files", "."], cwd=directory, capture_output=True, text=True,
                               env=kapsulint_env(cache))
        result.files = shown_files(shown.stdout)
    return result


def shown_files(stdout: str) -> list[tuple[str, str, str]]:
    """(path, kind, state) of each file ``--show-files`` lists: tab-separated lines of path, kind,
    state and why it was read; ``#`` lines (the project root, nested projects left out) are not files."""
    files = []
    for line in stdout.splitlines():
        fields = line.split("\t")
        if line.startswith("#") or len(fields) < 3:
            continue
        files.append((fields[0], fields[1], fields[2]))
    return files


def terraform_parses(path: Path) -> str:
    """"parses", "fails: <first error line>", or why it was not checked."""
    if not path.name.endswith(TERRAFORM_SUFFIXES):
        return "n/a (not HCL)"
    if shutil.which("terraform") is None:
        return "not checked (terraform is not on the PATH)"
    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null")
    proc = subprocess.run(["terraform", "fmt", "-no-color", "-"], input=path.read_bytes(), capture_output=True,
                          env=env)
    if proc.returncode == 0:
        return "parses"
    errors = [line.strip() for line in proc.stderr.decode(errors="replace").splitlines()
              if line.strip().startswith("Error:")]
    return "fails: " + (errors[0][len("Error:"):].strip() if errors else f"exit {proc.returncode}")


def key(finding: dict) -> tuple:
    return finding["rule"], finding["path"], finding.get("line"), finding.get("column")


def as_alone(message: str, slug: str) -> str:
    """A message of the whole-tree run as the repository's own run writes it: paths in messages
    are relative to the project root, which is one directory higher in the tree (a root module is
    named ``"infra"`` in KAP401's message and ``(root infra)`` after an instance address)."""
    return message.replace(f'"{slug}"', '"."').replace(f"(root {slug})", "(root .)").replace(f"{slug}/", "")


def isolation(alone: list[dict], together: list[dict], slug: str) -> dict[str, list]:
    """Differences between a repository's findings alone and inside the tree (messages compared
    once the tree's extra path component is taken out of them)."""
    a = {key(f): f for f in alone}
    t = {key(f): {**f, "message": as_alone(f["message"], slug)} for f in together}
    return {
        "silent_in_tree": [a[k] for k in sorted(a.keys() - t.keys(), key=str)],
        "new_in_tree": [t[k] for k in sorted(t.keys() - a.keys(), key=str)],
        "changed": [(a[k], t[k]) for k in sorted(a.keys() & t.keys(), key=str) if a[k]["message"] != t[k]["message"]],
    }


def breaks_isolation(diff: dict[str, list]) -> bool:
    """Any difference: a release is linked only to a cluster of its own root module tree, so no
    finding depends on the other repositories of the tree."""
    return any(diff.values())


def floor(tree: Path) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", FLOOR_CODE, "."], cwd=tree, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode:
        raise RuntimeError(f"floor failed: {proc.stderr[-2000:]}")
    return seconds, proc.stdout.strip()


def timings(tree: Path, work: Path, runs: int) -> dict[str, object]:
    """Median wall times of the floor, a cold and a warm lint of ``tree``, in interleaved rounds
    (as benchmarks/bench.py does, so that a drifting machine does not skew the ratios)."""
    cold_cache, warm_cache = work / "cache-cold", work / "cache-warm"
    floor(tree)  # python-hcl2 writes its grammar cache on first use
    lint(tree, cold_cache, show_files=False)  # kapsulint writes its grammar cache in place
    lint(tree, warm_cache, cached=True, show_files=False)  # fills the parse cache
    seconds: dict[str, list[float]] = {"floor": [], "cold": [], "warm": []}
    floor_out = ""
    for _ in range(runs):
        took, floor_out = floor(tree)
        seconds["floor"].append(took)
        seconds["cold"].append(lint(tree, cold_cache, show_files=False).seconds)
        seconds["warm"].append(lint(tree, warm_cache, cached=True, show_files=False).seconds)
    medians = {name: statistics.median(values) for name, values in seconds.items()}
    return {"runs": runs, "median": medians, "all": seconds, "floor_output": floor_out}


def relative(findings: list[dict], prefix: str) -> list[dict]:
    """The findings under ``prefix/``, their paths made relative to it."""
    out = []
    for finding in findings:
        path = finding["path"]
        if path == prefix or path.startswith(prefix + "/"):
            out.append({**finding, "path": path[len(prefix) + 1:]})
    return out


def pin_kapsulint(rev: str, work: Path) -> str:
    """The commit that ``rev`` names; its ``kapsulint/`` package is archived into ``work`` and put
    first on the linted runs' PYTHONPATH, so that edits in the checkout during a run (the checkout
    is shared) do not change the linter half-way. ``worktree``: the checkout's files as they are."""
    if rev == "worktree":
        head = subprocess.run(["git", "-C", str(CHECKOUT), "rev-parse", "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(["git", "-C", str(CHECKOUT), "status", "--porcelain", "--", "kapsulint"],
                               capture_output=True, text=True).stdout.strip()
        return head.stdout.strip() + (" plus uncommitted changes under kapsulint/" if dirty else "")
    commit = subprocess.run(["git", "-C", str(CHECKOUT), "rev-parse", "--verify", rev + "^{commit}"],
                            capture_output=True, text=True, check=True).stdout.strip()
    source = work / "kapsulint-src"
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    # pyproject.toml maps the package kapsulint.rules to the top-level rules/ directory
    archive = subprocess.run(["git", "-C", str(CHECKOUT), "archive", "--format=tar", commit, "--", "kapsulint",
                              "rules"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(source, filter="data")
    (source / "rules").rename(source / "kapsulint" / "rules")
    KAPSULINT_PATH[:] = [str(source)]
    return commit


def table(header: list[str], rows: list[list[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in row) + " |" for row in rows]
    return lines


BLIND_SPOTS = {"KAP011": "module calls not read", "KAP012": "files or parts left out",
               "KAP013": "facts missing", "KAP014": "paths outside the repository",
               "KAP015": "evaluation budgets exceeded",
               "KAP019": "values sources not read"}  # kapsulint's notes for places it could not judge


def blind_spots(results: dict[str, dict]) -> list[str]:
    """Per repository (alone), the places kapsulint could not judge, by kind, with the first
    message of each kind as the reason: a repository with any of them is partly unread."""
    columns = sorted(BLIND_SPOTS)
    rows = []
    for name, res in results.items():
        found = [f for f in res["alone"].findings if f["rule"] in BLIND_SPOTS]
        if not found:
            continue
        counts = Counter(f["rule"] for f in found)
        reasons = "; ".join(f"{rule}: {next(f['message'] for f in found if f['rule'] == rule)[:140]}"
                            for rule in columns if counts[rule])
        rows.append([name, *(counts[rule] or "" for rule in columns), reasons.replace("|", "\\|")])
    kinds = ", ".join(f"{rule} {words}" for rule, words in BLIND_SPOTS.items())
    return ["## Blind spots", "",
            f"Places kapsulint could not judge, per repository linted alone ({kinds}). "
            f"{len(rows)} of {len(results)} repositories are partly unread; the reason column quotes "
            "the first note of each kind. Every note is read in the hand audit below.", "",
            *table(["repository", *columns, "why (first note of each kind)"], rows), ""]


# The ways a repository writes the Services that reach a Scaleway load balancer, beyond a chart's
# values (the manifest's `categories` column; a repository can hold several)
CATEGORIES = {
    "kubernetes_service": "`kubernetes_service`, `kubernetes_service_v1`, or a `kubernetes_manifest`/`kubectl_manifest` "
                          "of a Service, Gateway or EnvoyProxy",
    "manifests": "Kubernetes YAML with a Service of type LoadBalancer",
    "gateway-api": "Gateway API objects (`gateway.networking.k8s.io`) or Envoy Gateway's (`gateway.envoyproxy.io`)",
    "argocd": "Argo CD `Application`s or `ApplicationSet`s",
    "flux": "Flux `HelmRelease`s",
    "helmfile": "a helmfile with `releases:`",
}


def categories(repos: list[Repo], results: dict[str, dict]) -> list[str]:
    """Per category: the repositories of the manifest that hold it, their findings and the places
    kapsulint could not judge in them (linted alone)."""
    rows = []
    for category, words in CATEGORIES.items():
        members = [r for r in repos if category in r.categories]
        linted = [r for r in members if r.name in results]
        findings = [f for r in linted for f in results[r.name]["alone"].findings]
        unread = [r.name for r in linted
                  if any(f["rule"] in BLIND_SPOTS for f in results[r.name]["alone"].findings)]
        rows.append([category, words, len(members), len(linted), len(findings),
                     len([f for f in findings if f["rule"] in BLIND_SPOTS]), len(unread),
                     ", ".join(r.name for r in members) or "none found"])
    unknown = sorted({c for r in repos for c in r.categories} - CATEGORIES.keys())
    return ["## Corpus by source", "",
            "The ways the repositories write the Services that reach a load balancer, besides the values of a "
            "chart installed by `helm_release` (the manifest's `categories` column; a repository can be in "
            "several). `README.md` in `benchmarks/realworld/` says how they were searched for.", "",
            *table(["category", "what", "repositories", "linted", "findings alone", "blind-spot notes",
                    "partly unread", "which"], rows), "",
            *([f"Categories the report does not know: {', '.join(unknown)}.", ""] if unknown else [])]


def markdown(data: dict) -> str:
    repos, results = data["repos"], data["results"]
    together: Lint = data["together"]
    lines = ["# kapsulint on real repositories", "",
             f"Generated by `benchmarks/realworld/run.py` on {data['date']} with kapsulint "
             f"`{data['commit']}`, Python {sys.version.split()[0]}.", "",
             "The corpus is public third-party code, pinned by commit in "
             "[`benchmarks/realworld/manifest.tsv`](benchmarks/realworld/manifest.tsv) and never committed; every "
             "finding is in [`benchmarks/realworld/findings.json`](benchmarks/realworld/findings.json). "
             "Rebuild and rerun with `python benchmarks/realworld/run.py --mirrors DIR` "
             "(see [`benchmarks/realworld/README.md`](benchmarks/realworld/README.md)).", ""]
    ok = [r for r in repos if r.name in results]
    kinds = Counter(r.kind for r in ok)
    file_kinds = Counter(kind for path, kind, state in together.files)
    states = Counter(state for path, kind, state in together.files)
    lines += ["## Corpus", "",
              f"- repositories in the manifest: {len(repos)}; rebuilt and linted: {len(ok)} "
              f"({kinds['terraform']} with Kapsule Terraform, {kinds['values']} with Helm values files only"
              + "".join(f", {n} of kind {k}" for k, n in sorted(kinds.items()) if k not in ("terraform", "values"))
              + ")",
              "- files kapsulint read in the whole tree (`--show-files`): " +
              ", ".join(f"{n} {k}" for k, n in sorted(file_kinds.items())) +
              "; states: " + ", ".join(f"{n} {s}" for s, n in sorted(states.items())), ""]
    missing = [(r.name, data["missing"][r.name]) for r in repos if r.name in data["missing"]]
    if missing:
        lines += ["Not rebuilt:", ""] + table(["repository", "why"], missing) + [""]
    rows = []
    for r in ok:
        res = results[r.name]
        counts = Counter(kind for _, kind, _ in res["alone"].files)
        rows.append([r.name, r.commit[:12], r.kind, counts.get("config", 0), counts.get("values", 0),
                     counts.get("tfvars", 0), len(res["alone"].findings), len(res["in_tree"]),
                     res["alone"].returncode, ", ".join(r.categories)])
    lines += table(["repository", "commit", "kind", "Terraform files", "values", "tfvars", "findings alone",
                    "findings in tree", "exit alone", "categories"], rows) + [""]
    lines += categories(repos, results)

    alone_rules = Counter(f["rule"] for res in results.values() for f in res["alone"].findings)
    tree_rules = Counter(f["rule"] for f in together.findings)
    severity = {f["rule"]: f["severity"] for f in together.findings}
    severity.update({f["rule"]: f["severity"] for res in results.values() for f in res["alone"].findings})
    repos_per_rule = Counter(rule for res in results.values() for rule in {f["rule"] for f in res["alone"].findings})
    lines += ["## Findings per rule", "",
              "Alone: the sum over the repositories, each linted as its own project. Together: one run over "
              "the whole tree.", ""]
    lines += table(["rule", "severity", "alone", "repositories", "together"],
                   [[rule, severity[rule], alone_rules[rule], repos_per_rule[rule], tree_rules[rule]]
                    for rule in sorted(alone_rules.keys() | tree_rules.keys())])
    lines += ["", f"Total: {sum(alone_rules.values())} alone, {sum(tree_rules.values())} together.", ""]

    lines += blind_spots(results)

    lines += ["## Internal errors", ""]
    errors = [(name, res["alone"].returncode, line) for name, res in results.items()
              for line in res["alone"].internal_errors or ([""] if res["alone"].returncode == 2 else [])]
    errors += [("(whole tree)", together.returncode, line) for line in together.internal_errors]
    if together.returncode == 2 and not together.internal_errors:
        errors.append(("(whole tree)", 2, ""))
    repos_exit2 = sorted(name for name, res in results.items() if res["alone"].returncode == 2)
    lines += [f"Repositories whose run exits 2 alone: {len(repos_exit2)}"
              + (f" ({', '.join(repos_exit2)})" if repos_exit2 else "") +
              f". The whole tree exits {together.returncode}.", ""]
    if errors:
        lines += table(["repository", "exit", "error (stderr line or finding)"], errors)
    else:
        lines.append("None.")
    lines.append("")

    lines += ["## KAP001 against Terraform", "",
              "Each KAP001 (alone) with what Terraform says of the same file: `terraform fmt -` reads it on "
              "stdin and fails only when it cannot parse it (`fmt -check` would also fail on a file that merely "
              "needs reformatting).", ""]
    kap001 = data["kap001"]
    if kap001:
        lines += table(["repository", "file", "line", "kapsulint", "terraform"],
                       [[k["repository"], k["path"], k["line"], k["message"][:160], k["terraform"]] for k in kap001])
        agree = sum(1 for k in kap001 if k["terraform"].startswith("fails"))
        lines += ["", f"{len(kap001)} KAP001 findings; Terraform fails on {agree} of those files "
                      f"and parses {sum(1 for k in kap001 if k['terraform'] == 'parses')}.", ""]
    else:
        lines += ["None.", ""]

    lines += ["## Isolation", "",
              "A repository's findings (rule, file, line, column, message) linted alone against the same "
              "repository inside the whole tree. Any difference breaks isolation: a finding that goes silent, "
              "one that appears, or one whose message changes. Messages are compared once the tree's extra "
              "directory is taken out of the paths they quote.", ""]
    diffs = data["isolation"]
    broken = sorted(name for name, d in diffs.items() if breaks_isolation(d))
    lines += [f"Repositories identical alone and in the tree: {len(diffs) - len(broken)} of {len(diffs)}; "
              f"isolation broken: {len(broken)}" + (f" ({', '.join(broken)})" if broken else "") + ".", ""]
    rows = []
    for name, d in sorted(diffs.items()):
        for f in d["silent_in_tree"]:
            rows.append([name, "SILENT in tree", f["rule"], f"{f['path']}:{f.get('line')}", f["message"][:140]])
        for f in d["new_in_tree"]:
            rows.append([name, "NEW in tree", f["rule"], f"{f['path']}:{f.get('line')}", f["message"][:140]])
        for a, t in d["changed"]:
            rows.append([name, "CHANGED in tree", a["rule"], f"{a['path']}:{a.get('line')}",
                         f"alone: {a['message'][:70]} / tree: {t['message'][:70]}"])
    if rows:
        lines += table(["repository", "difference", "rule", "where", "message"], rows) + [""]

    t = data["timings"]
    med = t["median"]
    tf_files, values_files, failed, inner = t["floor_output"].split()
    lines += ["## Timings", "",
              f"The whole tree ({tf_files} `.tf` and {values_files} values files by the floor's count, "
              f"{failed} of them failing to parse), median of {t['runs']} interleaved rounds, wall time of "
              "each subprocess:", ""]
    lines += table(["run", "seconds", "x floor"], [
        ["floor: python-hcl2 lark tree + ruamel.yaml (`benchmarks/bench.py` FLOOR_CODE, failures caught)",
         f"{med['floor']:.2f}", "1.00"],
        ["kapsulint cold: `--no-cache` (grammar cache present)", f"{med['cold']:.2f}",
         f"{med['cold'] / med['floor']:.2f}"],
        ["kapsulint warm: parse cache filled by an earlier run", f"{med['warm']:.2f}",
         f"{med['warm'] / med['floor']:.2f}"],
    ])
    lines += ["", "`benchmarks/bench.py` measures the floor of its generated monorepos only, so the floor here is "
                  "its FLOOR_CODE run in the tree's directory, each file's parse wrapped in `try` so that a file "
                  "Terraform would refuse does not end the process. Sum of the per-repository cold runs "
                  f"(each a new process): {sum(res['alone'].seconds for res in results.values()):.1f} s.", ""]

    lines += ["## Hand audit", "",
              "Findings read one by one with their source, as the repository's owner would read them; verdicts "
              "per finding in [`benchmarks/realworld/audit.tsv`](benchmarks/realworld/audit.tsv). Precision is "
              "correct / read.", ""]
    audit, gone = data["audit"]
    rows = []
    for rule in sorted(alone_rules):
        verdicts = audit.get(rule, Counter())
        read = sum(verdicts.values())
        precision = f"{verdicts['correct'] / read:.0%}" if read else ""
        rows.append([rule, alone_rules[rule], read, verdicts["correct"], verdicts["noise"], verdicts["wrong"],
                     precision])
    lines += table(["rule", "findings (alone)", "read", "correct and worth fixing", "noise", "wrong", "precision"],
                   rows)
    total = Counter()
    for verdicts in audit.values():
        total.update(verdicts)
    read = sum(total.values())
    lines += ["", f"Read: {read}; correct {total['correct']}, noise {total['noise']}, wrong {total['wrong']}.", ""]
    if gone:
        lines += [f"Audited findings this run no longer reports ({len(gone)}; fixed, or moved):", ""]
        lines += table(["repository", "where", "rule", "verdict", "reason"],
                       [[g["repository"], f"{g['path']}:{g['line']}", g["rule"], g["verdict"], g["reason"]]
                        for g in gone]) + [""]
    if data["audit_notes"]:
        lines += [data["audit_notes"].strip(), ""]
    return "\n".join(lines)


def read_audit(path: Path, results: dict[str, dict]) -> tuple[dict[str, Counter], list[dict]]:
    """Verdicts per rule for the audited findings this run still reports, and the audited rows
    it no longer reports (fixed, or moved to another line)."""
    current = {(name, f["path"], str(f.get("line")), f["rule"])
               for name, res in results.items() for f in res["alone"].findings}
    audit: dict[str, Counter] = {}
    gone: list[dict] = []
    if path.is_file():
        with open(path, newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                if (row["repository"], row["path"], row["line"], row["rule"]) in current:
                    audit.setdefault(row["rule"], Counter())[row["verdict"]] += 1
                else:
                    gone.append(row)
    return audit, gone


def print_context(findings_path: Path, repos_dir: Path, context: int, rule: str | None) -> None:
    """Each finding with the source lines around it, from the rebuilt corpus (for the audit)."""
    data = json.loads(findings_path.read_text())
    for name, entry in data["repositories"].items():
        for f in entry["findings"]:
            if rule and f["rule"] != rule:
                continue
            path = repos_dir / name.replace("/", "+", 1) / f["path"]
            print(f"== {name} {f['path']}:{f.get('line')} {f['rule']} {f['message']}")
            try:
                text = path.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            line = f.get("line") or 1
            for number in range(max(1, line - context), min(len(text), line + context) + 1):
                print(f"{'>' if number == line else ' '}{number:5} {text[number - 1]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True, help="directory of git directories named owner+name")
    parser.add_argument("--work", type=Path, help="scratch directory (default: a temporary one, removed)")
    parser.add_argument("--manifest", type=Path, default=HERE / "manifest.tsv")
    parser.add_argument("--markdown", type=Path, default=CHECKOUT / "REALWORLD.md")
    parser.add_argument("--findings", type=Path, default=HERE / "findings.json")
    parser.add_argument("--audit", type=Path, default=HERE / "audit.tsv")
    parser.add_argument("--audit-notes", type=Path, default=HERE / "audit-notes.md",
                        help="the auditors' findings, written by hand, copied under the audit table")
    parser.add_argument("--runs", type=int, default=3, help="timing rounds (median)")
    parser.add_argument("--kapsulint-rev", default="HEAD",
                        help="the commit of this checkout whose kapsulint/ is run (default HEAD); "
                             "'worktree' runs the checkout's files as they are")
    parser.add_argument("--context", type=int, metavar="N",
                        help="do not lint: print every finding of --findings with N lines of source around it, "
                             "from the corpus already rebuilt in --work")
    parser.add_argument("--rule", help="with --context: only this rule")
    args = parser.parse_args(argv)

    if args.context is not None:
        if args.work is None:
            parser.error("--context needs --work (the directory of an earlier run)")
        print_context(args.findings, args.work / "repos", args.context, args.rule)
        return 0

    work = args.work or Path(tempfile.mkdtemp(prefix="kapsulint-realworld-"))
    try:
        return run(args, work)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


def run(args: argparse.Namespace, work: Path) -> int:
    repos = read_manifest(args.manifest)
    commit = pin_kapsulint(args.kapsulint_rev, work)
    tree = work / "repos"
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    # no configuration file anywhere: a repository linted alone would find the tree's (its root
    # would be the tree), and one of its own would leave it out of the tree run; without any, the
    # PATH is the project root in both runs
    missing: dict[str, str] = {}
    for repo in repos:
        git = git_dir(args.mirrors, repo)
        error = "no git directory under --mirrors" if git is None else extract(git, repo, tree / repo.slug)
        if error:
            missing[repo.name] = error
            print(f"skip {repo.name}: {error}", file=sys.stderr)
            continue

    results: dict[str, dict] = {}
    cache = work / "cache"
    for repo in repos:
        if repo.name in missing:
            continue
        print(f"lint {repo.name}", file=sys.stderr)
        results[repo.name] = {"alone": lint(tree / repo.slug, cache)}
    print("lint the whole tree", file=sys.stderr)
    together = lint(tree, cache)
    for repo in repos:
        if repo.name in results:
            results[repo.name]["in_tree"] = relative(together.findings, repo.slug)

    kap001 = [{"repository": name, **f, "terraform": terraform_parses(tree / name.replace("/", "+", 1) / f["path"])}
              for name, res in results.items() for f in res["alone"].findings if f["rule"] == "KAP001"]
    iso = {name: isolation(res["alone"].findings, res["in_tree"], name.replace("/", "+", 1))
           for name, res in results.items()}
    print("timings", file=sys.stderr)
    times = timings(tree, work, args.runs)

    data = {"repos": repos, "results": results, "together": together, "missing": missing, "kap001": kap001,
            "isolation": iso, "timings": times, "audit": read_audit(args.audit, results),
            "audit_notes": args.audit_notes.read_text(encoding="utf-8") if args.audit_notes.is_file() else "",
            "commit": commit, "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")}
    args.markdown.write_text(markdown(data) + "\n", encoding="utf-8")
    findings = {
        "kapsulint_commit": data["commit"], "date": data["date"],
        "repositories": {name: {"commit": next(r.commit for r in repos if r.name == name),
                                "exit_code": res["alone"].returncode,
                                "internal_errors": res["alone"].internal_errors,
                                "findings": res["alone"].findings,
                                "findings_in_tree": res["in_tree"]}
                         for name, res in results.items()},
        "tree": {"exit_code": together.returncode, "internal_errors": together.internal_errors},
        "timings": times,
    }
    args.findings.write_text(json.dumps(findings, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.markdown} and {args.findings}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
