#!/usr/bin/env python3
"""Fails on words that speak of how the project was made rather than of the project itself.

A reader of hcube's README, docs, comments, test names or tool output has no access to the
tracker, the work log or the history of who did what when: a comment that says "fixed in issue
12" or "faster than the previous round" tells them nothing. A comment that explains a decision
gives the reason itself; the history lives in git. This check reads every tracked text file
(every file under the source tree when it is not a git checkout) and prints each line that
matches one of PATTERNS, as FILE:LINE: TEXT, and exits with status 1 if there is one.

    scripts/check-words.py [--source DIR]
"""
import argparse
import os
import re
import subprocess
import sys

# Each with why it names the process and not the project.
PATTERNS = [
    (r"\bissues? #?[0-9]+", "a tracker's issue number"),
    (r"\bissue's\b", "a tracker's issue"),
    (r"\bgoal [0-9]+\b", "a numbered goal of a work item"),
    (r"\b(this|previous|earlier) (round|session|sprint|iteration)\b", "a work period"),
    (r"\bsessions?\b", "a work period"),
    (r"\bmain before\b", "a comparison with an old state of the code"),
    (r"\bcommit [0-9a-f]{7,40}\b", "a commit hash as evidence"),
]
COMPILED = [(re.compile(p, re.IGNORECASE), why) for p, why in PATTERNS]

# This file names the patterns it looks for.
SELF = os.path.join("scripts", "check-words.py")


def tracked_files(source):
    try:
        out = subprocess.run(["git", "-C", source, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        return [f for f in out.decode("utf-8", "replace").split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for root, dirs, names in os.walk(source):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
            for name in names:
                files.append(os.path.relpath(os.path.join(root, name), source))
        return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", default=os.path.join(os.path.dirname(__file__), ".."),
                    help="the top of the source tree (default: this script's checkout)")
    args = ap.parse_args()
    found = 0
    checked = 0
    for rel in sorted(tracked_files(args.source)):
        if rel == SELF:
            continue
        path = os.path.join(args.source, rel)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue  # listed by git but deleted in the work tree
        if b"\0" in data[:8192]:
            continue  # binary
        checked += 1
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for pattern, why in COMPILED:
                if pattern.search(line):
                    print(f"{rel}:{number}: {why}: {line.strip()[:160]}")
                    found += 1
                    break
    if found:
        print(f"{found} line(s) speak of the process, not of the project (scripts/check-words.py)")
        return 1
    print(f"{checked} files checked, none speaks of the process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
