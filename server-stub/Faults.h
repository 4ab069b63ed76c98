// Faults: what the debug panel has armed for the next POST /orders requests, and the teaching modes that
// reproduce the article's mistakes on purpose. Thread-safe; all off by default.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace onceorder::server {

enum class FaultKind
{
    None,
    FailBeforeCommit, // a transient database error inside the transaction: rollback, 503
    CrashBeforeCommit, // the process dies with the transaction open: nothing of it survives
    CrashAfterCommit, // the process dies after commit, before answering: the client never hears of its order
    Delay, // the transaction is slow (holds the writer lock for delay_ms)
    Unavailable, // 503 with Retry-After, the database is not touched
};

std::optional<FaultKind> faultKindFromName(std::string_view name);
std::string_view faultKindName(FaultKind kind);

struct ArmedFault
{
    FaultKind kind = FaultKind::None;
    int remaining = 0;
    int delayMs = 0;
    int retryAfterSeconds = 1;
};

struct TeachingModes
{
    bool checkThenInsert = false; // look, then insert, in two steps (the race the article warns about)
    bool unscopedKeys = false; // keys shared by all clients (B can see A's response)
    bool storeTransient = false; // a transient failure is stored and replayed forever
    bool businessKeyOff = false; // no UNIQUE(client_id, cart_id)
};

class Faults
{
public:
    void arm(const ArmedFault& fault);
    ArmedFault armed() const;
    // Consumes one use of whatever is armed: a request decides once which fault hits it.
    ArmedFault takeAny();

    void setModes(const TeachingModes& modes);
    TeachingModes modes() const;

    void clear();

private:
    mutable std::mutex m_lock;
    ArmedFault m_armed;
    TeachingModes m_modes;
};

} // namespace onceorder::server
