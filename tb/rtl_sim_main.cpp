// hcube-rtl-sim: runs one table image on the Verilated hc_cube (docs/hardware/testbench.md §2).
//
//   hcube-rtl-sim --image FILE --out FILE [--trace FILE.fst] [--max-cycles C] [--gtkw FILE]
//                 [--traffic [--traffic-word W]] [--memory FILE] [--fault SPEC] [--threads T]
//
// A routed image (docs/hardware/router.md §1, tb/routed_image.h) runs the routers instead
// (tb/routed_run.h). Loads the image through the load port, writes tag x*K + l into slot l < K of
// node x (zero above) through the scan port, pulses start, runs until done or the cycle limit while
// a traffic monitor (sw/exec/traffic_monitor.h) counts the words per link and the span, reads every
// memory and error counter back and writes the result file (a JSON result document, §3). Exit
// status 0 after a completed run (errors and timeouts are reported in the file), 2 on bad arguments
// or a malformed image. Runs print "progress: cycle N of at most M" lines on stdout, a few times a
// second (the backend draws them as a progress bar, sim/rtl_table_run.cpp).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "aside_monitor.h"
#include "cube_tb.h"
#include "exec/traffic_monitor.h"  // sw/: the same per-cycle monitor as the other executors
#include "gtkw.h"
#include "image.h"
#include "link_fault.h"
#include "memory_file.h"
#include "result_file.h"
#include "routed_image.h"
#include "routed_run.h"

namespace {

struct Options {
  std::string image;
  std::string out;
  std::string trace;
  std::string gtkw;
  std::string memory;       // initial memory file (tb/memory_file.h); empty: tags
  std::string fault;        // a link fault to inject (tb/link_fault.h); empty: none
  uint64_t max_cycles = 0;  // 0: derived from the image
  int threads = 1;          // threads evaluating a node-array model's nodes
  bool traffic = false;     // write the monitor's log of sends and stores
  uint64_t traffic_word = hcube::TrafficMonitor::kAllWords;  // or of this word only
};

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CLI11 check that the value is a decimal number in lo..hi; its message says what the
// option needs and what it got.
CLI::Validator Needs(const std::string& what, unsigned long long lo, unsigned long long hi) {
  return CLI::Validator(
      [what, lo, hi](std::string& v) {
        const bool digits =
            !v.empty() && v.size() <= 20 &&
            std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
        errno = 0;
        const unsigned long long x = digits ? std::strtoull(v.c_str(), nullptr, 10) : 0;
        const bool ok = digits && errno == 0 && x >= lo && x <= hi;
        return ok ? std::string() : "needs " + what + ", got '" + v + "'";
      },
      "", "");
}

// The options, described once: CLI11 parses them, checks them and writes the help text.
void Describe(CLI::App& app, Options& o) {
  app.add_option("--image", o.image,
                 "table image (docs/hardware/node.md §3) or routed image (router.md §1) for this "
                 "build's configuration")
      ->required()
      ->type_name("FILE");
  app.add_option("--out", o.out, "result file: a JSON result document (testbench.md §4)")
      ->required()
      ->type_name("FILE");
  app.add_option("--trace", o.trace,
                 "write an FST waveform of the whole run (models built with HC_TRACE)")
      ->type_name("FILE.fst");
  app.add_option("--max-cycles", o.max_cycles,
                 "cycle limit after start (default: the longest table's cycle count + 16, which "
                 "a correct RTL never reaches)")
      ->check(Needs("a positive number", 1, ~0ULL))
      ->type_name("C");
  app.add_option("--gtkw", o.gtkw,
                 "with --trace: write a GTKWave save file showing the traffic per node and port "
                 "(open it with: gtkwave FILE)")
      ->type_name("FILE");
  app.add_flag("--traffic", o.traffic,
               "also write every word sent and stored (the result's \"traffic\": the traffic "
               "monitor's log, for hcube's inspection tools) and every error event (cycle, node, "
               "kind)");
  app.add_option("--traffic-word", o.traffic_word,
                 "with --traffic: only the sends and stores of word W")
      ->check(Needs("a 32-bit word", 0, 0xFFFFFFFFull))
      ->type_name("W");
  app.add_option("--memory", o.memory, "initial memory (tb/memory_file.h) instead of tags")
      ->type_name("FILE");
  app.add_option("--fault", o.fault,
                 "inject one link fault (tb/link_fault.h, docs/hardware/faults.md): "
                 "flip|stuck|dead|drop:NODE:PORT:LANE:CYCLE[:BIT[:VALUE]]")
      ->type_name("SPEC");
  app.add_option("--threads", o.threads,
                 "threads that evaluate the nodes of a node-array model (tb/node_array.h; 1..64, "
                 "default 1); a flat model has the threads it was built with")
      ->check(Needs("a number 1..64", 1, 64))
      ->type_name("T");
}

// Parses argv into `o`; returns false when the help was asked for (and printed).
bool ParseArgs(CLI::App& app, Options& o, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return false;
  } catch (const CLI::ExtrasError&) {
    throw UsageError("unknown argument '" + app.remaining().front() + "'");
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  if (!o.gtkw.empty() && o.trace.empty()) throw UsageError("--gtkw needs --trace");
  return true;
}

int Run(const Options& opt) {
  using hcube::tb::CubeConfig;
  const CubeConfig config = CubeConfig::FromBuild();
  if (hcube::tb::IsRoutedImage(opt.image)) {
    // Routed mode (docs/hardware/router.md): a routed image instead of tables.
    if (!config.has_router) {
      throw UsageError(opt.image +
                       ": a routed image needs a model built with routers (HC_ROUTER=1); this "
                       "one has none");
    }
    if (opt.traffic) throw UsageError("--traffic: not available for a routed image");
    if (!opt.fault.empty()) throw UsageError("--fault: not available for a routed image");
    if (!opt.trace.empty() && !std::ofstream(opt.trace)) {
      throw UsageError(opt.trace + ": cannot write the trace file");
    }
    return hcube::tb::RunRouted(
        {opt.image, opt.out, opt.trace, opt.gtkw, opt.max_cycles, opt.threads});
  }
  const hcube::tb::Image image = hcube::tb::ReadImage(opt.image, config);
  std::optional<hcube::tb::LinkFault> fault;
  if (!opt.fault.empty()) {
    try {
      fault = hcube::tb::LinkFault::Parse(opt.fault, config);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }

  std::ofstream out(opt.out);
  if (!out) throw UsageError(opt.out + ": cannot write the result file");

  if (!opt.trace.empty() && !hcube::tb::CubeTb::CanTrace()) {
    throw UsageError(
        "--trace: this model was built without waveform tracing (tb/model "
        "HC_TRACE=OFF; hcube builds a traced model for a run with --trace)");
  }
  if (!opt.trace.empty() && !std::ofstream(opt.trace)) {
    throw UsageError(opt.trace + ": cannot write the trace file");
  }
  if (!opt.gtkw.empty() && !std::ofstream(opt.gtkw)) {
    throw UsageError(opt.gtkw + ": cannot write the GTKWave save file");
  }

  const uint64_t max_cycles = opt.max_cycles ? opt.max_cycles : image.MaxCycles() + 16;

  hcube::tb::CubeTb tb(opt.trace, opt.threads);
  tb.Reset();
  tb.LoadImage(image);
  if (opt.memory.empty()) {
    tb.FillTags(image.slots);
  } else {
    hcube::tb::FillFromMemoryFile(tb, opt.memory);
  }

  const int nodes = config.NumNodes();
  hcube::TrafficMonitor monitor(static_cast<uint64_t>(nodes), config.dim,
                                static_cast<uint64_t>(nodes) * static_cast<uint64_t>(image.slots));
  monitor.recordEvents(opt.traffic, opt.traffic_word);
  const auto t0 = std::chrono::steady_clock::now();
  auto last_progress = t0;
  hcube::tb::LinkFault::Mask mask;  // the fault mask driven now (off)
  // With --traffic: every error event, (cycle, node, kind), in that order.
  struct ErrorEvent {
    uint64_t cycle;
    int node;
    int kind;
  };
  std::vector<ErrorEvent> error_events;
  std::vector<hcube::tb::CubeTb::ErrorEvent> cycle_events;  // reused every cycle
  auto log_errors = [&](uint64_t cycle) {
    if (!opt.traffic) return;
    tb.CollectErrorEvents(cycle_events);
    for (const auto& e : cycle_events) error_events.push_back({cycle, e.node, e.kind});
  };
  // The fault's mask for cycle `cycle`: hc_cube registers the mask inputs, so they are driven
  // before the clock edge that begins the cycle (the inputs change only when the mask does).
  auto drive_fault = [&](uint64_t cycle) {
    if (!fault) return;
    const hcube::tb::LinkFault::Mask m = fault->MaskAt(cycle);
    if (m == mask) return;
    mask = m;
    if (m.enable) {
      tb.SetFault(fault->node, fault->port * config.lanes + fault->lane, m.xor_bits, m.clear_bits,
                  m.set_bits, m.kill);
    } else {
      tb.ClearFault();
    }
  };
  // The monitor takes a cycle's words aside from the cube (tb/aside_monitor.h).
  hcube::tb::AsideMonitor aside(tb, monitor, config.lanes);
  auto each_cycle = [&](uint64_t cycle) {
    aside.Collect();
    aside.Submit(cycle);
    log_errors(cycle);
    drive_fault(cycle + 1);
    if ((cycle & 255) == 255) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last_progress > std::chrono::milliseconds(250)) {
        last_progress = now;
        std::cout << "progress: cycle " << cycle + 1 << " of at most " << max_cycles << std::endl;
      }
    }
  };
  // The trace time of the edge that latches the start pulse: the run's cycle 0.
  const uint64_t run_start = hcube::tb::kTraceTimePerCycle * (tb.tick_count() + 1);
  drive_fault(0);  // latched by the start pulse's edge, which begins cycle 0
  tb.Start(image.one_port, image.mac_overlap);
  const hcube::tb::RunResult r = tb.RunToDone(max_cycles, each_cycle, false, log_errors);
  aside.Finish();  // the monitor has every cycle's words
  // done_o rose at the edge before the one RunToDone clocks after it.
  const uint64_t run_done =
      hcube::tb::kTraceTimePerCycle * (tb.tick_count() - (r.timed_out ? 0 : 1));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.timed_out) {
    std::cerr << "hcube-rtl-sim: " << opt.image << ": timeout: not done after " << max_cycles
              << " cycles (see \"timeout\": true in " << opt.out << ")\n";
  }
  const std::vector<hcube::tb::ErrorCounters> errors = tb.ReadErrorCounters();
  const std::vector<std::vector<uint32_t>> mem = tb.ReadMemories();

  nlohmann::ordered_json doc = hcube::tb::ResultHead(r, wall, monitor.span(), monitor.linkWords(),
                                                     config, image.memory, errors);
  if (opt.traffic) {
    const hcube::TrafficLog log = monitor.takeLog();
    nlohmann::ordered_json traffic = hcube::result_format::trafficSection();
    for (const hcube::TrafficLog::Send& e : log.sends) {
      traffic["sends"].push_back(
          hcube::result_format::send(e.cycle, e.node, e.port, e.word, e.lane));
    }
    for (const hcube::TrafficLog::Store& e : log.stores) {
      traffic["stores"].push_back(hcube::result_format::store(e.cycle, e.word));
    }
    for (const ErrorEvent& e : error_events) {
      traffic["error_events"].push_back(hcube::result_format::errorEvent(
          e.cycle, static_cast<uint64_t>(e.node), hcube::tb::kErrorKindNames[e.kind]));
    }
    doc["traffic"] = std::move(traffic);
  }
  hcube::tb::WriteResult(out, doc, mem, image.memory);
  out.close();
  if (!out) throw UsageError(opt.out + ": error writing the result file");

  if (!opt.gtkw.empty()) {
    hcube::tb::GtkwRun shown;
    shown.start = run_start;
    shown.done = run_done;
    if (opt.memory.empty()) {  // tags, not the values of a memory file
      shown.tag_words = static_cast<uint64_t>(nodes) * static_cast<uint64_t>(image.slots);
      shown.tag_slots = static_cast<uint64_t>(image.slots);
    }
    hcube::tb::WriteGtkwSave(opt.gtkw, opt.trace, config, shown);
    for (uint64_t i = 0; i < hcube::tb::GtkwTailCycles(shown); ++i)
      tb.Tick();  // results already read
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hcube-rtl-sim: runs a table or routed image on the Verilated cube",
               "hcube-rtl-sim"};
  Options opt;
  Describe(app, opt);
  try {
    if (!ParseArgs(app, opt, argc, argv)) return 0;
    return Run(opt);
  } catch (const UsageError& e) {
    std::cerr << "hcube-rtl-sim: " << e.what() << "\n" << app.help();
    return 2;
  } catch (const hcube::tb::ImageError& e) {
    std::cerr << "hcube-rtl-sim: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hcube-rtl-sim: " << e.what() << "\n";
    return 1;
  }
}
