#include "storage/sqlite/WriteTransaction.h"

namespace onceorder::server {

WriteTransaction::WriteTransaction(Store& store)
    : m_ownLease(store.lease())
    , m_db(*m_ownLease)
    , m_writer(store.writerLock())
    , m_transaction(*m_db, SQLite::TransactionBehavior::IMMEDIATE)
{
}

WriteTransaction::WriteTransaction(Store& store, Store::Lease& db)
    : m_db(db)
    , m_writer(store.writerLock())
    , m_transaction(*m_db, SQLite::TransactionBehavior::IMMEDIATE)
{
}

} // namespace onceorder::server
