// Clock: wall time in milliseconds since the epoch, injected so expiry is tested without sleeping.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace onceorder::server {

class Clock
{
public:
    virtual ~Clock() = default;
    virtual std::int64_t nowMs() const = 0;
};

class SystemClock final : public Clock
{
public:
    std::int64_t nowMs() const override
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    }
};

class ManualClock final : public Clock
{
public:
    explicit ManualClock(std::int64_t startMs)
        : m_now(startMs)
    {
    }
    std::int64_t nowMs() const override { return m_now.load(); }
    void advanceMs(std::int64_t ms) { m_now += ms; }

private:
    std::atomic<std::int64_t> m_now;
};

} // namespace onceorder::server
