#!/usr/bin/env python3
"""Runs the user guide's examples and checks their output, so that the guide cannot rot.

An example is a fenced block whose info string is `console test`:

    ```console test
    $ build/hcube run --algo edelman --n 4
    hcube run: edelman on a 4-cube (16 nodes, K = 16 elements per node, aapc n=4 m=1)
      cycles           8 (start to last done)
    …
    ```

Every line that starts with `$ ` is a command (a trailing backslash continues it on the next
line); the lines after it, up to the next command, are the output the guide shows. Each shown
line must appear in what the command printed (stdout and stderr together), in the same order,
with runs of blanks compared as one blank. A `…` in a shown line stands for any text (a wall
time, a path under a temporary directory); a line that is only `…` stands for any number of
lines the guide leaves out. Every command must exit with status 0; an example that shows a
refusal writes `|| echo "exit status $?"` after it, so the status is part of the output.
An example marked `console test long` (a place and route, a large cube) runs only with --long.

The commands of one chapter run one after the other in one working directory (a fresh one per
chapter, unless --keep), in which `build`, `scripts`, `rtl`, `docs` and `tests` point into the
source and build trees, exactly as in a checkout after scripts/build.sh.

  tests/guide/run_guide.py --source . --build build docs/guide/03-inspect.md
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```console test( long)?\s*$")


def examples(path, long_too):
    """Yields (line number, command, shown output lines) for every command of every example
    (of the `console test long` ones only if long_too)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        skip = m.group(1) is not None and not long_too
        i += 1
        cmd, cmd_line, shown = None, 0, []
        while i < len(lines) and not lines[i].startswith("```"):
            line = lines[i]
            if line.startswith("$ "):
                if cmd is not None and not skip:
                    yield cmd_line, cmd, shown
                cmd, cmd_line, shown = line[2:], i + 1, []
                while cmd.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    cmd = cmd[:-1] + " " + lines[i].strip()
            elif cmd is None:
                if line.strip():
                    raise SystemExit(f"{path}:{i + 1}: output before the first command of an example")
            else:
                shown.append(line)
            i += 1
        if i >= len(lines):
            raise SystemExit(f"{path}: an example is not closed by ```")
        if cmd is not None and not skip:
            yield cmd_line, cmd, shown
        i += 1


def norm(text):
    return " ".join(text.split())


def line_pattern(shown):
    parts = [re.escape(norm(p)) for p in norm(shown).split("…")]
    return re.compile(r"\s*" + r".*".join(parts) + r"\s*$")


def check(shown, printed):
    """Returns None if every shown line appears in order, else a message naming the first one
    that does not."""
    out = [norm(l) for l in printed.split("\n")]
    pos = 0
    for s in shown:
        if not s.strip() or norm(s) == "…":
            continue
        pat = line_pattern(s)
        while pos < len(out) and not pat.match(out[pos]):
            pos += 1
        if pos == len(out):
            return f"shown line not printed (in this order): {s.strip()!r}"
        pos += 1
    return None


def run_chapter(path, source, build, env, keep, timeout, long_too):
    work = tempfile.mkdtemp(prefix="hcube-guide-")
    for name in ("scripts", "rtl", "docs", "tests"):
        os.symlink(os.path.join(source, name), os.path.join(work, name))
    os.symlink(build, os.path.join(work, "build"))
    failures = 0
    count = 0
    for line, cmd, shown in examples(path, long_too):
        count += 1
        try:
            p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=timeout)
            printed, status = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            printed, status = (e.stdout or b"").decode(errors="replace"), f"timeout {timeout} s"
        problem = None
        if status != 0:
            problem = f"exit status {status}"
        else:
            problem = check(shown, printed)
        if problem:
            failures += 1
            print(f"FAIL {path}:{line}: $ {cmd}\n  {problem}\n  printed:")
            for l in printed.rstrip("\n").split("\n"):
                print(f"  | {l}")
        else:
            print(f"ok   {path}:{line}: $ {cmd}")
    if keep:
        print(f"working directory kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    if count == 0:
        print(f"FAIL {path}: no example marked `console test`")
        return 1
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", default=".", help="source tree (default: .)")
    ap.add_argument("--build", default="build", help="build tree (default: build)")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    ap.add_argument("--timeout", type=int, default=1200, help="seconds per command")
    ap.add_argument("--long", action="store_true",
                    help="also the examples marked `console test long` (minutes each)")
    ap.add_argument("chapters", nargs="+")
    args = ap.parse_args()
    source = os.path.abspath(args.source)
    build = os.path.abspath(args.build)
    env = dict(os.environ)
    failures = 0
    for chapter in args.chapters:
        failures += run_chapter(os.path.abspath(chapter), source, build, env, args.keep,
                                args.timeout, args.long)
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
