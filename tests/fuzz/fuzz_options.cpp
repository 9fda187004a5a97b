// libFuzzer harness: the option parser of the hcube tool (sim/cli_args.h, on CLI11).
//
// The input is a command line, one word per line; the first word picks the subcommand whose
// options it is parsed against (sim/cli_commands.h; a word that names none picks `run`). Any
// command line either parses or throws hcube::Error naming the option or word at fault; so does
// reading a case from it (caseFrom) and closing it (finish). What parses must hold together: every
// word is an option, its value or a positional word, and a case read from it has its fields in
// their documented ranges. Anything else (another exception, a crash, a sanitizer report, a
// timeout) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "base/error.h"
#include "cli_args.h"

namespace {

[[noreturn]] void finding(const std::string& what) {
  std::cerr << "fuzz_options: " << what << "\n";
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> words(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      words.emplace_back();
    } else {
      words.back().push_back(static_cast<char>(data[i]));
    }
  }
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  const int argc = static_cast<int>(argv.size());

  const hcube::CommandLine* command = hcube::findCommandLine(words.front());
  if (command == nullptr) command = hcube::findCommandLine("run");
  std::optional<hcube::Args> args;
  try {
    args.emplace(argc, argv.data(), 1, *command);
  } catch (const hcube::Error&) {
    return 0;  // refused with a message
  }
  if (args->help()) return 0;
  if (args->positional().size() + args->names().size() > words.size()) {
    finding("more options and positional words than words on the command line");
  }
  for (const std::string& name : args->names()) {
    if (name.rfind("--", 0) != 0 || name.size() < 3) finding("option name '" + name + "'");
  }
  try {
    (void)args->flag("--json");
    (void)args->number("--max-cycles");
    (void)hcube::caseOptions(*args);
    const hcube::CaseSpec spec = hcube::caseFrom(*args);
    if (spec.n < 1 || spec.n > 20) finding("--n out of 1..20 accepted");
    if (spec.lanes < 1 || spec.lanes > 64) finding("--width out of 1..64 accepted");
    for (const auto& [name, value] : spec.params) {
      if (hcube::kCommandOptions.count("--" + name) != 0) {
        finding("a command option taken as an algorithm parameter: --" + name);
      }
    }
    args->finish(args->positional().size());
  } catch (const hcube::Error&) {
    return 0;
  }
  return 0;
}
