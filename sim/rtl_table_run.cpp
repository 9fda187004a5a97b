// hcube: table mode on the RTL (sim/rtl_backend.h, runOnRtl): the initial memory and the runner's
// arguments written, the runner started, its result read, the trace finished.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include "base/error.h"
#include "exec/progress.h"
#include "process.h"
#include "rtl_backend.h"
#include "rtl_backend_parts.h"
#include "tables/resource_limits.h"
#include "tables/table_image.h"

namespace fs = std::filesystem;

namespace hcube {

RunDirectory::RunDirectory()
    : path(std::filesystem::temp_directory_path() /
           ("hcube-rtl-" + std::to_string(getpid()) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()))) {
  std::filesystem::create_directories(path);
}

RunDirectory::~RunDirectory() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

bool isVcdPath(const std::string& path) {
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".vcd") == 0;
}

std::string addTraceArgs(const RtlOptions& options, const fs::path& work,
                         std::vector<std::string>& argv) {
  if (options.trace.empty()) return "";
  const std::string fst = isVcdPath(options.trace) ? (work / "trace.fst").string() : options.trace;
  argv.insert(argv.end(), {"--trace", fst});
  if (!options.gtkw.empty()) argv.insert(argv.end(), {"--gtkw", options.gtkw});
  return fst;
}

void finishTrace(const RtlOptions& options, const std::string& fst) {
  if (options.trace.empty() || !isVcdPath(options.trace)) return;
  const std::string fst2vcd = findProgram("fst2vcd");
  if (fst2vcd.empty()) throw Error("fst2vcd (Debian package gtkwave) is needed for a .vcd trace");
  const ProcessResult c = runProcess({fst2vcd, "-f", fst, "-o", options.trace});
  if (c.status != 0) throw Error("fst2vcd failed:\n" + tail(c.output, 10));
  if (options.gtkw.empty()) return;
  std::ifstream g(options.gtkw);
  std::stringstream text;
  text << g.rdbuf();
  std::string s = text.str();
  const size_t at = s.find(fst);
  if (at != std::string::npos) s.replace(at, fst.size(), fs::absolute(options.trace).string());
  std::ofstream out(options.gtkw);
  out << s;
  out.close();
  if (!out) throw Error(options.gtkw + ": cannot rewrite the GTKWave save file");
}

namespace {

// The runner's initial memory file (tb/memory_file.h): every node's M words (the set's memory;
// the runner zeroes the model's slots above), node after node, each word 4 bytes little-endian.
void writeMemoryFile(const std::string& path, const CubeMemory& initial, const TableSet& set) {
  if (initial.nodes != set.header.nodes() || initial.words_per_node != set.header.memoryWords()) {
    throw Error("RTL backend: the initial memory is not nodes x memory words of the tables");
  }
  std::string bytes(initial.words.size() * 4, '\0');
  for (size_t i = 0; i < initial.words.size(); ++i) {
    for (int b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<char>(initial.words[i] >> (8 * b));
  }
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  out.close();
  if (!out) throw Error(path + ": cannot write the RTL runner's initial memory");
}

}  // namespace

RunResult runOnRtl(const TableSet& set, const RtlOptions& options) {
  RtlModelConfig config = rtlModelFor(set);
  const int threads = requireRtlThreads(options.threads);
  config.trace = !options.trace.empty();
  config.array = !config.trace && !options.flat;
  config.threads = config.array ? 1 : threads;
  config.router = options.router_model;
  config.vcs = options.router_model ? options.router_vcs : 1;
  const RtlModel model = ensureRtlModel(config, options);
  const std::string& runner = model.runner;
  const RunDirectory run_dir;
  const fs::path& work = run_dir.path;
  const fs::path image = work / "tables.hex";
  const fs::path result = work / "result.json";
  // Slot fields are encoded as wide as the model's memory, which may be larger than the set's.
  writeImageFile(image.string(), set,
                 ImageLayout{set.header.n, set.header.lanes, model.config.num_slots});

  const u64 max_cycles = options.max_cycles != 0 ? options.max_cycles : set.cycles() + 1000;
  std::vector<std::string> argv = {runner,
                                   "--image",
                                   image.string(),
                                   "--out",
                                   result.string(),
                                   "--max-cycles",
                                   std::to_string(max_cycles)};
  if (config.array && threads > 1) argv.insert(argv.end(), {"--threads", std::to_string(threads)});
  if (options.initial != nullptr) {
    const fs::path memory = work / "memory.bin";
    writeMemoryFile(memory.string(), *options.initial, set);
    argv.insert(argv.end(), {"--memory", memory.string()});
  }
  if (options.fault != nullptr && options.fault->onLink()) {
    argv.insert(argv.end(), {"--fault", formatFault(*options.fault)});
  }
  if (options.record_traffic) argv.push_back("--traffic");
  if (options.record_traffic && options.record_word != ~u64{0}) {
    argv.insert(argv.end(), {"--traffic-word", std::to_string(options.record_word)});
  }
  const std::string fst = addTraceArgs(options, work, argv);
  if (options.progress) {
    *options.progress << "hcube: running " << set.cycles() << " cycles on the RTL cube ("
                      << set.header.nodes() << " nodes, "
                      << (model.config.array ? "node-array" : "flat") << " model"
                      << (model.config.router ? " with routers" : "") << "), "
                      << rtlRunForecast(set) << "\n"
                      << std::flush;
  }
  // The runner reports progress on lines "progress: cycle N of at most M" a few times a second.
  ProgressBar bar(options.progress_bar ? options.progress : nullptr, "rtl run", set.cycles());
  auto last_line = std::chrono::steady_clock::now();
  const std::string prefix = "progress: cycle ";
  const ProcessResult p = runProcess(argv, [&](const std::string& line) {
    if (options.progress == nullptr || line.rfind(prefix, 0) != 0) return;
    if (options.progress_bar) {
      bar.update(std::strtoull(line.c_str() + prefix.size(), nullptr, 10));
    } else if (std::chrono::steady_clock::now() - last_line > std::chrono::seconds(2)) {
      last_line = std::chrono::steady_clock::now();
      *options.progress << "hcube: " << line.substr(10) << '\n' << std::flush;
    }
  });
  bar.finish();
  if (p.status != 0) {
    throw Error("the RTL runner failed (status " + std::to_string(p.status) + "):\n" +
                tail(p.output, 15));
  }
  std::ifstream in(result);
  if (!in) throw Error(result.string() + ": the RTL runner wrote no result");
  RunResult r =
      parseRtlResult(in, result.string(), set.header.nodes(), set.header.n, model.config.num_slots);
  // Words above the set's K + scratch are memory the tables never address: drop them.
  const u64 keep = set.header.memoryWords();
  CubeMemory trimmed{r.memory.nodes, keep, std::vector<u32>(r.memory.nodes * keep)};
  for (u64 x = 0; x < r.memory.nodes; ++x) {
    for (u64 l = 0; l < keep; ++l) trimmed.at(x, l) = r.memory.at(x, l);
  }
  r.memory = std::move(trimmed);
  finishTrace(options, fst);
  return r;
}

}  // namespace hcube
