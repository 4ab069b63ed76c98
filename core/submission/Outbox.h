// Outbox: the client's durable memory of what it has asked the server to do. A submission (key, exact bytes,
// target) is committed to SQLite before its first byte is sent, so a crash at any point can be resumed with the
// same key; every attempt is recorded as it starts and ends.
#pragma once

#include "submission/Submission.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace SQLite {
class Database;
class Statement;
class Transaction;
} // namespace SQLite

namespace onceorder::core {

class Outbox
{
public:
    // Opens (creating if needed) <stateDir>/client.db. Throws SQLite::Exception if the folder is unusable.
    explicit Outbox(const QString& stateDir);
    ~Outbox();
    Outbox(const Outbox&) = delete;
    Outbox& operator=(const Outbox&) = delete;

    // Persists a new pending submission; fills in its id. Durable (synchronous=FULL) when this returns.
    void create(Submission& submission, const QString& apiKey);

    // The pending submission for this cart id, if any: a cart is frozen while it has one.
    std::optional<Submission> pendingForCart(const QString& cartId, const QString& apiKey) const;
    std::optional<Submission> find(qint64 id) const;
    // Pending submissions for this target and client, oldest first.
    QList<Submission> pending(const QString& target, const QString& apiKey) const;
    // How many there are, without loading them (the window asks on every change).
    int pendingCount(const QString& target, const QString& apiKey) const;
    QList<Submission> all() const;

    void recordAttemptStart(qint64 submissionId, const Attempt& attempt);
    void recordAttemptEnd(qint64 submissionId, const Attempt& attempt);
    // State, final answer and next due time of a submission.
    void update(const Submission& submission);
    // A new key for the same submission (only the "new key per retry" teaching strategy does this).
    void changeKey(qint64 submissionId, const QString& key);

    // Groups several writes into one durable commit (one fsync instead of one per write); rolls back unless
    // commit() is called on it.
    std::unique_ptr<SQLite::Transaction> batch();

    QString path() const { return m_path; }

private:
    Submission load(qint64 id) const;
    // The submissions whose ids the statement yields (its first column), in that order.
    QList<Submission> loadEach(SQLite::Statement& ids) const;

    QString m_path;
    std::unique_ptr<SQLite::Database> m_db;
};

} // namespace onceorder::core
