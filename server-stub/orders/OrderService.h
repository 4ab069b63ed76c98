// OrderService: POST /orders, the server half of the idempotency scheme, in one SQLite transaction.
#pragma once

#include "orders/OrderCommand.h"
#include "storage/Store.h"
#include "support/Clock.h"
#include "support/Problem.h"
#include "teaching/Faults.h"

#include <chrono>
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

class OrderService
{
public:
    OrderService(Store& store, Faults& faults, const Clock& clock, std::chrono::seconds keyTtl);

    OrderResponse placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command);

    // SHA-256 over method, path and the canonical command: equal for a retry, different for another payload.
    static std::string fingerprint(const OrderCommand& command);

private:
    // The key row one request claims: whose keys (the scope), which key, for which command, and when.
    struct KeyClaim
    {
        std::string scope;
        std::string idemKey;
        std::string fingerprint;
        std::int64_t now = 0;
    };

    OrderResponse placeOrderCheckThenInsert(Store::Lease& db, const Client& client, const KeyClaim& key,
                                            const OrderCommand& command, const ArmedFault& fault);
    bool claimKey(Store::Lease& db, const KeyClaim& key);
    OrderResponse createOrder(Store::Lease& db, const Client& client, const KeyClaim& key, const OrderCommand& command,
                              const ArmedFault& fault);
    void storeResponse(Store::Lease& db, const KeyClaim& key, const OrderResponse& response);
    // What the unexpired key row says to a request with this fingerprint: the stored answer (replayed), 422 for
    // another payload, 409 while unfinished; nothing if there is no such row.
    std::optional<OrderResponse> storedAnswer(Store::Lease& db, const KeyClaim& key);
    std::string keyScope(const Client& client) const;

    Store& m_store;
    Faults& m_faults;
    const Clock& m_clock;
    std::chrono::seconds m_keyTtl;
};

// RFC 3339 UTC time for a millisecond timestamp.
std::string isoTime(std::int64_t ms);

} // namespace onceorder::server
