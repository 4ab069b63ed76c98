// OrderResponse: what POST /orders (and POST /checkout) answers: a status and body, and whether it is a replay.
#pragma once

#include "support/Problem.h"

#include <optional>
#include <string>

namespace onceorder::server {

// What the client gets. For a replay, status and body are the stored ones, byte for byte.
struct OrderResponse
{
    int status = 500;
    std::string body;
    bool replayed = false;
    std::string outcome; // for logs and metrics: created, replayed, mismatch, in-progress, out-of-stock, ...
    std::optional<int> retryAfterSeconds;
    std::optional<long long> orderId;
    bool rerunnable = false; // Problem::rerunnable: this request runs once more before it is answered

    bool isProblem() const { return status >= 400; }

    // A problem as an answer: its status, its problem+json body, its Retry-After and order id.
    static OrderResponse fromProblem(const Problem& problem, std::string outcome);
    // The same with the problem's cause (its slug) as the outcome.
    static OrderResponse fromProblem(const Problem& problem);
    // 409 with Retry-After: the first request with this key has not finished.
    static OrderResponse inProgress();
    // The answer stored for this key, given again (Idempotent-Replayed).
    static OrderResponse replay(int status, std::string body);
};

} // namespace onceorder::server
