#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml), one file so the test suite runs what the runner runs.
#
#   run.sh install   put kapsulint into a virtual environment under RUNNER_TEMP
#   run.sh lint      lint, writing SARIF and annotating the run
#
# Inputs arrive in the environment. KAPSULINT_SINCE is a git revision (--since), or empty. KAPSULINT_PATHS and KAPSULINT_ARGS hold one argument per line,
# each passed to kapsulint intact: no word splitting, no glob expansion, surrounding blanks trimmed,
# empty lines skipped. KAPSULINT_PLAN, when not blank, is passed as `--plan` (one path, intact).
set -euo pipefail
set -f

venv="$RUNNER_TEMP/kapsulint-venv"

lines() {  # lines NAME TEXT: the non-empty lines of TEXT, trimmed, into the array NAME
  local -n into=$1
  local line
  into=()
  while IFS= read -r line || [ -n "$line" ]; do
    line="${line%$'\r'}"
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    if [ -n "$line" ]; then
      into+=("$line")
    fi
  done <<< "$2"
}

case "${1:-}" in
  install)
    # KAPSULINT_VERSION is a pip requirement ("kapsulint==X.Y.Z", "git+https://...@SHA"); empty
    # means the Action's own checkout, at the ref the workflow pinned.
    # --no-compile: a runner's venv lives for one job, and compiling every installed module costs
    # more (4-5 s) than compiling the ones kapsulint imports on its first run (0.5 s).
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-compile \
      "${KAPSULINT_VERSION:-$GITHUB_ACTION_PATH}"
    version="$("$venv/bin/kapsulint" --version)"
    echo "version=${version##* }" >> "$GITHUB_OUTPUT"
    ;;
  lint)
    lines paths "${KAPSULINT_PATHS:-.}"
    lines args "${KAPSULINT_ARGS:-}"
    lines since "${KAPSULINT_SINCE:-}"
    if [ "${#since[@]}" -gt 1 ]; then
      echo "kapsulint action: the since input holds one git revision, got ${#since[@]} lines" >&2
      exit 2
    fi
    if [ "${#since[@]}" -eq 1 ]; then
      args=(--since "${since[0]}" ${args[@]+"${args[@]}"})
    fi
    if [ "${#paths[@]}" -eq 0 ]; then
      paths=(.)
    fi
    lines plan "${KAPSULINT_PLAN:-}"
    if [ "${#plan[@]}" -gt 1 ]; then
      echo "kapsulint action: the plan input holds one path, got ${#plan[@]} lines" >&2
      exit 2
    fi
    if [ "${#plan[@]}" -eq 1 ]; then
      args=(--plan "${plan[0]}" ${args[@]+"${args[@]}"})
    fi
    status=0
    "$venv/bin/kapsulint" --format github --report "sarif=$KAPSULINT_SARIF" ${args[@]+"${args[@]}"} -- "${paths[@]}" \
      || status=$?
    # 2 is an error of the run (a path it could not read, an internal error): the step fails
    # whatever fail-on-findings says, after kapsulint wrote what it judged (the SARIF included).
    if [ "$status" -eq 2 ] || { [ "$status" -eq 1 ] && [ "${KAPSULINT_FAIL:-true}" = "true" ]; }; then
      exit "$status"
    fi
    ;;
  *)
    echo "usage: run.sh install|lint" >&2
    exit 2
    ;;
esac
