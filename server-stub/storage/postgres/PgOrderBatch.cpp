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

void PgOrderBatch::run(const std::vector<Job*>& batch)
{
    std::optional<PgPool::Lease> db;
    try {
        db.emplace(m_pool.lease());
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
                job->response = (*job->steps)(tx);
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
