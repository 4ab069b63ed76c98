// Client: who a request is from, as its API key says (never its body): a client that places orders, or the operator.
#pragma once

#include <optional>
#include <string>

namespace onceorder::server {

// What the operator stored for a client (`clients add NAME --rate N --key-rows N`, table client_limits); unset: the
// server's defaults (--client-rate, --client-key-rows), which is what the demo clients get. 0 means no limit.
struct ClientLimits
{
    // POST /orders and POST /checkout a second (routes/ClientRate).
    std::optional<int> ratePerSecond;
    // Key rows (idempotency_keys, checkout_keys) this client may make in any 24 hours (auth/KeyRowQuota).
    std::optional<long long> keyRowsPerDay;
};

struct Client
{
    std::string id;
    bool isOperator = false;
    ClientLimits limits {};
};

} // namespace onceorder::server
