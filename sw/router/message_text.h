// hcube: the text form of a routed-mode message list (docs/hardware/router.md §1), what `hcube
// messages` writes and `hcube run --messages` reads. Every error names the file and line.
#pragma once

#include <string>

#include "router/messages.h"

namespace hcube {

std::string formatMessageText(const MessageList& list);
void writeMessageTextFile(const std::string& path, const MessageList& list);
/// Parses the text form; `name` (a file name) prefixes every error with its line number.
MessageList parseMessageText(const std::string& text, const std::string& name);
MessageList readMessageTextFile(const std::string& path);

}  // namespace hcube
