#include "routes/LimitParameter.h"

#include "support/Problems.h"

#include <algorithm>

namespace onceorder::server {

std::variant<std::optional<int>, Problem> parseLimit(const std::vector<std::string>& values)
{
    if (values.empty()) {
        return std::optional<int> {};
    }
    const std::string& value = values.front();
    const bool plain = !value.empty() && value.size() <= 4 && value.front() != '0' &&
        std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int limit = plain ? std::stoi(value) : 0;
    if (values.size() != 1 || !plain || limit > kMaxLimit) {
        // Echo the value only when it is short, visible ASCII: the detail must stay valid UTF-8 JSON text.
        const bool echo = value.size() <= 16 &&
            std::all_of(value.begin(), value.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
        return problems::invalidLimit(kMaxLimit, echo ? std::optional<std::string>(value) : std::nullopt);
    }
    return std::optional<int> {limit};
}

} // namespace onceorder::server
