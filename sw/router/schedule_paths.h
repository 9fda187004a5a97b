// hcube: source routes taken from a schedule's own paths (docs/hardware/router.md
// §3, `source`).
//
// A schedule decides, for every element, the dimensions it crosses and the cycles it crosses
// them in. messagesFromSchedule runs the schedule's tables once on the golden executor with the
// traffic log on, follows every element's word from its home node to its destination, and turns
// that path into one message: the route is the dimensions in the order the schedule crosses
// them, the release cycle is the cycle of its first crossing. The routers then carry the same
// elements over the same links, but each packet moves on as soon as its next link is free,
// instead of waiting in a node's memory for the step the schedule gave it.
#pragma once

#include <string>

#include "router/messages.h"
#include "spec/permutation.h"
#include "tables/table.h"

namespace hcube {

/// The message list of `perm` with source routes along the paths `tables` (a schedule for
/// `perm`) moves each element on. Throws Error naming the case and the element if the tables
/// do not deliver every element (the reference check fails on them), if an element's word does
/// not travel one path from its home node to its destination, or if `perm` is a collective.
MessageList messagesFromSchedule(const PermutationSpec& perm, const TableSet& tables);

}  // namespace hcube
