// hcube: the command-line tool's main() and its command table (docs/architecture.md §7); each
// command is a function of its own in sim/commands/cmd_*.cpp (sim/commands/commands.h).
//
// Exit status: 0 success; 1 a run or verification that found a problem; 2 bad input; 3 an
// internal error.
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>

#include "base/error.h"
#include "cli_args.h"
#include "cli_commands.h"
#include "commands/cmd_schedule.h"
#include "commands/commands.h"
#ifdef HCUBE_MPI
#include "exec/exec_partitioned.h"
#endif
#include "regress.h"

namespace hcube {
namespace {

// The function that runs each subcommand; what the subcommand takes and its help are in
// sim/cli_commands.cpp. Adding a subcommand is one entry there, one here and one function.
struct Command {
  const char* name;
  int (*run)(Args& args);
};

constexpr Command kCommands[] = {
    {"list", cmdList},         {"tables", cmdTables},
    {"verify", cmdVerify},     {"run", cmdRun},
    {"trace", cmdTrace},       {"faults", cmdFaults},
    {"compare", cmdCompare},   {"build-model", cmdBuildModel},
    {"messages", cmdMessages}, {"route", cmdRoute},
    {"traffic", cmdTraffic},   {"diff", cmdDiff},
    {"sdp", cmdSdp},           {"regress", cmdRegress},
    {"schedule", cmdSchedule}, {"compile", cmdCompile},
};

// Started by mpirun (OpenMPI sets OMPI_COMM_WORLD_SIZE) with more than one rank: only a run
// partitions the cube over the ranks, and only a tool built with MPI can (docs/mpi.md).
void requireMpiCommand(int argc, char** argv) {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (size == nullptr || std::atoi(size) <= 1) return;
#ifndef HCUBE_MPI
  (void)argc;
  (void)argv;
  throw Error(std::string("started by mpirun with ") + size +
              " ranks, but this hcube was built without MPI (install libopenmpi-dev and "
              "rebuild; docs/mpi.md)");
#else
  if (argc < 2 || std::string(argv[1]) != "run") {
    throw Error("under mpirun only 'hcube run' (table mode) runs over the ranks (docs/mpi.md)");
  }
#endif
}

int dispatch(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
      std::string(argv[1]) == "help") {
    std::cout << toolUsage();
    return argc < 2 ? 2 : 0;
  }
  const std::string cmd = argv[1];
  const Command* command = nullptr;
  for (const Command& c : kCommands) {
    if (cmd == c.name) command = &c;
  }
  const CommandLine* line = findCommandLine(cmd);
  if (command == nullptr || line == nullptr) {
    throw Error("unknown command '" + cmd + "' (hcube --help lists them)");
  }
  Args args(argc, argv, 2, *line);
  if (args.help()) {
    std::cout << commandHelp(*line);
    return 0;
  }
  try {
    return command->run(args);
  } catch (const std::bad_alloc&) {
    // The case's schedule, tables or memories do not fit this machine's memory: the estimates
    // of resource_limits.h catch the large ones, the rest ends here. Say it in the command's
    // own terms: verify has no --n or --k.
    if (cmd == "verify") {
      throw Error("out of memory reading or verifying " + args.positional().front() +
                  "; its tables do not fit this machine's memory");
    }
    throw Error(
        "out of memory building or running this case; its schedule, per-node tables and "
        "memories do not fit (use a smaller --n or --k)");
  }
}

}  // namespace
}  // namespace hcube

int main(int argc, char** argv) {
#ifdef HCUBE_MPI
  hcube::MpiSession mpi(&argc, &argv);  // started by mpirun: table mode over the ranks
#endif
  try {
    hcube::requireMpiCommand(argc, argv);
    return hcube::dispatch(argc, argv);
  } catch (const hcube::Error& e) {
    std::cerr << "hcube: error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    // Outside a command (dispatch words it for each command).
    std::cerr << "hcube: error: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hcube: internal error: " << e.what() << "\n";
    return 3;
  }
}
