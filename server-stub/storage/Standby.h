// Standby: a second copy of the database that the failover lesson (teaching/Replication) ships the primary's committed
// state to. A backend whose database can keep one (storage/sqlite/SqliteStandby: a file beside the primary) opens it
// (OpenedDatabase::openStandby); the lesson decides when to ship, the standby only how.
#pragma once

#include <functional>
#include <string>

namespace onceorder::server {

class Standby
{
public:
    virtual ~Standby() = default;

    // Where the standby is (its file), for the lesson's status and log.
    virtual std::string place() const = 0;
    // Copies the primary's committed state, as one consistent snapshot, over the standby. One call at a time (the
    // caller serialises). Throws if the standby cannot be written; the next call starts afresh.
    virtual void copy() = 0;
    // `committed` runs after every commit of the primary, on the committing thread, before the writer answers anyone.
    // Set once, before the database serves; it must not throw.
    virtual void onPrimaryCommit(std::function<void()> committed) = 0;
};

} // namespace onceorder::server
