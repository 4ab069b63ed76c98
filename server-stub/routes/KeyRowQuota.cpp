#include "routes/KeyRowQuota.h"

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

std::optional<long long> KeyRowQuota::reserve(const std::string& client, long long perDay)
{
    if (perDay <= 0) {
        return std::nullopt;
    }
    const std::int64_t now = std::max<std::int64_t>(m_clock.nowMs(), 0);
    const std::int64_t hour = hourOf(now);
    std::lock_guard lock(m_lock);
    Window& window = m_windows[client];
    if (rowsUpTo(window, hour) < perDay) {
        const std::size_t slot = slotOf(hour);
        if (window.hours[slot] < hour) { // a slot 25 hours old: counted nothing in rowsUpTo, taken over now
            window.rows[slot] = 0;
            window.hours[slot] = hour;
        }
        ++window.rows[slot]; // after the clock stepped back: counted in the newer hour the slot holds
        return std::nullopt;
    }
    // The oldest slot holding a row leaves the window at the end of its hour + 24.
    std::int64_t oldest = hour;
    for (std::size_t slot = 0; slot < kSlots; ++slot) {
        if (window.rows[slot] > 0) {
            oldest = std::min(oldest, window.hours[slot]);
        }
    }
    const std::int64_t freedAtMs = (oldest + kSlots) * kHourMs;
    return std::max<long long>(1, (freedAtMs - now + 999) / 1000);
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
