// WriteBatcher: group commit, on whichever database. Work that wants to write is handed to a committer thread, which
// runs the work of everyone waiting inside one transaction and commits it once (one fsync, one WAL flush), then
// answers each submitter. The submitter's thread is free meanwhile: POST /orders hands its answer on and its request
// worker takes the next request.
//
// What every implementation keeps (storage/sqlite/GroupCommitter, storage/postgres/PgOrderBatch):
// - each work keeps its own outcome: one that throws is undone alone and its submitter gets the exception; the
//   others of the batch are kept;
// - a later work sees the earlier ones' writes, as if they had committed just before it;
// - nobody is answered before the COMMIT: `afterCommit` of every kept work runs after it, then every `completed`;
// - a failed BEGIN or COMMIT (or a lost connection) is every work's failure: nothing of the batch is stored.
#pragma once

#include "storage/SqlTx.h"

#include <exception>
#include <functional>
#include <map>
#include <string>

namespace onceorder::server {

class WriteBatcher
{
public:
    virtual ~WriteBatcher() = default;

    // Thrown by a work run with `oneByOne` false when what it wrote in fewer statements is not what it wanted (e.g.
    // a cart already ordered): the batcher undoes what it wrote and runs it again with `oneByOne` true.
    struct Undo
    {
    };
    // Stock to take, per product id: the sum of the lines of every work that left its stock to the batch.
    using StockLines = std::map<std::string, long long, std::less<>>;
    // How a work runs in this pass of its batch.
    struct Pass
    {
        // The steps one by one (the work threw Undo in an earlier pass); false: the work may first try itself in
        // fewer statements (SqlDialect's data) and throw Undo.
        bool oneByOne = false;
        // Not null: the work adds the stock its lines take here instead of taking it, and the batch takes the stock
        // of all its works in one conditional UPDATE just before COMMIT (SqlDialect::takeStockAtOnce): a product's
        // row is held from there to the COMMIT only, not while the rest of the batch is written, so the next batch
        // (another instance's) writes its key rows and orders meanwhile. If that UPDATE falls short, nothing of the
        // pass is kept and the batch runs again with each work taking its own stock.
        StockLines* stockAtCommit = nullptr;
    };
    // Writes in the batch's transaction (commits nothing).
    using Work = std::function<void(SqlTx& tx, const Pass& pass)>;
    // The work's outcome, once, on the committer thread after the batch: nullptr if its effect is committed, else
    // what it threw or the batch's failure. Keep it short and let nothing escape: the next batch waits for it.
    using Completion = std::function<void(std::exception_ptr error)>;

    // Queues `work` for the next batch and returns at once. `afterCommit` (may be empty) runs after the COMMIT and
    // before any work of the batch is completed.
    virtual void submit(Work work, std::function<void()> afterCommit, Completion completed) = 0;
};

} // namespace onceorder::server
