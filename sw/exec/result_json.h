// hcube: the result document of a run (docs/hardware/testbench.md §4; exec/result_format.h) as
// the library writes and reads it: one writer from any RunResult (the table executor's, the TLM
// child's) and the one reader of every backend's document (the RTL runner's file, the TLM
// child's pipe). The routed run's section is read on top of this by router/routed_result.h.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "exec/hw_errors.h"

namespace hcube {

/// The cube a document must describe; a zero field is not checked.
struct ResultShape {
  u64 nodes = 0;
  u64 dims = 0;
  u64 memory_words = 0;
};

/// The document of `r` (its traffic log and error events when r.traffic.recorded).
nlohmann::ordered_json resultJson(const RunResult& r);

/// Parses `text` as a result document: valid JSON, an object, "format" "hcube-result" and
/// "version" 1. Throws Error naming `source` and what is wrong (not JSON, truncated, another
/// format or version).
nlohmann::json parseResultDocument(const std::string& text, const std::string& source);

/// Reads the run of a parsed document: every field of docs/hardware/testbench.md §4 but the
/// "routed" section. Throws Error naming `source` and the field that is missing or wrong, or the
/// shape that does not match `shape`.
RunResult runResultFromJson(const nlohmann::json& doc, const std::string& source,
                            const ResultShape& shape = {});

/// parseResultDocument, then runResultFromJson.
RunResult readResult(std::istream& in, const std::string& source, const ResultShape& shape = {});
RunResult readResultText(const std::string& text, const std::string& source,
                         const ResultShape& shape = {});

/// Reads the field `key` of the object `obj` (the field named `where` in errors, e.g.
/// "routed.stalls"), for readers of further sections. Throws Error naming `source` and the field.
u64 resultU64(const nlohmann::json& obj, const char* key, const std::string& source,
              const std::string& where);
bool resultBool(const nlohmann::json& obj, const char* key, const std::string& source,
                const std::string& where);
/// The array `key` of `obj`, every element checked by the caller with resultElementU64.
const nlohmann::json& resultArray(const nlohmann::json& obj, const char* key,
                                  const std::string& source, const std::string& where);
/// Element i of an array as an unsigned integer; `where` names the array.
u64 resultElementU64(const nlohmann::json& array, size_t i, const std::string& source,
                     const std::string& where);

}  // namespace hcube
