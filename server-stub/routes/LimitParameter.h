// LimitParameter: the ?limit=N of GET /orders and the /_debug/* state routes, parsed from the values the query
// gave it, with no HTTP library involved, so the rule is tested and fuzzed on its own.
#pragma once

#include "support/Problem.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace onceorder::server {

// The most rows one ?limit= may ask for.
inline constexpr int kMaxLimit = 1000;

// `values` holds every value given for `limit`, in order (none: no limit). Accepted only once and as a whole
// number 1-1000 written plainly (digits, no sign, no leading zero); anything else is 400 invalid-limit.
std::variant<std::optional<int>, Problem> parseLimit(const std::vector<std::string>& values);

} // namespace onceorder::server
