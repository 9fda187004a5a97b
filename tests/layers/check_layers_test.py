#!/usr/bin/env python3
"""The layer check (scripts/check-layers.py) fails on each kind of bad include and passes a
clean tree: run on small source trees made for the purpose."""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "check-layers.py")


def tree(files):
    root = tempfile.mkdtemp(prefix="hcube-layers-")
    files = dict(files)
    files.setdefault("sw/CMakeLists.txt", "set(HCUBE_LAYERS spec tables exec)\n")
    files.setdefault("sim/tlm/hc_tlm.h", "")
    files.setdefault("sim/rtl_backend.h", "")
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
    return root


def check(files):
    r = subprocess.run([sys.executable, CHECK, "--source", tree(files)], capture_output=True,
                       text=True)
    return r.returncode, r.stdout


def expect(name, files, code, text):
    got_code, out = check(files)
    if got_code != code or text not in out:
        print(f"FAIL {name}: exit {got_code} (want {code}), output:\n{out}")
        return False
    print(f"ok   {name}")
    return True


CLEAN = {
    "sw/base/error.h": "#pragma once\n",
    "sw/spec/address.h": '#include "base/error.h"\n',
    "sw/tables/table.h": '#include "spec/address.h"\n#include "tables/table.h"\n',
    "sw/exec/executor.cpp": '#include "tables/table.h"\n#include <vector>\n',
    "sw/api/api.cpp": '#include "exec/executor.cpp"\n#include "rtl_backend.h"\n'
                      '#include "hc_tlm.h"\n#include "hcube/hcube.h"\n',
}

ok = True
ok &= expect("a clean tree passes", CLEAN, 0, "base < spec < tables < exec < api")
ok &= expect("an include that goes up fails",
             {**CLEAN, "sw/spec/address.h": '#include "exec/executor.cpp"\n'}, 1,
             "sw/spec/address.h:1: #include \"exec/executor.cpp\": layer spec includes from "
             "exec, a layer above it")
ok &= expect("an include without its layer fails",
             {**CLEAN, "sw/tables/table.h": '#include "address.h"\n'}, 1,
             "sw/tables/table.h:1: #include \"address.h\": an include that does not name its layer")
ok &= expect("an include of a missing file fails",
             {**CLEAN, "sw/exec/executor.cpp": '#include "spec/gone.h"\n'}, 1, "no such file")
ok &= expect("a backend header outside api fails",
             {**CLEAN, "sw/exec/executor.cpp": '#include "rtl_backend.h"\n'}, 1,
             "does not name its layer")
ok &= expect("a source file outside every layer fails", {**CLEAN, "sw/loose.cpp": ""}, 1,
             "sw/loose.cpp: a source file outside every layer")
ok &= expect("a folder that is not a layer fails", {**CLEAN, "sw/misc/a.h": ""}, 1,
             "sw/misc/: a folder that is not a layer")
sys.exit(0 if ok else 1)
