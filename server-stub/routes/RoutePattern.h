// RoutePattern: one route's path, such as "/orders/{id}" or "/products/{id}/stock", matched segment by segment. A
// `{name}` segment takes any non-empty segment of the request's path (no '/'); every other segment must be equal.
// Matching walks the path once and allocates only the captured segments: its work is bounded by the path's length,
// whatever the path holds (std::regex recursed once per character and a long path overflowed the I/O thread's stack).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onceorder::server {

class RoutePattern
{
public:
    // `pattern` starts with '/'; a segment is either literal or `{name}` (the name documents; it is not used).
    explicit RoutePattern(std::string_view pattern);

    // The captured segments in order, if `path` matches; [0] is the whole path, as a regex match had it.
    std::optional<std::vector<std::string>> match(std::string_view path) const;

private:
    struct Segment
    {
        std::string literal;
        bool capture = false;
    };
    std::vector<Segment> m_segments;
};

} // namespace onceorder::server
