// PgOrderBatch: group commit for POST /orders on PostgreSQL, the WriteBatcher (storage/WriteBatcher.h) that
// GroupCommitter is for SQLite. Every order of a product updates that product's row, and PostgreSQL lets go of the
// row only when the order's COMMIT is on disk: the next order of the product waits for the previous one's WAL flush,
// so one order per transaction means one flush per order, however many run at once (PostgreSQL's own group commit
// has nothing to group; measured: 1.08 orders per flush, the backends waiting on `transactionid`). So the orders that
// arrive while a batch commits go into the next batch: one transaction, one COMMIT, one flush. Each order first
// straight on, without a savepoint (a round trip less per order), its stock left to the batch: the batch takes the
// stock of all its orders in one conditional UPDATE just before COMMIT, so a product's row is held from there to the
// COMMIT only and another instance's batch writes its key rows and orders meanwhile instead of waiting from its first
// order on. If an order fails or must be undone (Undo), or the stock falls short, that transaction is rolled back and
// the batch runs again with each order's steps in a savepoint of their own, each taking its own stock.
//
// A committer thread of its own, as GroupCommitter's: a request worker submits its order and is free at once; the
// committer takes everything queued (up to kMaxJobs) as the next batch, and answers each order after the batch.
// Each order keeps its own outcome: an order that throws is rolled back to its savepoint (a transient failure, its
// 503, for it alone; a deadlock with another instance's batch is run again first in the next batch instead, up to
// kMaxRuns), a failed BEGIN or COMMIT or a broken connection is every order's failure (a broken connection is not
// given back to the pool), and nobody is answered before the COMMIT: every kept order's afterCommit runs after it,
// then every completion. A later order sees the earlier ones' writes: a second copy of a key in one batch replays
// the first's stored answer.
//
// Nothing waits longer than the time budget (--db-timeout-ms, PgPool::Settings::budget) for a connection that stopped
// answering: the batch's connection is shut down by PgWatchdog past its deadline, the batch fails as a broken
// connection (every order 503, the connection closed), and an order that waited in the queue longer than the budget
// meanwhile is answered 503 without being run, instead of waiting a second budget in the next batch.
//
// One per PgOrderStore, a member of it: the queue lives and dies with the store and its pool, so a store never sees
// another store's queue (tests/PgOrderBatchEndToEndTest.cpp shows the outcomes from outside).
#pragma once

#include "storage/WriteBatcher.h"
#include "storage/postgres/PgPool.h"

#include <pqxx/connection>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace onceorder::server {

class PgOrderBatch final : public WriteBatcher
{
public:
    explicit PgOrderBatch(PgPool& pool);
    // Runs what is queued, then stops the thread.
    ~PgOrderBatch() override;
    PgOrderBatch(const PgOrderBatch&) = delete;
    PgOrderBatch& operator=(const PgOrderBatch&) = delete;

    void submit(Work work, std::function<void()> afterCommit, Completion completed) override;

private:
    // Two savepoints per order (the order's own and OrderWriter's) stay within PostgreSQL's 64 cached
    // subtransactions per backend, past which every snapshot in the cluster gets slower.
    static constexpr std::size_t kMaxJobs = 16;
    static constexpr int kMaxRuns = 3;

    struct Job
    {
        Work work;
        std::function<void()> afterCommit;
        Completion completed;
        std::exception_ptr error;
        std::chrono::steady_clock::time_point queued;
        int runs = 0;
        bool oneByOne = false;
        bool again = false;
    };
    using Batch = std::vector<std::unique_ptr<Job>>;

    void loop();
    // Runs the batch; true if its transaction committed (the jobs without an error and not to run again are kept).
    bool run(const Batch& batch);
    // The batch in one transaction without savepoints, what its orders left to the end (WriteBatcher::AtCommit: their
    // stock) run last: committed, or false (rolled back) when an order failed or threw Undo or that fell short; throws
    // what ends the whole batch (a broken connection, a failed COMMIT).
    static bool runWithoutSavepoints(pqxx::connection& connection, const Batch& batch);
    static void failAll(const Batch& batch, const std::exception_ptr& error);
    // Answers 503 (and takes out) the orders that waited in the queue longer than the time budget; true if none is
    // left to run.
    bool answerOverdue(Batch& batch) const;

    PgPool& m_pool;
    std::mutex m_lock;
    std::condition_variable m_queued;
    std::deque<std::unique_ptr<Job>> m_queue;
    bool m_stopping = false;
    std::thread m_thread; // last: started once everything it uses is there
};

} // namespace onceorder::server
