// Fuzzes the Idempotency-Key header parser (server-stub/support/IdempotencyKey).
//
// Properties: an accepted key is 1-255 visible ASCII characters; it reads back the same from its canonical
// sf-string, with spaces or tabs around it, and as a bare token when it has none of '"', '\', ';', ','; a refusal
// always says why (the detail of 400 invalid-idempotency-key).
#include "support/FuzzCheck.h"
#include "support/IdempotencyKey.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace onceorder::server;
using onceorder::fuzz::require;

namespace {

std::string sfString(const std::string& value)
{
    std::string out = "\"";
    for (const char c : value) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + '"';
}

void requireReadsBackAs(const std::string& header, const std::string& value, std::string_view property)
{
    const auto again = parseIdempotencyKey(header);
    const auto* key = std::get_if<std::string>(&again);
    require(key && *key == value, property, header);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view header(reinterpret_cast<const char*>(data), size);
    const auto parsed = parseIdempotencyKey(header);
    if (const auto* error = std::get_if<KeyError>(&parsed)) {
        require(!error->detail.empty(), "a refused key says why");
        return 0;
    }
    const std::string& key = std::get<std::string>(parsed);
    require(!key.empty() && key.size() <= kMaxIdempotencyKeyLength, "an accepted key has 1-255 characters", key);
    require(std::all_of(key.begin(), key.end(), [](char c) { return c >= 0x21 && c <= 0x7E; }),
            "an accepted key is visible ASCII", key);

    requireReadsBackAs(sfString(key), key, "the canonical sf-string reads back as the same key");
    requireReadsBackAs(" \t" + sfString(key) + "\t ", key, "spaces and tabs around the key do not matter");
    if (key.find_first_of("\"\\;,") == std::string::npos) {
        requireReadsBackAs(key, key, "a key without quotes, backslashes, ';' or ',' reads back as a bare token");
    }
    // Parameters and lists are refused, whatever the key.
    require(std::holds_alternative<KeyError>(parseIdempotencyKey(sfString(key) + ";x=1")),
            "an sf-string with parameters is refused", key);
    require(std::holds_alternative<KeyError>(parseIdempotencyKey(sfString(key) + ", \"b\"")),
            "a list of sf-strings is refused", key);
    return 0;
}
