// hcube: the commands of schedule files (.hcs, docs/schedule-format.md): `hcube schedule` writes
// a catalogue algorithm's abstract schedule, `hcube compile` lowers a schedule file to tables,
// and `run --schedule` / `compare --schedule` build their case from one
// (sim/commands/cmd_schedule.cpp).
#pragma once

#include <string>

#include "algorithms/algorithms.h"
#include "cli_args.h"

namespace hcube {

/// hcube schedule --algo A --n N [case options] --out F.hcs
int cmdSchedule(Args& args);
/// hcube compile F.hcs [--width B] [--ports all|one] [--tau T] --out FILE.hct|DIR
int cmdCompile(Args& args);
/// The case of run / compare --schedule F.hcs: the file compiled for --width, --ports and --tau
/// (the only case options it takes besides --n, which must agree with the file).
BuiltCase caseFromScheduleArgs(Args& args, const std::string& path);

}  // namespace hcube
