// hcube: the commands of the tool, one function each (sim/commands/cmd_*.cpp); main() and the
// command table are sim/hcube_main.cpp, what each command takes and its help sim/cli_commands.cpp.
#pragma once

#include "cli_args.h"

namespace hcube {

/// hcube list [--json] (sim/commands/cmd_list.cpp)
int cmdList(Args& args);
/// hcube tables, verify and diff (sim/commands/cmd_tables.cpp)
int cmdTables(Args& args);
int cmdVerify(Args& args);
int cmdDiff(Args& args);
/// hcube run, in table mode or routed mode (--route ecube|source|adaptive)
/// (sim/commands/cmd_run.cpp)
int cmdRun(Args& args);
/// hcube trace --element NODE:SLOT (sim/commands/cmd_trace.cpp)
int cmdTrace(Args& args);
/// hcube faults --campaign N (sim/commands/cmd_faults.cpp)
int cmdFaults(Args& args);
/// hcube compare, across backends or across modes (--modes) (sim/commands/cmd_compare.cpp)
int cmdCompare(Args& args);
/// hcube messages, route and traffic: routed mode's own commands (sim/commands/cmd_router.cpp)
int cmdMessages(Args& args);
int cmdRoute(Args& args);
int cmdTraffic(Args& args);
/// hcube build-model (sim/commands/cmd_build_model.cpp)
int cmdBuildModel(Args& args);
/// hcube sdp --describe (sim/commands/cmd_sdp.cpp)
int cmdSdp(Args& args);

}  // namespace hcube
