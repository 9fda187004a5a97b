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
#include "exec/result_json.h"
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
    std::string out;
    // The first byte says what happened: '1' the result document follows (exec/result_json.h,
    // docs/hardware/testbench.md §4); 'E' bad input (hcube::Error), 'M' out of memory, 'I' an
    // internal fault (any other exception), each with its message.
    try {
      const RunResult r = simulate();
      out = "1" + resultJson(r).dump();
    } catch (const Error& e) {
      out = std::string("E") + e.what();
    } catch (const std::bad_alloc&) {
      out = "M";
    } catch (const std::exception& e) {
      out = std::string("I") + e.what();
    } catch (...) {
      out = "Iunknown exception in the TLM simulation";
    }
    writeAll(fds[1], out);
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
  return readResultText(bytes.substr(1), "TLM backend: the simulation process's result");
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
