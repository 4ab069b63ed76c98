// ClientRate: how many idempotent POSTs (POST /orders, POST /checkout) each client may send, as a token bucket per
// client in this instance's memory: `perSecond` tokens a second, at most `perSecond` saved up (one second's burst).
// A request that finds no token is answered 429 with Retry-After: the whole seconds until one is there. Every key row a
// client makes costs it a token, so one instance stores at most perSecond x 86,400 of its key rows a day
// (docs/security.md). The clock is injected, so a test spends tokens and lets time pass without sleeping.
#pragma once

#include "support/Clock.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace onceorder::server {

class ClientRate
{
public:
    // The rate of a client the operator stored none for (--client-rate); 0: no limit.
    ClientRate(int perSecond, const Clock& clock);

    // Takes a token of `client`'s: nothing if there was one, else the seconds (>= 1) until there is.
    std::optional<int> take(const std::string& client) { return take(client, m_perSecond); }
    // The same at the client's own rate (ClientLimits::ratePerSecond); 0: no limit, nothing taken.
    std::optional<int> take(const std::string& client, int perSecond);
    int perSecond() const { return m_perSecond; }

private:
    struct Bucket
    {
        // Thousandths of a token, so whole milliseconds refill it exactly.
        std::int64_t milliTokens = 0;
        std::int64_t updatedMs = 0;
    };

    const int m_perSecond;
    const Clock& m_clock;
    std::mutex m_lock;
    // One bucket per client that has been answered (clients are the operator's, so their number is bounded).
    std::map<std::string, Bucket, std::less<>> m_buckets;
};

} // namespace onceorder::server
