#!/usr/bin/env python3
"""Fails on an include in sw/ that goes up a layer, or that does not say which layer it reads.

The library in sw/ is layered (sw/README.md): base, then the layers in the order
sw/CMakeLists.txt lists them in HCUBE_LAYERS (spec, schedule, tables, algorithms, exec, inspect,
router), then api, the public API's implementation. Every project include in sw/ names its layer
(`#include "tables/table.h"`), and a file may include only from its own layer or one below. The
api layer alone also reads the tool's backends in sim/ (it runs cases on them).

The check also fails on a source file directly in sw/ (it belongs to no layer) and on a folder
of sw/ that is not a layer. It prints FILE:LINE: TEXT for each finding and exits with status 1
if there is one.

    scripts/check-layers.py [--source DIR]
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_order(source):
    text = open(os.path.join(source, "sw", "CMakeLists.txt"), encoding="utf-8").read()
    m = re.search(r"set\(HCUBE_LAYERS\s+([^)]*)\)", text)
    if not m:
        sys.exit("sw/CMakeLists.txt: no set(HCUBE_LAYERS ...) to read the layer order from")
    return ["base"] + m.group(1).split() + ["api"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default=os.path.join(os.path.dirname(__file__), ".."))
    args = ap.parse_args()
    source = os.path.abspath(args.source)
    sw = os.path.join(source, "sw")
    layers = layer_order(source)
    rank = {name: i for i, name in enumerate(layers)}
    findings = []

    for entry in sorted(os.listdir(sw)):
        path = os.path.join(sw, entry)
        if os.path.isdir(path):
            if entry not in rank:
                findings.append(f"sw/{entry}/: a folder that is not a layer ({', '.join(layers)})")
        elif entry.endswith((".h", ".cpp")):
            findings.append(f"sw/{entry}: a source file outside every layer")

    sim_headers = set(os.listdir(os.path.join(source, "sim"))) | set(
        os.listdir(os.path.join(source, "sim", "tlm")))
    for layer in layers:
        root = os.path.join(sw, layer)
        for dirpath, _, files in os.walk(root):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, source)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        head = target.split("/", 1)[0]
                        if head in rank and "/" in target:
                            if rank[head] > rank[layer]:
                                findings.append(
                                    f"{rel}:{number}: {line.strip()}: layer {layer} includes "
                                    f"from {head}, a layer above it")
                            elif not os.path.isfile(os.path.join(sw, target)):
                                findings.append(f"{rel}:{number}: {line.strip()}: no such file")
                        elif layer == "api" and (target in sim_headers or target.startswith("hcube/")):
                            continue
                        else:
                            findings.append(f"{rel}:{number}: {line.strip()}: an include that "
                                            f"does not name its layer")

    for finding in findings:
        print(finding)
    if findings:
        print(f"{len(findings)} finding(s); the layers and their order: sw/README.md",
              file=sys.stderr)
        return 1
    print(f"layers: {' < '.join(layers)}; every include in sw/ goes down or stays")
    return 0


if __name__ == "__main__":
    sys.exit(main())
