// The strict option parser of the hcube tool (sim/cli_args.h).
#include "cli_args.h"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "error.h"

namespace hcube {

Args::Args(int argc, const char* const* argv, int first) {
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.size() > 1 && a[0] == '-' && a.rfind("--", 0) != 0) {
      throw Error("'" + a + "': options start with two dashes (--" + a.substr(1) + ")");
    }
    if (a.rfind("--", 0) != 0) {
      positional_.push_back(a);
      continue;
    }
    std::string name = a;
    std::optional<std::string> value;
    if (const auto eq = a.find('='); eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    if (name == "--") throw Error("'" + a + "': not an option");
    if (flags_.count(name) != 0) throw Error("option " + name + " given twice");
    if (name == "--json" || name == "--no-verify" || name == "--help" || name == "--describe" ||
        name == "--router") {
      if (value) throw Error("option " + name + " takes no value ('" + a + "')");
      flags_[name] = "1";
      continue;
    }
    if (!value) {
      // The next word is the value, even if it starts with one dash (--n -1), but not if it
      // is another option.
      if (i + 1 >= argc || std::string(argv[i + 1]).rfind("--", 0) == 0) {
        throw Error("option " + name + " needs a value");
      }
      value = argv[++i];
    }
    flags_[name] = *value;
  }
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

const std::set<std::string> kCommandOptions = {
    "--out", "--backend", "--json", "--no-verify", "--trace", "--max-cycles", "--cache",
    "--backends", "--tables", "--help", "--memory", "--depth",
    // Routed mode (issue 12):
    // (--route is not here: spt takes --route greedy|sync; cmdRun tells the two apart.)
    "--fifo-depth", "--deadlock-cycles", "--messages", "--modes",
    // Inspection (issue 15 part 3):
    "--links", "--heatmap", "--element",
    // Fault injection (issue 15 part 2):
    "--inject", "--campaign", "--seed"};

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
  const std::string ports = args.get("--ports").value_or("all");
  if (ports != "all" && ports != "one") throw Error("--ports '" + ports + "': must be all or one");
  c.one_port = ports == "one";
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
