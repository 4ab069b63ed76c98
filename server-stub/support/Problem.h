// Problem: an RFC 9457 problem+json answer, one distinct `type` per cause.
#pragma once

#include <exception>
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
    // A 503 for a failure the same work gets past at once (storage/DatabaseFailure: rerunnableFailure): the request
    // that met it is run once more before it is answered (routes/HttpApi). Not part of the body.
    bool rerunnable = false;

    std::string body() const;
};

inline constexpr const char* kProblemContentType = "application/problem+json";

// The client-facing words for a failed database call. The SQLite message itself (table names, file paths) goes to
// the server's log only: it helps the operator and tells a caller nothing it can act on.
std::string databaseFailure(const std::exception& error);

} // namespace onceorder::server
