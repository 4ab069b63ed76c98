// Problem: an RFC 9457 problem+json answer, one distinct `type` per cause.
#pragma once

#include <optional>
#include <string>

namespace onceorder::server {

struct Problem
{
    int status = 500;
    std::string slug; // the cause; the type URI is "/problems/<slug>"
    std::string title; // short, the same for every instance of the cause
    std::string detail; // this occurrence, in words a developer can act on
    std::optional<int> retryAfterSeconds;
    std::optional<long long> orderId; // e.g. the order that already holds a cart id

    std::string body() const;
};

inline constexpr const char* kProblemContentType = "application/problem+json";

} // namespace onceorder::server
