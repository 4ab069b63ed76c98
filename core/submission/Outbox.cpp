#include "submission/Outbox.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <QDir>

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
    next_attempt_at INTEGER NOT NULL DEFAULT 0
);
-- One pending submission per cart and client: clicking Order again reuses it (and its key).
CREATE UNIQUE INDEX IF NOT EXISTS submissions_one_pending_per_cart
    ON submissions (api_key, cart_id) WHERE state = 'pending';
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

std::string utf8(const QString& text)
{
    return text.toStdString();
}

QString text(const SQLite::Column& column)
{
    return column.isNull() ? QString() : QString::fromStdString(column.getString());
}

constexpr const char* kSelectSubmission =
    "SELECT id, idem_key, cart_id, body, target, state, order_id, replayed, http_status, problem_type, "
    "problem_detail, created_at, next_attempt_at, path FROM submissions ";

// A client.db written before submissions knew their path holds only POST /orders submissions.
void addPathColumnIfMissing(SQLite::Database& db)
{
    SQLite::Statement columns(db, "SELECT 1 FROM pragma_table_info('submissions') WHERE name = 'path'");
    if (!columns.executeStep()) {
        db.exec("ALTER TABLE submissions ADD COLUMN path TEXT NOT NULL DEFAULT '/orders'");
    }
}

} // namespace

Outbox::Outbox(const QString& stateDir)
    : m_path(QDir(stateDir).filePath(QStringLiteral("client.db")))
{
    QDir().mkpath(stateDir);
    m_db = std::make_unique<SQLite::Database>(utf8(m_path), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    m_db->setBusyTimeout(5000); // a CLI and a window may share one state folder
    m_db->exec("PRAGMA journal_mode = WAL");
    // FULL: a submission we acknowledged to the user as "sending" must survive a power cut.
    m_db->exec("PRAGMA synchronous = FULL");
    m_db->exec("PRAGMA foreign_keys = ON");
    SQLite::Transaction tx(*m_db, SQLite::TransactionBehavior::IMMEDIATE);
    m_db->exec(kSchema);
    addPathColumnIfMissing(*m_db);
    tx.commit();
}

Outbox::~Outbox() = default;

std::unique_ptr<SQLite::Transaction> Outbox::batch()
{
    return std::make_unique<SQLite::Transaction>(*m_db, SQLite::TransactionBehavior::IMMEDIATE);
}

void Outbox::create(Submission& submission, const QString& apiKey)
{
    SQLite::Statement insert(*m_db,
                             "INSERT INTO submissions (idem_key, cart_id, body, target, path, api_key, state, "
                             "created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)");
    insert.bind(1, utf8(submission.key));
    insert.bind(2, utf8(submission.cartId));
    insert.bind(3, submission.body.constData(), static_cast<int>(submission.body.size()));
    insert.bind(4, utf8(submission.target.toString()));
    insert.bind(5, utf8(submission.path));
    insert.bind(6, utf8(apiKey));
    insert.bind(7, static_cast<int64_t>(submission.createdMs));
    insert.bind(8, static_cast<int64_t>(submission.nextAttemptMs));
    insert.exec();
    submission.id = m_db->getLastInsertRowid();
    submission.state = SubmissionState::Pending;
}

Submission Outbox::load(qint64 id) const
{
    SQLite::Statement row(*m_db, std::string(kSelectSubmission) + "WHERE id = ?");
    row.bind(1, static_cast<int64_t>(id));
    if (!row.executeStep()) {
        return {};
    }
    Submission s;
    s.id = row.getColumn(0).getInt64();
    s.key = text(row.getColumn(1));
    s.cartId = text(row.getColumn(2));
    const SQLite::Column body = row.getColumn(3);
    s.body = QByteArray(static_cast<const char*>(body.getBlob()), body.getBytes());
    s.target = QUrl(text(row.getColumn(4)));
    s.state = submissionStateFromName(text(row.getColumn(5))).value_or(SubmissionState::Pending);
    s.orderId = row.getColumn(6).isNull() ? 0 : row.getColumn(6).getInt64();
    s.replayed = row.getColumn(7).getInt() != 0;
    s.httpStatus = row.getColumn(8).getInt();
    s.problemType = text(row.getColumn(9));
    s.problemDetail = text(row.getColumn(10));
    s.createdMs = row.getColumn(11).getInt64();
    s.nextAttemptMs = row.getColumn(12).getInt64();
    s.path = text(row.getColumn(13));

    SQLite::Statement attempts(*m_db,
                               "SELECT number, started_at, ended_at, outcome, http_status, replayed, error, "
                               "delay_after_ms, delay_reason FROM attempts WHERE submission_id = ? "
                               "ORDER BY number");
    attempts.bind(1, static_cast<int64_t>(id));
    while (attempts.executeStep()) {
        Attempt a;
        a.number = attempts.getColumn(0).getInt();
        a.startedMs = attempts.getColumn(1).getInt64();
        a.endedMs = attempts.getColumn(2).getInt64();
        a.outcome = attemptOutcomeFromName(text(attempts.getColumn(3))).value_or(AttemptOutcome::InFlight);
        a.httpStatus = attempts.getColumn(4).getInt();
        a.replayed = attempts.getColumn(5).getInt() != 0;
        a.error = text(attempts.getColumn(6));
        a.delayAfterMs = attempts.getColumn(7).getInt64();
        a.delayReason = text(attempts.getColumn(8));
        s.attempts.append(a);
    }
    return s;
}

std::optional<Submission> Outbox::pendingForCart(const QString& cartId, const QString& apiKey) const
{
    SQLite::Statement row(*m_db, "SELECT id FROM submissions WHERE cart_id = ? AND api_key = ? AND state = 'pending'");
    row.bind(1, utf8(cartId));
    row.bind(2, utf8(apiKey));
    if (!row.executeStep()) {
        return std::nullopt;
    }
    return load(row.getColumn(0).getInt64());
}

std::optional<Submission> Outbox::find(qint64 id) const
{
    Submission s = load(id);
    if (s.id == 0) {
        return std::nullopt;
    }
    return s;
}

QList<Submission> Outbox::pending(const QString& target, const QString& apiKey) const
{
    SQLite::Statement rows(*m_db,
                           "SELECT id FROM submissions WHERE state = 'pending' AND target = ? AND api_key = ? "
                           "ORDER BY id");
    rows.bind(1, utf8(target));
    rows.bind(2, utf8(apiKey));
    return loadEach(rows);
}

int Outbox::pendingCount(const QString& target, const QString& apiKey) const
{
    SQLite::Statement count(*m_db,
                            "SELECT count(*) FROM submissions WHERE state = 'pending' AND target = ? AND api_key = ?");
    count.bind(1, utf8(target));
    count.bind(2, utf8(apiKey));
    count.executeStep();
    return count.getColumn(0).getInt();
}

QList<Submission> Outbox::all() const
{
    SQLite::Statement rows(*m_db, "SELECT id FROM submissions ORDER BY id");
    return loadEach(rows);
}

QList<Submission> Outbox::loadEach(SQLite::Statement& ids) const
{
    // The ids first, then each submission: load() runs its own statements on the same connection.
    QList<qint64> found;
    while (ids.executeStep()) {
        found.append(ids.getColumn(0).getInt64());
    }
    QList<Submission> result;
    for (const qint64 id : found) {
        result.append(load(id));
    }
    return result;
}

void Outbox::recordAttemptStart(qint64 submissionId, const Attempt& attempt)
{
    SQLite::Statement insert(*m_db,
                             "INSERT INTO attempts (submission_id, number, started_at, outcome) "
                             "VALUES (?, ?, ?, 'in-flight')");
    insert.bind(1, static_cast<int64_t>(submissionId));
    insert.bind(2, attempt.number);
    insert.bind(3, static_cast<int64_t>(attempt.startedMs));
    insert.exec();
}

void Outbox::recordAttemptEnd(qint64 submissionId, const Attempt& attempt)
{
    SQLite::Statement update(*m_db,
                             "UPDATE attempts SET ended_at = ?, outcome = ?, http_status = ?, replayed = ?, "
                             "error = ?, delay_after_ms = ?, delay_reason = ? "
                             "WHERE submission_id = ? AND number = ?");
    update.bind(1, static_cast<int64_t>(attempt.endedMs));
    update.bind(2, utf8(attemptOutcomeName(attempt.outcome)));
    update.bind(3, attempt.httpStatus);
    update.bind(4, attempt.replayed ? 1 : 0);
    update.bind(5, utf8(attempt.error));
    update.bind(6, static_cast<int64_t>(attempt.delayAfterMs));
    update.bind(7, utf8(attempt.delayReason));
    update.bind(8, static_cast<int64_t>(submissionId));
    update.bind(9, attempt.number);
    update.exec();
}

void Outbox::update(const Submission& s)
{
    SQLite::Statement update(*m_db,
                             "UPDATE submissions SET state = ?, order_id = ?, replayed = ?, http_status = ?, "
                             "problem_type = ?, problem_detail = ?, next_attempt_at = ? WHERE id = ?");
    update.bind(1, utf8(submissionStateName(s.state)));
    if (s.orderId > 0) {
        update.bind(2, static_cast<int64_t>(s.orderId));
    }
    update.bind(3, s.replayed ? 1 : 0);
    update.bind(4, s.httpStatus);
    update.bind(5, utf8(s.problemType));
    update.bind(6, utf8(s.problemDetail));
    update.bind(7, static_cast<int64_t>(s.nextAttemptMs));
    update.bind(8, static_cast<int64_t>(s.id));
    update.exec();
}

void Outbox::changeKey(qint64 submissionId, const QString& key)
{
    SQLite::Statement update(*m_db, "UPDATE submissions SET idem_key = ? WHERE id = ?");
    update.bind(1, utf8(key));
    update.bind(2, static_cast<int64_t>(submissionId));
    update.exec();
}

} // namespace onceorder::core
