#include "rtl_backend.h"

#include <fcntl.h>
#include <sys/file.h>
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

#include "error.h"
#include "process.h"
#include "progress.h"
#include "resource_limits.h"
#include "table_image.h"
#include "verilator_tool.h"

#ifndef HCUBE_SOURCE_DIR
#error "HCUBE_SOURCE_DIR must name the source tree (set by CMake)"
#endif
// Where `cmake --install` puts the RTL sources (share/hcube under the configured prefix).
#ifndef HCUBE_INSTALL_DATA_DIR
#define HCUBE_INSTALL_DATA_DIR ""
#endif

namespace fs = std::filesystem;

namespace hcube {
namespace {

u64 pow2Ceil(u64 x) {
  u64 p = 1;
  while (p < x) p <<= 1;
  return p;
}

// The host CPU as /proc/cpuinfo names it (model and feature flags of the first processor):
// node-array models are compiled for it (-march=native, tb/model HC_NATIVE), so the cache key
// includes it and a cache moved to another CPU builds anew. Empty if it cannot be read (the
// model is then compiled for the generic target). Read once per process.
const std::string& hostCpu() {
  static const std::string cpu = [] {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    std::string model;
    std::string flags;
    while ((model.empty() || flags.empty()) && std::getline(in, line)) {
      if (model.empty() && line.rfind("model name", 0) == 0) model = line;
      if (flags.empty() && line.rfind("flags", 0) == 0) flags = line;
    }
    return flags.empty() ? std::string() : model + "\n" + flags;
  }();
  return cpu;
}

// FNV-1a over the files the model is built from, so an edit forces a rebuild, the host CPU and
// the Verilator that builds it (HCUBE_VERILATOR: its version and place).
std::string sourceHash() {
  const fs::path root = rtlSourceRoot();
  std::vector<fs::path> files;
  for (const char* dir : {"rtl", "tb", "tb/model"}) {
    if (!fs::is_directory(root / dir)) continue;
    for (const auto& e : fs::directory_iterator(root / dir)) {
      if (e.is_regular_file()) files.push_back(e.path());
    }
  }
  files.push_back(root / "sw" / "traffic_monitor.h");
  std::sort(files.begin(), files.end());
  u64 h = 1469598103934665603ULL;
  auto mix = [&h](unsigned char c) {
    h ^= c;
    h *= 1099511628211ULL;
  };
  for (const fs::path& f : files) {
    for (char c : f.filename().string()) mix(static_cast<unsigned char>(c));
    std::ifstream in(f, std::ios::binary);
    char buf[8192];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
      for (std::streamsize i = 0; i < in.gcount(); ++i) mix(static_cast<unsigned char>(buf[i]));
    }
  }
  for (char c : hostCpu()) mix(static_cast<unsigned char>(c));
  for (char c : selectedVerilator(HCUBE_SOURCE_DIR).identity()) {
    mix(static_cast<unsigned char>(c));
  }
  std::ostringstream o;
  o << std::hex << h;
  return o.str().substr(0, 12);
}

class FileLock {
 public:
  explicit FileLock(const fs::path& path) {
    fd_ = ::open(path.c_str(), O_CREAT | O_RDWR, 0644);
    if (fd_ < 0) throw Error(path.string() + ": cannot create the model-cache lock file");
    if (flock(fd_, LOCK_EX) != 0) throw Error(path.string() + ": cannot lock");
  }
  ~FileLock() {
    if (fd_ >= 0) {
      flock(fd_, LOCK_UN);
      ::close(fd_);
    }
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

std::string tail(const std::string& text, size_t lines) {
  size_t pos = text.size();
  for (size_t i = 0; i <= lines && pos != std::string::npos && pos > 0; ++i) {
    pos = text.rfind('\n', pos - 1);
  }
  return pos == std::string::npos ? text : text.substr(pos + 1);
}

std::string& rtlSourceOverride() {
  static std::string dir;
  return dir;
}

// A directory the RTL models can be built from: it holds the model's project.
bool holdsRtlSources(const fs::path& dir) {
  std::error_code ec;
  return !dir.empty() && fs::is_regular_file(dir / "tb" / "model" / "CMakeLists.txt", ec) &&
         fs::is_directory(dir / "rtl", ec);
}

}  // namespace

void setRtlSourceRoot(const std::string& dir) { rtlSourceOverride() = dir; }

std::string rtlSourceRoot() {
  auto named = [](const std::string& dir, const std::string& by) {
    if (!holdsRtlSources(dir)) {
      throw Error(by + " '" + dir + "': holds no RTL sources (rtl/ and tb/model/CMakeLists.txt)");
    }
    return dir;
  };
  if (!rtlSourceOverride().empty()) return named(rtlSourceOverride(), "the RTL source directory");
  if (const char* d = std::getenv("HCUBE_DATA_DIR"); d != nullptr && *d != '\0') {
    return named(d, "HCUBE_DATA_DIR");
  }
  // An installed tool finds the sources installed beside it (<prefix>/bin/hcube and
  // <prefix>/share/hcube), wherever the prefix was moved to.
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside = exe.parent_path().parent_path() / "share" / "hcube";
    if (holdsRtlSources(beside)) return beside.string();
  }
  if (holdsRtlSources(HCUBE_SOURCE_DIR)) return HCUBE_SOURCE_DIR;
  if (holdsRtlSources(HCUBE_INSTALL_DATA_DIR)) return HCUBE_INSTALL_DATA_DIR;
  throw Error(
      std::string("no RTL sources to build the model from: neither the source tree ") +
      HCUBE_SOURCE_DIR + " nor the installed " +
      (std::string(HCUBE_INSTALL_DATA_DIR).empty() ? "data directory" : HCUBE_INSTALL_DATA_DIR) +
      " holds them; set HCUBE_DATA_DIR to a directory with rtl/ and tb/model/");
}

std::string RtlModelConfig::key() const {
  std::ostringstream o;
  o << "rtl-n" << dim << "-m" << num_slots << "-b" << lanes << "-t" << table_depth << "-j"
    << threads << "-w" << (trace ? 1 : 0);
  if (router) o << "-r";
  if (router && vcs > 1) o << "-v" << vcs;
  if (array) o << "-a";
  return o.str();
}

int requireRtlThreads(long long threads) {
  if (threads < 1 || threads > kRtlMaxThreads) {
    throw Error("--threads " + std::to_string(threads) + ": must be 1.." +
                std::to_string(kRtlMaxThreads) + " (threads of the Verilated model)");
  }
  return static_cast<int>(threads);
}

RtlModelConfig rtlModelFor(const TableSet& set) {
  RtlModelConfig c;
  c.dim = set.header.n;
  c.num_slots = std::max<u64>(2, pow2Ceil(set.header.memoryWords()));
  c.lanes = set.header.lanes;
  c.table_depth = std::max<u64>(16, pow2Ceil(set.depth()));
  requireRtlDimension(c.dim);
  return c;
}

std::string defaultCacheDir() {
  if (const char* c = std::getenv("HCUBE_CACHE"); c != nullptr && *c != '\0') return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0') {
    return (fs::path(x) / "hcube").string();
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return (fs::path(home) / ".cache" / "hcube").string();
  }
  return (fs::temp_directory_path() / "hcube-cache").string();
}

RtlModel ensureRtlModel(const RtlModelConfig& config, const RtlOptions& options) {
  const fs::path cache = options.cache_dir.empty() ? defaultCacheDir() : options.cache_dir;
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) throw Error(cache.string() + ": cannot create the model cache: " + ec.message());
  const std::string hash = sourceHash();
  // Any complete model of this dimension, lane count and thread count, built from these
  // sources, with at least the memory and table depth needed (and tracing, if asked for) will
  // do; take the smallest, an untraced one of equal size first.
  {
    RtlModel best;
    u64 best_size = ~u64{0};
    for (const auto& e : fs::directory_iterator(cache, ec)) {
      int dim = 0;
      int lanes = 0;
      int threads = 0;
      int traced = 0;
      unsigned long long slots = 0;
      unsigned long long depth = 0;
      char tag[64] = {};
      const std::string name = e.path().filename().string();
      if (std::sscanf(name.c_str(), "rtl-n%d-m%llu-b%d-t%llu-j%d-w%d-%63s", &dim, &slots, &lanes,
                      &depth, &threads, &traced, tag) != 7) {
        continue;
      }
      // "r-HASH": a model with routers, "r-vV-HASH" one with V virtual channels, "a-HASH" the
      // node-array model (the hash is hexadecimal, so never starts with 'r' or 'v'; an 'a' is
      // followed by another hex digit, never by '-').
      std::string rest = tag;
      const bool router = rest.rfind("r-", 0) == 0;
      if (router) rest.erase(0, 2);
      int vcs = 1;
      if (router && rest.size() > 3 && rest[0] == 'v' && rest[2] == '-' && rest[1] >= '2' &&
          rest[1] <= '9') {
        vcs = rest[1] - '0';
        rest.erase(0, 3);
      }
      const bool array = rest.rfind("a-", 0) == 0;
      if (array) rest.erase(0, 2);
      if (router != config.router || array != config.array) continue;
      if (router && vcs != config.vcs) continue;
      if (dim != config.dim || lanes != config.lanes || threads != config.threads ||
          (config.trace && traced == 0) || slots < config.num_slots || depth < config.table_depth ||
          hash != rest) {
        continue;
      }
      if (!fs::exists(e.path() / "complete") || !fs::exists(e.path() / "hcube-rtl-sim")) continue;
      const u64 size = 2 * slots * depth + (traced != 0 ? 1 : 0);
      if (size < best_size) {
        best_size = size;
        best.runner = (e.path() / "hcube-rtl-sim").string();
        best.config = {dim, slots, lanes, depth, threads, traced != 0, router, array};
        best.config.vcs = vcs;
      }
    }
    if (!best.runner.empty()) return best;
  }
  const std::string key = config.key() + "-" + hash;
  const fs::path dir = cache / key;
  const fs::path runner = dir / "hcube-rtl-sim";
  const fs::path stamp = dir / "complete";

  FileLock lock(cache / (key + ".lock"));
  if (fs::exists(stamp) && fs::exists(runner)) return {runner.string(), config};  // built meanwhile

  std::ostream* out = options.progress;
  const auto started = std::chrono::steady_clock::now();
  if (out) {
    *out << "hcube: building the Verilated cube n=" << config.dim << " (" << config.num_slots
         << " memory words, " << config.lanes << " lane(s), table depth " << config.table_depth
         << (config.array ? ", node-array model" : ", flat model")
         << (config.array ? "" : ", " + std::to_string(config.threads) + " thread(s)")
         << (config.trace ? ", traced" : "") << (config.router ? ", with routers" : "")
         << (config.router && config.vcs > 1
                 ? " of " + std::to_string(config.vcs) + " virtual channels"
                 : "")
         << ") in " << dir.string() << " -- once per configuration, cached\n";
    if (config.dim >= 9 && !config.array) {
      const ResourceEstimate build = rtlBuildEstimate(config.dim);
      *out << "hcube: expect about " << formatSeconds(build.seconds)
           << " of CPU time (2 cores share it) and " << formatBytes(build.bytes)
           << " of memory for Verilator\n";
    }
    *out << std::flush;
  }
  const std::string cmake = findProgram("cmake");
  if (cmake.empty()) throw Error("cmake is not installed (run scripts/setup.sh)");
  const fs::path src = fs::path(rtlSourceRoot()) / "tb" / "model";
  std::string log;
  auto step = [&](const std::vector<std::string>& argv, const char* what) {
    ProcessResult r = runProcess(argv, [&](const std::string& line) {
      // Forward cmake's percentage lines as progress.
      if (out && line.size() > 2 && line[0] == '[' && line.find("%]") != std::string::npos) {
        *out << "  " << line << '\n' << std::flush;
      }
    });
    log += r.output;
    std::ofstream(dir / "build.log", std::ios::app) << r.output;
    if (r.status != 0) {
      throw Error(std::string("building the RTL model failed at ") + what +
                  " (log: " + (dir / "build.log").string() + "):\n" + tail(r.output, 15));
    }
  };
  fs::create_directories(dir, ec);
  step({cmake, "-S", src.string(), "-B", dir.string(), "-DCMAKE_BUILD_TYPE=Release",
        "-DHC_DIM=" + std::to_string(config.dim),
        "-DHC_NUM_SLOTS=" + std::to_string(config.num_slots),
        "-DHC_LANES=" + std::to_string(config.lanes),
        "-DHC_TABLE_DEPTH=" + std::to_string(config.table_depth),
        "-DHC_THREADS=" + std::to_string(config.threads),
        std::string("-DHC_TRACE=") + (config.trace ? "ON" : "OFF"),
        std::string("-DHC_ROUTER=") + (config.router ? "1" : "0"),
        "-DHC_VCS=" + std::to_string(config.router ? config.vcs : 1),
        std::string("-DHC_ARRAY=") + (config.array ? "ON" : "OFF"),
        std::string("-DHC_NATIVE=") + (hostCpu().empty() ? "OFF" : "ON"),
        selectedVerilator(HCUBE_SOURCE_DIR).cmakeArg()},
       "configure");
  step({cmake, "--build", dir.string(), "-j", "2"}, "build");
  if (!fs::exists(runner)) throw Error("building the RTL model produced no " + runner.string());
  std::ofstream(stamp) << "built\n";
  if (out) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    *out << "hcube: model built in " << static_cast<int>(s) << " s\n" << std::flush;
  }
  return {runner.string(), config};
}

namespace {

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

}  // namespace

RunResult parseRtlResult(std::istream& in, const std::string& source, u64 nodes, int dims,
                         u64 words_per_node) {
  RunResult r;
  ResultReader reader(in, source, r, nodes, static_cast<u64>(dims), words_per_node);
  reader.read([&](const std::string& key, std::istringstream& words) {
    if (key == "traffic") {  // the monitor's log follows (runner option --traffic)
      int t = 0;
      words >> t;
      r.traffic.recorded = t != 0;
    } else if (key == "send") {
      TrafficLog::Send e{};
      u64 port = 0;
      u64 lane = 0;
      if (!(words >> e.cycle >> e.node >> port >> e.word >> lane) || e.node >= nodes ||
          port >= static_cast<u64>(dims) || lane >= 64) {
        reader.fail("bad send line");
      }
      e.port = static_cast<int>(port);
      e.lane = static_cast<int>(lane);
      r.traffic.sends.push_back(e);
    } else if (key == "store") {
      TrafficLog::Store e{};
      if (!(words >> e.cycle >> e.word)) reader.fail("bad store line");
      r.traffic.stores.push_back(e);
    } else if (key == "error") {  // an error event (with the traffic log)
      HwErrorEvent e{};
      std::string kind;
      if (!(words >> e.cycle >> e.node >> kind) || e.node >= nodes) reader.fail("bad error line");
      e.kind = hwErrorFromName(kind);
      r.error_events.push_back(e);
    } else if (key == "errors") {
      u64 node = 0;
      std::string kind;
      u64 count = 0;
      if (!(words >> node >> kind >> count) || node >= nodes) reader.fail("bad errors line");
      r.errors.push_back({node, hwErrorFromName(kind), count});
    } else {
      return false;
    }
    return true;
  });
  std::sort(r.errors.begin(), r.errors.end(), [](const auto& a, const auto& b) {
    return a.node != b.node ? a.node < b.node : a.kind < b.kind;
  });
  return r;
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

bool isVcdPath(const std::string& path) {
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".vcd") == 0;
}

// The runner's trace arguments for options.trace / options.gtkw, added to `argv`. A .vcd trace
// is written by the runner as an FST in `work` and converted after the run (finishTrace).
// Returns the FST the runner writes (empty: no trace).
std::string addTraceArgs(const RtlOptions& options, const fs::path& work,
                         std::vector<std::string>& argv) {
  if (options.trace.empty()) return "";
  const std::string fst = isVcdPath(options.trace) ? (work / "trace.fst").string() : options.trace;
  argv.insert(argv.end(), {"--trace", fst});
  if (!options.gtkw.empty()) argv.insert(argv.end(), {"--gtkw", options.gtkw});
  return fst;
}

// After a traced run: a .vcd trace is converted from the runner's FST (fst2vcd keeps the FST's
// 1 ns time unit) and the save file pointed at the VCD instead of the temporary FST.
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
  const fs::path work =
      fs::temp_directory_path() /
      ("hcube-rtl-" + std::to_string(getpid()) + "-" +
       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(work);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{work};
  const fs::path image = work / "tables.hex";
  const fs::path result = work / "result.txt";
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

// ---- Routed mode (docs/hardware/router.md) ----

namespace {

int bitsFor(u64 n) {
  int b = 0;
  while ((u64{1} << b) < n) ++b;
  return b < 1 ? 1 : b;
}

/// The widths of rtl/hc_pkg.sv for a model (Lanes = 1).
struct RoutedLayout {
  int n = 1;
  int slot_bits = 1;
  int port_bits = 1;
  int route_max = 4;
  int len_bits = 1;
  int msg_width = 0;
  int load_width = 0;

  explicit RoutedLayout(const RtlModelConfig& m) : n(m.dim) {
    slot_bits = bitsFor(m.num_slots);
    port_bits = bitsFor(static_cast<u64>(n));
    route_max = 2 * n + 2;
    len_bits = bitsFor(static_cast<u64>(route_max + 1));
    msg_width = 2 * slot_bits + n + len_bits + route_max * port_bits + 32 + 1;  // + start flag
    const int idx_bits = std::max(slot_bits, port_bits + bitsFor(static_cast<u64>(m.lanes)));
    const int table_width = std::max(34, 2 + n * m.lanes * (6 + idx_bits + slot_bits));
    load_width = std::max(table_width, msg_width);
  }
};

/// A bit vector written as hex, most significant digit first.
class Bits {
 public:
  explicit Bits(int width) : width_(width), w_(static_cast<size_t>((width + 31) / 32), 0) {}
  void put(int lsb, int width, u64 value) {
    for (int b = 0; b < width; ++b) {
      if ((value >> b) & 1U) w_[static_cast<size_t>((lsb + b) / 32)] |= 1U << ((lsb + b) % 32);
    }
  }
  std::string hex() const {
    std::string s;
    for (int d = (width_ + 3) / 4 - 1; d >= 0; --d) {
      const u32 v = (w_[static_cast<size_t>(d * 4 / 32)] >> (d * 4 % 32)) & 0xF;
      s += "0123456789abcdef"[v];
    }
    return s;
  }

 private:
  int width_;
  std::vector<u32> w_;
};

}  // namespace

void checkRtlRouterOptions(const MessageList& list, const RouterOptions& ropt) {
  validateMessages(list);
  if (ropt.vcs < 1 || ropt.vcs > kMaxVcs) {
    throw Error("--vcs " + std::to_string(ropt.vcs) + ": the RTL router has 1.." +
                std::to_string(kMaxVcs) + " virtual channels per link (hc_router NumVcs)");
  }
  if (ropt.fifo_depth < 1 || ropt.fifo_depth > 4) {
    throw Error("--fifo-depth " + std::to_string(ropt.fifo_depth) +
                ": the RTL router's FIFOs hold 1..4 packets (hc_pkg::FifoDepthDefault)");
  }
  if (ropt.tau > kMaxRoutedTau) {
    throw Error("--tau " + std::to_string(ropt.tau) + ": routed mode's start-up must be 0.." +
                std::to_string(kMaxRoutedTau) + " cycles (the RTL configuration word's field)");
  }
  if (ropt.deadlock_cycles < 1 || ropt.deadlock_cycles > 65535) {
    throw Error("--deadlock-cycles " + std::to_string(ropt.deadlock_cycles) +
                ": the RTL detector counts 1..65535 cycles");
  }
  const int route_max = 2 * list.n + 2;
  u64 first = ~u64{0};
  u64 last = 0;
  std::pair<u64, size_t> latest{0, 0};
  for (u64 x = 0; x < list.nodes(); ++x) {
    for (size_t i = 0; i < list.per_node[x].size(); ++i) {
      const Message& m = list.per_node[x][i];
      if (m.route.size() > static_cast<size_t>(route_max)) {
        throw Error(list.where(x, i) + ": node " + std::to_string(x) + ": a source route of " +
                    std::to_string(m.route.size()) + " hops; the RTL router carries at most " +
                    std::to_string(route_max) + " (2n + 2)");
      }
      if (m.release > 0xFFFFFFFFULL) {
        throw Error(list.where(x, i) + ": node " + std::to_string(x) + ": release cycle " +
                    std::to_string(m.release) + " does not fit the RTL's 32 bits");
      }
      first = std::min(first, m.release);
      if (m.release > last) {
        last = m.release;
        latest = {x, i};
      }
    }
  }
  if (last > 0) {
    try {
      requireWithinLimits(rtlRoutedRunEstimate(list.nodes(), first, last));
    } catch (const Error& e) {
      throw Error(list.where(latest.first, latest.second) + ": " + e.what() +
                  " (the table and TLM backends skip idle cycles)");
    }
  }
}

namespace {

/// Node x's messages (list indices) in its injection queues Q_0 .. Q_{n-1} by first hop, then
/// Q_L, each in list order: the order the routed image stores them (docs/hardware/router.md §11;
/// with Duato, V >= 2, the first hop is the e-cube dimension, docs/hardware/router.md §13).
std::vector<std::vector<u64>> nodeQueues(const MessageList& list, u64 x, int vcs) {
  std::vector<std::vector<u64>> queues(static_cast<size_t>(list.n + 1));
  const std::vector<Message>& msgs = list.per_node[x];
  for (u64 i = 0; i < msgs.size(); ++i) {
    const int hop = firstHop(list.route, x, msgs[i], vcs);
    queues[static_cast<size_t>(hop < 0 ? list.n : hop)].push_back(i);
  }
  return queues;
}

}  // namespace

RtlModelConfig rtlModelForMessages(const MessageList& list, int vcs) {
  u64 most = 0;
  for (const auto& msgs : list.per_node) most = std::max<u64>(most, msgs.size());
  RtlModelConfig c;
  c.dim = list.n;
  c.num_slots = std::max<u64>(2, pow2Ceil(list.memoryWords()));
  c.lanes = 1;
  c.table_depth = std::max<u64>(16, pow2Ceil(most));
  c.router = true;
  c.vcs = vcs;
  requireRtlDimension(c.dim);
  return c;
}

void writeRoutedImageFile(const std::string& path, const MessageList& list,
                          const CubeMemory& initial, const RouterOptions& ropt,
                          const RtlModelConfig& model) {
  checkRtlRouterOptions(list, ropt);
  if (initial.nodes != list.nodes() || initial.words_per_node != list.memoryWords()) {
    throw Error("routed run: the memory does not match the message list (2K words per node)");
  }
  const RoutedLayout L(model);
  const int n = list.n;
  std::ofstream out(path);
  if (!out) throw Error(path + ": cannot write the routed image");
  out << "hcube-routed-image 1\n"
      << "dim " << n << "\nslots " << list.slots << "\nmemory " << list.memoryWords() << "\ntagged "
      << ropt.tagged_elements << "\nmsg-width " << L.msg_width << "\nfifo-depth " << ropt.fifo_depth
      << "\ndeadlock " << ropt.deadlock_cycles << "\n";
  // Virtual channels (docs/hardware/router.md §13): only with V > 1, so that a V = 1 image is that
  // of docs/hardware/router.md §11.
  if (ropt.vcs > 1) out << "vcs " << ropt.vcs << "\n";
  if (ropt.record_deliveries) out << "deliveries 1\n";
  for (u64 x = 0; x < list.nodes(); ++x) {
    const std::vector<Message>& msgs = list.per_node[x];
    const std::vector<std::vector<u64>> queues = nodeQueues(list, x, ropt.vcs);
    out << "node " << x << "\nheader";
    Bits cfg(L.load_width);
    cfg.put(0, 1, 1);
    cfg.put(1, 1, list.route == RouteKind::kSource ? 1 : 0);
    cfg.put(2, 1, list.route == RouteKind::kAdaptive ? 1 : 0);
    cfg.put(8, 8, ropt.fifo_depth);
    cfg.put(16, 16, ropt.deadlock_cycles);
    cfg.put(32, 10, ropt.tau);
    out << ' ' << cfg.hex();
    u64 at = 0;
    for (int q = 0; q <= n + 1; ++q) {
      Bits b(L.load_width);
      b.put(0, 32, at);
      out << ' ' << b.hex();
      if (q <= n) at += queues[static_cast<size_t>(q)].size();
    }
    out << '\n';
    // checkRtlRouterOptions (above) refused routes longer than 2n + 2 and releases beyond 32 bits.
    for (int q = 0; q <= n; ++q) {
      for (const u64 i : queues[static_cast<size_t>(q)]) {
        const Message* m = &msgs[i];
        Bits w(L.msg_width);
        int lsb = 0;
        w.put(lsb, L.slot_bits, m->src_slot);
        lsb += L.slot_bits;
        w.put(lsb, n, m->dst);
        lsb += n;
        w.put(lsb, L.slot_bits, m->dst_slot);
        lsb += L.slot_bits;
        if (list.route == RouteKind::kSource) w.put(lsb, L.len_bits, m->route.size());
        lsb += L.len_bits;
        for (size_t h = 0; h < m->route.size(); ++h) {
          w.put(lsb + static_cast<int>(h) * L.port_bits, L.port_bits, m->route[h]);
        }
        lsb += L.route_max * L.port_bits;
        w.put(lsb, 32, m->release);
        lsb += 32;
        // The start flag: the first word of a message that pays tau (never a local copy).
        w.put(lsb, 1, !m->cont && ropt.tau > 0 && q < n ? 1 : 0);
        out << "message " << w.hex() << '\n';
      }
    }
    out << "data";
    char buf[16];
    for (u64 l = 0; l < list.memoryWords(); ++l) {
      std::snprintf(buf, sizeof buf, " %08x", static_cast<unsigned>(initial.at(x, l)));
      out << buf;
    }
    out << '\n';
  }
  out << "end\n";
  if (!out) throw Error(path + ": error writing the routed image");
}

namespace {

/// Per node, the list index of each message in the order the routed image stores them (queue by
/// queue), and the first list index of each node (messages numbered node by node).
struct QueueOrder {
  std::vector<std::vector<u64>> list_index;
  std::vector<u64> first;
};

QueueOrder queueOrder(const MessageList& list, int vcs) {
  QueueOrder q;
  u64 next = 0;
  for (u64 x = 0; x < list.nodes(); ++x) {
    q.first.push_back(next);
    std::vector<u64> order;
    for (const auto& queue : nodeQueues(list, x, vcs)) {
      order.insert(order.end(), queue.begin(), queue.end());
    }
    q.list_index.push_back(std::move(order));
    next += list.per_node[x].size();
  }
  return q;
}

RoutedRun parseRoutedResult(std::istream& in, const std::string& source, const MessageList& list,
                            bool deliveries, int vcs) {
  RoutedRun rr;
  RunResult& r = rr.run;
  RouterStats& s = rr.stats;
  const u64 nodes = list.nodes();
  const u64 n = static_cast<u64>(list.n);
  // FIFOs per node: V per port, FIFO f = port * V + VC (docs/hardware/router.md §13), as the golden
  // model indexes them.
  const u64 v = static_cast<u64>(vcs);
  const u64 fifos = n * v;
  s.vcs = vcs;
  s.max_fifo.assign(nodes * fifos, 0);
  std::vector<u64> hist;
  const QueueOrder order = deliveries ? queueOrder(list, vcs) : QueueOrder{};
  if (deliveries) s.delivered_at.assign(list.messages(), ~u64{0});
  ResultReader reader(in, source, r, nodes, n, list.memoryWords());
  reader.read([&](const std::string& key, std::istringstream& words) {
    u64 a = 0, b = 0, c = 0, d = 0, e = 0, f = 0;
    if (key == "routed") {
      words >> a;
    } else if (key == "fifo-depth") {
      words >> s.fifo_depth;
    } else if (key == "messages") {
      words >> s.messages;
    } else if (key == "delivered") {
      words >> s.delivered;
    } else if (key == "stalls") {
      words >> s.stalls;
    } else if (key == "startups") {
      words >> s.startups;
    } else if (key == "idle-edges") {  // the node-array runner's skipped edges
                                       // (docs/hardware/router.md §14)
      words >> rr.idle_edges;
    } else if (key == "deadlock") {
      words >> a;
      s.deadlock = a != 0;
    } else if (key == "deadlock-cycle") {
      words >> s.deadlock_cycle;
    } else if (key == "max-fifo") {
      if (!(words >> a >> b >> c) || a >= nodes || b >= fifos) reader.fail("bad max-fifo line");
      s.max_fifo[a * fifos + b] = c;
    } else if (key == "latency") {
      if (!(words >> a >> b)) reader.fail("bad latency line");
      if (a >= hist.size()) hist.resize(a + 1, 0);
      hist[a] += b;
    } else if (key == "delivery") {
      if (!deliveries || !(words >> a >> b >> c) || a >= nodes || b >= order.list_index[a].size()) {
        reader.fail("bad delivery line");
      }
      s.delivered_at[order.first[a] + order.list_index[a][b]] = c;
    } else if (key == "blocked") {
      // INPUT: a FIFO's port * V + VC, or a queue's j; OUTPUT: port * V + VC.
      if (!(words >> a >> b >> c >> d >> e >> f) || a >= nodes || (b == 0 && c >= fifos) ||
          (b != 0 && c >= n) || e >= fifos) {
        reader.fail("bad blocked line");
      }
      BlockedPort p;
      p.node = a;
      p.injection = b != 0;
      p.input = static_cast<int>(b != 0 ? c : c / v);
      p.input_vc = static_cast<int>(b != 0 ? 0 : c % v);
      p.dst = d;
      p.output = static_cast<int>(e / v);
      p.output_vc = static_cast<int>(e % v);
      p.no_credit = f != 0;
      s.blocked.push_back(p);
    } else if (key == "router-errors") {
      if (!(words >> a >> b >> c >> d) || a >= nodes) reader.fail("bad router-errors line");
      s.errors.push_back({a, b, c, d});
    } else {
      return false;
    }
    return true;
  });
  // Latency summary exactly as the golden model takes it (router_engine.cpp finish()).
  u64 count = 0;
  u64 sum = 0;
  for (u64 l = 0; l < hist.size(); ++l) {
    count += hist[l];
    sum += l * hist[l];
  }
  if (count > 0) {
    const u64 want = (count * 99 + 99) / 100;
    u64 seen_count = 0;
    bool first = true;
    for (u64 l = 0; l < hist.size(); ++l) {
      if (hist[l] == 0) continue;
      if (first) s.latency_min = l;
      first = false;
      s.latency_max = l;
      if (seen_count < want && seen_count + hist[l] >= want) s.latency_p99 = l;
      seen_count += hist[l];
    }
    s.latency_mean = static_cast<double>(sum) / static_cast<double>(count);
  }
  return rr;
}

}  // namespace

RoutedRun runRoutedOnRtl(const MessageList& list, const CubeMemory& initial,
                         const RouterOptions& ropt, const RtlOptions& options) {
  checkRtlRouterOptions(list, ropt);
  RtlModelConfig config = rtlModelForMessages(list, ropt.vcs);
  const int threads = requireRtlThreads(options.threads);
  config.trace = !options.trace.empty();
  config.array = !config.trace && !options.flat;
  config.threads = config.array ? 1 : threads;
  const RtlModel model = ensureRtlModel(config, options);
  const fs::path work =
      fs::temp_directory_path() /
      ("hcube-rtl-" + std::to_string(getpid()) + "-" +
       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(work);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{work};
  const fs::path image = work / "routed.hex";
  const fs::path result = work / "result.txt";
  writeRoutedImageFile(image.string(), list, initial, ropt, model.config);
  std::vector<std::string> argv = {model.runner, "--image", image.string(), "--out",
                                   result.string()};
  if (config.array && threads > 1) argv.insert(argv.end(), {"--threads", std::to_string(threads)});
  if (ropt.max_cycles != 0) {
    argv.insert(argv.end(), {"--max-cycles", std::to_string(ropt.max_cycles)});
  }
  const std::string fst = addTraceArgs(options, work, argv);
  const ProcessResult p = runProcess(argv, [](const std::string&) {});
  if (p.status != 0) {
    throw Error("the RTL runner failed (status " + std::to_string(p.status) + "):\n" +
                tail(p.output, 15));
  }
  std::ifstream in(result);
  if (!in) throw Error(result.string() + ": the RTL runner wrote no result");
  RoutedRun r = parseRoutedResult(in, result.string(), list, ropt.record_deliveries, ropt.vcs);
  r.stats.tau = ropt.tau;
  // wall_seconds: the runner's simulation proper (loading and read-back left out).
  finishTrace(options, fst);
  return r;
}

}  // namespace hcube
