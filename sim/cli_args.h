// The command line of the hcube tool (sim/hcube_main.cpp): the strict option parser, on CLI11,
// and the reading of a case description (--algo, --n, --k, --width, --ports and the algorithm's
// own parameters). Its own room so that it can be unit-tested and fuzzed (tests/fuzz/) apart
// from the commands that use it. What each command takes is described in sim/cli_commands.h.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "algorithms/algorithms.h"
#include "cli_commands.h"

namespace hcube {

// The command line of one subcommand: "--name value", "--name=value", boolean flags and
// positional words. CLI11 parses the options the command declares (sim/cli_commands.h); the
// words it leaves are the algorithm's own parameters (--PARAM V, which the algorithm catalogue
// checks) and positional words. Everything it cannot place is an error (hcube::Error), never
// silently ignored: a single-dash option, a repeated option, a flag given a value, an option
// without its value, a word the command does not take, an option the command did not read.
class Args {
 public:
  /// Parses argv[first..argc) as the arguments of `command`.
  Args(int argc, const char* const* argv, int first, const CommandLine& command);
  /// True if --help was given (the command then prints commandHelp and does nothing else).
  bool help() const { return help_; }
  /// The value of an option, marking it as read.
  std::optional<std::string> get(const std::string& name);
  bool has(const std::string& name) const { return flags_.count(name) != 0; }
  /// The value of an option, without claiming it (it may still go to the algorithm).
  std::optional<std::string> peek(const std::string& name) const {
    auto it = flags_.find(name);
    if (it == flags_.end()) return std::nullopt;
    return it->second;
  }
  bool flag(const std::string& name) { return get(name).has_value(); }
  /// An integer option; a value that is not wholly an integer is an error naming the option.
  std::optional<long long> number(const std::string& name);
  long long number(const std::string& name, long long fallback) {
    return number(name).value_or(fallback);
  }
  /// A list option's items (CLI11 split the value at commas and checked each against the
  /// option's choices), marking it as read.
  std::optional<std::vector<std::string>> list(const std::string& name);
  const std::vector<std::string>& positional() const { return positional_; }
  /// The options given, by name.
  std::vector<std::string> names() const;
  /// Claims every option not in `reserved` and not read yet: the algorithm's own parameters.
  std::map<std::string, std::string> claimRest(const std::set<std::string>& reserved);
  /// Rejects options that the command did not ask for, and positional words beyond `words`.
  void finish(size_t words = 0) const;

 private:
  std::map<std::string, std::string> flags_;
  std::map<std::string, std::vector<std::string>> lists_;
  std::vector<std::string> positional_;
  std::vector<std::string> used_;
  bool help_ = false;
};

/// --n, when given: an integer 1..20.
std::optional<int> optionalDimension(Args& args);
/// --n, required.
int cubeDimension(Args& args);
/// The case the options describe; the options the command does not own become the algorithm's
/// parameters (buildCase rejects the ones the algorithm does not take).
CaseSpec caseFrom(Args& args);
/// The options given that describe a case to build (--algo, --k, ..., an algorithm's own).
std::vector<std::string> caseOptions(const Args& args);

}  // namespace hcube
