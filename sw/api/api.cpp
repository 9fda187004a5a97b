// hcube: the public C++ API (include/hcube/hcube.h) — a thin facade over the library: a schedule
// becomes a schedule file in memory (sw/algorithms/schedule_file.h), is compiled by the compiler,
// verified by the static verifier and run on the table executor, the TLM cube or the RTL cube
// exactly as `hcube run --schedule` does, and the report is the tool's. Internal errors
// (hcube::Error) leave as hcube::api::Error with the same message.
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "algorithms/algorithms.h"
#include "algorithms/schedule_file.h"
#include "base/error.h"
#include "exec/executor.h"
#include "hcube/hcube.h"
#include "inspect/report.h"
#include "rtl_backend.h"
#include "schedule/schedule.h"
#include "spec/initial_values.h"
#include "spec/permutation.h"
#include "tables/compiler.h"
#include "tables/resource_limits.h"
#include "tables/verifier.h"
#include "tlm_backend.h"

#ifndef HCUBE_VERSION_TEXT
#define HCUBE_VERSION_TEXT "0.0.0"
#endif

namespace hcube::api {
namespace {

constexpr size_t kShownErrors = 20;

// Runs `f`, turning the library's errors (and the standard ones its containers throw) into
// api::Error with the same message.
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const api::Error&) {
    throw;
  } catch (const hcube::Error& e) {
    throw api::Error(e.what());
  } catch (const std::bad_alloc&) {
    throw api::Error("out of memory");
  } catch (const std::logic_error& e) {
    throw api::Error(e.what());
  }
}

Permutation fromSpec(const PermutationSpec& p) { return Permutation::parse(p.str()); }

void requireDims(int n) {
  if (n < 1 || n > 20) {
    throw Error("n = " + std::to_string(n) + ": the cube dimension must be 1..20");
  }
}

void requireRows(const std::vector<std::vector<u32>>& steps, size_t width, const char* what) {
  for (size_t t = 0; t < steps.size(); ++t) {
    if (steps[t].size() != width) {
      throw Error(std::string(what) + " step " + std::to_string(t) + ": has " +
                  std::to_string(steps[t].size()) + " entries, not " + std::to_string(width));
    }
  }
}

CompileOptions compileOptions(const Options& o) {
  if (o.width < 1 || o.width > 64) {
    throw Error("width " + std::to_string(o.width) + ": must be 1..64 lanes");
  }
  if (o.tau > (u64{1} << 31) - 1) {
    throw Error("tau " + std::to_string(o.tau) + ": must be 0.." + std::to_string((1LL << 31) - 1));
  }
  CompileOptions c;
  c.lanes = o.width;
  c.one_port = o.one_port;
  c.startup = o.tau;
  return c;
}

// The schedule file a schedule and its permutation make, as the reader would hold it.
ScheduleFile scheduleFile(const Schedule& s, const Permutation& perm, const Options& options) {
  ScheduleFile f;
  f.algo = s.name();
  f.n = s.n();
  f.perm = PermutationSpec::parse(perm.str());
  f.source = s.name() + " schedule";
  if (f.perm.n() != s.n()) {
    throw Error(f.source + ": is for n = " + std::to_string(s.n()) + ", the permutation " +
                perm.str() + " for n = " + std::to_string(f.perm.n()));
  }
  const size_t n = static_cast<size_t>(s.n());
  switch (s.form()) {
    case Schedule::Form::kRelative: {
      requireRows(s.entries(), n, "relative schedule:");
      RelativeSchedule r(s.name(), s.n(), s.entries().size());
      for (size_t t = 0; t < s.entries().size(); ++t) {
        for (size_t j = 0; j < n; ++j) r.set(t, static_cast<int>(j), s.entries()[t][j]);
      }
      if (options.tau > 0) {
        // Start-ups need block transfers: every step of every repetition is one (the
        // nonblocked algorithm of Johnsson & Ho 1992 §5).
        if (f.perm.kind() != PermutationSpec::Kind::kAapc) {
          throw Error(f.source + ": a relative schedule realises an AAPC, not " + perm.str());
        }
        f.form = ScheduleFile::Form::kSlots;
        f.slots = repeatRelative(r, f.perm.slots());
        f.slots->algo = s.name();
      } else {
        f.form = ScheduleFile::Form::kRelative;
        f.relative = std::move(r);
      }
      break;
    }
    case Schedule::Form::kSlots: {
      if (s.lanes() < 1) throw Error(f.source + ": lanes must be at least 1");
      requireRows(s.entries(), n * static_cast<size_t>(s.lanes()), "slot schedule:");
      if (!s.blockStarts().empty() && s.blockStarts().size() != s.entries().size()) {
        throw Error(f.source + ": " + std::to_string(s.blockStarts().size()) +
                    " block starts for " + std::to_string(s.entries().size()) + " steps");
      }
      f.form = ScheduleFile::Form::kSlots;
      f.lanes = s.lanes();
      SlotSchedule sl(s.name(), s.n(), s.lanes(),
                      s.slotCount() == 0 ? f.perm.slots() : s.slotCount());
      for (size_t t = 0; t < s.entries().size(); ++t) {
        sl.addStep(s.blockStarts().empty() || s.blockStarts()[t]) = s.entries()[t];
      }
      f.slots = std::move(sl);
      break;
    }
    case Schedule::Form::kMoves: {
      f.form = ScheduleFile::Form::kMoves;
      f.lanes = s.lanes();
      f.scratch = s.scratch();
      MoveSchedule m;
      m.algo = s.name();
      m.dims = s.n();
      for (const auto& step : s.moveSteps()) {
        std::vector<hcube::Move> row;
        row.reserve(step.size());
        for (const Move& mv : step) row.push_back({mv.node, mv.slot, mv.dim, mv.to_slot});
        m.steps.push_back(std::move(row));
      }
      f.moves = std::move(m);
      break;
    }
  }
  return f;
}

Verification verification(const VerifyReport& v) {
  Verification out;
  out.ok = v.ok();
  out.total_errors = v.total_errors;
  out.errors = v.errors;
  out.cycles = v.cycles;
  return out;
}

// Verifies, runs and checks a built case: what cmdRun does for one backend.
Result runBuilt(const BuiltCase& c, const Options& o) {
  if (o.backend != "table" && o.backend != "tlm" && o.backend != "rtl") {
    throw Error("backend '" + o.backend + "': must be table, tlm or rtl");
  }
  if (o.verify) {
    const VerifyReport v = verifyTables(c.tables, kShownErrors);
    if (!v.ok()) {
      std::string text = "static verification of the tables: " + std::to_string(v.total_errors) +
                         " violation(s), not running them";
      for (const std::string& e : v.errors) text += "\n  " + e;
      throw Error(text);
    }
  }
  requireBackendLimits(c.tables, o.backend);
  RunReport report = reportFor(c);
  if (o.backend == "table") {
    ExecOptions opt;
    opt.tagged_elements = c.perm.elements();
    if (o.max_cycles > 0) opt.max_cycles = o.max_cycles;
    report.run = executeTables(c.tables, taggedMemory(c.perm, c.tables.header.memoryWords()), opt);
  } else if (o.backend == "tlm") {
    TlmOptions opt;
    opt.max_cycles = o.max_cycles;
    report.run = runOnTlm(c.tables, opt);
  } else {
    // $HCUBE_DATA_DIR wins over the package's default (Options::data_dir).
    const char* env = std::getenv("HCUBE_DATA_DIR");
    setRtlSourceRoot(env != nullptr && *env != '\0' ? std::string() : o.data_dir);
    RtlOptions opt;
    opt.cache_dir = o.cache_dir;
    opt.max_cycles = o.max_cycles;
    opt.progress = o.progress ? &std::cerr : nullptr;
    report.run = runOnRtl(c.tables, opt);
  }
  report.check = checkRun(c.perm, nullptr, report.run.memory);

  Result r;
  const RunResult& run = report.run;
  r.backend = o.backend;
  r.algo = report.algo;
  r.permutation = c.perm.str();
  r.n = c.tables.header.n;
  r.lanes = report.lanes;
  r.one_port = report.one_port;
  r.cycles = run.cycles;
  r.transfer_cycles = run.transfer_cycles;
  r.local_cycles = run.local_cycles;
  r.words = run.words;
  r.span = run.span;
  r.lower_bound = c.lower_bound;
  r.bound_source = c.bound_source;
  r.elements = report.check.elements;
  r.mismatches = report.check.mismatches;
  for (const Mismatch& m : report.check.first) {
    r.first_mismatches.push_back(describe(m, c.perm.slots()));
  }
  r.timeout = run.timeout;
  for (const NodeErrorCount& e : run.errors) {
    r.errors.push_back({e.node, hwErrorName(e.kind), e.count});
  }
  r.link_words = run.link_words;
  const LinkUtilisation u = linkUtilisation(run, report.lanes);
  r.link_min = u.min;
  r.link_mean = u.mean;
  r.link_max = u.max;
  r.memory_digest = memoryDigest(run.memory);
  r.wall_seconds = run.wall_seconds;
  r.report = formatReportText(report);
  r.json = formatReportJson(report);
  return r;
}

}  // namespace

Permutation Permutation::aapc(int n, std::uint64_t m) {
  return guarded([&] {
    requireDims(n);
    if (m < 1) throw Error("m = 0: an AAPC needs at least one repetition (K = m * 2^n)");
    return fromSpec(PermutationSpec::aapc(n, m));
  });
}

Permutation Permutation::dimension(int n, int k, const std::vector<int>& delta) {
  return guarded([&] {
    requireDims(n);
    return fromSpec(PermutationSpec::dimension(n, k, delta));
  });
}

Permutation Permutation::parse(const std::string& text) {
  return guarded([&] {
    const PermutationSpec p = PermutationSpec::parse(text);
    return Permutation(p.str(), p.n(), p.slots());
  });
}

Schedule Schedule::relative(int n, const std::vector<std::vector<std::uint32_t>>& steps,
                            const std::string& name) {
  return guarded([&] {
    requireDims(n);
    requireRows(steps, static_cast<size_t>(n), "relative schedule:");
    Schedule s;
    s.form_ = Form::kRelative;
    s.n_ = n;
    s.name_ = name;
    s.entries_ = steps;
    return s;
  });
}

Schedule Schedule::slots(int n, int lanes, std::uint64_t k,
                         const std::vector<std::vector<std::uint32_t>>& steps,
                         const std::vector<bool>& block_starts, const std::string& name) {
  return guarded([&] {
    requireDims(n);
    if (lanes < 1) throw Error("slot schedule: lanes " + std::to_string(lanes) + ": at least 1");
    requireRows(steps, static_cast<size_t>(n) * static_cast<size_t>(lanes), "slot schedule:");
    Schedule s;
    s.form_ = Form::kSlots;
    s.n_ = n;
    s.name_ = name;
    s.lanes_ = lanes;
    s.k_ = k;
    s.entries_ = steps;
    s.block_starts_ = block_starts;
    return s;
  });
}

Schedule Schedule::moves(int n, const std::vector<std::vector<Move>>& steps,
                         const std::string& name, int lanes, std::uint64_t scratch) {
  return guarded([&] {
    requireDims(n);
    if (lanes < 1) throw Error("move schedule: lanes " + std::to_string(lanes) + ": at least 1");
    Schedule s;
    s.form_ = Form::kMoves;
    s.n_ = n;
    s.name_ = name;
    s.lanes_ = lanes;
    s.scratch_ = scratch;
    s.moves_ = steps;
    return s;
  });
}

Schedule Schedule::load(const std::string& path) {
  return guarded([&] {
    const ScheduleFile f = readScheduleFile(path);
    Schedule s;
    s.n_ = f.n;
    s.name_ = f.algo;
    s.lanes_ = f.lanes;
    s.scratch_ = f.scratch;
    s.file_perm_ = f.perm.str();
    if (f.relative) {
      s.form_ = Form::kRelative;
      for (u64 t = 0; t < f.relative->steps(); ++t) {
        std::vector<u32> row;
        for (int j = 0; j < f.n; ++j) row.push_back(f.relative->at(t, j));
        s.entries_.push_back(std::move(row));
      }
    } else if (f.slots) {
      s.form_ = Form::kSlots;
      s.lanes_ = f.slots->lanes;
      s.k_ = f.slots->slots;
      s.entries_ = f.slots->steps;
      s.block_starts_ = f.slots->block_starts;
    } else {
      s.form_ = Form::kMoves;
      for (const auto& step : f.moves->steps) {
        std::vector<Move> row;
        for (const hcube::Move& m : step) row.push_back({m.node, m.slot, m.dim, m.to_slot});
        s.moves_.push_back(std::move(row));
      }
    }
    return s;
  });
}

void Schedule::save(const std::string& path, const Permutation& perm) const {
  guarded([&] { writeScheduleFile(path, scheduleFile(*this, perm, Options{})); });
}

std::size_t Schedule::steps() const {
  return form_ == Form::kMoves ? moves_.size() : entries_.size();
}

Verification verify(const Schedule& schedule, const Permutation& perm, const Options& options) {
  return guarded([&] {
    const BuiltCase c =
        caseFromSchedule(scheduleFile(schedule, perm, options), compileOptions(options));
    return verification(verifyTables(c.tables, kShownErrors));
  });
}

Result run(const Schedule& schedule, const Permutation& perm, const Options& options) {
  return guarded([&] {
    const ScheduleFile f = scheduleFile(schedule, perm, options);
    requireSimulatable(f.perm.nodes(), f.perm.slots(), f.source);
    if (options.backend == "rtl") requireRtlDimension(f.n);
    return runBuilt(caseFromSchedule(f, compileOptions(options)), options);
  });
}

Result runCatalogue(const std::string& algo, int n, const Options& options, std::uint64_t k,
                    const std::map<std::string, std::string>& params) {
  return guarded([&] {
    CaseSpec spec;
    spec.algo = algo;
    spec.n = n;
    spec.slots = k;
    spec.lanes = compileOptions(options).lanes;
    spec.one_port = options.one_port;
    spec.params = params;
    if (options.tau > 0) spec.params["tau"] = std::to_string(options.tau);
    spec.will_run = true;
    if (options.backend == "rtl") requireRtlDimension(n);
    return runBuilt(buildCase(spec), options);
  });
}

std::vector<AlgorithmInfo> catalogue() {
  return guarded([&] {
    std::vector<AlgorithmInfo> out;
    for (const hcube::AlgorithmInfo& a : algorithmCatalogue()) {
      out.push_back({a.name, a.summary, a.source});
    }
    return out;
  });
}

std::string version() { return HCUBE_VERSION_TEXT; }

}  // namespace hcube::api
