// Clock and RandomSource: time and randomness, injected so retry schedules are tested deterministically.
#pragma once

#include <QDateTime>
#include <QRandomGenerator>

#include <atomic>
#include <chrono>
#include <random>

#include <time.h>

namespace onceorder::core {

class Clock
{
public:
    virtual ~Clock() = default;
    // Milliseconds since the epoch.
    virtual qint64 nowMs() const = 0;
};

class SystemClock final : public Clock
{
public:
    qint64 nowMs() const override { return QDateTime::currentMSecsSinceEpoch(); }
};

// Monotonic milliseconds (an arbitrary origin): for measuring intervals. It does not jump when the wall clock is
// set, so a token bucket or a lease timer never starves or floods after a clock step.
class SteadyClock final : public Clock
{
public:
    qint64 nowMs() const override
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    static const SteadyClock& instance()
    {
        static const SteadyClock clock;
        return clock;
    }
};

// The machine's monotonic clock including suspend (CLOCK_BOOTTIME), in milliseconds since boot: the same for every
// process on the machine and never set, so it measures a lease or a submission's age across processes whatever the
// wall clock does. Its origin is the boot: a value is only comparable with one taken under the same boot id
// (Outbox stores both).
class BootClock final : public Clock
{
public:
    qint64 nowMs() const override
    {
        timespec now {};
        ::clock_gettime(CLOCK_BOOTTIME, &now);
        return static_cast<qint64>(now.tv_sec) * 1000 + now.tv_nsec / 1'000'000;
    }
    static const BootClock& instance()
    {
        static const BootClock clock;
        return clock;
    }
};

// The system's wall clock moved by a fixed offset: tests step the client's clock through
// ONCEORDER_TEST_CLOCK_OFFSET_MS (see docs/testing.md); 0 otherwise.
class OffsetClock final : public Clock
{
public:
    explicit OffsetClock(qint64 offsetMs)
        : m_offsetMs(offsetMs)
    {
    }
    qint64 nowMs() const override { return QDateTime::currentMSecsSinceEpoch() + m_offsetMs; }

private:
    qint64 m_offsetMs;
};

class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startMs = 1'790'000'000'000)
        : m_now(startMs)
    {
    }
    qint64 nowMs() const override { return m_now.load(); }
    void advanceMs(qint64 ms) { m_now += ms; }
    void setMs(qint64 ms) { m_now = ms; }

private:
    std::atomic<qint64> m_now;
};

class RandomSource
{
public:
    virtual ~RandomSource() = default;
    // Uniform in [0, 1).
    virtual double uniform() = 0;
};

class SystemRandom final : public RandomSource
{
public:
    double uniform() override { return QRandomGenerator::global()->generateDouble(); }
};

// Reproducible: the same seed gives the same sequence on every platform (mt19937_64 is fully specified).
class SeededRandom final : public RandomSource
{
public:
    explicit SeededRandom(quint64 seed)
        : m_engine(seed)
    {
    }
    double uniform() override
    {
        // 53 random bits into [0, 1), not std::uniform_real_distribution, whose algorithm is unspecified.
        return static_cast<double>(m_engine() >> 11) * 0x1.0p-53;
    }

private:
    std::mt19937_64 m_engine;
};

} // namespace onceorder::core
