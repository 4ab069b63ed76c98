// Schema: the server's tables written once for every database, and the rows every database starts with. What differs
// between the databases is the dialect's (SqlDialect: the 64-bit integer, the issued key, the write-order columns).
// Each database runs the text its own way, with what only it has around it: storage/sqlite/Store (PRAGMAs, the old
// files' migrations), storage/postgres/PgSchema (schema_version, `onceorder-server migrate`, the advisory lock).
#pragma once

#include "auth/ClientKeys.h"
#include "storage/SqlDialect.h"
#include "storage/SqlTx.h"

#include <string>
#include <vector>

namespace onceorder::server::schema {

// The order path's, the checkout's and the webhooks' tables with their indexes, and the data migration every database
// shares, as one script of CREATE … IF NOT EXISTS (safe to run again). server_runs is RunLease::createTable, run after.
std::string serverTables(const SqlDialect& dialect);
// The stub payment gateway's books: its charges, its events and their deliveries. SQLite: in the gateway's own file
// (StubPaymentGateway); PostgreSQL: in the shared database, where every instance reaches the same gateway.
std::string gatewayTables(const SqlDialect& dialect);

// A new database's rows, each inserted only if absent: the demo products, the published demo clients
// (`seedDemoClients`, SPEC §3), and the database's identity: the instance id that names it at the payment gateway and
// the secret the gateway signs its webhooks with unless ONCEORDER_WEBHOOK_SECRET is set (a secret published in the
// source would let anyone sign a "charge succeeded"). Rows only: a role with row rights can.
void seed(SqlTx& tx, bool seedDemoClients);

// The demo's fresh start (POST /debug/reset): the keys, orders, checkouts, payments and webhook events gone, every
// product's stock back to where it began. Order ids start again; checkout ids do not (they name charges at the payment
// gateway and must never come back). The caller runs it in its own transaction (PostgreSQL: again if rolled back).
void resetDemoData(SqlTx& tx);

// `clients add`: client `id` with its key's hash and what the operator set for it (client_limits), in the caller's
// transaction; false, and nothing written, if the name is taken.
bool addClient(SqlTx& tx, const std::string& id, const std::string& keyHash, const ClientLimits& limits);

// What a server reads once at start and keeps: the clients, the product ids, the database's identity.
struct Startup
{
    ClientKeys clients;
    std::vector<std::string> products;
    std::string instance;
    std::string webhookSecret;
};
Startup readStartup(SqlTx& tx);

} // namespace onceorder::server::schema
