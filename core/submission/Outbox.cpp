#include "submission/Outbox.h"

#include "submission/OutboxSchema.h"
#include "submission/SubmissionRules.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>

#include <QDir>
#include <QFile>
#include <QUuid>

#include <cerrno>
#include <csignal>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace onceorder::core {

namespace {

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
    "problem_detail, created_at, next_attempt_at, path, deadline_at, api_key, created_mono, created_boot, overruled, "
    "duplicate_order_id, "
    "(SELECT confirmed_at FROM confirmations c WHERE c.submission_id = submissions.id) "
    "FROM submissions ";

// This boot of the machine (Linux): BootClock readings compare only within one.
QString currentBootId()
{
    QFile file(QStringLiteral("/proc/sys/kernel/random/boot_id"));
    if (!file.open(QIODevice::ReadOnly)) {
        return QStringLiteral("unknown");
    }
    return QString::fromLatin1(file.readAll().trimmed());
}

bool processIsAlive(qint64 pid)
{
    return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

} // namespace

namespace {

// sqlite3_commit_hook's callback: tells the observer, and lets the commit go ahead (0).
int notifyCommit(void* observer)
{
    (*static_cast<std::function<void()>*>(observer))();
    return 0;
}

} // namespace

Outbox::Outbox(const QString& stateDir)
    : m_path(QDir(stateDir).filePath(QStringLiteral("client.db")))
    , m_owner(QStringLiteral("%1/%2").arg(::getpid()).arg(QUuid::createUuid().toString(QUuid::WithoutBraces)))
    , m_bootId(currentBootId())
{
    QDir().mkpath(stateDir);
    m_db = std::make_unique<SQLite::Database>(utf8(m_path), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    // A CLI and a window (or several CLIs) may share one state folder: writers queue instead of failing.
    m_db->setBusyTimeout(30'000);
    m_db->exec("PRAGMA journal_mode = WAL");
    // FULL: a submission we acknowledged to the user as "sending" must survive a power cut.
    m_db->exec("PRAGMA synchronous = FULL");
    m_db->exec("PRAGMA foreign_keys = ON");
    SQLite::Transaction tx(*m_db, SQLite::TransactionBehavior::IMMEDIATE);
    OutboxSchema::migrate(*m_db);
    tx.commit();
    struct stat file
    {
    };
    if (::stat(utf8(m_path).c_str(), &file) == 0) {
        m_fileId = {static_cast<quint64>(file.st_dev), static_cast<quint64>(file.st_ino)};
    }
}

void Outbox::checkFile() const
{
    struct stat file
    {
    };
    if (::stat(utf8(m_path).c_str(), &file) != 0 ||
        std::pair(static_cast<quint64>(file.st_dev), static_cast<quint64>(file.st_ino)) != m_fileId) {
        throw std::runtime_error("the state database " + utf8(m_path) +
                                 " was deleted or replaced while this client was using it: nothing more is written "
                                 "to it (what it held is gone with it)");
    }
}

Outbox::~Outbox()
{
    try {
        releaseLeases();
    } catch (const SQLite::Exception&) {
        // The leases then end with this process: the others see it is gone.
    }
}

void Outbox::setCommitObserver(std::function<void()> observer)
{
    m_commitObserver = std::move(observer);
    sqlite3_commit_hook(m_db->getHandle(), m_commitObserver ? &notifyCommit : nullptr, &m_commitObserver);
}

std::unique_ptr<SQLite::Transaction> Outbox::batch()
{
    return std::make_unique<SQLite::Transaction>(*m_db, SQLite::TransactionBehavior::IMMEDIATE);
}

std::optional<Submission> Outbox::createUnlessPending(Submission& submission, const QString& apiKey)
{
    checkFile();
    SQLite::Transaction tx(*m_db, SQLite::TransactionBehavior::IMMEDIATE);
    if (auto existing = pendingForCart(submission.cartId, apiKey)) {
        return existing;
    }
    if (auto placed = placedForCart(submission.cartId, apiKey, submission.target)) {
        return placed;
    }
    create(submission, apiKey);
    tx.commit();
    return std::nullopt;
}

void Outbox::create(Submission& submission, const QString& apiKey)
{
    SQLite::Statement insert(*m_db,
                             "INSERT INTO submissions (idem_key, cart_id, body, target, path, api_key, state, "
                             "created_at, next_attempt_at, deadline_at, created_mono, created_boot) "
                             "VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)");
    insert.bind(1, utf8(submission.key));
    insert.bind(2, utf8(submission.cartId));
    insert.bind(3, submission.body.constData(), static_cast<int>(submission.body.size()));
    insert.bind(4, utf8(submission.target.toString()));
    insert.bind(5, utf8(submission.path));
    insert.bind(6, utf8(apiKey));
    insert.bind(7, static_cast<int64_t>(submission.createdMs));
    insert.bind(8, static_cast<int64_t>(submission.nextAttemptMs));
    submission.deadlineMs = OutboxSchema::boundedDeadline(submission.createdMs, submission.deadlineMs);
    insert.bind(9, static_cast<int64_t>(submission.deadlineMs));
    insert.bind(10, static_cast<int64_t>(submission.createdMonoMs));
    if (submission.createdMonoMs > 0) {
        submission.createdBoot = m_bootId;
        insert.bind(11, utf8(m_bootId));
    }
    insert.exec();
    submission.id = m_db->getLastInsertRowid();
    submission.state = SubmissionState::Pending;
    submission.apiKey = apiKey;
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
    // Bounded again when read: a row an older client wrote into this file after the migration counts as well.
    s.deadlineMs = OutboxSchema::boundedDeadline(s.createdMs, row.getColumn(14).getInt64());
    s.apiKey = text(row.getColumn(15));
    s.createdMonoMs = row.getColumn(16).getInt64();
    s.createdBoot = text(row.getColumn(17));
    s.overruled = submissionStateFromName(text(row.getColumn(18)));
    s.duplicateOrderId = row.getColumn(19).getInt64();
    s.confirmedMs = row.getColumn(20).isNull() ? 0 : row.getColumn(20).getInt64();

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

QList<Submission> Outbox::unknownOutcomes(const QString& cartId, const QString& apiKey, qint64 exceptId) const
{
    SQLite::Statement rows(*m_db,
                           "SELECT id FROM submissions WHERE cart_id = ? AND api_key = ? AND id <> ? "
                           "AND state IN ('gave-up', 'abandoned', 'rejected', 'placed', 'duplicated') ORDER BY id");
    rows.bind(1, utf8(cartId));
    rows.bind(2, utf8(apiKey));
    rows.bind(3, static_cast<int64_t>(exceptId));
    QList<Submission> result;
    while (rows.executeStep()) {
        Submission earlier = load(rows.getColumn(0).getInt64());
        if (rules::readBackBeforeNewKey(earlier)) {
            result.append(std::move(earlier));
        }
    }
    return result;
}

std::optional<Submission> Outbox::placedForCart(const QString& cartId, const QString& apiKey, const QUrl& target) const
{
    SQLite::Statement row(*m_db,
                          "SELECT id FROM submissions WHERE cart_id = ? AND api_key = ? AND target = ? "
                          "AND state IN ('placed', 'duplicated') ORDER BY id DESC LIMIT 1");
    row.bind(1, utf8(cartId));
    row.bind(2, utf8(apiKey));
    row.bind(3, utf8(target.toString()));
    if (!row.executeStep()) {
        return std::nullopt;
    }
    return find(row.getColumn(0).getInt64());
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

int Outbox::pendingElsewhereCount(const QString& target, const QString& apiKey) const
{
    SQLite::Statement count(*m_db,
                            "SELECT count(*) FROM submissions WHERE state = 'pending' AND target <> ? AND api_key = ?");
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
    checkFile();
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

bool Outbox::update(const Submission& s)
{
    return settle(s, SubmissionState::Pending);
}

void Outbox::confirmPlaced(qint64 id, qint64 orderId, qint64 confirmedMs)
{
    checkFile();
    SQLite::Statement confirm(*m_db,
                              "INSERT OR REPLACE INTO confirmations (submission_id, confirmed_at) "
                              "SELECT id, ? FROM submissions WHERE id = ? AND state = 'placed' AND order_id = ?");
    confirm.bind(1, static_cast<int64_t>(confirmedMs));
    confirm.bind(2, static_cast<int64_t>(id));
    confirm.bind(3, static_cast<int64_t>(orderId));
    confirm.exec();
}

bool Outbox::settle(const Submission& s, SubmissionState from)
{
    checkFile();
    if (s.state != from && !rules::maySettle(from, s.state)) {
        return false; // not in the table: placed is final, nothing turns back into pending
    }
    SQLite::Statement update(*m_db,
                             "UPDATE submissions SET state = ?, order_id = ?, replayed = ?, http_status = ?, "
                             "problem_type = ?, problem_detail = ?, next_attempt_at = ?, "
                             "lease_owner = CASE WHEN ? = 'pending' THEN lease_owner END, "
                             "lease_until = CASE WHEN ? = 'pending' THEN lease_until ELSE 0 END, "
                             "overruled = CASE WHEN ? = 'placed' AND state IN ('gave-up', 'abandoned', 'rejected') "
                             "THEN state ELSE overruled END, duplicate_order_id = ? "
                             "WHERE id = ? AND state = ?");
    const std::string state = utf8(submissionStateName(s.state));
    update.bind(1, state);
    if (s.orderId > 0) {
        update.bind(2, static_cast<int64_t>(s.orderId));
    }
    update.bind(3, s.replayed ? 1 : 0);
    update.bind(4, s.httpStatus);
    update.bind(5, utf8(s.problemType));
    update.bind(6, utf8(s.problemDetail));
    update.bind(7, static_cast<int64_t>(s.nextAttemptMs));
    update.bind(8, state);
    update.bind(9, state);
    update.bind(10, state);
    update.bind(11, static_cast<int64_t>(s.duplicateOrderId));
    update.bind(12, static_cast<int64_t>(s.id));
    update.bind(13, utf8(submissionStateName(from)));
    return update.exec() > 0;
}

bool Outbox::leaseIsFree(const SQLite::Statement& row, qint64 leaseNowMs, qint64 wallNowMs) const
{
    // row: lease_owner, lease_pid, lease_until, lease_boot. A holder whose process is gone (kill -9 leaves no chance
    // to release) holds nothing; the rest is SubmissionRules' (the machine's monotonic clock, its boot).
    rules::Lease lease;
    lease.owner = text(row.getColumn(0));
    lease.holderAlive = !lease.owner.isEmpty() && lease.owner != m_owner && processIsAlive(row.getColumn(1).getInt64());
    lease.untilMs = row.getColumn(2).getInt64();
    if (!row.getColumn(3).isNull()) {
        lease.boot = text(row.getColumn(3));
    }
    return rules::leaseIsFree(lease, m_owner, m_bootId, leaseNowMs, wallNowMs);
}

Outbox::Claim Outbox::settleUnlessLeased(const Submission& s, SubmissionState from, qint64 leaseNowMs, qint64 wallNowMs)
{
    checkFile();
    SQLite::Transaction tx(*m_db, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement row(
        *m_db, "SELECT lease_owner, lease_pid, lease_until, lease_boot, state FROM submissions WHERE id = ?");
    row.bind(1, static_cast<int64_t>(s.id));
    if (!row.executeStep()) {
        return Claim::Missing;
    }
    if (text(row.getColumn(4)) != submissionStateName(from)) {
        return Claim::NotPending;
    }
    if (!leaseIsFree(row, leaseNowMs, wallNowMs)) {
        return Claim::LeasedElsewhere;
    }
    row.reset();
    if (!settle(s, from)) {
        return Claim::NotPending;
    }
    tx.commit();
    return Claim::Started;
}

Outbox::AttemptStart Outbox::startAttempt(qint64 id, qint64 nowMs, qint64 leaseUntilMs, const QString& interruptedText,
                                          const std::optional<QString>& newKey, bool noneInFlightHere,
                                          qint64 recordedAtMs)
{
    checkFile();
    AttemptStart result;
    const qint64 wallNowMs = recordedAtMs >= 0 ? recordedAtMs : nowMs;
    SQLite::Transaction tx(*m_db, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement row(
        *m_db, "SELECT lease_owner, lease_pid, lease_until, lease_boot, state FROM submissions WHERE id = ?");
    row.bind(1, static_cast<int64_t>(id));
    if (!row.executeStep()) {
        return result;
    }
    if (text(row.getColumn(4)) != u"pending") {
        result.claim = Claim::NotPending;
        result.submission = load(id);
        return result;
    }
    const QString owner = text(row.getColumn(0));
    const qint64 until = row.getColumn(2).getInt64();
    if (!leaseIsFree(row, nowMs, wallNowMs)) {
        result.claim = Claim::LeasedElsewhere;
        result.leaseUntilMs = until;
        result.submission = load(id);
        return result;
    }
    if (owner != m_owner || noneInFlightHere) {
        // Whoever sent those is gone: what it left in flight may have reached the server.
        SQLite::Statement interrupted(*m_db,
                                      "UPDATE attempts SET outcome = 'maybe-sent', ended_at = ?, error = ? "
                                      "WHERE submission_id = ? AND outcome = 'in-flight'");
        interrupted.bind(1, static_cast<int64_t>(wallNowMs));
        interrupted.bind(2, utf8(interruptedText));
        interrupted.bind(3, static_cast<int64_t>(id));
        interrupted.exec();
    }
    if (newKey) {
        changeKey(id, *newKey);
    }
    SQLite::Statement lease(*m_db,
                            "UPDATE submissions SET lease_owner = ?, lease_pid = ?, lease_until = ?, lease_boot = ?, "
                            "next_attempt_at = 0 WHERE id = ?");
    lease.bind(1, utf8(m_owner));
    lease.bind(2, static_cast<int64_t>(::getpid()));
    lease.bind(3, static_cast<int64_t>(leaseUntilMs));
    lease.bind(4, utf8(m_bootId));
    lease.bind(5, static_cast<int64_t>(id));
    lease.exec();
    SQLite::Statement insert(*m_db,
                             "INSERT INTO attempts (submission_id, number, started_at, outcome) "
                             "SELECT ?, coalesce(max(number), 0) + 1, ?, 'in-flight' FROM attempts "
                             "WHERE submission_id = ?");
    insert.bind(1, static_cast<int64_t>(id));
    insert.bind(2, static_cast<int64_t>(wallNowMs));
    insert.bind(3, static_cast<int64_t>(id));
    insert.exec();
    result.submission = load(id);
    tx.commit();
    result.claim = Claim::Started;
    return result;
}

bool Outbox::endAttempt(const Attempt& attempt, const Submission& after, qint64 leaseUntilMs, qint64 leaseNowMs)
{
    checkFile();
    SQLite::Transaction tx(*m_db, SQLite::TransactionBehavior::IMMEDIATE);
    recordAttemptEnd(after.id, attempt);
    bool applied = false;
    if (rules::needsFreeLease(after.state)) {
        // Nothing is given up while another process may have an attempt on the wire: this one's lease may have
        // ended (the process was stopped) and another taken it.
        SQLite::Statement row(*m_db,
                              "SELECT lease_owner, lease_pid, lease_until, lease_boot FROM submissions WHERE id = ?");
        row.bind(1, static_cast<int64_t>(after.id));
        if (row.executeStep() && !leaseIsFree(row, leaseNowMs, attempt.endedMs)) {
            tx.commit(); // the attempt's end is history all the same
            return false;
        }
    }
    if (after.state == SubmissionState::Pending) {
        SQLite::Statement due(*m_db,
                              "UPDATE submissions SET next_attempt_at = ?, lease_until = ? "
                              "WHERE id = ? AND state = 'pending' AND lease_owner = ?");
        due.bind(1, static_cast<int64_t>(after.nextAttemptMs));
        due.bind(2, static_cast<int64_t>(leaseUntilMs));
        due.bind(3, static_cast<int64_t>(after.id));
        due.bind(4, utf8(m_owner));
        applied = due.exec() > 0;
    } else {
        applied = settle(after, SubmissionState::Pending);
    }
    tx.commit();
    return applied;
}

void Outbox::releaseLeases()
{
    SQLite::Statement release(*m_db,
                              "UPDATE submissions SET lease_owner = NULL, lease_until = 0, lease_boot = NULL "
                              "WHERE lease_owner = ?");
    release.bind(1, utf8(m_owner));
    release.exec();
}

void Outbox::changeKey(qint64 submissionId, const QString& key)
{
    SQLite::Statement update(*m_db, "UPDATE submissions SET idem_key = ? WHERE id = ?");
    update.bind(1, utf8(key));
    update.bind(2, static_cast<int64_t>(submissionId));
    update.exec();
}

} // namespace onceorder::core
