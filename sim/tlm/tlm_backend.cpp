#include "tlm_backend.h"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <new>
#include <stdexcept>
#include <systemc>

#include "base/error.h"
#include "exec/progress.h"
#include "hc_tlm_config.h"
#include "hc_tlm_cube.h"
#include "hc_tlm_run.h"
#include "hc_tlm_testbench.h"
#include "spec/reference.h"
#include "tables/resource_limits.h"

// libsystemc's own main() calls sc_main; hcube never does (runOnTlm drives the kernel itself),
// but the symbol must exist for the link.
int sc_main(int /*argc*/, char* /*argv*/[]) {
  std::cerr << "hcube: sc_main is not used; call hcube::runOnTlm\n";
  return 2;
}

namespace hcube {
namespace {

// Timing of the model (README.md): one cycle is one clock period; a word takes the link latency
// to cross its link (well inside the first half of the cycle); every load-bus access takes one
// clock period.
const sc_core::sc_time kClockPeriod(10, sc_core::SC_NS);
const sc_core::sc_time kLinkLatency(1, sc_core::SC_NS);
const sc_core::sc_time kLoadLatency(10, sc_core::SC_NS);

// RunResult <-> bytes, for the pipe from the child.
class Writer {
 public:
  void put(u64 v) { m_bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void putDouble(double v) { m_bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void putString(const std::string& s) {
    put(s.size());
    m_bytes.append(s);
  }
  template <typename T>
  void putArray(const std::vector<T>& v) {
    put(v.size());
    m_bytes.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  const std::string& bytes() const { return m_bytes; }
  std::string& bytes() { return m_bytes; }

 private:
  std::string m_bytes;
};

class Reader {
 public:
  explicit Reader(const std::string& bytes, size_t pos) : m_bytes(bytes), m_pos(pos) {}
  void take(void* out, size_t n) {
    if (m_bytes.size() - m_pos < n) throw Error("TLM backend: truncated result from the child");
    if (n == 0) return;  // an empty vector's data() may be null, which memcpy must not get
    std::memcpy(out, m_bytes.data() + m_pos, n);
    m_pos += n;
  }
  u64 get() {
    u64 v = 0;
    take(&v, sizeof v);
    return v;
  }
  std::string getString() {
    const u64 n = get();
    if (m_bytes.size() - m_pos < n) throw Error("TLM backend: truncated result from the child");
    std::string s = m_bytes.substr(m_pos, n);
    m_pos += n;
    return s;
  }
  double getDouble() {
    double v = 0;
    take(&v, sizeof v);
    return v;
  }
  template <typename T>
  void getArray(std::vector<T>& v) {
    const u64 n = get();
    if ((m_bytes.size() - m_pos) / sizeof(T) < n) {
      throw Error("TLM backend: truncated result from the child");
    }
    v.resize(n);
    take(v.data(), n * sizeof(T));
  }

 private:
  const std::string& m_bytes;
  size_t m_pos;
};

void serialize(const RunResult& r, Writer& w) {
  w.putString(r.backend);
  w.put(r.cycles);
  w.put(r.transfer_cycles);
  w.put(r.words);
  w.put(r.local_cycles);
  w.put(r.mac_cycles);
  w.put(r.timeout ? 1 : 0);
  w.put(r.errors.size());
  for (const NodeErrorCount& e : r.errors) {
    w.put(e.node);
    w.put(static_cast<u64>(e.kind));
    w.put(e.count);
  }
  w.put(r.memory.nodes);
  w.put(r.memory.words_per_node);
  w.putArray(r.memory.words);
  w.putArray(r.link_words);
  w.put(r.span);
  w.putDouble(r.wall_seconds);
  w.put(r.traffic.recorded ? 1 : 0);
  w.putArray(r.traffic.sends);
  w.putArray(r.traffic.stores);
  w.putArray(r.error_events);
}

RunResult deserialize(Reader& in) {
  RunResult r;
  r.backend = in.getString();
  r.cycles = in.get();
  r.transfer_cycles = in.get();
  r.words = in.get();
  r.local_cycles = in.get();
  r.mac_cycles = in.get();
  r.timeout = in.get() != 0;
  const u64 errors = in.get();
  for (u64 i = 0; i < errors; ++i) {
    NodeErrorCount e;
    e.node = in.get();
    e.kind = static_cast<HwError>(in.get());
    e.count = in.get();
    r.errors.push_back(e);
  }
  r.memory.nodes = in.get();
  r.memory.words_per_node = in.get();
  in.getArray(r.memory.words);
  in.getArray(r.link_words);
  r.span = in.get();
  r.wall_seconds = in.getDouble();
  r.traffic.recorded = in.get() != 0;
  in.getArray(r.traffic.sends);
  in.getArray(r.traffic.stores);
  in.getArray(r.error_events);
  return r;
}

void writeAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // the parent went away; nothing left to tell it
    }
    done += static_cast<size_t>(n);
  }
}

std::string readAll(int fd) {
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("TLM backend: reading the child's result: ") + std::strerror(errno));
    }
    if (n == 0) return bytes;
    bytes.append(buffer, static_cast<size_t>(n));
  }
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// One elaborated cube and testbench, and their single run. The child of runOnTlm never
/// destroys it: the objects die with the process, which spares SystemC's port-registry
/// teardown (quadratic in the number of sockets, a third of a second at n = 10).
class TlmSimulation {
 public:
  TlmSimulation(const TableSet& set, const TlmOptions& options,
                const HcTlmCube::NodeFactory& factory, const std::string& backend)
      : m_vcd(options.vcd), m_backend(backend), m_progress(options.progress) {
    checkTableShape(set);
    // Before the kernel exists: no banner on stdout.
    ::setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    if (sc_core::sc_get_status() != sc_core::SC_ELABORATION ||
        sc_core::sc_start_of_simulation_invoked()) {
      throw Error("TLM backend: SystemC has already run in this process (use runOnTlm)");
    }
    // The kernel's informational messages ("simulation stopped by user", the trace time unit)
    // are noise here; warnings and errors still show.
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const TableHeader& h = set.header;
    m_config.n = h.n;
    m_config.lanes = h.lanes;
    m_config.memory_words = h.memoryWords();
    m_config.table_depth = set.depth() + 1;  // one spare word, as a rounded-up RTL table has
    m_config.one_port = h.one_port;
    m_config.mac_units = h.mac_units;
    m_config.mac_overlap = h.mac_overlap;
    m_config.tagged_elements = h.perm.elements();
    m_initial =
        options.initial != nullptr ? *options.initial : taggedMemory(h.perm, h.memoryWords());
    if (m_initial.nodes != h.nodes() || m_initial.words_per_node != h.memoryWords()) {
      throw Error("TLM backend: the initial memory is not nodes x memory words of the tables");
    }
    m_cycles = set.cycles();
    const u64 max_cycles = options.max_cycles != 0 ? options.max_cycles : set.cycles() + 1000;

    m_cube = std::make_unique<HcTlmCube>("cube", m_config, kClockPeriod, kLinkLatency, kLoadLatency,
                                         factory);
    m_testbench =
        std::make_unique<HcTlmTestbench>("testbench", set, m_initial, m_config, max_cycles);
    if (options.record_traffic) m_cube->probe().recordTraffic(true, options.record_word);
    if (options.fault != nullptr && options.fault->onLink())
      m_cube->probe().setFault(options.fault);
    m_testbench->m_socket.bind(m_cube->m_load);
    m_cube->m_done(m_done);
    m_testbench->m_done(m_done);
    if (!m_vcd.empty()) {
      // sc_create_vcd_trace_file appends ".vcd" to the name it is given.
      const std::string base = endsWith(m_vcd, ".vcd") ? m_vcd.substr(0, m_vcd.size() - 4) : m_vcd;
      m_trace = sc_core::sc_create_vcd_trace_file(base.c_str());
      m_trace->set_time_unit(1, sc_core::SC_NS);
      m_cube->trace(m_trace);
    }
  }

  RunResult run() {
    // The bar's thread is this process's own (the child's, under runOnTlm).
    ProgressBar bar(m_progress ? &std::cerr : nullptr, m_backend + " run", m_cycles);
    if (m_progress) m_cube->setProgress(bar.callback());
    sc_core::sc_start();
    m_cube->setProgress({});
    bar.finish();
    if (m_trace != nullptr) {
      sc_core::sc_close_vcd_trace_file(m_trace);
      m_trace = nullptr;
      if (!endsWith(m_vcd, ".vcd") && std::rename((m_vcd + ".vcd").c_str(), m_vcd.c_str()) != 0) {
        throw Error("TLM backend: cannot rename the trace to " + m_vcd);
      }
    }
    if (!m_testbench->error().empty()) throw Error("TLM backend: " + m_testbench->error());
    if (!m_testbench->completed()) {
      throw Error("TLM backend: the simulation stopped before the run ended");
    }
    RunResult r = m_testbench->result();
    r.backend = m_backend;
    r.link_words = m_cube->probe().monitor().linkWords();
    r.span = m_cube->probe().monitor().span();
    r.traffic = m_cube->probe().takeTrafficLog();
    r.error_events = m_cube->probe().takeErrorEvents();
    return r;
  }

 private:
  std::string m_vcd;
  std::string m_backend;
  bool m_progress;
  u64 m_cycles = 0;
  HcTlmConfig m_config;
  CubeMemory m_initial;
  sc_core::sc_signal<bool> m_done{"done"};
  std::unique_ptr<HcTlmCube> m_cube;
  std::unique_ptr<HcTlmTestbench> m_testbench;
  sc_core::sc_trace_file* m_trace = nullptr;
};

}  // namespace

RunResult runCubeInThisProcess(const TableSet& set, const TlmOptions& options,
                               const HcTlmCube::NodeFactory& factory, const std::string& backend) {
  TlmSimulation simulation(set, options, factory, backend);
  return simulation.run();
}

RunResult runInChildProcess(const std::function<RunResult()>& simulate) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) throw Error(std::string("TLM backend: pipe: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw Error(std::string("TLM backend: fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // The child: one elaboration, one simulation, the result down the pipe, and out without
    // running the parent's exit handlers, before the simulation's objects are destroyed (see
    // TlmSimulation).
    ::close(fds[0]);
    Writer out;
    // The first byte says what happened: '1' a result follows; 'E' bad input (hcube::Error),
    // 'M' out of memory, 'I' an internal fault (any other exception), each with its message.
    try {
      const RunResult r = simulate();
      out.bytes() = "1";
      serialize(r, out);
    } catch (const Error& e) {
      out.bytes() = std::string("E") + e.what();
    } catch (const std::bad_alloc&) {
      out.bytes() = "M";
    } catch (const std::exception& e) {
      out.bytes() = std::string("I") + e.what();
    } catch (...) {
      out.bytes() = "Iunknown exception in the TLM simulation";
    }
    writeAll(fds[1], out.bytes());
    ::close(fds[1]);
    std::cout.flush();
    std::fflush(nullptr);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string bytes;
  try {
    bytes = readAll(fds[0]);
  } catch (...) {
    ::close(fds[0]);
    ::waitpid(pid, nullptr, 0);
    throw;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error(std::string("TLM backend: waitpid: ") + std::strerror(errno));
  }
  // Faults of the simulation itself are internal errors (std::runtime_error, exit 3 from the
  // tool), told apart from bad input (Error, exit 2).
  if (WIFSIGNALED(status)) {
    throw std::runtime_error("TLM backend: the simulation process was killed by signal " +
                             std::to_string(WTERMSIG(status)));
  }
  if (bytes.empty()) {
    throw std::runtime_error("TLM backend: the simulation process exited (status " +
                             std::to_string(WEXITSTATUS(status)) + ") without a result");
  }
  if (bytes[0] == 'E') throw Error(bytes.substr(1));
  if (bytes[0] == 'M') throw std::bad_alloc();
  if (bytes[0] != '1') {
    throw std::runtime_error("TLM backend: internal error in the simulation process: " +
                             bytes.substr(1));
  }
  Reader in(bytes, 1);
  return deserialize(in);
}

RunResult runCubeInChildProcess(const TableSet& set, const TlmOptions& options,
                                const HcTlmCube::NodeFactory& factory, const std::string& backend) {
  checkTableShape(set);  // report a malformed set here, not from the child
  // Nothing in the TLM model is allocated before its size is estimated (resource_limits.h).
  requireWithinLimits(tlmEstimate(set));
  return runInChildProcess([&] {
    // Kept until the child _exits: its SystemC objects die with the process (see
    // TlmSimulation).
    static std::unique_ptr<TlmSimulation> kept;
    kept = std::make_unique<TlmSimulation>(set, options, factory, backend);
    return kept->run();
  });
}

RunResult runOnTlmInThisProcess(const TableSet& set, const TlmOptions& options) {
  return runCubeInThisProcess(set, options, {}, "tlm");
}

RunResult runOnTlm(const TableSet& set, const TlmOptions& options) {
  return runCubeInChildProcess(set, options, {}, "tlm");
}

}  // namespace hcube
