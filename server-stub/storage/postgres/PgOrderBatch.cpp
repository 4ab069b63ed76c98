#include "storage/postgres/PgOrderBatch.h"

#include "storage/DatabaseFailure.h"
#include "storage/postgres/PgWorkTx.h"

#include <pqxx/except>
#include <pqxx/transaction>

#include <algorithm>
#include <optional>
#include <utility>

namespace onceorder::server {

PgOrderBatch::PgOrderBatch(PgPool& pool)
    : m_pool(pool)
    , m_thread([this] { loop(); })
{
}

PgOrderBatch::~PgOrderBatch()
{
    {
        std::lock_guard lock(m_lock);
        m_stopping = true;
    }
    m_queued.notify_all();
    m_thread.join();
}

void PgOrderBatch::submit(Work work, std::function<void()> afterCommit, Completion completed)
{
    auto job = std::make_unique<Job>();
    job->work = std::move(work);
    job->afterCommit = std::move(afterCommit);
    job->completed = std::move(completed);
    job->queued = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(m_lock);
        m_queue.push_back(std::move(job));
    }
    m_queued.notify_one();
}

void PgOrderBatch::loop()
{
    while (true) {
        Batch batch;
        {
            std::unique_lock lock(m_lock);
            m_queued.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty()) {
                return; // stopping, and nothing left to commit
            }
            const auto take = std::min(m_queue.size(), kMaxJobs);
            for (std::size_t i = 0; i < take; ++i) {
                batch.push_back(std::move(m_queue.front()));
                m_queue.pop_front();
            }
        }
        if (answerOverdue(batch)) {
            continue;
        }
        const bool committed = run(batch);
        Batch done;
        {
            std::lock_guard lock(m_lock);
            // A deadlock's victims first in the next batch, in their order.
            for (auto it = batch.rbegin(); it != batch.rend(); ++it) {
                if ((*it)->again) {
                    (*it)->again = false;
                    m_queue.push_front(std::move(*it));
                }
            }
        }
        for (auto& job : batch) {
            if (job) {
                done.push_back(std::move(job));
            }
        }
        if (committed) {
            for (const auto& job : done) {
                if (!job->error && job->afterCommit) {
                    job->afterCommit();
                }
            }
        }
        for (const auto& job : done) {
            try {
                job->completed(job->error);
            } catch (...) { // NOLINT(bugprone-empty-catch): a completion must not throw; the committer goes on
            }
        }
    }
}

bool PgOrderBatch::runWithoutSavepoints(pqxx::connection& connection, const Batch& batch)
{
    pqxx::work tx(connection);
    PgWorkTx sql(tx);
    AtCommits atCommit;
    for (const auto& job : batch) {
        try {
            job->work(sql, {.oneByOne = job->oneByOne, .atCommit = &atCommit});
        } catch (const pqxx::broken_connection&) {
            throw; // the whole batch
        } catch (const Undo&) {
            job->oneByOne = true;
            return false;
        } catch (...) {
            return false; // the order's failure, as the pass with savepoints finds it again
        }
    }
    // What the orders left to the end (the stock of every order at once, the products' rows held from here to the
    // COMMIT only). Short of anything: the pass with savepoints finds out whose order it is.
    try {
        if (!atCommit.run(sql)) {
            return false;
        }
    } catch (const pqxx::broken_connection&) {
        throw;
    } catch (...) {
        return false;
    }
    tx.commit();
    return true;
}

bool PgOrderBatch::run(const Batch& batch)
{
    std::optional<PgPool::Lease> db;
    try {
        db.emplace(m_pool.lease());
        // First every order straight on (one round trip less per order: the savepoint), the stock of all of them
        // taken last; if one of them fails or has to be undone, or the stock falls short, nothing of this transaction
        // stays, and the batch runs again with a savepoint per order, each order taking its own stock.
        if (runWithoutSavepoints(**db, batch)) {
            return true;
        }
        pqxx::work tx(**db);
        PgWorkTx sql(tx);
        // A batch of one needs no savepoint: if its order fails, the transaction is simply not committed.
        const bool alone = batch.size() == 1;
        bool failed = false;
        for (const auto& job : batch) {
            ++job->runs;
            if (!alone) {
                tx.exec0("SAVEPOINT order_job");
            }
            try {
                try {
                    job->work(sql, {.oneByOne = job->oneByOne});
                    continue;
                } catch (const Undo&) {
                    job->oneByOne = true;
                    if (alone) { // nothing to roll back to but the batch: the order again, next batch, one by one
                        --job->runs;
                        job->again = true;
                        failed = true;
                        continue;
                    }
                    tx.exec0("ROLLBACK TO order_job"); // the order's own savepoint stays: the steps run in it
                }
                job->work(sql, {.oneByOne = true});
                continue;
            } catch (const pqxx::broken_connection&) {
                throw; // the whole batch
            } catch (const pqxx::deadlock_detected&) {
                job->again = job->runs < kMaxRuns;
                job->error = job->again ? nullptr : std::current_exception();
            } catch (...) {
                job->error = std::current_exception();
            }
            failed = failed || alone;
            if (!alone) {
                tx.exec0("ROLLBACK TO order_job");
            }
        }
        if (failed) {
            return false; // rolled back when tx goes
        }
        tx.commit();
        return true;
    } catch (const pqxx::broken_connection&) {
        if (db) {
            db->discard();
        }
        failAll(batch, std::current_exception());
    } catch (...) {
        failAll(batch, std::current_exception());
    }
    return false;
}

bool PgOrderBatch::answerOverdue(Batch& batch) const
{
    const auto budget = m_pool.budget();
    if (budget.count() <= 0) {
        return false;
    }
    const auto now = std::chrono::steady_clock::now();
    Batch overdue;
    for (auto& job : batch) {
        if (now - job->queued > budget) {
            overdue.push_back(std::move(job));
        }
    }
    if (overdue.empty()) {
        return false;
    }
    std::erase(batch, nullptr);
    const auto error = std::make_exception_ptr(
        TransientFailure("the database did not take this order within the time budget; nothing was written"));
    for (const auto& job : overdue) {
        try {
            job->completed(error);
        } catch (...) { // NOLINT(bugprone-empty-catch): as in loop()
        }
    }
    return batch.empty();
}

void PgOrderBatch::failAll(const Batch& batch, const std::exception_ptr& error)
{
    for (const auto& job : batch) {
        job->error = error;
        job->again = false;
    }
}

} // namespace onceorder::server
