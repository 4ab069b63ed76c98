// IdempotencyKey: parses the Idempotency-Key header (IETF draft; an RFC 8941 sf-string, bare tokens tolerated).
#pragma once

#include <string>
#include <string_view>
#include <variant>

namespace onceorder::server {

inline constexpr std::size_t kMaxIdempotencyKeyLength = 255;

struct KeyError
{
    std::string detail;
};

// Returns the key's value (quotes and escapes removed) or why the header is not a valid key.
std::variant<std::string, KeyError> parseIdempotencyKey(std::string_view headerValue);

} // namespace onceorder::server
