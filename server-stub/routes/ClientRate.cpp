#include "routes/ClientRate.h"

#include <algorithm>

namespace onceorder::server {

namespace {

constexpr std::int64_t kMilli = 1000; // thousandths of a token in one token

} // namespace

ClientRate::ClientRate(int perSecond, const Clock& clock)
    : m_perSecond(std::max(perSecond, 0))
    , m_clock(clock)
{
}

std::optional<int> ClientRate::take(const std::string& client, int perSecond)
{
    if (perSecond <= 0) {
        return std::nullopt;
    }
    const std::int64_t capacity = static_cast<std::int64_t>(perSecond) * kMilli;
    const std::int64_t now = m_clock.nowMs();
    std::lock_guard lock(m_lock);
    auto [found, added] = m_buckets.try_emplace(client, Bucket {capacity, now});
    Bucket& bucket = found->second;
    if (!added && now > bucket.updatedMs) {
        // perSecond tokens a second is perSecond thousandths of a token a millisecond.
        const std::int64_t elapsed = std::min<std::int64_t>(now - bucket.updatedMs, 1000);
        bucket.milliTokens = std::min(capacity, bucket.milliTokens + elapsed * perSecond);
    }
    // A clock that steps back refills nothing and is not held against the client later.
    bucket.updatedMs = now;
    if (bucket.milliTokens >= kMilli) {
        bucket.milliTokens -= kMilli;
        return std::nullopt;
    }
    const std::int64_t missing = kMilli - bucket.milliTokens; // thousandths of a token
    const std::int64_t waitMs = (missing + perSecond - 1) / perSecond;
    return static_cast<int>(std::max<std::int64_t>(1, (waitMs + 999) / 1000));
}

} // namespace onceorder::server
