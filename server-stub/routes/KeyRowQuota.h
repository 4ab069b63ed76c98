// KeyRowQuota: how many key rows (idempotency_keys, checkout_keys) each client may make in any 24 hours, counted in
// this instance's memory in whole hours. A keyed POST reserves a row before it runs and gives it back when it made
// none (a replay, a fingerprint mismatch, a key in progress, a resumed checkout), so however many requests run at once,
// the rows counted never pass the quota. The count looks back over the last 25 hour slots (the current one and the
// 24 before it), which hold every row made in the last 24 hours: in any 24 hours a client makes at most its quota of
// rows in this instance (docs/security.md). Over it, the answer is 429 with Retry-After: the seconds until the
// oldest slot that holds a row leaves the window. The clock is injected, so a test lets hours pass without sleeping.
#pragma once

#include "support/Clock.h"

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace onceorder::server {

class KeyRowQuota
{
public:
    // The quota of a client the operator stored none for (--client-key-rows); 0: no limit.
    KeyRowQuota(long long perDay, const Clock& clock);

    // Reserves one row of `client`'s at quota `perDay` (0: no limit, nothing reserved): nothing if it fitted, else the
    // seconds (>= 1) until one does.
    std::optional<long long> reserve(const std::string& client, long long perDay);
    // Gives back a row reserve() took in the slot `reservedHour`, when the request made none.
    void giveBack(const std::string& client, std::int64_t reservedHour);
    // The hour slot a reservation made now falls in (what giveBack() wants back).
    std::int64_t currentHour() const;
    long long perDay() const { return m_perDay; }

    static constexpr int kSlots = 25;

private:
    struct Window
    {
        std::array<std::int64_t, kSlots> hours {}; // the hour each slot counts, slot = hour % kSlots
        std::array<long long, kSlots> rows {};
    };

    // The rows counted in the 25 hours up to `hour`, with slots older than that cleared.
    static long long rowsUpTo(Window& window, std::int64_t hour);

    const long long m_perDay;
    const Clock& m_clock;
    std::mutex m_lock;
    // One window per client that has made a row (clients are the operator's, so their number is bounded).
    std::map<std::string, Window, std::less<>> m_windows;
};

} // namespace onceorder::server
