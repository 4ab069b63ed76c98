#include "storage/postgres/PgOrderStore.h"

#include "storage/DatabaseFailure.h"
#include "storage/Schema.h"
#include "storage/postgres/PgOrderBatch.h"
#include "storage/postgres/PgOrderDatabase.h"
#include "storage/postgres/PgSchema.h"
#include "storage/postgres/PgWorkTx.h"
#include "support/Problems.h"

#include <pqxx/nontransaction>
#include <pqxx/transaction>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>

namespace onceorder::server {

PgOrderStore::PgOrderStore(const std::string& uri, const PgPool::Settings& pool, bool seedDemoClients)
    : m_pool(uri, pool)
    , m_batch(std::make_unique<PgOrderBatch>(m_pool))
    , m_orderDatabase(pgOrderDatabase(m_pool))
{
    auto db = m_pool.lease();
    db.unwatch(); // a start may wait for another instance's schema work: not a request's budget
    pgschema::create(*db, seedDemoClients);
    pqxx::nontransaction read(*db);
    PgWorkTx tx(read, PgWorkTx::Statements::Unnamed);
    schema::Startup startup = schema::readStartup(tx);
    m_clients = std::move(startup.clients);
    m_products = std::move(startup.products);
    m_instance = std::move(startup.instance);
    m_webhookSecret = std::move(startup.webhookSecret);
}

PgOrderStore::~PgOrderStore() = default;

WriteBatcher& PgOrderStore::batch()
{
    return *m_batch;
}

namespace {

// A row written to a new page on the key table's disk, rolled back. A full data disk lets an UPDATE that fits its page
// and a rolled-back write that needs no page pass; only a new page (a relation extended, "could not extend file",
// 53100) meets it, so the probe makes one: a temporary table of its own (no other session waits on it, and any role
// may) in the key table's tablespace when this role may create there, else in the database's, the key table's by
// default. The first row extends it, with a write to the disk at once. The tablespace's name goes in quoted: the
// setting is a list of identifiers, and an unquoted "FullDisk" would be looked up as fulldisk.
constexpr const char* kDiskProbe = R"sql(
SELECT set_config('temp_tablespaces', coalesce((
    SELECT quote_ident(t.spcname) FROM pg_class c JOIN pg_tablespace t ON t.oid = c.reltablespace
    WHERE c.oid = 'idempotency_keys'::regclass AND has_tablespace_privilege(t.oid, 'CREATE')), ''), true);
CREATE TEMPORARY TABLE onceorder_readiness (n integer) ON COMMIT DROP;
INSERT INTO onceorder_readiness VALUES (1))sql";

} // namespace

bool PgOrderStore::ready()
{
    std::unique_lock probing(m_readyLock, std::try_to_lock);
    if (!probing.owns_lock()) {
        return m_ready; // another probe runs: its answer is as fresh as this one's would be
    }
    const auto now = std::chrono::steady_clock::now();
    if (m_readyKnown && now - m_readyAt < kReadyFor) {
        return m_ready;
    }
    m_ready = probeReady();
    m_readyAt = std::chrono::steady_clock::now();
    m_readyKnown = true;
    return m_ready;
}

bool PgOrderStore::probeReady()
{
    try {
        const auto budget = m_pool.budget().count() > 0 ? m_pool.budget() : std::chrono::milliseconds(3'000);
        auto db = m_pool.lease(budget);
        try {
            pqxx::work probe(*db);
            // Shorter than an order's: a probe that waits is an answer already.
            probe.exec("SET LOCAL lock_timeout = " + std::to_string(std::max<long long>(1, budget.count() / 2)));
            const auto state =
                probe.exec("SELECT (SELECT value FROM server_meta WHERE name = 'schema_version'), pg_is_in_recovery(), "
                           "current_setting('transaction_read_only') = 'on', "
                           "has_database_privilege(current_database(), 'TEMPORARY')");
            if (state.empty() || state[0][0].is_null() || state[0][0].as<std::string>() != pgschema::kSchemaVersion ||
                state[0][1].as<bool>() || state[0][2].as<bool>()) {
                return false;
            }
            probe.exec("LOCK TABLE idempotency_keys IN ROW EXCLUSIVE MODE");
            if (state[0][3].as<bool>()) {
                probe.exec(kDiskProbe);
            } else if (!m_saidNoTemporary) {
                m_saidNoTemporary = true;
                // A hardened database (REVOKE TEMPORARY … FROM PUBLIC): no temporary table, so no disk step; orders
                // need no such right, and readiness must not fail for ever over it (docs/postgresql.md).
                std::fprintf(stderr,
                             "readiness: this role may not create temporary tables (the database's TEMPORARY "
                             "right): a full disk is not seen by /readyz\n");
            }
            probe.abort();
            return true;
        } catch (const pqxx::broken_connection&) {
            db.discard();
            return false;
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "readiness: not ready: %s\n", error.what());
        return false;
    }
}

bool PgOrderStore::addClient(const std::string& id, const std::string& keyHash, bool isOperator)
{
    auto db = m_pool.lease();
    pqxx::work tx(*db);
    const auto inserted =
        tx.exec_params("INSERT INTO clients (id, key_hash, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", id,
                       keyHash, isOperator ? "operator" : "client");
    tx.commit();
    if (inserted.affected_rows() == 0) {
        return false;
    }
    m_clients.add(keyHash, Client {id, isOperator});
    return true;
}

bool PgOrderStore::productExists(const std::string& productId) const
{
    return std::find(m_products.begin(), m_products.end(), productId) != m_products.end();
}

void PgOrderStore::resetDemoData()
{
    // Rolled back as a deadlock's victim (schema::resetDemoData says when), the reset simply runs again. Its statements
    // go unnamed, as they did as one text: a rare request gains nothing from a prepared statement.
    rerunWhenRolledBack([this] {
        auto db = m_pool.lease();
        pqxx::work write(*db);
        PgWorkTx tx(write, PgWorkTx::Statements::Unnamed);
        schema::resetDemoData(tx);
        write.commit();
    });
}

} // namespace onceorder::server
