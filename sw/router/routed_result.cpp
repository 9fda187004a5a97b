#include "router/routed_result.h"

#include <istream>
#include <sstream>

#include "base/error.h"

namespace hcube {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& source, const std::string& msg) {
  throw Error(source + ": " + msg);
}

/// The latency summary of a histogram ([l]: messages delivered with latency l), exactly as the
/// golden model takes it (router_engine.cpp).
void summarise(const std::vector<u64>& hist, RouterStats& s) {
  u64 count = 0;
  u64 sum = 0;
  for (u64 l = 0; l < hist.size(); ++l) {
    count += hist[l];
    sum += l * hist[l];
  }
  if (count == 0) return;
  const u64 want = (count * 99 + 99) / 100;
  u64 seen = 0;
  bool first = true;
  for (u64 l = 0; l < hist.size(); ++l) {
    if (hist[l] == 0) continue;
    if (first) s.latency_min = l;
    first = false;
    s.latency_max = l;
    if (seen < want && seen + hist[l] >= want) s.latency_p99 = l;
    seen += hist[l];
  }
  s.latency_mean = static_cast<double>(sum) / static_cast<double>(count);
}

}  // namespace

RoutedRun routedRunFromJson(const json& doc, const std::string& source,
                            const RoutedResultShape& shape) {
  RoutedRun rr;
  rr.run = runResultFromJson(doc, source, shape.cube);
  const auto it = doc.find("routed");
  if (it == doc.end()) fail(source, "missing field 'routed' (not the result of a routed run)");
  const json& j = *it;
  if (!j.is_object()) fail(source, "field 'routed' is not an object");
  RouterStats& s = rr.stats;
  const u64 nodes = rr.run.memory.nodes;
  const u64 n = nodes == 0 ? 0 : rr.run.link_words.size() / nodes;
  auto u = [&](const char* key) { return resultU64(j, key, source, std::string("routed.") + key); };
  s.fifo_depth = u("fifo_depth");
  const u64 vcs = u("vcs");
  if (vcs != static_cast<u64>(shape.vcs)) {
    fail(source, "field 'routed.vcs' is " + std::to_string(vcs) + ", expected " +
                     std::to_string(shape.vcs));
  }
  s.vcs = shape.vcs;
  s.messages = u("messages");
  s.delivered = u("delivered");
  s.stalls = u("stalls");
  s.startups = u("startups");
  rr.idle_edges = u("idle_edges");

  const u64 fifos = n * vcs;
  const json& max_fifo = resultArray(j, "max_fifo", source, "routed.max_fifo");
  if (max_fifo.size() != nodes * fifos) {
    fail(source, "field 'routed.max_fifo' has " + std::to_string(max_fifo.size()) +
                     " entries, expected " + std::to_string(nodes * fifos) + " (nodes x n x vcs)");
  }
  s.max_fifo.resize(max_fifo.size());
  for (size_t i = 0; i < max_fifo.size(); ++i) {
    s.max_fifo[i] = resultElementU64(max_fifo, i, source, "routed.max_fifo");
  }

  std::vector<u64> hist;
  const json& latency = resultArray(j, "latency_histogram", source, "routed.latency_histogram");
  for (size_t i = 0; i < latency.size(); ++i) {
    const std::string where = "routed.latency_histogram[" + std::to_string(i) + "]";
    const json& e = latency[i];
    if (!e.is_array() || e.size() != 2) fail(source, "field '" + where + "' is not an array of 2");
    const u64 l = resultElementU64(e, 0, source, where);
    const u64 count = resultElementU64(e, 1, source, where);
    if (l > (u64{1} << 40)) fail(source, "field '" + where + "': latency out of range");
    if (l >= hist.size()) hist.resize(l + 1, 0);
    hist[l] += count;
  }
  summarise(hist, s);

  const auto deliveries = j.find("deliveries");
  if (shape.delivery_index != nullptr) {
    if (deliveries == j.end()) fail(source, "missing field 'routed.deliveries'");
    s.delivered_at.assign(shape.list_messages, ~u64{0});
  }
  if (deliveries != j.end()) {
    if (shape.delivery_index == nullptr) {
      fail(source, "field 'routed.deliveries' in a run that recorded none");
    }
    const json& d = resultArray(j, "deliveries", source, "routed.deliveries");
    const auto& index = *shape.delivery_index;
    for (size_t i = 0; i < d.size(); ++i) {
      const std::string where = "routed.deliveries[" + std::to_string(i) + "]";
      const json& e = d[i];
      if (!e.is_array() || e.size() != 3)
        fail(source, "field '" + where + "' is not an array of 3");
      const u64 node = resultElementU64(e, 0, source, where);
      const u64 at = resultElementU64(e, 1, source, where);
      const u64 cycle = resultElementU64(e, 2, source, where);
      if (node >= index.size() || at >= index[node].size() ||
          index[node][at] >= s.delivered_at.size()) {
        fail(source, "field '" + where + "' names no message of the list");
      }
      s.delivered_at[index[node][at]] = cycle;
    }
  }

  s.deadlock = resultBool(j, "deadlock", source, "routed.deadlock");
  if (s.deadlock) s.deadlock_cycle = u("deadlock_cycle");
  const json& blocked = resultArray(j, "blocked", source, "routed.blocked");
  for (size_t i = 0; i < blocked.size(); ++i) {
    const std::string where = "routed.blocked[" + std::to_string(i) + "]";
    const json& e = blocked[i];
    if (!e.is_object()) fail(source, "field '" + where + "' is not an object");
    auto bu = [&](const char* key) { return resultU64(e, key, source, where + "." + key); };
    BlockedPort p;
    p.node = bu("node");
    p.injection = resultBool(e, "queue", source, where + ".queue");
    const u64 input = bu("input");
    const u64 input_vc = bu("input_vc");
    p.dst = bu("dst");
    const u64 output = bu("output");
    const u64 output_vc = bu("output_vc");
    p.no_credit = resultBool(e, "no_credit", source, where + ".no_credit");
    if (p.node >= nodes || input >= n || input_vc >= vcs || (p.injection && input_vc != 0) ||
        p.dst >= nodes || output >= n || output_vc >= vcs) {
      fail(source, "field '" + where + "' names no node, port or virtual channel of the cube");
    }
    p.input = static_cast<int>(input);
    p.input_vc = static_cast<int>(input_vc);
    p.output = static_cast<int>(output);
    p.output_vc = static_cast<int>(output_vc);
    s.blocked.push_back(p);
  }
  const json& errors = resultArray(j, "router_errors", source, "routed.router_errors");
  for (size_t i = 0; i < errors.size(); ++i) {
    const std::string where = "routed.router_errors[" + std::to_string(i) + "]";
    const json& e = errors[i];
    if (!e.is_object()) fail(source, "field '" + where + "' is not an object");
    auto eu = [&](const char* key) { return resultU64(e, key, source, where + "." + key); };
    RouterNodeErrors r;
    r.node = eu("node");
    if (r.node >= nodes) fail(source, "field '" + where + ".node' is not a node of the cube");
    r.overflow = eu("overflow");
    r.lost = eu("lost");
    r.conflict = eu("conflict");
    s.errors.push_back(r);
  }
  return rr;
}

RoutedRun readRoutedResult(std::istream& in, const std::string& source,
                           const RoutedResultShape& shape) {
  std::ostringstream text;
  text << in.rdbuf();
  return routedRunFromJson(parseResultDocument(text.str(), source), source, shape);
}

}  // namespace hcube
