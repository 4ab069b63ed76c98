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
#include <memory>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

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
    // What a pass leaves to its end: work that several works of the batch want done once, together, in the batch's
    // transaction just before its COMMIT (orders/StockAtCommit: every order's stock in one UPDATE, so a product's row
    // is held from there to the COMMIT only). The batcher runs it without knowing what it does.
    class AtCommit
    {
    public:
        virtual ~AtCommit() = default;
        // False: it fell short, and nothing of the pass may be kept (the batch then runs again with Pass::atCommit
        // null, each work doing all of its own writes).
        virtual bool run(SqlTx& tx) = 0;
    };
    // A pass's AtCommit works: one of each kind, made when a work first asks for it, run in that order.
    class AtCommits
    {
    public:
        template<class Kind>
        Kind& of()
        {
            for (const auto& [kind, work] : m_works) {
                if (kind == std::type_index(typeid(Kind))) {
                    return static_cast<Kind&>(*work);
                }
            }
            auto made = std::make_unique<Kind>();
            Kind& kept = *made;
            m_works.emplace_back(std::type_index(typeid(Kind)), std::move(made));
            return kept;
        }
        // Runs each; false at the first that falls short.
        bool run(SqlTx& tx) const
        {
            for (const auto& [kind, work] : m_works) {
                if (!work->run(tx)) {
                    return false;
                }
            }
            return true;
        }

    private:
        std::vector<std::pair<std::type_index, std::unique_ptr<AtCommit>>> m_works;
    };
    // How a work runs in this pass of its batch.
    struct Pass
    {
        // The steps one by one (the work threw Undo in an earlier pass); false: the work may first try itself in
        // fewer statements (SqlDialect's data) and throw Undo.
        bool oneByOne = false;
        // Not null: the work may leave part of its writes to the end of the pass (AtCommit), where the batcher runs
        // them just before COMMIT. If one falls short, nothing of the pass is kept and the batch runs again with this
        // null.
        AtCommits* atCommit = nullptr;
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
