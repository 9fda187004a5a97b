// The strict option parser of the hcube tool, on CLI11 (sim/cli_args.h).
#include "cli_args.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <stdexcept>

#include "base/error.h"

namespace hcube {

namespace {

// "table, tlm or rtl".
std::string choiceText(const std::vector<std::string>& choices) {
  std::string text;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) text += i + 1 == choices.size() ? " or " : ", ";
    text += choices[i];
  }
  return text;
}

// CLI11's check of a value (or of each item of a list) against the option's choices. CLI11
// prefixes the message with the option's name: "--backend: 'gpu': must be table, tlm or rtl".
CLI::Validator choiceCheck(const OptionInfo& o) {
  const std::vector<std::string> choices = o.choices;
  const bool list = o.list;
  return CLI::Validator(
      [choices, list](std::string& v) -> std::string {
        if (std::find(choices.begin(), choices.end(), v) != choices.end()) return "";
        return "'" + v + (list ? "' is not " : "': must be ") + choiceText(choices);
      },
      "");
}

// How often `name` appears among the words: CLI11 counts a list option's items, not its uses.
size_t occurrences(const std::vector<std::string>& words, const std::string& name) {
  return static_cast<size_t>(std::count_if(words.begin(), words.end(), [&](const std::string& w) {
    return w == name || w.rfind(name + "=", 0) == 0;
  }));
}

bool isFlag(const std::string& name) {
  for (const OptionInfo& o : optionCatalogue()) {
    if (o.name == name) return o.value.empty();
  }
  return false;
}

// The words CLI11 left: options the command does not declare (an algorithm's own parameters,
// or options no command takes, which finish() refuses) and positional words, in their order.
void placeRemaining(const std::vector<std::string>& words,
                    std::map<std::string, std::string>& flags,
                    std::vector<std::string>& positional) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& a = words[i];
    if (a.size() > 1 && a[0] == '-' && a.rfind("--", 0) != 0) {
      throw Error("'" + a + "': options start with two dashes (--" + a.substr(1) + ")");
    }
    if (a.rfind("--", 0) != 0) {
      positional.push_back(a);
      continue;
    }
    std::string name = a;
    std::optional<std::string> value;
    if (const auto eq = a.find('='); eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    if (name == "--") throw Error("'" + a + "': not an option");
    if (flags.count(name) != 0) throw Error("option " + name + " given twice");
    if (isFlag(name)) {
      if (value) throw Error("option " + name + " takes no value ('" + a + "')");
      flags[name] = "1";
      continue;
    }
    if (!value) {
      // The next word is the value, even if it starts with one dash (--tau -1), but not if it
      // is another option.
      if (i + 1 >= words.size() || words[i + 1].rfind("--", 0) == 0) {
        throw Error("option " + name + " needs a value");
      }
      value = words[++i];
    }
    flags[name] = *value;
  }
}

}  // namespace

Args::Args(int argc, const char* const* argv, int first, const CommandLine& command) {
  std::vector<std::string> words;
  for (int i = first; i < argc; ++i) {
    words.emplace_back(argv[i]);
    // CLI11 reads "--" as the end of the options; this tool has no such marker.
    if (words.back() == "--") throw Error("'--': not an option");
  }
  CLI::App app{"", "hcube " + command.name};
  app.set_help_flag("--help");
  app.allow_extras();
  // CLI11 keeps every value given (TakeAll), so that a repeated option is found and refused
  // below, with the option's name, rather than one value silently winning.
  std::map<std::string, std::vector<std::string>> values;
  std::vector<std::pair<std::string, CLI::Option*>> declared;
  for (const std::string& name : command.options) {
    const OptionInfo& o = optionInfo(name);
    CLI::Option* opt = nullptr;
    const std::string names = o.short_name.empty() ? o.name : o.short_name + "," + o.name;
    if (o.value.empty()) {
      opt = app.add_flag(names, o.help);
    } else {
      opt = app.add_option(names, values[o.name], o.help)
                ->expected(1)
                ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
                ->allow_extra_args(false);
      if (o.list) opt->delimiter(',');
      if (!o.choices.empty()) opt->check(choiceCheck(o));
    }
    declared.emplace_back(o.name, opt);
  }
  // CLI11 wants the program name first and the words in reverse order.
  std::vector<std::string> reversed(words.rbegin(), words.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    help_ = true;
    return;
  } catch (const CLI::ArgumentMismatch& e) {
    // "--n=" (or --n last): CLI11 says "--n: 1 required N missing".
    const std::string what = e.what();
    throw Error("option " + what.substr(0, what.find(':')) + " needs a value");
  } catch (const CLI::ValidationError& e) {
    // A value outside its choices: "--backend 'gpu': must be ...", "--backends: 'x' is not ...".
    std::string what = e.what();
    const size_t colon = what.find(": '");
    if (colon != std::string::npos && what.find("': must be ") != std::string::npos) {
      what.erase(colon, 1);
    }
    throw Error(what);
  } catch (const CLI::ParseError& e) {
    throw Error(e.what());
  }
  for (const auto& [name, opt] : declared) {
    if (opt->count() == 0) continue;
    const OptionInfo& o = optionInfo(name);
    if (o.list) {
      if (occurrences(words, name) > 1) throw Error("option " + name + " given twice");
      std::vector<std::string>& items = lists_[name];
      for (const std::string& item : values[name]) {
        if (item.rfind("--", 0) == 0) throw Error("option " + name + " needs a value");
        if (std::find(items.begin(), items.end(), item) != items.end()) {
          throw Error(name + ": '" + item + "' given twice");
        }
        items.push_back(item);
      }
      std::string joined;
      for (const std::string& item : items) joined += (joined.empty() ? "" : ",") + item;
      flags_[name] = joined;
      continue;
    }
    if (opt->count() > 1) throw Error("option " + name + " given twice");
    if (isFlag(name)) {
      // CLI11 takes --flag=VALUE as an override; this tool's flags take no value.
      const std::string v = opt->results().front();
      if (v != "true") throw Error("option " + name + " takes no value ('" + name + "=" + v + "')");
      flags_[name] = "1";
      continue;
    }
    const std::string& v = values[name].front();
    // CLI11 takes the next word as the value even when it is another option (--trace --json).
    if (v.rfind("--", 0) == 0) throw Error("option " + name + " needs a value");
    flags_[name] = v;
  }
  placeRemaining(app.remaining(), flags_, positional_);
}

std::optional<std::string> Args::get(const std::string& name) {
  used_.push_back(name);
  auto it = flags_.find(name);
  if (it == flags_.end()) return std::nullopt;
  return it->second;
}

std::optional<long long> Args::number(const std::string& name) {
  auto v = get(name);
  if (!v) return std::nullopt;
  try {
    size_t used = 0;
    const long long x = std::stoll(*v, &used);
    if (used != v->size()) throw std::invalid_argument("trailing");
    return x;
  } catch (const std::exception&) {
    throw Error("option " + name + " '" + *v + "' is not an integer");
  }
}

std::optional<std::vector<std::string>> Args::list(const std::string& name) {
  if (!get(name)) return std::nullopt;
  return lists_.at(name);
}

std::vector<std::string> Args::names() const {
  std::vector<std::string> all;
  for (const auto& [name, value] : flags_) all.push_back(name);
  return all;
}

std::map<std::string, std::string> Args::claimRest(const std::set<std::string>& reserved) {
  std::map<std::string, std::string> rest;
  for (const auto& [name, value] : flags_) {
    if (reserved.count(name) != 0) continue;
    if (std::find(used_.begin(), used_.end(), name) != used_.end()) continue;
    used_.push_back(name);
    rest[name.substr(2)] = value;
  }
  return rest;
}

void Args::finish(size_t words) const {
  for (const auto& [name, value] : flags_) {
    if (std::find(used_.begin(), used_.end(), name) == used_.end()) {
      throw Error("unknown option " + name + " for this command (see hcube --help)");
    }
  }
  if (positional_.size() > words) {
    throw Error("unexpected word '" + positional_[words] + "' (see hcube --help)");
  }
}

std::optional<int> optionalDimension(Args& args) {
  const std::optional<long long> n = args.number("--n");
  if (!n) return std::nullopt;
  if (*n < 1 || *n > 20) throw Error("--n " + std::to_string(*n) + ": must be 1..20");
  return static_cast<int>(*n);
}

int cubeDimension(Args& args) {
  const std::optional<int> n = optionalDimension(args);
  if (!n) throw Error("--n is required");
  return *n;
}

CaseSpec caseFrom(Args& args) {
  CaseSpec c;
  auto algo = args.get("--algo");
  if (!algo) throw Error("--algo is required (hcube list shows the algorithms)");
  c.algo = *algo;
  c.n = cubeDimension(args);
  const long long k = args.number("--k", 0);
  if (k < 0) throw Error("--k " + std::to_string(k) + ": must be positive");
  c.slots = static_cast<u64>(k);
  const long long width = args.number("--width", 1);
  if (width < 1 || width > 64) throw Error("--width " + std::to_string(width) + ": must be 1..64");
  c.lanes = static_cast<int>(width);
  c.one_port = args.get("--ports").value_or("all") == "one";  // CLI11 checked all|one
  // Every other option except the commands' own is a parameter of the algorithm; buildCase
  // rejects the ones the algorithm does not take.
  c.params = args.claimRest(kCommandOptions);
  return c;
}

std::vector<std::string> caseOptions(const Args& args) {
  std::vector<std::string> found;
  for (const std::string& o : args.names()) {
    if (kCommandOptions.count(o) == 0 && o != "--n") found.push_back(o);
  }
  return found;
}

}  // namespace hcube
