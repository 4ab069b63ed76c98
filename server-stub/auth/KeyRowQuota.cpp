#include "auth/KeyRowQuota.h"

#include "support/Problems.h"

#include <algorithm>

namespace onceorder::server {

namespace {

constexpr std::int64_t kHourMs = 3'600'000;

std::int64_t hourOf(std::int64_t ms)
{
    return std::max<std::int64_t>(ms, 0) / kHourMs;
}

std::size_t slotOf(std::int64_t hour)
{
    return static_cast<std::size_t>(hour % KeyRowQuota::kSlots);
}

} // namespace

KeyRowQuota::KeyRowQuota(long long perDay, const Clock& clock)
    : m_perDay(std::max(perDay, 0LL))
    , m_clock(clock)
{
}

std::int64_t KeyRowQuota::currentHour() const
{
    return hourOf(m_clock.nowMs());
}

long long KeyRowQuota::rowsUpTo(Window& window, std::int64_t hour)
{
    long long rows = 0;
    for (std::size_t slot = 0; slot < kSlots; ++slot) {
        // A slot last used more than 24 hours before `hour` (or "in the future", after the clock stepped back) counts
        // nothing any more. A clock stepping back keeps the newer slots: they are held against the client until the
        // clock passes them again, so stepping back never makes room.
        if (window.hours[slot] <= hour - kSlots) {
            window.rows[slot] = 0;
        }
        rows += window.rows[slot];
    }
    return rows;
}

std::optional<long long> KeyRowQuota::reserve(const std::string& client, long long perDay, std::int64_t* reservedHour)
{
    if (perDay <= 0) {
        return std::nullopt;
    }
    const std::int64_t now = std::max<std::int64_t>(m_clock.nowMs(), 0);
    const std::int64_t hour = hourOf(now);
    std::lock_guard lock(m_lock);
    Window& window = m_windows[client];
    if (rowsUpTo(window, hour) >= perDay) {
        return secondsUntilFreed(window, now);
    }
    const std::size_t slot = slotOf(hour);
    if (window.hours[slot] < hour) { // a slot 25 hours old: counted nothing in rowsUpTo, taken over now
        window.rows[slot] = 0;
        window.hours[slot] = hour;
    }
    ++window.rows[slot]; // after the clock stepped back: counted in the newer hour the slot holds
    if (reservedHour) {
        *reservedHour = window.hours[slot];
    }
    return std::nullopt;
}

long long KeyRowQuota::secondsUntilFreed(const Window& window, std::int64_t now)
{
    // The oldest slot holding a row leaves the window at the end of its hour + 24.
    std::int64_t oldest = hourOf(now);
    for (std::size_t slot = 0; slot < kSlots; ++slot) {
        if (window.rows[slot] > 0) {
            oldest = std::min(oldest, window.hours[slot]);
        }
    }
    const std::int64_t freedAtMs = (oldest + kSlots) * kHourMs;
    return std::max<long long>(1, (freedAtMs - now + 999) / 1000);
}

std::optional<Problem> KeyRowQuota::take(SqlTx& tx, const Client& client, std::int64_t rowMs,
                                         std::optional<std::int64_t>& reservedHour)
{
    const long long perDay = perDayOf(client);
    if (perDay > 0) {
        seed(tx, client.id, rowMs);
    }
    std::int64_t hour = 0;
    if (const auto retryAfter = reserve(client.id, perDay, &hour)) {
        return problems::keyQuotaExceeded(perDay, static_cast<int>(std::min<long long>(*retryAfter, 1'000'000)));
    }
    if (perDay > 0) {
        reservedHour = hour;
    }
    return std::nullopt;
}

bool KeyRowQuota::full(const Client& client)
{
    const long long perDay = perDayOf(client);
    if (perDay <= 0) {
        return false;
    }
    std::lock_guard lock(m_lock);
    const auto found = m_windows.find(client.id);
    return found != m_windows.end() && rowsUpTo(found->second, currentHour()) >= perDay;
}

void KeyRowQuota::seed(SqlTx& tx, const std::string& client, std::int64_t rowMs)
{
    std::mutex* seeding = nullptr;
    {
        std::lock_guard lock(m_lock);
        if (m_windows[client].seeded) {
            return;
        }
        auto& made = m_seeding[client];
        if (!made) {
            made = std::make_unique<std::mutex>();
        }
        seeding = made.get();
    }
    std::lock_guard once(*seeding); // a copy of this client's waits here, then finds it seeded
    {
        std::lock_guard lock(m_lock);
        if (m_windows[client].seeded) {
            return;
        }
    }
    const std::int64_t hour = currentHour();
    const long long since = std::max<std::int64_t>(hour - (kSlots - 1), 0) * kHourMs;
    // (client_id, idem_key) is each table's primary key: its prefix bounds the count by this client's rows.
    const auto rows = tx.query("SELECT hour, count(*) FROM (SELECT created_at / 3600000 AS hour FROM idempotency_keys "
                               "WHERE client_id = ? AND created_at >= ? UNION ALL SELECT created_at / 3600000 FROM "
                               "checkout_keys WHERE client_id = ? AND created_at >= ?) AS made GROUP BY hour",
                               {client, since, client, since});
    std::lock_guard lock(m_lock);
    Window& window = m_windows[client];
    for (const auto& row : rows) {
        const std::int64_t rowHour = std::min<std::int64_t>(row.int64(0), hour); // a row from "the future" counts now
        const std::size_t slot = slotOf(rowHour);
        if (window.hours[slot] != rowHour) {
            window.rows[slot] = 0;
            window.hours[slot] = rowHour;
        }
        window.rows[slot] += row.int64(1);
    }
    // The row `tx` made is among them: reserve() counts it once more.
    const std::int64_t ownHour = std::min(hourOf(rowMs), hour);
    const std::size_t own = slotOf(ownHour);
    if (window.hours[own] == ownHour && window.rows[own] > 0) {
        --window.rows[own];
    }
    window.seeded = true;
}

void KeyRowQuota::giveBack(const std::string& client, std::int64_t reservedHour)
{
    std::lock_guard lock(m_lock);
    const auto found = m_windows.find(client);
    if (found == m_windows.end()) {
        return;
    }
    Window& window = found->second;
    const std::size_t slot = slotOf(reservedHour);
    if (window.hours[slot] == reservedHour && window.rows[slot] > 0) {
        --window.rows[slot];
    }
}

} // namespace onceorder::server
