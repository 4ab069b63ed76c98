// PgOrderBatch: group commit for POST /orders on PostgreSQL, as GroupCommitter does it for SQLite. Every order of a
// product updates that product's row, and PostgreSQL lets go of the row only when the order's COMMIT is on disk: the
// next order of the product waits for the previous one's WAL flush, so one order per transaction means one flush per
// order, however many run at once (PostgreSQL's own group commit has nothing to group; measured: 1.08 orders per
// flush, the backends waiting on `transactionid`). So the orders that arrive while a batch commits go into the next
// batch: one transaction, one COMMIT, one flush. Each order first straight on, without a savepoint (a round trip less
// per order, every order of the batch waiting on the product's row meanwhile); if one of them fails or must be undone
// (Undo), that transaction is rolled back and the batch runs again with each order's steps in a savepoint of their
// own.
//
// No thread of its own: the first request that finds no batch running runs the batch (everything queued, up to
// kMaxJobs, its own order among them or not), the others wait for their order's outcome and run the next batch in
// turn. Each order keeps its own outcome: an order that throws is rolled back to its savepoint (a transient failure,
// its 503, for it alone; a deadlock with another instance's batch is run again in the next batch instead), a failed
// BEGIN or COMMIT is every order's failure, and nobody is answered before the COMMIT. A later order sees the earlier
// ones' writes: a second copy of a key in one batch replays the first's stored answer.
//
// One per PgOrderStore, a member of it: the queue lives and dies with the store and its pool, so a store never sees
// another store's queue (tests/PgOrderBatchEndToEndTest.cpp shows the outcomes from outside).
#pragma once

#include "orders/OrderResponse.h"
#include "storage/postgres/PgPool.h"

#include <pqxx/dbtransaction>

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace onceorder::server {

class PgOrderBatch
{
public:
    // An order's steps in the batch's transaction. `oneByOne` false: the order may first try itself in fewer statements
    // and throw Undo when what they wrote is not a plain new order; the batch then undoes what the
    // order wrote and runs its steps again with `oneByOne` true, in this batch or (a batch of one, which has no
    // savepoint) the next.
    using Steps = std::function<OrderResponse(pqxx::dbtransaction&, bool oneByOne)>;
    struct Undo
    {
    };

    explicit PgOrderBatch(PgPool& pool)
        : m_pool(pool)
    {
    }
    PgOrderBatch(const PgOrderBatch&) = delete;
    PgOrderBatch& operator=(const PgOrderBatch&) = delete;

    // Runs `steps` in the next batch on a connection of the pool; its answer, or what it (or the batch) threw.
    OrderResponse place(const Steps& steps);

private:
    // Two savepoints per order (the order's own and OrderWriter's) stay within PostgreSQL's 64 cached
    // subtransactions per backend, past which every snapshot in the cluster gets slower.
    static constexpr std::size_t kMaxJobs = 16;
    static constexpr int kMaxRuns = 3;

    struct Job
    {
        const Steps* steps = nullptr;
        std::optional<OrderResponse> response;
        std::exception_ptr error;
        int runs = 0;
        bool oneByOne = false;
        bool again = false;
        bool done = false;
    };

    void run(const std::vector<Job*>& batch);
    // The batch in one transaction without savepoints: committed, or false (rolled back) when an order failed or
    // threw Undo; throws what ends the whole batch (a broken connection, a failed COMMIT).
    static bool runWithoutSavepoints(pqxx::connection& connection, const std::vector<Job*>& batch);
    static void failAll(const std::vector<Job*>& batch, const std::exception_ptr& error);

    PgPool& m_pool;
    std::mutex m_lock;
    std::condition_variable m_finished;
    std::vector<Job*> m_queue;
    bool m_running = false;
};

} // namespace onceorder::server
