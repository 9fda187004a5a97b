#include "router/message_text.h"

#include <fstream>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/utf8.h"

namespace hcube {
namespace {

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  std::string s;
  while (in >> s) w.push_back(s);
  return w;
}

/// A decimal number in [0, hi]; throws Error naming `what` otherwise.
u64 number(const std::string& s, u64 hi, const std::string& what) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) {
    throw Error(what + " '" + s + "' is not a number");
  }
  const u64 v = std::stoull(s);
  if (v > hi) throw Error(what + " " + s + " is larger than " + std::to_string(hi));
  return v;
}

}  // namespace

std::string formatMessageText(const MessageList& list) {
  std::ostringstream o;
  o << "hcube-messages 1\n"
    << "dim " << list.n << "\nslots " << list.slots << "\nroute " << routeKindName(list.route)
    << "\n";
  for (u64 x = 0; x < list.nodes(); ++x) {
    if (list.per_node[x].empty()) continue;
    o << "node " << x << " " << list.per_node[x].size() << "\n";
    for (const Message& m : list.per_node[x]) {
      o << m.src_slot << " " << m.dst << " " << m.dst_slot;
      if (m.release != 0) o << " at=" << m.release;
      if (list.route == RouteKind::kSource) {
        o << " route=";
        for (size_t i = 0; i < m.route.size(); ++i) o << (i ? "," : "") << int{m.route[i]};
      }
      if (m.cont) o << " cont";
      o << "\n";
    }
  }
  o << "end\n";
  return o.str();
}

void writeMessageTextFile(const std::string& path, const MessageList& list) {
  std::ofstream out(path);
  if (!out) throw Error(path + ": cannot open for writing");
  out << formatMessageText(list);
  if (!out) throw Error(path + ": write failed");
}

MessageList parseMessageText(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  std::string line;
  u64 line_no = 0;
  MessageList list;
  list.source = name;
  enum { kMagic, kDim, kSlots, kRoute, kNodes, kBody, kEnd } state = kMagic;
  u64 node = 0;
  u64 left = 0;
  std::vector<bool> seen;
  // The line of the message that writes each (destination node, slot): a second one would
  // overwrite the first's word.
  std::map<std::pair<u64, u32>, u64> writer;
  auto fail = [&](const std::string& what) -> Error {
    return Error(escapeNonUtf8(name + ":" + std::to_string(line_no) + ": " + what));
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const std::vector<std::string> w = words(line);
    if (w.empty()) continue;
    try {
      auto expect = [&](const char* key, size_t count) {
        if (w[0] != key || w.size() != count) {
          throw Error(std::string("expected '") + key + (count > 1 ? " VALUE'" : "'") +
                      ", found '" + line + "'");
        }
      };
      switch (state) {
        case kMagic:
          if (w.size() != 2 || w[0] != "hcube-messages" || w[1] != "1") {
            throw Error("not a message list (first line must be 'hcube-messages 1')");
          }
          state = kDim;
          break;
        case kDim:
          expect("dim", 2);
          list.n = static_cast<int>(number(w[1], 20, "dim"));
          if (list.n < 1) throw Error("dim must be 1..20");
          state = kSlots;
          break;
        case kSlots:
          expect("slots", 2);
          list.slots = number(w[1], u64{1} << 30, "slots");
          if (list.slots < 1) throw Error("slots must be at least 1");
          state = kRoute;
          break;
        case kRoute:
          expect("route", 2);
          list.route = parseRouteKind(w[1]);
          list.per_node.assign(list.nodes(), {});
          list.lines.assign(list.nodes(), {});
          seen.assign(list.nodes(), false);
          state = kNodes;
          break;
        case kNodes:
          if (w.size() == 1 && w[0] == "end") {
            state = kEnd;
            break;
          }
          expect("node", 3);
          node = number(w[1], ~u64{0} >> 1, "node");
          if (node >= list.nodes()) {
            throw Error("node " + w[1] + " is outside the " + std::to_string(list.n) + "-cube");
          }
          if (seen[node]) throw Error("node " + w[1] + " has a second block");
          seen[node] = true;
          left = number(w[2], u64{1} << 24, "message count");
          state = left == 0 ? kNodes : kBody;
          break;
        case kBody: {
          if (w.size() < 3 || w.size() > 6) {
            throw Error("expected 'SRC DST DSLOT [at=C] [route=D,...] [cont]', found '" + line +
                        "'");
          }
          Message m;
          m.src_slot = static_cast<u32>(number(w[0], 0xFFFFFFFFU, "source slot"));
          m.dst = number(w[1], ~u64{0} >> 1, "destination node");
          m.dst_slot = static_cast<u32>(number(w[2], 0xFFFFFFFFU, "destination slot"));
          bool has_at = false;
          bool has_route = false;
          bool has_cont = false;
          auto once = [&](bool& has, const std::string& field) {
            if (has) throw Error("the field " + field + " appears twice in '" + line + "'");
            has = true;
          };
          for (size_t i = 3; i < w.size(); ++i) {
            if (w[i].rfind("at=", 0) == 0) {
              once(has_at, "at=");
              m.release = number(w[i].substr(3), u64{1} << 40, "at");
            } else if (w[i].rfind("route=", 0) == 0) {
              once(has_route, "route=");
              std::istringstream dims(w[i].substr(6));
              std::string d;
              while (std::getline(dims, d, ',')) {
                m.route.push_back(static_cast<std::uint8_t>(number(d, 63, "route dimension")));
              }
            } else if (w[i] == "cont") {
              once(has_cont, "cont");
              m.cont = true;
            } else {
              throw Error("unknown field '" + w[i] + "' (at=C, route=D,... or cont)");
            }
          }
          const std::string problem = messageProblem(list, node, m);
          if (!problem.empty()) throw Error("node " + std::to_string(node) + ": " + problem);
          list.per_node[node].push_back(std::move(m));
          list.lines[node].push_back(line_no);
          const std::string cont =
              continuationProblem(list.per_node[node], list.per_node[node].size() - 1, list.slots);
          if (!cont.empty()) throw Error("node " + std::to_string(node) + ": " + cont);
          const Message& added = list.per_node[node].back();
          if (const auto [it, fresh] =
                  writer.emplace(std::make_pair(added.dst, added.dst_slot), line_no);
              !fresh) {
            throw Error("node " + std::to_string(node) + ": node " + std::to_string(added.dst) +
                        " slot " + std::to_string(added.dst_slot) + " is already written by line " +
                        std::to_string(it->second) + " (one word would overwrite the other)");
          }
          if (--left == 0) state = kNodes;
          break;
        }
        case kEnd:
          throw Error("text after 'end'");
      }
    } catch (const Error& e) {
      throw fail(e.what());
    }
  }
  if (state != kEnd) {
    ++line_no;
    throw fail(state == kBody ? "the file ends inside node " + std::to_string(node) + "'s block (" +
                                    std::to_string(left) + " messages missing)"
                              : "the file ends before 'end'");
  }
  return list;
}

MessageList readMessageTextFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open for reading");
  std::ostringstream all;
  all << in.rdbuf();
  return parseMessageText(all.str(), path);
}

}  // namespace hcube
