#include "submission/OutboxSchema.h"

#include "retry/RetryPolicy.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace onceorder::core {

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS submissions (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    idem_key        TEXT NOT NULL,
    cart_id         TEXT NOT NULL,
    body            BLOB NOT NULL,
    target          TEXT NOT NULL,
    path            TEXT NOT NULL DEFAULT '/orders',
    api_key         TEXT NOT NULL,
    state           TEXT NOT NULL,
    order_id        INTEGER,
    replayed        INTEGER NOT NULL DEFAULT 0,
    http_status     INTEGER NOT NULL DEFAULT 0,
    problem_type    TEXT,
    problem_detail  TEXT,
    created_at      INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL DEFAULT 0,
    deadline_at     INTEGER NOT NULL DEFAULT 0,
    lease_owner     TEXT,
    lease_pid       INTEGER NOT NULL DEFAULT 0,
    lease_until     INTEGER NOT NULL DEFAULT 0,
    created_mono    INTEGER NOT NULL DEFAULT 0,
    created_boot    TEXT,
    lease_boot      TEXT,
    overruled       TEXT,
    duplicate_order_id INTEGER NOT NULL DEFAULT 0
);
-- One pending submission per cart and client: clicking Order again reuses it (and its key).
CREATE UNIQUE INDEX IF NOT EXISTS submissions_one_pending_per_cart
    ON submissions (api_key, cart_id) WHERE state = 'pending';
-- When a read-back last listed a placed submission's order as its cart's only one (issue 37): a placed cart whose 201
-- followed a missing answer is read back at every start until then. A table of its own, made at every open, so a
-- file stays readable by the clients of schema version 4 (they ignore it).
CREATE TABLE IF NOT EXISTS confirmations (
    submission_id INTEGER PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    confirmed_at  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
    submission_id  INTEGER NOT NULL REFERENCES submissions (id),
    number         INTEGER NOT NULL,
    started_at     INTEGER NOT NULL,
    ended_at       INTEGER NOT NULL DEFAULT 0,
    outcome        TEXT NOT NULL,
    http_status    INTEGER NOT NULL DEFAULT 0,
    replayed       INTEGER NOT NULL DEFAULT 0,
    error          TEXT NOT NULL DEFAULT '',
    delay_after_ms INTEGER NOT NULL DEFAULT -1,
    delay_reason   TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (submission_id, number)
);
)sql";

// The retry window of a submission written before the deadline was stored, or stored without one (0): the default
// window then.
constexpr qint64 kLegacyWindowMs = 15 * 60 * 1000;

bool hasColumn(SQLite::Database& db, const char* name)
{
    SQLite::Statement columns(db, "SELECT 1 FROM pragma_table_info('submissions') WHERE name = ?");
    columns.bind(1, name);
    return columns.executeStep();
}

// Version 1: every column of today. A client.db from before versions (user_version 0) may lack the path (POST
// /orders only), the deadline and the leases.
void addMissingColumns(SQLite::Database& db)
{
    if (!hasColumn(db, "path")) {
        db.exec("ALTER TABLE submissions ADD COLUMN path TEXT NOT NULL DEFAULT '/orders'");
    }
    if (!hasColumn(db, "deadline_at")) {
        // 0 for now; version 2 gives every row its bounded deadline.
        db.exec("ALTER TABLE submissions ADD COLUMN deadline_at INTEGER NOT NULL DEFAULT 0");
    }
    if (!hasColumn(db, "lease_owner")) {
        db.exec("ALTER TABLE submissions ADD COLUMN lease_owner TEXT");
        db.exec("ALTER TABLE submissions ADD COLUMN lease_pid INTEGER NOT NULL DEFAULT 0");
        db.exec("ALTER TABLE submissions ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0");
    }
}

// Version 2: every stored deadline bounded by the key TTL (boundedDeadline): rows without one (0, which used to
// mean "no deadline") and rows whose deadline lies beyond it.
void boundDeadlines(SQLite::Database& db)
{
    SQLite::Statement bound(db,
                            "UPDATE submissions SET deadline_at = min(CASE WHEN deadline_at > 0 THEN deadline_at "
                            "ELSE created_at + ? END, created_at + ?)");
    bound.bind(1, static_cast<int64_t>(kLegacyWindowMs));
    bound.bind(2, static_cast<int64_t>(RetryPolicy::latestDeadlineFor(0)));
    bound.exec();
}

// Version 3: time a clock step cannot move. The machine's monotonic clock at creation and its boot (a submission's
// true age), leases on that clock with their boot, and the state evidence of the order overruled ("placed after
// all"). Older rows get none: their age is judged by the wall clock and the times stored with them, their leases
// (wall-clock times written by an older client) as before.
void addMonotonicTimes(SQLite::Database& db)
{
    if (!hasColumn(db, "created_mono")) {
        db.exec("ALTER TABLE submissions ADD COLUMN created_mono INTEGER NOT NULL DEFAULT 0");
        db.exec("ALTER TABLE submissions ADD COLUMN created_boot TEXT");
    }
    if (!hasColumn(db, "lease_boot")) {
        db.exec("ALTER TABLE submissions ADD COLUMN lease_boot TEXT");
    }
    if (!hasColumn(db, "overruled")) {
        db.exec("ALTER TABLE submissions ADD COLUMN overruled TEXT");
    }
}

// Version 4: a cart the server holds two orders for ('duplicated') keeps the second order's id. Older rows have none.
void addDuplicateOrder(SQLite::Database& db)
{
    if (!hasColumn(db, "duplicate_order_id")) {
        db.exec("ALTER TABLE submissions ADD COLUMN duplicate_order_id INTEGER NOT NULL DEFAULT 0");
    }
}

struct Migration
{
    int version; // PRAGMA user_version once applied
    void (*apply)(SQLite::Database&);
};

// In order; a file at version N gets every migration after N, all in one transaction.
constexpr Migration kMigrations[] = {
    {1, &addMissingColumns},
    {2, &boundDeadlines},
    {3, &addMonotonicTimes},
    {4, &addDuplicateOrder},
};
static_assert(kMigrations[std::size(kMigrations) - 1].version == OutboxSchema::kVersion,
              "OutboxSchema::kVersion is the last migration's version");

} // namespace

// The deadline a submission created at createdMs may have: what is stored (0, "none", from an older client: the
// legacy window), never later than the server's key TTL allows. A key sent after the server forgot it is a new
// order, so no stored value, however it got there, can stretch the window past that.
qint64 OutboxSchema::boundedDeadline(qint64 createdMs, qint64 storedMs)
{
    const qint64 wanted = storedMs > 0 ? storedMs : createdMs + kLegacyWindowMs;
    return std::min(wanted, RetryPolicy::latestDeadlineFor(createdMs));
}

// Creates the tables of a new file and brings an older one up to OutboxSchema::kVersion; a newer one is not touched.
void OutboxSchema::migrate(SQLite::Database& db)
{
    const int version = db.execAndGet("PRAGMA user_version").getInt();
    if (version > OutboxSchema::kVersion) {
        // A newer client's outbox: its rows may mean what this version cannot know. Refuse rather than guess.
        throw std::runtime_error("the client state database has schema version " + std::to_string(version) +
                                 ", newer than this client knows (" + std::to_string(OutboxSchema::kVersion) +
                                 "): use the newer client");
    }
    db.exec(kSchema);
    for (const Migration& migration : kMigrations) {
        if (migration.version > version) {
            migration.apply(db);
            // PRAGMA takes no bound parameter; the number is ours.
            db.exec("PRAGMA user_version = " + std::to_string(migration.version));
        }
    }
}

} // namespace onceorder::core
