// hcube: what several commands of the tool share (sim/commands/cmd_common.cpp): loading a case from
// --algo, --tables or --schedule, running it on a backend, and the options of routed mode.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "cli_args.h"
#include "exec/executor.h"
#include "exec/fault.h"
#include "inspect/fault_campaign.h"
#include "inspect/report.h"
#include "router/messages.h"
#include "router/routed_report.h"
#include "router/router_engine.h"
#include "rtl_backend.h"
#include "tables/resource_limits.h"
#include "tables/table_diff.h"
#include "tables/verifier.h"

namespace hcube {

constexpr size_t kShownErrors = 20;  // violations printed by verify, run and compare

// Tables given as a path: a .hct or .hex file, or a directory holding tables.hct, tables.hex or
// both. With both, the image is read too and compared with the text, instruction by
// instruction: `image_diff` says where they part.
struct LoadedTables {
  std::string path;  ///< the file read (tables.hct when a directory holds both)
  TableSet set;
  HeaderOrigin origin;
  TableDiff image_diff;
};

LoadedTables loadTables(const std::string& path);

/// Prints a verification report under `what`; 0 if the tables passed, else 1.
int printVerify(const VerifyReport& v, const std::string& what);

// The case of a run or compare: built from --algo/--n/... or read from --tables (then
// `origin` says where its header fields are). `backends` are those the case will run on: their
// limits that the case spec alone decides are checked before any tables are built.
BuiltCase loadCase(Args& args, const std::vector<std::string>& backends, HeaderOrigin& origin);

struct BackendRun {
  std::string backend;
  std::string trace;
  std::string cache;
  u64 max_cycles = 0;
  std::ostream* progress = nullptr;     ///< a progress bar on this terminal (sw/exec/progress.h)
  bool record_traffic = false;          ///< fill RunResult::traffic (sw/inspect/)
  u64 record_word = ~u64{0};            ///< ... of this word only (~0: every word)
  const Fault* fault = nullptr;         ///< a link fault to inject (sw/exec/fault.h)
  int threads = 1;                      ///< threads simulating the RTL (rtl backend)
  bool flat = false;                    ///< the flat RTL model, not the node-array one
  bool router_model = false;            ///< table mode on the RTL model with routers
  const CubeMemory* initial = nullptr;  ///< seeded values (--seed); nullptr: tags
  bool quiet = false;                   ///< no progress lines (the faulty runs of a campaign)
};

// --threads T: threads simulating the RTL: the node-array model's node evaluations, or the flat
// model's Verilator threads (a model of its own per T); only the rtl backend has them.
int rtlThreadsOption(Args& args, bool rtl_runs);

// --rtl-model array|flat: the node-array model (default; docs/hardware/testbench.md §2.1) or the
// flat model, hc_cube verilated whole (traced runs use it anyway).
bool rtlFlatOption(Args& args, bool rtl_runs);

/// Runs the case on backend `b.backend`; `gtkw`, if given, receives the GTKWave save file of an
/// RTL trace.
RunResult runOn(const BuiltCase& c, const BackendRun& b, std::string* gtkw);

// The case in a few words, for the titles of pictures (no backend: the same on every one).
std::string caseTitle(const BuiltCase& c);

// Runs the case's tables, or a corrupted copy of them, on backend `b` with a link fault or none.
FaultRunner faultRunner(const BuiltCase& c, const BackendRun& b);

// --seed S of run and compare: the arithmetic cases start from seeded values
// (sw/spec/initial_values.h) instead of tags; nullopt without the option.
std::optional<CubeMemory> seededInitial(const std::optional<long long>& seed, const BuiltCase& c);

// ---- Routed mode (docs/hardware/router.md): a permutation or a message list run by the
// per-cycle packet routers instead of tables.

// --fifo-depth, --vcs and --deadlock-cycles, checked.
RouterOptions routerOptions(Args& args);

// --tau T and --packet B in routed mode (docs/hardware/router.md §7): the start-up of every message
// and the most words a message carries, read without claiming them, for they are also the
// case's own parameters (its schedule's tau and packet size, checked by the algorithm).
struct RoutedMessaging {
  u64 tau = 0;
  u64 packet = 1;
};

RoutedMessaging routedMessaging(const Args& args);

// The routed backend: the golden model (table), the TLM routers or the RTL routers.
std::string routedBackend(Args& args);

/// A message list through the routers of `backend`: the golden model (table), the TLM or the RTL.
RoutedRun runRoutedOn(const std::string& backend, const MessageList& list,
                      const CubeMemory& initial, const RouterOptions& opt,
                      const RtlOptions& rtl = {});

// The message list of a case in routed mode: under ecube every element's packet finds its own
// way; under source it follows the path the case's schedule moves it on
// (sw/router/schedule_paths.h), released in the cycle the schedule first sends it.
// With --packet B each node's words for one destination go in messages of up to B words
// (router/messages.h groupMessages).
MessageList caseMessages(const BuiltCase& c, RouteKind route, u64 packet = 1);
/// The report of a routed run of case `c`, with what the case fixes (algorithm, permutation,
/// routing function and bound) filled in; the run and its check are the caller's.
RoutedReport routedReportFor(const BuiltCase& c, RouteKind route);

}  // namespace hcube
