#include "routes/RoutePattern.h"

#include <stdexcept>

namespace onceorder::server {

RoutePattern::RoutePattern(std::string_view pattern)
{
    if (pattern.empty() || pattern.front() != '/') {
        throw std::invalid_argument("a route pattern starts with '/'");
    }
    std::string_view rest = pattern.substr(1);
    while (true) {
        const auto slash = rest.find('/');
        const std::string_view segment = rest.substr(0, slash);
        const bool capture = segment.size() >= 2 && segment.front() == '{' && segment.back() == '}';
        m_segments.push_back({capture ? std::string() : std::string(segment), capture});
        if (slash == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(slash + 1);
    }
}

std::optional<std::vector<std::string>> RoutePattern::match(std::string_view path) const
{
    if (path.empty() || path.front() != '/') {
        return std::nullopt;
    }
    std::vector<std::string> captured {std::string(path)};
    std::string_view rest = path.substr(1);
    for (std::size_t i = 0; i < m_segments.size(); ++i) {
        const bool last = i + 1 == m_segments.size();
        const auto slash = rest.find('/');
        // The last pattern segment must take the rest of the path; any other one ends at a '/'.
        if (last != (slash == std::string_view::npos)) {
            return std::nullopt;
        }
        const std::string_view segment = rest.substr(0, slash);
        const Segment& expected = m_segments[i];
        if (expected.capture) {
            if (segment.empty()) {
                return std::nullopt;
            }
            captured.emplace_back(segment);
        } else if (segment != expected.literal) {
            return std::nullopt;
        }
        if (!last) {
            rest.remove_prefix(slash + 1);
        }
    }
    return captured;
}

} // namespace onceorder::server
