#include "exec/result_json.h"

#include <algorithm>
#include <istream>
#include <iterator>
#include <sstream>

#include "base/error.h"
#include "exec/result_format.h"

namespace hcube {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& source, const std::string& msg) {
  throw Error(source + ": " + msg);
}

const json& field(const json& obj, const char* key, const std::string& source,
                  const std::string& where) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail(source, "missing field '" + where + "'");
  return *it;
}

bool isU64(const json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0);
}

u64 asU64(const json& v, const std::string& source, const std::string& where) {
  if (!isU64(v)) fail(source, "field '" + where + "' is not a non-negative integer");
  return v.get<u64>();
}

std::string asString(const json& v, const std::string& source, const std::string& where) {
  if (!v.is_string()) fail(source, "field '" + where + "' is not a string");
  return v.get<std::string>();
}

HwError asKind(const json& v, const std::string& source, const std::string& where) {
  const std::string name = asString(v, source, where);
  try {
    return hwErrorFromName(name);
  } catch (const Error&) {
    fail(source, "field '" + where + "': unknown error kind '" + name + "'");
  }
}

/// Element i of the tuple array `a` (sends, stores, error events), `size` long.
const json& tuple(const json& a, size_t i, size_t size, const std::string& source,
                  const std::string& where) {
  const json& t = a[i];
  if (!t.is_array() || t.size() != size) {
    fail(source, "field '" + where + "[" + std::to_string(i) + "]' is not an array of " +
                     std::to_string(size));
  }
  return t;
}

}  // namespace

u64 resultU64(const json& obj, const char* key, const std::string& source,
              const std::string& where) {
  return asU64(field(obj, key, source, where), source, where);
}

bool resultBool(const json& obj, const char* key, const std::string& source,
                const std::string& where) {
  const json& v = field(obj, key, source, where);
  if (!v.is_boolean()) fail(source, "field '" + where + "' is not true or false");
  return v.get<bool>();
}

const json& resultArray(const json& obj, const char* key, const std::string& source,
                        const std::string& where) {
  const json& v = field(obj, key, source, where);
  if (!v.is_array()) fail(source, "field '" + where + "' is not an array");
  return v;
}

u64 resultElementU64(const json& array, size_t i, const std::string& source,
                     const std::string& where) {
  return asU64(array[i], source, where + "[" + std::to_string(i) + "]");
}

nlohmann::ordered_json resultJson(const RunResult& r) {
  result_format::Counters c;
  c.cycles = r.cycles;
  c.transfer_cycles = r.transfer_cycles;
  c.local_cycles = r.local_cycles;
  c.mac_cycles = r.mac_cycles;
  c.words = r.words;
  c.timeout = r.timeout;
  c.wall_seconds = r.wall_seconds;
  c.span = r.span;
  const u64 nodes = r.memory.nodes;
  const u64 dims = nodes == 0 ? 0 : r.link_words.size() / nodes;
  nlohmann::ordered_json j =
      result_format::head(r.backend, nodes, dims, r.memory.words_per_node, c, r.link_words);
  for (const NodeErrorCount& e : r.errors) {
    j["hw_errors"].push_back(result_format::hwError(e.node, hwErrorName(e.kind), e.count));
  }
  if (r.traffic.recorded) {
    nlohmann::ordered_json t = result_format::trafficSection();
    for (const TrafficLog::Send& e : r.traffic.sends) {
      t["sends"].push_back(result_format::send(e.cycle, e.node, e.port, e.word, e.lane));
    }
    for (const TrafficLog::Store& e : r.traffic.stores) {
      t["stores"].push_back(result_format::store(e.cycle, e.word));
    }
    for (const HwErrorEvent& e : r.error_events) {
      t["error_events"].push_back(result_format::errorEvent(e.cycle, e.node, hwErrorName(e.kind)));
    }
    j["traffic"] = std::move(t);
  }
  nlohmann::ordered_json memory = nlohmann::ordered_json::array();
  for (u64 x = 0; x < nodes; ++x) {
    memory.push_back(result_format::memoryHex(r.memory.words.data() + x * r.memory.words_per_node,
                                              r.memory.words_per_node));
  }
  j["memory"] = std::move(memory);
  return j;
}

json parseResultDocument(const std::string& text, const std::string& source) {
  if (text.empty()) fail(source, "empty: no result document");
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    if (e.byte >= text.size()) {
      fail(source, "truncated: the JSON document ends after " + std::to_string(text.size()) +
                       " bytes, before it is complete");
    }
    // e.what() is "[json.exception.parse_error.101] parse error at line L, column C: ...".
    std::string what = e.what();
    if (const size_t at = what.find("] "); at != std::string::npos) what = what.substr(at + 2);
    fail(source, "not a JSON document: " + what);
  }
  if (!doc.is_object()) fail(source, "not a result document (a JSON object)");
  const auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || *format != result_format::kFormat) {
    fail(source,
         std::string("not a result document (no \"format\": \"") + result_format::kFormat + "\")");
  }
  const auto version = doc.find("version");
  if (version == doc.end()) fail(source, "missing field 'version'");
  if (!version->is_number_integer() || version->get<long long>() != result_format::kVersion) {
    fail(source, "unsupported result version " + version->dump() + " (this hcube reads version " +
                     std::to_string(result_format::kVersion) + ")");
  }
  return doc;
}

RunResult runResultFromJson(const json& doc, const std::string& source, const ResultShape& shape) {
  RunResult r;
  r.backend = asString(field(doc, "backend", source, "backend"), source, "backend");
  const u64 nodes = resultU64(doc, "nodes", source, "nodes");
  const u64 dims = resultU64(doc, "n", source, "n");
  const u64 words = resultU64(doc, "memory_words", source, "memory_words");
  auto expect = [&](const char* key, u64 got, u64 want) {
    if (want != 0 && got != want) {
      fail(source, std::string("field '") + key + "' is " + std::to_string(got) + ", expected " +
                       std::to_string(want));
    }
  };
  expect("nodes", nodes, shape.nodes);
  expect("n", dims, shape.dims);
  expect("memory_words", words, shape.memory_words);
  if (dims > 64 || (dims < 64 && nodes > (u64{1} << dims))) {
    fail(source,
         "field 'nodes' (" + std::to_string(nodes) + ") does not fit n " + std::to_string(dims));
  }
  requireSimulatable(nodes, words, source);
  r.cycles = resultU64(doc, "cycles", source, "cycles");
  r.transfer_cycles = resultU64(doc, "transfer_cycles", source, "transfer_cycles");
  // Optional, 0 when absent: the cycles of PERMUTE and MAC instructions, which most runs have none
  // of (the library and the runner always write them).
  if (doc.contains("local_cycles")) {
    r.local_cycles = resultU64(doc, "local_cycles", source, "local_cycles");
  }
  if (doc.contains("mac_cycles")) r.mac_cycles = resultU64(doc, "mac_cycles", source, "mac_cycles");
  r.words = resultU64(doc, "words", source, "words");
  r.timeout = resultBool(doc, "timeout", source, "timeout");
  const json& wall = field(doc, "wall_seconds", source, "wall_seconds");
  if (!wall.is_number()) fail(source, "field 'wall_seconds' is not a number");
  r.wall_seconds = wall.get<double>();
  r.span = resultU64(doc, "span", source, "span");

  const json& links = resultArray(doc, "link_words", source, "link_words");
  if (links.size() != nodes * dims) {
    fail(source, "field 'link_words' has " + std::to_string(links.size()) + " entries, expected " +
                     std::to_string(nodes * dims) + " (nodes x n)");
  }
  r.link_words.resize(links.size());
  for (size_t i = 0; i < links.size(); ++i) {
    r.link_words[i] = resultElementU64(links, i, source, "link_words");
  }

  const json& errors = resultArray(doc, "hw_errors", source, "hw_errors");
  for (size_t i = 0; i < errors.size(); ++i) {
    const std::string where = "hw_errors[" + std::to_string(i) + "]";
    const json& e = errors[i];
    if (!e.is_object()) fail(source, "field '" + where + "' is not an object");
    NodeErrorCount c;
    c.node = resultU64(e, "node", source, where + ".node");
    if (c.node >= nodes) fail(source, "field '" + where + ".node' is not a node of the cube");
    c.kind = asKind(field(e, "kind", source, where + ".kind"), source, where + ".kind");
    c.count = resultU64(e, "count", source, where + ".count");
    r.errors.push_back(c);
  }
  std::sort(r.errors.begin(), r.errors.end(), [](const auto& a, const auto& b) {
    return a.node != b.node ? a.node < b.node : a.kind < b.kind;
  });

  if (const auto t = doc.find("traffic"); t != doc.end()) {
    if (!t->is_object()) fail(source, "field 'traffic' is not an object");
    r.traffic.recorded = true;
    const json& sends = resultArray(*t, "sends", source, "traffic.sends");
    r.traffic.sends.reserve(sends.size());
    for (size_t i = 0; i < sends.size(); ++i) {
      const std::string where = "traffic.sends[" + std::to_string(i) + "]";
      const json& s = tuple(sends, i, 5, source, "traffic.sends");
      TrafficLog::Send e{};
      e.cycle = asU64(s[0], source, where);
      e.node = asU64(s[1], source, where);
      const u64 port = asU64(s[2], source, where);
      const u64 word = asU64(s[3], source, where);
      const u64 lane = asU64(s[4], source, where);
      if (e.node >= nodes || port >= dims || word > 0xFFFFFFFFULL || lane >= 64) {
        fail(source, "field '" + where + "' names no channel of the cube or no 32-bit word");
      }
      e.port = static_cast<int>(port);
      e.word = static_cast<u32>(word);
      e.lane = static_cast<int>(lane);
      r.traffic.sends.push_back(e);
    }
    const json& stores = resultArray(*t, "stores", source, "traffic.stores");
    r.traffic.stores.reserve(stores.size());
    for (size_t i = 0; i < stores.size(); ++i) {
      const std::string where = "traffic.stores[" + std::to_string(i) + "]";
      const json& s = tuple(stores, i, 2, source, "traffic.stores");
      TrafficLog::Store e{};
      e.cycle = asU64(s[0], source, where);
      const u64 word = asU64(s[1], source, where);
      if (word > 0xFFFFFFFFULL) fail(source, "field '" + where + "' is not a 32-bit word");
      e.word = static_cast<u32>(word);
      r.traffic.stores.push_back(e);
    }
    const json& events = resultArray(*t, "error_events", source, "traffic.error_events");
    for (size_t i = 0; i < events.size(); ++i) {
      const std::string where = "traffic.error_events[" + std::to_string(i) + "]";
      const json& s = tuple(events, i, 3, source, "traffic.error_events");
      HwErrorEvent e{};
      e.cycle = asU64(s[0], source, where);
      e.node = asU64(s[1], source, where);
      if (e.node >= nodes) fail(source, "field '" + where + "' names no node of the cube");
      e.kind = asKind(s[2], source, where);
      r.error_events.push_back(e);
    }
  }

  const json& memory = resultArray(doc, "memory", source, "memory");
  if (memory.size() != nodes) {
    fail(source, "field 'memory' has " + std::to_string(memory.size()) + " nodes, expected " +
                     std::to_string(nodes));
  }
  r.memory = {nodes, words, std::vector<u32>(nodes * words, 0)};
  for (u64 x = 0; x < nodes; ++x) {
    const std::string where = "memory[" + std::to_string(x) + "]";
    if (!memory[x].is_string()) fail(source, "field '" + where + "' is not a string");
    const std::string& hex = memory[x].get_ref<const std::string&>();
    if (!result_format::parseMemoryHex(hex, words, r.memory.words.data() + x * words)) {
      fail(source, "field '" + where + "' is not " + std::to_string(words) +
                       " words of 8 hex digits (" + std::to_string(hex.size()) + " characters)");
    }
  }
  return r;
}

RunResult readResultText(const std::string& text, const std::string& source,
                         const ResultShape& shape) {
  return runResultFromJson(parseResultDocument(text, source), source, shape);
}

RunResult readResult(std::istream& in, const std::string& source, const ResultShape& shape) {
  std::ostringstream text;
  text << in.rdbuf();
  return readResultText(text.str(), source, shape);
}

}  // namespace hcube
