// hcube: the parts the RTL backend's table and routed runners share (sim/rtl_table_run.cpp,
// sim/rtl_routed_run.cpp): the run directory, the trace arguments and their finishing, and two
// small helpers of the model cache (the result file is read by the library,
// sw/exec/result_json.h). Internal to the backend: the tool uses rtl_backend.h.
#pragma once

#include <filesystem>
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

}  // namespace hcube
