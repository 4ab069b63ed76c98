// KeyRowQuota: how many key rows (idempotency_keys, checkout_keys) each client may make in any 24 hours, counted in
// this instance's memory in whole hours. A client's count is seeded from the rows of the last 24 hours the database
// still holds, the first time its quota is decided in this process, inside the transaction deciding it (take): by
// the primary key's prefix (client_id), so the cost is that client's rows and nothing at start scans the key tables.
// POST /orders counts a row inside its transaction, once its key row's INSERT made one (orders/OrderService): a replay,
// a mismatch or a key in progress never reaches the quota, and a new key over it is rolled back with everything else.
// POST /checkout reserves a row before it runs and gives it back when it made none. Either way, however many requests
// run at once, the rows counted never pass the quota. The count looks back over the last 25 hour slots (the current one
// and the 24 before it), which hold every row made in the last 24 hours: in any 24 hours while this process runs a
// client makes at most its quota of rows through this instance, plus what other instances on the same database make
// after this one seeded it; across a restart only the rows still stored are counted (docs/security.md). Over it, the
// answer is 429 with Retry-After: the seconds until the oldest slot that holds a row leaves the window. The clock is
// injected, so a test lets hours pass without sleeping.
#pragma once

#include "auth/Client.h"
#include "storage/SqlTx.h"
#include "support/Clock.h"
#include "support/Problem.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace onceorder::server {

class KeyRowQuota
{
public:
    // The quota of a client the operator stored none for (--client-key-rows); 0: no limit.
    KeyRowQuota(long long perDay, const Clock& clock);

    // Thrown from inside a transaction whose new key row is over its client's quota: the work is undone, and the
    // problem (429 key-quota-exceeded with Retry-After) is the answer.
    struct Exceeded
    {
        Problem problem;
    };

    // Reserves one row of `client`'s at quota `perDay` (0: no limit, nothing reserved): nothing if it fitted, else the
    // seconds (>= 1) until one does. `reservedHour`: the slot it was counted in (what giveBack() wants back).
    std::optional<long long> reserve(const std::string& client, long long perDay, std::int64_t* reservedHour = nullptr);
    // The same at the client's own quota or this server's default, called inside `tx` right after it made the new key
    // row (created at `rowMs`): nothing if it fitted (`reservedHour` set, unless the client has no quota), else the
    // 429 to answer. The first call for a client in this process seeds its count from what `tx` sees (seed).
    std::optional<Problem> take(SqlTx& tx, const Client& client, std::int64_t rowMs,
                                std::optional<std::int64_t>& reservedHour);
    // Whether a new row of `client`'s would be refused now (nothing is reserved).
    bool full(const Client& client);
    // Counts `client`'s key rows of the last 25 hour slots that `tx` sees (idempotency_keys and checkout_keys, by
    // client_id and created_at), once per client and process: a copy of the request of the same client waits until
    // it is done, so no row is counted twice. `tx` made the row created at `rowMs` just now: take() counts it, the
    // seed does not.
    void seed(SqlTx& tx, const std::string& client, std::int64_t rowMs);
    long long perDayOf(const Client& client) const { return client.limits.keyRowsPerDay.value_or(m_perDay); }
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
        bool seeded = false; // from the database's rows (seed)
    };

    // The rows counted in the 25 hours up to `hour`, with slots older than that cleared.
    static long long rowsUpTo(Window& window, std::int64_t hour);
    // The seconds until the oldest slot holding a row leaves the window.
    static long long secondsUntilFreed(const Window& window, std::int64_t now);

    const long long m_perDay;
    const Clock& m_clock;
    std::mutex m_lock;
    // One window per client that has made a row (clients are the operator's, so their number is bounded).
    std::map<std::string, Window, std::less<>> m_windows;
    // Held by the one request that seeds a client's window; the query runs outside m_lock.
    std::map<std::string, std::unique_ptr<std::mutex>, std::less<>> m_seeding;
};

} // namespace onceorder::server
