// Fuzzes the ?limit=N parser of GET /orders and the /_debug/* state routes (server-stub/routes).
//
// The input is the list of values given for `limit` (separated by '&'; none at all when the input is empty).
// Properties: no values means no limit; a limit is accepted exactly when it is given once, as a whole number 1-1000
// written plainly (digits, no sign, no leading zero), and then it is that number and reads back from its own
// digits; anything else is 400 invalid-limit with a valid problem+json body whose detail quotes the value only
// when it is short visible ASCII.
#include "routes/LimitParameter.h"
#include "support/FuzzCheck.h"
#include "support/Json.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace onceorder::server;
using onceorder::fuzz::require;

namespace {

// The rule as docs/api.md states it, written independently of the parser.
bool plainLimit(const std::string& value)
{
    if (value.empty() || value.size() > 4 || value.front() < '1' || value.front() > '9') {
        return false;
    }
    return std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        std::stoi(value) <= 1000;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> values;
    if (!text.empty()) {
        std::size_t start = 0;
        for (std::size_t amp = text.find('&'); amp != std::string::npos; amp = text.find('&', start)) {
            values.push_back(text.substr(start, amp - start));
            start = amp + 1;
        }
        values.push_back(text.substr(start));
    }
    const auto parsed = parseLimit(values);
    const bool expected = values.size() == 1 && plainLimit(values[0]);
    if (const auto* limit = std::get_if<std::optional<int>>(&parsed)) {
        if (values.empty()) {
            require(!limit->has_value(), "no limit given means no limit");
            return 0;
        }
        require(expected && limit->has_value(), "only a plain whole number 1-1000 given once is accepted", text);
        require(std::to_string(**limit) == values[0], "an accepted limit is the number its digits say", text);
        return 0;
    }
    const Problem& problem = std::get<Problem>(parsed);
    require(!expected && !values.empty(), "a plain whole number 1-1000 given once is never refused", text);
    require(problem.status == 400 && problem.slug == "invalid-limit", "a refused limit is 400 invalid-limit",
            problem.slug);
    require(std::holds_alternative<JsonValue>(parseJson(problem.body())), "the problem body is valid JSON",
            problem.body());
    const bool quotes = problem.detail.find("(got \"") != std::string::npos;
    const std::string& first = values[0];
    const bool echoable =
        first.size() <= 16 && std::all_of(first.begin(), first.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
    require(quotes == echoable, "the detail quotes the value only when it is short visible ASCII", problem.detail);
    return 0;
}
