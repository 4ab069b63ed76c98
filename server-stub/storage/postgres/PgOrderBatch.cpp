#include "storage/postgres/PgOrderBatch.h"

#include <pqxx/except>
#include <pqxx/transaction>

#include <algorithm>
#include <utility>

namespace onceorder::server {

OrderResponse PgOrderBatch::place(const Steps& steps)
{
    Job job;
    job.steps = &steps;
    std::unique_lock lock(m_lock);
    m_queue.push_back(&job);
    while (!job.done) {
        if (m_running) {
            m_finished.wait(lock);
            continue;
        }
        m_running = true;
        const auto take = std::min(m_queue.size(), kMaxJobs);
        std::vector<Job*> batch(m_queue.begin(), m_queue.begin() + static_cast<std::ptrdiff_t>(take));
        m_queue.erase(m_queue.begin(), m_queue.begin() + static_cast<std::ptrdiff_t>(take));
        lock.unlock();
        run(batch);
        lock.lock();
        for (Job* done : batch) {
            if (done->again) { // a deadlock's victim: first in the next batch
                done->again = false;
                m_queue.insert(m_queue.begin(), done);
            } else {
                done->done = true;
            }
        }
        m_running = false;
        m_finished.notify_all();
    }
    if (job.error) {
        std::rethrow_exception(job.error);
    }
    return std::move(*job.response);
}

bool PgOrderBatch::runWithoutSavepoints(pqxx::connection& connection, const std::vector<Job*>& batch)
{
    pqxx::work tx(connection);
    for (Job* job : batch) {
        try {
            job->response = (*job->steps)(tx, job->oneByOne);
        } catch (const pqxx::broken_connection&) {
            throw; // the whole batch
        } catch (const Undo&) {
            job->oneByOne = true;
            return false;
        } catch (...) {
            return false; // the order's failure, as the pass with savepoints finds it again
        }
    }
    tx.commit();
    return true;
}

void PgOrderBatch::run(const std::vector<Job*>& batch)
{
    std::optional<PgPool::Lease> db;
    try {
        db.emplace(m_pool.lease());
        // First every order straight on (one round trip less per order: the savepoint); if one of them fails or has
        // to be undone, nothing of this transaction stays, and the batch runs again with a savepoint per order.
        if (batch.size() > 1) {
            if (runWithoutSavepoints(**db, batch)) {
                return;
            }
            for (Job* job : batch) {
                job->response.reset();
            }
        }
        pqxx::work tx(**db);
        // A batch of one needs no savepoint: if its order fails, the transaction is simply not committed.
        const bool alone = batch.size() == 1;
        bool failed = false;
        for (Job* job : batch) {
            ++job->runs;
            if (!alone) {
                tx.exec0("SAVEPOINT order_job");
            }
            try {
                try {
                    job->response = (*job->steps)(tx, job->oneByOne);
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
                job->response = (*job->steps)(tx, true);
                continue;
            } catch (const pqxx::broken_connection&) {
                throw; // the whole batch
            } catch (const pqxx::deadlock_detected&) {
                job->again = job->runs < kMaxRuns;
                job->error = job->again ? nullptr : std::current_exception();
            } catch (...) {
                job->error = std::current_exception();
            }
            failed = alone;
            if (!alone) {
                tx.exec0("ROLLBACK TO order_job");
            }
        }
        if (failed) {
            return; // rolled back when tx goes
        }
        tx.commit();
    } catch (const pqxx::broken_connection&) {
        if (db) {
            db->discard();
        }
        failAll(batch, std::current_exception());
    } catch (...) {
        failAll(batch, std::current_exception());
    }
}

void PgOrderBatch::failAll(const std::vector<Job*>& batch, const std::exception_ptr& error)
{
    for (Job* job : batch) {
        job->response.reset();
        job->error = error;
        job->again = false;
    }
}

} // namespace onceorder::server
