#include "router/messages.h"

#include <bit>
#include <map>
#include <tuple>

#include "base/error.h"

namespace hcube {

const RouteKindInfo& routeKindInfo(RouteKind r) {
  for (const RouteKindInfo& info : kRouteKindTable) {
    if (info.kind == r) return info;
  }
  throw InternalError("routeKindInfo: a RouteKind with no row in HCUBE_ROUTE_KINDS");
}

const char* routeKindName(RouteKind r) { return routeKindInfo(r).name; }

std::string routeKindNames(std::string_view separator) {
  std::string names;
  for (const RouteKindInfo& info : kRouteKindTable) {
    if (!names.empty()) names += separator;
    names += info.name;
  }
  return names;
}

RouteKind parseRouteKind(std::string_view word) {
  for (const RouteKindInfo& info : kRouteKindTable) {
    if (word == info.name) return info.kind;
  }
  std::string choices;  // "ecube, source or adaptive"
  const size_t count = std::size(kRouteKindTable);
  for (size_t i = 0; i < count; ++i) {
    choices += i == 0 ? "" : i + 1 == count ? " or " : ", ";
    choices += kRouteKindTable[i].name;
  }
  throw Error("route '" + std::string(word) + "': must be " + choices);
}

u64 MessageList::messages() const {
  u64 total = 0;
  for (const auto& list : per_node) total += list.size();
  return total;
}

std::string MessageList::where(u64 x, size_t i) const {
  if (!source.empty() && x < lines.size() && i < lines[x].size()) {
    return source + ":" + std::to_string(lines[x][i]);
  }
  return "node " + std::to_string(x) + " message " + std::to_string(i);
}

std::string messageProblem(const MessageList& list, u64 x, const Message& m) {
  if (m.src_slot >= list.slots) {
    return "source slot " + std::to_string(m.src_slot) + " is outside the data slots 0.." +
           std::to_string(list.slots - 1);
  }
  if (m.dst >= list.nodes()) {
    return "destination node " + std::to_string(m.dst) + " is outside the " +
           std::to_string(list.n) + "-cube (nodes 0.." + std::to_string(list.nodes() - 1) + ")";
  }
  if (m.dst_slot >= list.memoryWords()) {
    return "destination slot " + std::to_string(m.dst_slot) + " is outside the memory 0.." +
           std::to_string(list.memoryWords() - 1);
  }
  if (list.route != RouteKind::kSource) {
    if (!m.route.empty()) {
      return std::string("a route is given, but the routing function is ") +
             routeKindName(list.route);
    }
    return "";
  }
  if (m.route.size() > 255) return "route longer than 255 hops";
  u64 at = x;
  for (std::uint8_t d : m.route) {
    if (d >= list.n) {
      return "route dimension " + std::to_string(d) + " is not a dimension of the " +
             std::to_string(list.n) + "-cube";
    }
    at ^= u64{1} << d;
  }
  if (at != m.dst) {
    return "the route does not lead from node " + std::to_string(x) + " to node " +
           std::to_string(m.dst) + " (it ends at node " + std::to_string(at) + ")";
  }
  return "";
}

std::string continuationProblem(const std::vector<Message>& node_messages, size_t i, u64 slots) {
  const Message& m = node_messages[i];
  if (!m.cont) return "";
  if (i == 0) return "continues a message, but is the node's first";
  const Message& p = node_messages[i - 1];
  if (p.dst != m.dst || p.release != m.release || p.route != m.route) {
    return "continues the message before it, but differs from it in destination, release or "
           "route";
  }
  u64 words = 1;
  for (size_t k = i; k > 0 && node_messages[k].cont; --k) ++words;
  if (words > slots) {
    return "a message of " + std::to_string(words) + " words is longer than the " +
           std::to_string(slots) + " data slots";
  }
  return "";
}

void validateMessages(const MessageList& list) {
  if (list.n < 1 || list.n > 20) {
    throw Error("message list: dim " + std::to_string(list.n) + " must be 1..20");
  }
  if (list.slots < 1 || list.slots > (u64{1} << 30)) {
    throw Error("message list: slots " + std::to_string(list.slots) + " must be 1..2^30");
  }
  if (list.per_node.size() != list.nodes()) {
    throw Error("message list: " + std::to_string(list.per_node.size()) + " node lists for " +
                std::to_string(list.nodes()) + " nodes");
  }
  for (u64 x = 0; x < list.nodes(); ++x) {
    for (size_t i = 0; i < list.per_node[x].size(); ++i) {
      std::string p = messageProblem(list, x, list.per_node[x][i]);
      if (p.empty()) p = continuationProblem(list.per_node[x], i, list.slots);
      if (!p.empty()) {
        throw Error("message list: node " + std::to_string(x) + " message " + std::to_string(i) +
                    ": " + p);
      }
    }
  }
}

MessageList messagesFromPermutation(const PermutationSpec& perm, RouteKind route) {
  // A collective (TR-623 §2) sends one element to many nodes or adds many into one: routers
  // that carry one packet to one destination cannot run it; its schedule can.
  if (perm.collective()) {
    throw Error("routed mode runs permutations (one destination per element); " + perm.str() +
                " is a collective: run it with its schedule (no --route)");
  }
  MessageList list;
  list.n = perm.n();
  list.slots = perm.slots();
  list.route = route;
  list.per_node.resize(perm.nodes());
  const u64 k = perm.slots();
  for (u64 x = 0; x < perm.nodes(); ++x) {
    for (u64 l = 0; l < k; ++l) {
      const GlobalAddress a{x, l};
      if (!perm.participates(a)) continue;
      const GlobalAddress d = perm.dest(a);
      Message m;
      m.src_slot = static_cast<u32>(l);
      m.dst = d.node;
      m.dst_slot = static_cast<u32>(k + d.slot);
      if (route == RouteKind::kSource) {
        for (u64 diff = x ^ d.node; diff != 0; diff &= diff - 1) {
          m.route.push_back(static_cast<std::uint8_t>(std::countr_zero(diff)));
        }
      }
      list.per_node[x].push_back(std::move(m));
    }
  }
  return list;
}

MessageList groupMessages(const MessageList& list, u64 packet) {
  if (packet < 1) throw Error("--packet 0: a message has at least one word");
  if (packet > list.slots) {
    throw Error("--packet " + std::to_string(packet) + ": a message longer than the " +
                std::to_string(list.slots) + " data slots of a node");
  }
  MessageList out = list;
  if (packet == 1) return out;
  using Key = std::tuple<u64, u64, std::vector<std::uint8_t>>;
  for (u64 x = 0; x < list.nodes(); ++x) {
    std::vector<std::vector<Message>> groups;
    std::map<Key, size_t> open;  // the message still taking words, by destination
    for (const Message& m : list.per_node[x]) {
      const Key key{m.dst, m.release, m.route};
      auto it = open.find(key);
      if (it == open.end() || groups[it->second].size() >= packet) {
        open[key] = groups.size();
        groups.emplace_back();
        it = open.find(key);
      }
      Message w = m;
      w.cont = !groups[it->second].empty();
      groups[it->second].push_back(std::move(w));
    }
    std::vector<Message>& dst = out.per_node[x];
    dst.clear();
    for (auto& g : groups) {
      for (Message& w : g) dst.push_back(std::move(w));
    }
  }
  return out;
}

int firstHop(RouteKind route, u64 x, const Message& m, int vcs) {
  if (route == RouteKind::kSource) return m.route.empty() ? -1 : m.route.front();
  if (m.dst == x) return -1;
  if (route == RouteKind::kAdaptive && vcs < 2) return std::countr_zero(pcubeAllowed(x, m.dst));
  return std::countr_zero(m.dst ^ x);
}

}  // namespace hcube
