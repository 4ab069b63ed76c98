// WriteTransaction: the one way the server writes to its database. It holds a leased connection, the store's
// writer lock and an IMMEDIATE transaction that rolls back unless committed, in that order, so that every
// writer queues on the lock (not on SQLITE_BUSY) and none holds the lock without its connection.
#pragma once

#include "storage/sqlite/Store.h"

#include <SQLiteCpp/Transaction.h>

#include <mutex>
#include <optional>

namespace onceorder::server {

class WriteTransaction
{
public:
    // On a connection of its own, leased for the transaction's lifetime.
    explicit WriteTransaction(Store& store);
    // On a connection the caller already holds, e.g. after a read that needed no writer.
    WriteTransaction(Store& store, Store::Lease& db);
    WriteTransaction(const WriteTransaction&) = delete;
    WriteTransaction& operator=(const WriteTransaction&) = delete;

    Store::Lease& db() { return m_db; }
    void commit() { m_transaction.commit(); }

private:
    // Destroyed in reverse: the rollback (if any), then the writer lock, then the connection goes back.
    std::optional<Store::Lease> m_ownLease;
    Store::Lease& m_db;
    std::lock_guard<std::timed_mutex> m_writer;
    SQLite::Transaction m_transaction;
};

} // namespace onceorder::server
