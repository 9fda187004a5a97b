// hcube: the RTL backend's model cache (sim/rtl_backend.h): where the RTL sources are, the key
// of a model and the build of a model when the cache has none.
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

#include "base/error.h"
#include "exec/progress.h"
#include "process.h"
#include "rtl_backend.h"
#include "rtl_backend_parts.h"
#include "tables/resource_limits.h"
#include "tables/table_image.h"
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

u64 pow2Ceil(u64 x) {
  u64 p = 1;
  while (p < x) p <<= 1;
  return p;
}

std::string tail(const std::string& text, size_t lines) {
  size_t pos = text.size();
  for (size_t i = 0; i <= lines && pos != std::string::npos && pos > 0; ++i) {
    pos = text.rfind('\n', pos - 1);
  }
  return pos == std::string::npos ? text : text.substr(pos + 1);
}

namespace {

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
  for (const char* header : kTestbenchLibraryHeaders) files.push_back(root / "sw" / header);
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

}  // namespace hcube
