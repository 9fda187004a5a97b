// hcube: the parts the RTL backend's table and routed runners share (sim/rtl_table_run.cpp,
// sim/rtl_routed_run.cpp): the result-file reader, the trace arguments and their finishing, and
// two small helpers of the model cache. Internal to the backend: the tool uses rtl_backend.h.
#pragma once

#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "rtl_backend.h"

namespace hcube {

/// The least power of two >= x (1 for 0).
u64 pow2Ceil(u64 x);
/// The last `lines` lines of `text`, for an error message quoting a tool's output.
std::string tail(const std::string& text, size_t lines);

/// A run's own temporary directory (image, memory, result files), removed with everything in it
/// when the run ends, however it ends.
struct RunDirectory {
  RunDirectory();
  ~RunDirectory();
  RunDirectory(const RunDirectory&) = delete;
  RunDirectory& operator=(const RunDirectory&) = delete;
  std::filesystem::path path;
};

/// True if `path` names a VCD trace (the runner writes FST; a .vcd is converted after the run).
bool isVcdPath(const std::string& path);
/// The runner's trace arguments for options.trace / options.gtkw, added to `argv`. A .vcd trace
/// is written by the runner as an FST in `work` and converted after the run (finishTrace).
/// Returns the FST the runner writes (empty: no trace).
std::string addTraceArgs(const RtlOptions& options, const std::filesystem::path& work,
                         std::vector<std::string>& argv);
/// After a traced run: a .vcd trace is converted from the runner's FST (fst2vcd keeps the FST's
/// 1 ns time unit) and the save file pointed at the VCD instead of the temporary FST.
void finishTrace(const RtlOptions& options, const std::string& fst);

// A runner result file (docs/hardware/testbench.md §2), read line by line: the header line, the
// keys every run writes (the counters, `link`, `memory`, `end`) into a RunResult, and every other
// key handed to the caller's reader (table-mode traffic and errors, routed-mode statistics), which
// returns false for a key it does not know. One reader for both modes, so the shared keys are
// parsed and checked once.
class ResultReader {
 public:
  using More = std::function<bool(const std::string& key, std::istringstream& words)>;

  ResultReader(std::istream& in, std::string source, RunResult& r, u64 nodes, u64 dims,
               u64 words_per_node)
      : in_(in),
        source_(std::move(source)),
        r_(r),
        nodes_(nodes),
        dims_(dims),
        words_per_node_(words_per_node) {
    r.backend = "rtl";
    r.memory = {nodes, words_per_node, std::vector<u32>(nodes * words_per_node, 0)};
    r.link_words.assign(nodes * dims, 0);
  }

  [[noreturn]] void fail(const std::string& msg) const {
    throw Error(source_ + ":" + std::to_string(lineno_) + ": " + msg);
  }

  /// Reads to `end`; throws Error naming the file and line of anything malformed, a missing
  /// `end` or a node without a memory line.
  void read(const More& more) {
    std::vector<bool> seen(nodes_, false);
    std::string line;
    bool header = false;
    bool ended = false;
    while (std::getline(in_, line)) {
      ++lineno_;
      std::istringstream words(line);
      std::string key;
      if (!(words >> key)) continue;
      if (!header) {
        int version = 0;
        if (key != "hcube-rtl-result" || !(words >> version) || version != 1) {
          fail("not an hcube-rtl-result 1 file");
        }
        header = true;
        continue;
      }
      if (key == "end") {
        ended = true;
        break;
      }
      if (!readShared(key, words, seen) && !more(key, words)) fail("unknown key '" + key + "'");
      if (words.fail()) fail("bad value for '" + key + "'");
    }
    if (!ended) fail("truncated (no 'end')");
    for (u64 x = 0; x < nodes_; ++x) {
      if (!seen[x]) fail("no memory line for node " + std::to_string(x));
    }
  }

 private:
  bool readShared(const std::string& key, std::istringstream& words, std::vector<bool>& seen) {
    if (key == "cycles") {
      words >> r_.cycles;
    } else if (key == "transfer-cycles") {
      words >> r_.transfer_cycles;
    } else if (key == "local-cycles") {  // optional: runners before PERMUTE do not write it
      words >> r_.local_cycles;
    } else if (key == "mac-cycles") {  // optional: runners before the MAC counter do not write it
      words >> r_.mac_cycles;
    } else if (key == "words") {
      words >> r_.words;
    } else if (key == "timeout") {
      int t = 0;
      words >> t;
      r_.timeout = t != 0;
    } else if (key == "wall-seconds") {
      words >> r_.wall_seconds;
    } else if (key == "span") {
      words >> r_.span;
    } else if (key == "link") {
      u64 node = 0;
      u64 port = 0;
      u64 count = 0;
      if (!(words >> node >> port >> count) || node >= nodes_ || port >= dims_) {
        fail("bad link line");
      }
      r_.link_words[node * dims_ + port] = count;
    } else if (key == "memory") {
      u64 node = 0;
      if (!(words >> node) || node >= nodes_) fail("bad memory line");
      seen[node] = true;
      for (u64 i = 0; i < words_per_node_; ++i) {
        std::string hex;
        if (!(words >> hex)) fail("memory line of node " + std::to_string(node) + " is short");
        r_.memory.at(node, i) = static_cast<u32>(std::stoul(hex, nullptr, 16));
      }
    } else {
      return false;
    }
    return true;
  }

  std::istream& in_;
  const std::string source_;
  RunResult& r_;
  const u64 nodes_;
  const u64 dims_;
  const u64 words_per_node_;
  int lineno_ = 0;
};

}  // namespace hcube
