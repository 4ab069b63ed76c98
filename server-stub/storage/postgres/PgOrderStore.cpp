#include "storage/postgres/PgOrderStore.h"

#include "orders/OrderReads.h"
#include "orders/OrderSteps.h"
#include "orders/OrderWriter.h"
#include "storage/Schema.h"
#include "storage/SqlDialect.h"
#include "storage/postgres/PgOrderBatch.h"
#include "storage/postgres/PgRetry.h"
#include "storage/postgres/PgSchema.h"
#include "storage/postgres/PgWorkTx.h"
#include "support/Problems.h"

#include <pqxx/nontransaction>
#include <pqxx/transaction>

#include <algorithm>
#include <exception>
#include <memory>

namespace onceorder::server {

namespace {

// One consistent read of several lists and their totals.
using Snapshot = pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>;

} // namespace

PgOrderStore::PgOrderStore(const std::string& uri, Faults& faults, const Clock& clock, std::chrono::seconds keyTtl,
                           const PgPool::Settings& pool, bool seedDemoClients)
    : m_pool(uri, pool)
    , m_faults(faults)
    , m_clock(clock)
    , m_keyTtl(keyTtl)
    , m_batch(std::make_unique<PgOrderBatch>(m_pool))
{
    auto db = m_pool.lease();
    pgschema::create(*db, seedDemoClients);
    // One transaction, so that behind a transaction pooler every statement runs on the server connection that
    // prepared it.
    pqxx::work read(*db);
    PgWorkTx tx(read);
    schema::Startup startup = schema::readStartup(tx);
    read.commit();
    m_clients = std::move(startup.clients);
    m_products = std::move(startup.products);
    m_instance = std::move(startup.instance);
    m_webhookSecret = std::move(startup.webhookSecret);
}

PgOrderStore::~PgOrderStore() = default;

bool PgOrderStore::ready()
{
    try {
        auto db = m_pool.lease();
        try {
            pqxx::nontransaction read(*db);
            const auto version = read.exec("SELECT value FROM server_meta WHERE name = 'schema_version'");
            return !version.empty() && version[0][0].as<std::string>() == pgschema::kSchemaVersion;
        } catch (const pqxx::broken_connection&) {
            db.discard();
            return false;
        }
    } catch (const std::exception&) {
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

OrderResponse PgOrderStore::placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command)
{
    const ArmedFault fault = m_faults.takeAny();
    if (auto refused = orderSteps::refusedByFault(fault)) {
        return *refused;
    }
    const TeachingModes modes = m_faults.modes();
    // The mistake of the teaching mode unscoped_keys: one namespace of keys for everybody.
    const KeyClaim key = orderSteps::claim(modes.unscopedKeys ? std::string("*") : client.id, idemKey, command,
                                           m_clock.nowMs(), m_keyTtl);
    // The three steps, in the caller's transaction.
    const auto steps = [&](pqxx::dbtransaction& tx, bool oneByOne) {
        // 1. The key is the first write. A copy of this request in flight elsewhere holds the index entry: this
        //    INSERT waits for its transaction, then inserts nothing (it committed) or goes on (it rolled back).
        if (!claimKey(tx, key)) {
            if (auto answer = storedAnswer(tx, key)) {
                return *answer;
            }
            throw TransientFailure("the idempotency key row vanished between insert and read");
        }
        // 2. and 3. at once: a plain new order as two statements, the stock and the rest (a refusal throws
        //    PgOrderBatch::Undo, and the batch runs the steps again one by one).
        if (!oneByOne) {
            if (auto placed = placeOrderAtOnce(tx, client, key, command, !modes.businessKeyOff)) {
                return *placed;
            }
        }
        // 2. The order itself: lines, stock. A definitive business refusal is an answer too.
        OrderResponse response = createOrder(tx, client, key, command, fault);

        // 3. The response, stored in the same transaction as the order it describes.
        storeResponse(tx, key, response);
        return response;
    };
    std::optional<PgPool::Lease> db;
    try {
        db.emplace(m_pool.lease());
        // 0. A retry of a finished request is answered from its row: a completed key row never changes.
        if (auto answer = finishedAnswer(**db, key)) {
            return *answer;
        }
        // An armed fault and the teaching modes that get step 1 wrong keep a transaction of their own, as on SQLite.
        if (fault.kind == FaultKind::None && !modes.checkThenInsert && !modes.catchUniqueViolation) {
            db.reset(); // the batch has its own connection
            return m_batch->place(steps);
        }
        pqxx::work tx(**db);
        if (modes.checkThenInsert) { // the teaching mode that gets step 1 wrong
            return placeOrderCheckThenInsert(tx, client, key, command, fault);
        }
        OrderResponse response = steps(tx, true);
        orderSteps::crashAt(fault, FaultKind::CrashBeforeCommit);
        tx.commit();
        orderSteps::crashAt(fault, FaultKind::CrashAfterCommit);
        return response;
    } catch (const TransientFailure& failure) {
        return orderSteps::transientFailure(failure.what());
    } catch (const pqxx::broken_connection& error) {
        if (db) {
            db->discard();
        }
        return orderSteps::transientFailure(databaseFailure(error));
    } catch (const pqxx::failure& error) {
        // A serialization failure, a deadlock, a commit whose outcome was lost: rolled back (or replayed on retry).
        return orderSteps::transientFailure(databaseFailure(error));
    }
}

std::optional<OrderResponse> PgOrderStore::placeOrderAtOnce(pqxx::dbtransaction& tx, const Client& client,
                                                            const KeyClaim& key, const OrderCommand& command,
                                                            bool businessKey)
{
    // The 201 this order answers if it is placed, its id left out: the statement stores these bytes around the id
    // it gets, and the answer returned is the same function's with that id.
    static constexpr std::string_view kBefore = R"({"order_id":)";
    const std::string blank = orderSteps::created(0, command, key.now).body;
    const SqlDialect& dialect = SqlDialect::of(Dialect::Postgres);
    if (dialect.placeOrderAtOnce.empty() || !blank.starts_with(std::string(kBefore) + "0,")) {
        return std::nullopt;
    }
    const std::string items = command.itemsJson();
    if (PgWorkTx::run(tx, dialect.takeStockAtOnce, {items}).affected_rows() != command.lines.size()) {
        throw PgOrderBatch::Undo {}; // not enough stock: the steps one by one say of which product
    }
    const SqlValue cartId = command.cartId ? SqlValue(*command.cartId) : SqlValue(nullptr);
    const auto row =
        PgWorkTx::run(tx, dialect.placeOrderAtOnce,
                      {client.id, cartId, businessKey ? cartId : SqlValue(nullptr), key.idemKey, key.now, items,
                       std::string(kBefore), blank.substr(kBefore.size() + 1), key.scope, key.idemKey})[0];
    if (row[0].is_null() || row[1].as<std::size_t>() != command.lines.size() || row[2].as<long long>() != 1) {
        throw PgOrderBatch::Undo {}; // a cart already ordered: the steps one by one say by which order
    }
    return orderSteps::created(row[0].as<long long>(), command, key.now);
}

bool PgOrderStore::claimKey(pqxx::dbtransaction& tx, const KeyClaim& key)
{
    if (m_faults.modes().catchUniqueViolation) {
        // An expired key counts as absent: forget it first, inside the same transaction.
        PgWorkTx::run(tx, "DELETE FROM idempotency_keys WHERE client_id = ? AND idem_key = ? AND expires_at <= ?",
                      {key.scope, key.idemKey, key.now});
        // DELIBERATELY WRONG (teaching mode "catch_unique_violation"): a plain INSERT, its unique violation caught
        // as if the transaction could go on. PostgreSQL has aborted it: the stored answer cannot be read in it, and
        // the copy that should have been replayed fails instead.
        try {
            PgWorkTx::run(tx,
                          "INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, "
                          "expires_at, locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?)",
                          {key.scope, key.idemKey, key.fingerprint, key.now, key.expiresAt, key.now});
            return true;
        } catch (const pqxx::unique_violation&) {
            try {
                storedAnswer(tx, key); // what the mistake goes on to do
            } catch (const pqxx::sql_error& aborted) {
                std::string reason = aborted.what();
                reason = reason.substr(0, reason.find('\n'));
                reason.erase(0, reason.find_first_not_of("ERROR: "));
                throw TransientFailure("catch_unique_violation: the caught unique violation aborted the transaction; "
                                       "reading the stored answer failed: " +
                                       reason);
            }
            return false;
        }
    }
    // One statement: a new key is inserted; an expired one counts as absent and is taken over, every column written
    // afresh; a live one (or one another transaction is writing: this waits for it, then looks again) is left alone
    // and nothing is claimed.
    const auto claimed =
        PgWorkTx::run(tx,
                      "INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, expires_at, "
                      "locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?) "
                      "ON CONFLICT (client_id, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint, "
                      "status = 'started', response_code = NULL, response_body = NULL, order_id = NULL, "
                      "created_at = excluded.created_at, expires_at = excluded.expires_at, "
                      "locked_at = excluded.locked_at WHERE idempotency_keys.expires_at <= excluded.created_at",
                      {key.scope, key.idemKey, key.fingerprint, key.now, key.expiresAt, key.now});
    return claimed.affected_rows() == 1;
}

OrderResponse PgOrderStore::createOrder(pqxx::dbtransaction& tx, const Client& client, const KeyClaim& key,
                                        const OrderCommand& command, const ArmedFault& fault)
{
    PgWorkTx db(tx);
    OrderWriter writer(db, m_faults.modes());
    const auto written = writer.write(client.id, key.idemKey, command, "placed", key.now);
    // After the writes, so a slow transaction holds what a concurrent one can wait on: the key's index entry and
    // the product's row.
    orderSteps::delayForFault(fault);
    return orderSteps::settle(writer, written, command, key.now, fault, m_faults.modes());
}

OrderResponse PgOrderStore::placeOrderCheckThenInsert(pqxx::dbtransaction& tx, const Client& client,
                                                      const KeyClaim& key, const OrderCommand& command,
                                                      const ArmedFault& fault)
{
    // DELIBERATELY WRONG (teaching mode "check-then-insert"), as OrderService's: the look (step 0) and the insert are
    // two steps, and the key row is written last. Two copies of one request, on one instance or two, can both look
    // before either inserts, and both place an order; the second INSERT waits for the first, then overwrites it.
    orderSteps::delayForFault(fault); // widens the window between the look and the insert
    OrderResponse response = createOrder(tx, client, key, command, fault);
    const long long orderId = response.orderId && response.status < 300 ? *response.orderId : 0;
    PgWorkTx::run(tx,
                  "INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, response_code, "
                  "response_body, order_id, created_at, expires_at) "
                  "VALUES (?, ?, ?, 'completed', ?, ?, NULLIF(?, 0), ?, ?) "
                  "ON CONFLICT (client_id, idem_key) DO UPDATE SET response_code = excluded.response_code, "
                  "response_body = excluded.response_body, order_id = excluded.order_id",
                  {key.scope, key.idemKey, key.fingerprint, static_cast<long long>(response.status), response.body,
                   orderId, key.now, key.expiresAt});
    tx.commit();
    return response;
}

void PgOrderStore::storeResponse(pqxx::dbtransaction& tx, const KeyClaim& key, const OrderResponse& response)
{
    // Order ids start at 1: 0 stands for "no order" (NULL), for the answers that are not a new order.
    const long long orderId = response.orderId && response.status < 300 ? *response.orderId : 0;
    const auto stored =
        PgWorkTx::run(tx,
                      "UPDATE idempotency_keys SET status = 'completed', response_code = ?, "
                      "response_body = ?, order_id = NULLIF(?, 0), locked_at = NULL "
                      "WHERE client_id = ? AND idem_key = ?",
                      {static_cast<long long>(response.status), response.body, orderId, key.scope, key.idemKey});
    if (stored.affected_rows() != 1) {
        throw TransientFailure("the idempotency key row vanished inside its own transaction");
    }
}

std::optional<OrderResponse> PgOrderStore::storedAnswer(pqxx::transaction_base& tx, const KeyClaim& key)
{
    const auto rows = PgWorkTx::run(tx,
                                    "SELECT fingerprint, status, response_code, response_body FROM idempotency_keys "
                                    "WHERE client_id = ? AND idem_key = ? AND expires_at > ?",
                                    {key.scope, key.idemKey, key.now});
    if (rows.empty()) {
        return std::nullopt;
    }
    const auto& row = rows[0];
    return orderSteps::answerFor({row[0].as<std::string>(), row[1].as<std::string>(),
                                  row[2].is_null() ? 0 : row[2].as<int>(),
                                  row[3].is_null() ? std::string() : row[3].as<std::string>()},
                                 key);
}

std::optional<OrderResponse> PgOrderStore::finishedAnswer(pqxx::connection& connection, const KeyClaim& key)
{
    pqxx::nontransaction read(connection);
    auto answer = storedAnswer(read, key);
    if (answer && answer->outcome == "in-progress") {
        return std::nullopt;
    }
    return answer;
}

std::optional<std::string> PgOrderStore::orderJson(const std::string& clientId, long long orderId)
{
    auto db = m_pool.lease();
    pqxx::nontransaction read(*db);
    PgWorkTx tx(read);
    return orderReads::order(tx, clientId, orderId);
}

std::string PgOrderStore::ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                                     std::optional<int> limit)
{
    auto db = m_pool.lease();
    pqxx::nontransaction read(*db); // one statement, one snapshot
    PgWorkTx tx(read);
    return orderReads::orders(tx, clientId, cartId, limit);
}

std::string PgOrderStore::productsJson()
{
    auto db = m_pool.lease();
    pqxx::nontransaction read(*db);
    PgWorkTx tx(read);
    return orderReads::products(tx);
}

bool PgOrderStore::setStock(const std::string& productId, int stock)
{
    auto db = m_pool.lease();
    pqxx::work write(*db);
    PgWorkTx tx(write);
    const bool set = orderReads::setStock(tx, productId, stock);
    write.commit();
    return set;
}

DebugState PgOrderStore::debugState(const Faults& faults, std::optional<int> limit)
{
    auto db = m_pool.lease();
    Snapshot snapshot(*db);
    PgWorkTx tx(snapshot);
    DebugState state = orderReads::debugState(tx, faults, limit);
    snapshot.commit();
    return state;
}

void PgOrderStore::resetDemoData()
{
    // TRUNCATE locks its seven tables one after another, in the order of its list: the order in which debugState(),
    // ordersJson() and orderJson() read them, so a read that holds one of them never waits for a table the reset
    // already has (the other way round, each was a deadlock's victim and answered 500). Another instance's writing
    // transaction that holds one of them and then wants one TRUNCATE already has is still a deadlock, and PostgreSQL
    // rolls one of the two back: the reset then simply runs again (running it twice is the same as once).
    rerunWhenRolledBack([this] {
        auto db = m_pool.lease();
        pqxx::work tx(*db);
        // checkout_keys keeps its identity: its ids name charges at the gateway and must never come back. The orders'
        // identity starts again, as SQLite's sequence does.
        tx.exec0("TRUNCATE idempotency_keys, orders, order_lines, checkout_keys, payments, webhook_events, "
                 "order_status_changes; "
                 "SELECT setval(pg_get_serial_sequence('orders', 'id'), 1, false); "
                 "UPDATE products SET stock = initial_stock");
        tx.commit();
    });
}

int PgOrderStore::reapExpiredKeys(std::int64_t nowMs, int batch)
{
    auto db = m_pool.lease();
    pqxx::work write(*db);
    PgWorkTx tx(write);
    const int reaped = orderReads::reapExpiredKeys(tx, nowMs, batch);
    write.commit();
    return reaped;
}

} // namespace onceorder::server
