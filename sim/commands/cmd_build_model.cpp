// hcube build-model: the Verilated model a case needs, built and cached (sim/commands/commands.h).
#include <algorithm>
#include <bit>
#include <iostream>

#include "base/error.h"
#include "cmd_common.h"
#include "commands.h"

namespace hcube {

int cmdBuildModel(Args& args) {
  // --memory / --depth enlarge the model beyond what the case needs, so that one cached model
  // serves many cases of the same n and lanes (any cached model at least as large is reused).
  const long long memory = args.number("--memory", 0);
  const long long depth = args.number("--depth", 0);
  const bool router = args.flag("--router");
  const int vcs = checkedVcs(args.number("--vcs", 1));
  if (vcs > 1 && !router) throw Error("--vcs " + std::to_string(vcs) + " needs --router");
  CaseSpec spec = caseFrom(args);
  const std::string cache = args.get("--cache").value_or("");
  const int threads = rtlThreadsOption(args, true);
  const bool flat = rtlFlatOption(args, true);
  args.finish();
  requireRtlDimension(spec.n);
  if (memory < 0 || memory > (1LL << 20)) {
    throw Error("--memory " + std::to_string(memory) + ": must be 0..2^20 words per node");
  }
  if (depth < 0 || depth > (1LL << 20)) {
    throw Error("--depth " + std::to_string(depth) + ": must be 0..2^20 instructions per node");
  }
  const BuiltCase c = buildCase(spec);
  RtlModelConfig config = rtlModelFor(c.tables);
  config.num_slots = std::max<u64>(config.num_slots, std::bit_ceil(static_cast<u64>(memory)));
  config.table_depth = std::max<u64>(config.table_depth, std::bit_ceil(static_cast<u64>(depth)));
  config.array = !flat;
  config.threads = flat ? threads : 1;  // the node-array model's threads are the runner's
  config.router = router;
  config.vcs = vcs;
  RtlOptions opt;
  opt.cache_dir = cache;
  opt.progress = &std::cerr;
  std::cout << ensureRtlModel(config, opt).runner << "\n";
  return 0;
}

}  // namespace hcube
