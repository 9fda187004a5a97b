// The command line of the hcube tool, described once: every option the commands take (name,
// value, help) and every subcommand (its synopsis, the options it takes, whether it takes an
// algorithm's own parameters). The parser (sim/cli_args.h, on CLI11) and `--help` are both
// generated from this description; sim/hcube_main.cpp only maps command names to functions.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace hcube {

/// One option of the tool.
struct OptionInfo {
  std::string name;   ///< "--backend"
  std::string value;  ///< what its value looks like ("table|tlm|rtl"); empty for a flag
  std::string help;   ///< one line for --help
  /// True for options that are never an algorithm's own parameter (--backend, --out, ...);
  /// false for the case options and for names an algorithm may also take (--route, --tau).
  bool command_only = false;
  /// A one-letter alias ("-j"), for the options that build tools spell that way; most have none.
  std::string short_name;
  /// The values it accepts, when they are a fixed set: CLI11 checks them as it parses (an
  /// option's value, or each item of a list). Empty: any value.
  std::vector<std::string> choices;
  /// A comma-separated list: CLI11 splits it (Args::list), each item at most once.
  bool list = false;
};

/// One subcommand.
struct CommandLine {
  std::string name;                  ///< "run"
  std::string summary;               ///< one line, for hcube --help
  std::string synopsis;              ///< its forms and what it does, as printed by hcube CMD --help
  std::vector<std::string> options;  ///< the options it takes, each in optionCatalogue()
  /// True if it builds a case from --algo: options it does not declare are then the
  /// algorithm's own parameters (--PARAM V), which the algorithm catalogue checks.
  bool algorithm_params = false;
};

/// Every option of every command, once.
const std::vector<OptionInfo>& optionCatalogue();
/// The catalogue entry of an option; throws std::logic_error for a name it does not hold.
const OptionInfo& optionInfo(const std::string& name);
/// Every subcommand, in the order hcube --help lists them.
const std::vector<CommandLine>& commandLines();
/// The subcommand of that name, or nullptr.
const CommandLine* findCommandLine(const std::string& name);

/// Options of the commands themselves: never an algorithm parameter.
extern const std::set<std::string> kCommandOptions;

/// hcube --help: every command's synopsis.
std::string toolUsage();
/// hcube CMD --help: the command's synopsis and its options with their help (CLI11's
/// formatter), then the notes on option syntax and exit status.
std::string commandHelp(const CommandLine& command);

}  // namespace hcube
