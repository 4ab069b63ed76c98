#include "storage/sqlite/GroupCommitter.h"

#include "storage/sqlite/SqliteLeaseTx.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>
#include <sqlite3.h>

namespace onceorder::server {

namespace {

void execCached(Store::Lease& db, const char* sql)
{
    auto statement = db.statement(sql);
    statement->exec();
}

// Whether the connection still has the batch's transaction open: SQLite rolls a whole transaction back on its own
// after some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM, an interrupted statement).
bool inTransaction(const Store::Lease& db)
{
    return sqlite3_get_autocommit((*db).getHandle()) == 0;
}

} // namespace

GroupCommitter::GroupCommitter(Store& store)
    : m_store(store)
    , m_thread([this] { loop(); })
{
}

GroupCommitter::~GroupCommitter()
{
    {
        std::lock_guard lock(m_lock);
        m_stopping = true;
        m_gather = 1;
    }
    m_queued.notify_all();
    m_thread.join();
}

void GroupCommitter::submit(Job job, std::function<void()> afterCommit, Completion completed)
{
    auto pending =
        std::make_unique<Pending>(Pending {std::move(job), std::move(afterCommit), std::move(completed), nullptr});
    {
        std::lock_guard lock(m_lock);
        m_queue.push_back(std::move(pending));
    }
    m_queued.notify_one();
    m_queueGrew.notify_all();
}

void GroupCommitter::submit(Work work, std::function<void()> afterCommit, Completion completed)
{
    submit(Job([work = std::move(work)](Store::Lease& db) {
               SqliteLeaseTx tx(db);
               try {
                   work(tx, {});
               } catch (const Undo&) {
                   execCached(db, "ROLLBACK TO batch_job"); // the savepoint stays open: the work runs again in it
                   work(tx, {.oneByOne = true});
               }
           }),
           std::move(afterCommit), std::move(completed));
}

void GroupCommitter::run(Job job, std::function<void()> afterCommit)
{
    std::mutex lock;
    std::condition_variable committed;
    bool done = false;
    std::exception_ptr error;
    submit(std::move(job), std::move(afterCommit), [&](std::exception_ptr failure) {
        // Notified under the lock: once it is released, this frame may be gone.
        std::lock_guard guard(lock);
        error = failure;
        done = true;
        committed.notify_one();
    });
    std::unique_lock wait(lock);
    committed.wait(wait, [&done] { return done; });
    if (error) {
        std::rethrow_exception(error);
    }
}

void GroupCommitter::gatherAtLeast(std::size_t jobs)
{
    {
        std::lock_guard lock(m_lock);
        m_gather = jobs == 0 ? 1 : jobs;
    }
    m_queued.notify_all();
}

void GroupCommitter::waitUntilQueued(std::size_t jobs) const
{
    std::unique_lock lock(m_lock);
    m_queueGrew.wait(lock, [this, jobs] { return m_queue.size() >= jobs; });
}

void GroupCommitter::beforeCommit(std::function<void(std::size_t)> hook)
{
    std::lock_guard lock(m_lock);
    m_beforeCommit = std::move(hook);
}

std::uint64_t GroupCommitter::batches() const
{
    std::lock_guard lock(m_lock);
    return m_batches;
}

std::uint64_t GroupCommitter::jobs() const
{
    std::lock_guard lock(m_lock);
    return m_jobs;
}

void GroupCommitter::loop()
{
    Batch batch;
    while (true) {
        {
            std::unique_lock lock(m_lock);
            m_queued.wait(lock, [this] { return m_stopping || m_queue.size() >= m_gather; });
            if (m_queue.empty()) {
                return; // stopping, and nothing left to commit
            }
            batch.swap(m_queue);
        }
        commitBatch(batch);
        {
            std::lock_guard lock(m_lock);
            ++m_batches;
            m_jobs += batch.size();
        }
        for (const auto& pending : batch) {
            try {
                pending->completed(pending->error);
            } catch (...) { // NOLINT(bugprone-empty-catch): a completion must not throw; the committer goes on
            }
        }
        batch.clear();
    }
}

void GroupCommitter::commitBatch(const Batch& batch)
{
    auto failAll = [&batch](std::exception_ptr error) {
        for (const auto& pending : batch) {
            pending->error = error;
        }
    };
    std::function<void(std::size_t)> beforeCommit;
    {
        std::lock_guard lock(m_lock);
        beforeCommit = m_beforeCommit;
    }
    try {
        auto db = m_store.lease();
        std::lock_guard writer(m_store.writerLock());
        execCached(db, "BEGIN IMMEDIATE");
        try {
            for (const auto& pending : batch) {
                execCached(db, "SAVEPOINT batch_job");
                try {
                    pending->job(db);
                    execCached(db, "RELEASE batch_job");
                } catch (...) {
                    pending->error = std::current_exception();
                    if (!inTransaction(db)) {
                        throw SQLite::Exception("the batch's transaction was rolled back by the failure of one of "
                                                "its requests",
                                                SQLITE_ABORT);
                    }
                    execCached(db, "ROLLBACK TO batch_job");
                    execCached(db, "RELEASE batch_job");
                }
            }
            if (beforeCommit) {
                beforeCommit(batch.size());
            }
            execCached(db, "COMMIT");
        } catch (...) {
            if (inTransaction(db)) {
                try {
                    execCached(db, "ROLLBACK");
                } catch (...) { // NOLINT(bugprone-empty-catch): the error being reported is the first one
                }
            }
            throw;
        }
    } catch (...) {
        // Nothing of the batch is stored: every job answers the batch's failure, whatever it did on its own.
        failAll(std::current_exception());
        return;
    }
    for (const auto& pending : batch) {
        if (pending->afterCommit && !pending->error) {
            pending->afterCommit();
        }
    }
}

} // namespace onceorder::server
