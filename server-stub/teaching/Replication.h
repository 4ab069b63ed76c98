// Replication: a small, faithful model of a primary database with one standby, so the bundled server can show what
// failover does to an acknowledged order (the failover scenario; POST /_debug/replication, debug endpoints only).
//
// The standby is the backend's (storage/Standby.h; on the embedded database a second file beside it, `<db>.standby`).
// It receives the primary's committed state, the whole database as one consistent snapshot:
// - sync: on the committing thread, after the COMMIT and before the writer answers anyone (Standby::onPrimaryCommit),
// so a
//   201 implies the standby has the order, as PostgreSQL's synchronous_commit with a synchronous standby promises;
// - async: later, from a shipper thread, so a 201 can be answered before the standby has it. `paused` holds the
//   shipper until it is released: the lag made certain for a lesson, not left to luck;
// - off: nothing is shipped; the standby file stays as it was.
// Turning replication on ships a full copy first (the base backup), so the standby starts equal to the primary.
// A failover is the primary's process killed and a new server started on the standby file (the scenario does both).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace onceorder::server {

class Standby;

class Replication
{
public:
    enum class Mode
    {
        Off,
        Sync,
        Async,
    };

    struct Status
    {
        Mode mode = Mode::Off;
        bool paused = false;
        std::uint64_t commits = 0; // commits of the primary since replication was last switched on
        std::uint64_t shipped = 0; // of those, how many the standby holds
        std::uint64_t failures = 0; // ships that failed (the standby could not be written)
        std::string standby; // the standby's file

        std::uint64_t behind() const { return commits - shipped; }
    };

    // Ships to `standby`, which tells it of the primary's commits from now on.
    explicit Replication(std::unique_ptr<Standby> standby);
    ~Replication();
    Replication(const Replication&) = delete;
    Replication& operator=(const Replication&) = delete;

    static std::optional<Mode> modeFromName(std::string_view name);
    static std::string_view modeName(Mode mode);

    // Switches the mode (and, for async, whether the shipper is held). Switching on from off takes a base backup
    // first; releasing a held async shipper lets it catch up. Throws std::runtime_error if the standby cannot be
    // written, and then nothing changes.
    Status configure(Mode mode, bool paused);
    Status status() const;

    // After every commit of the primary, on the committing thread (Standby::onPrimaryCommit). Never throws: a ship that
    // fails is counted and logged, and the standby is then behind.
    void committed() noexcept;

private:
    // Copies the primary into the standby; the caller holds m_shipLock. Throws on failure.
    void shipLocked();
    // Ships, and counts the commits the copy covers as shipped (or the failure).
    void shipCounting();
    void shipperLoop();

    std::unique_ptr<Standby> m_standbyCopy;
    const std::string m_standby; // its place

    std::mutex m_shipLock; // one copy at a time

    mutable std::mutex m_lock; // guards what follows
    std::condition_variable m_wake;
    Mode m_mode = Mode::Off;
    bool m_paused = false;
    bool m_stopping = false;
    std::uint64_t m_commits = 0;
    std::uint64_t m_shipped = 0;
    std::uint64_t m_failures = 0;
    std::optional<std::uint64_t> m_failedAt; // m_commits when a ship last failed: the shipper waits for a new one
    std::thread m_shipper; // last: started once everything above exists
};

} // namespace onceorder::server
