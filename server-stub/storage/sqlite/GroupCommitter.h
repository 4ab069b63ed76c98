// GroupCommitter: group commit for SQLite (the WriteBatcher of storage/WriteBatcher.h). Requests that want to write
// hand their work to one committer thread, which runs the work of everyone waiting inside one transaction and commits
// it with one fsync.
//
// At --synchronous full every COMMIT is an fsync of the WAL, and with one writer at a time the fsyncs are the
// order path's ceiling (one fsync per order). Here a request submits a job (a closure writing on the connection it
// is given) with a completion, and is answered by that completion once the job's batch is durable (POST /orders
// hands the completion on and frees its worker, so a batch is not limited by --threads; run() is the blocking
// form). The committer loops:
//
//     take everything queued (no timer: what queued while the last batch committed is the next batch)
//     lease a connection, take the store's writer lock, BEGIN IMMEDIATE
//     for each job:  SAVEPOINT job; run it; RELEASE job           (the job returned)
//                                   ROLLBACK TO job; RELEASE job   (the job threw: its exception is its result)
//     COMMIT                                                       (one fsync for the batch)
//     each job's afterCommit, then complete every job               (nobody hears anything before the COMMIT)
//
// What that keeps:
// - Isolation: each job's effect is its own savepoint, so a job that throws (a transient failure, an SQL error)
//   undoes only its own work and its submitter gets the exception back; a job that returns (a created order, a
//   stored refusal) is kept. A later job sees the earlier jobs' writes, as if they had committed just before it:
//   a duplicate key inside one batch finds the first job's completed key row and replays it.
// - Durability: results are handed out only after COMMIT returned. If BEGIN or COMMIT fails, or a failing job
//   took the whole transaction with it (SQLite rolls back the transaction on some errors, e.g. SQLITE_FULL), every
//   job of the batch gets the error: nothing of it is stored and nobody was told otherwise.
// - Crashes: a job may kill the process (the crash faults). Before COMMIT that loses the whole batch with nobody
//   answered, exactly as a crash with one open transaction loses it; a job's afterCommit runs after COMMIT and
//   before any job is completed, so crash-after-commit keeps the whole batch and answers nobody.
// - Other writers: the batch holds the store's writer lock for its transaction, the lock every WriteTransaction
//   (checkout, webhooks, stock, the unbatched order path) takes, so they serialise with batches as with each other.
//
// Test hook: gatherAtLeast(n) makes each batch wait until n jobs are queued (ONCEORDER_GROUP_COMMIT_GATHER sets it
// in the server process), so a test can put a known set of requests into one batch without sleeping.
#pragma once

#include "storage/WriteBatcher.h"
#include "storage/sqlite/Store.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace onceorder::server {

class GroupCommitter final : public WriteBatcher
{
public:
    explicit GroupCommitter(Store& store);
    // Runs what is queued, then stops the thread.
    ~GroupCommitter() override;
    GroupCommitter(const GroupCommitter&) = delete;
    GroupCommitter& operator=(const GroupCommitter&) = delete;

    using Job = std::function<void(Store::Lease&)>;
    // The job's outcome, called once on the committer thread after the batch: nullptr if the job's effect is
    // committed, else the exception it threw or the batch's failure (its effect, and in the latter case the whole
    // batch's, rolled back). Keep it short and let nothing escape: the next batch waits for it.
    using Completion = std::function<void(std::exception_ptr error)>;

    // Queues `job` for the next batch and returns at once; `completed` says how it went, after the COMMIT.
    // `afterCommit`, if any, runs on the committer after the COMMIT and before any job of the batch is completed.
    void submit(Job job, std::function<void()> afterCommit, Completion completed);
    // The same over SqlTx (the order path's, on either database): the work runs on the job's connection through
    // SqliteLeaseTx; if it throws Undo, what it wrote is rolled back to the job's savepoint and it runs again one by
    // one, in the same savepoint.
    void submit(Work work, std::function<void()> afterCommit, Completion completed) override;
    // The same, blocking: returns once the batch is committed, or rethrows what `completed` would have been given.
    void run(Job job, std::function<void()> afterCommit = {});

    // Test hook: from now on, a batch starts only once at least `jobs` are queued (0 or 1: as soon as one is).
    void gatherAtLeast(std::size_t jobs);
    // Test hook: blocks until at least `jobs` are queued for the next batch (with gatherAtLeast, to queue jobs in a
    // known order).
    void waitUntilQueued(std::size_t jobs) const;
    // Test hook: runs on the committer after the batch's jobs and before its COMMIT, with the batch's size.
    void beforeCommit(std::function<void(std::size_t jobs)> hook);

    // Batches committed and jobs run so far (for tests and the performance notes).
    std::uint64_t batches() const;
    std::uint64_t jobs() const;

private:
    struct Pending
    {
        Job job;
        std::function<void()> afterCommit;
        Completion completed;
        std::exception_ptr error;
    };
    using Batch = std::vector<std::unique_ptr<Pending>>;

    void loop();
    void commitBatch(const Batch& batch);

    Store& m_store;
    mutable std::mutex m_lock;
    std::condition_variable m_queued; // wakes the committer
    mutable std::condition_variable m_queueGrew; // wakes waitUntilQueued
    Batch m_queue;
    std::size_t m_gather = 1;
    std::function<void(std::size_t)> m_beforeCommit;
    std::uint64_t m_batches = 0;
    std::uint64_t m_jobs = 0;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace onceorder::server
