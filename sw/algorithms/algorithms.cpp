#include "algorithms/algorithms.h"

#include <algorithm>
#include <cmath>

#include "algorithms/aapc/alignment.h"
#include "algorithms/families.h"
#include "base/error.h"

namespace hcube {

namespace {

const std::vector<AlgorithmEntry>& registry() {
  static const std::vector<AlgorithmEntry> kRegistry = [] {
    std::vector<AlgorithmEntry> all;
    for (auto family :
         {aapcAlgorithms, permutationAlgorithms, transpose2dAlgorithms, multiAapcAlgorithms,
          transposeAlgorithms, sdpAlgorithms, collectiveAlgorithms, matmulAlgorithms}) {
      for (AlgorithmEntry& e : family()) all.push_back(std::move(e));
    }
    return all;
  }();
  return kRegistry;
}

}  // namespace

const std::vector<AlgorithmInfo>& algorithmCatalogue() {
  static const std::vector<AlgorithmInfo> kCatalogue = [] {
    std::vector<AlgorithmInfo> infos;
    for (const AlgorithmEntry& e : registry()) infos.push_back(e.info);
    return infos;
  }();
  return kCatalogue;
}

u64 aapcAllPortBound(u64 slots) { return slots / 2; }

std::string sizeOption(const CaseSpec& spec, const char* param) {
  if (param != nullptr) {
    if (auto it = spec.params.find(param); it != spec.params.end()) {
      return "--" + std::string(param) + " " + it->second;
    }
  }
  if (spec.slots != 0) return "--k " + std::to_string(spec.slots);
  return "--n " + std::to_string(spec.n);
}

CaseSize checkedSize(const CaseSpec& spec, const std::string& option, double slots, bool shared,
                     double instructions) {
  // Saturated far above any limit, so that the checks refuse instead of wrapping around.
  auto saturate = [](double x) { return x >= 1.8e19 ? ~u64{0} : static_cast<u64>(std::ceil(x)); };
  CaseSize s;
  s.option = option;
  s.n = spec.n;
  s.slots = saturate(slots);
  s.shared = shared;
  s.instructions = saturate(instructions);
  s.channels = static_cast<u64>(spec.n) * static_cast<u64>(std::max(spec.lanes, 1));
  requireBuildable(s, spec.will_run);
  return s;
}

CaseSize perNodeSize(const CaseSpec& spec, const std::string& option, double slots, double passes,
                     bool startups, double extra) {
  const double pass = std::ceil(slots / std::max(spec.lanes, 1));
  const double instructions = passes * pass * (startups ? 2 : 1) + extra + 8.0 * spec.n + 16;
  return checkedSize(spec, option, slots, false, instructions);
}

BuiltCase buildCase(const CaseSpec& spec) {
  if (spec.lanes < 1) throw Error("--width " + std::to_string(spec.lanes) + ": must be >= 1");
  // --alignment and --code belong to every relative-address AAPC (Johnsson & Ho 1992 §2.2,
  // §2.2.2): the family builds the relative case, the alignment transform post-processes it.
  CaseSpec family_spec = spec;
  std::optional<std::string> alignment;
  std::optional<std::string> code;
  for (auto [name, value] : {std::pair{"alignment", &alignment}, std::pair{"code", &code}}) {
    if (auto it = family_spec.params.find(name); it != family_spec.params.end()) {
      *value = it->second;
      family_spec.params.erase(it);
    }
  }
  if (alignment && *alignment != "explicit" && *alignment != "relative") {
    throw Error("--alignment '" + *alignment + "': must be 'explicit' or 'relative'");
  }
  if (code && *code != "binary" && *code != "gray") {
    throw Error("--code '" + *code + "': must be 'binary' or 'gray'");
  }
  const bool explicit_alignment = alignment && *alignment == "explicit";
  const bool gray = code && *code == "gray";
  if (gray && !explicit_alignment) {
    throw Error(
        "--code gray: needs --alignment explicit (the Gray-code conversion is folded into "
        "the local alignment phases, Johnsson & Ho 1992 section 2.2.2)");
  }
  for (const AlgorithmEntry& e : registry()) {
    if (e.info.name != spec.algo) continue;
    BuiltCase built = e.build(family_spec);
    if (!alignment && !code) return built;
    std::string why;
    if (!isRelativeAapcCase(built, &why)) {
      throw Error(std::string(alignment ? "--alignment" : "--code") + ": algorithm '" + spec.algo +
                  "' is not a relative-address AAPC (" + why +
                  "), so it has no alignment phases to make explicit");
    }
    if (!explicit_alignment) return built;
    // The explicit alignment gives every node its own table: the exchange and PERMUTE phases
    // before and after it, at most 2K cycles (edelman n = 6, K = 4096: 2048 + 1367).
    const CaseSize size =
        checkedSize(spec, built.size.option, static_cast<double>(built.size.slots), false,
                    static_cast<double>(built.size.instructions) +
                        2.0 * static_cast<double>(built.size.slots) + 8);
    BuiltCase aligned = explicitAlignment(built, gray ? AddressCode::kGray : AddressCode::kBinary);
    aligned.size = size;
    return aligned;
  }
  std::string known;
  for (const AlgorithmInfo& a : algorithmCatalogue()) known += (known.empty() ? "" : ", ") + a.name;
  throw Error("--algo '" + spec.algo + "': unknown algorithm (known: " + known + ")");
}

BuiltCase caseFromTables(TableSet tables) {
  BuiltCase c;
  c.perm = tables.header.perm;
  if (c.perm.kind() == PermutationSpec::Kind::kAapc && !tables.header.one_port) {
    c.lower_bound = aapcAllPortBound(c.perm.slots());
    c.bound_source = "K/2, Edelman 1991 Theorem 3.1";
  } else {
    c.bound_source = "none known";
  }
  c.tables = std::move(tables);
  return c;
}

std::optional<std::string> CaseParams::text(const std::string& name) {
  used_.insert(name);
  auto it = spec_.params.find(name);
  if (it == spec_.params.end()) return std::nullopt;
  return it->second;
}

long long CaseParams::integer(const std::string& name, long long fallback, long long lo,
                              long long hi) {
  const auto v = text(name);
  if (!v) return fallback;
  long long x = 0;
  try {
    size_t used = 0;
    x = std::stoll(*v, &used);
    if (used != v->size()) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw Error("--" + name + " '" + *v + "': not an integer");
  }
  if (x < lo || x > hi) {
    throw Error("--" + name + " " + *v + ": must be " + std::to_string(lo) + ".." +
                std::to_string(hi));
  }
  return x;
}

void CaseParams::finish() const {
  for (const auto& [name, value] : spec_.params) {
    if (used_.count(name) == 0) {
      throw Error("--" + name + ": algorithm '" + spec_.algo + "' takes no such option");
    }
  }
}

}  // namespace hcube
