// CheckoutService: POST /checkout, an order paid at an external gateway. One transaction cannot span the
// gateway call, so the request runs as atomic phases, each its own transaction that ends by moving the key
// row's recovery point forward (AtomicPhase runs each phase):
//
//   started --(order, pending)--> order_created --(charge at the gateway)--> payment_charged --> finished
//
// A retry (or the completer, for a client that never comes back) resumes after the last committed phase and
// never starts over; the gateway call is made safe to repeat by the gateway's own idempotency key, derived from
// our key row's id. While a request works on a row it holds the row's lock (locked_at); a duplicate gets 409,
// and a lock older than the lock timeout is considered abandoned and may be taken over.
//
// OrderService::placeOrder is the single-transaction version of the same idea; compare the two side by side.
#pragma once

#include "checkout/AtomicPhase.h"
#include "checkout/CheckoutCommand.h"
#include "checkout/CheckoutKey.h"
#include "checkout/PaymentGateway.h"
#include "orders/OrderService.h"
#include "storage/SqlTx.h"
#include "storage/Store.h"
#include "support/Clock.h"
#include "teaching/Faults.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace onceorder::server {

class CheckoutService
{
public:
    // On the server's SQLite store.
    CheckoutService(Store& store, PaymentGateway& gateway, Faults& faults, const Clock& clock,
                    std::chrono::seconds keyTtl, std::chrono::milliseconds lockTimeout);
    // On any database; instanceId names it at the gateway (server_meta, name 'instance').
    CheckoutService(SqlDatabase& database, std::string instanceId, PaymentGateway& gateway, Faults& faults,
                    const Clock& clock, std::chrono::seconds keyTtl, std::chrono::milliseconds lockTimeout);

    OrderResponse checkout(const Client& client, const std::string& idemKey, const CheckoutCommand& command);

    // What one pass of the completer did: how many requests reached their final answer, and how many rows it had
    // to skip because of an error (logged; each is tried again after the lock timeout).
    struct CompleterPass
    {
        int completed = 0;
        int failed = 0;
    };
    // The completer: finishes up to `limit` requests nobody works on (unlocked, or locked for longer than the
    // lock timeout), each on its own: an error on one row is counted and the pass goes on with the next.
    CompleterPass completeAbandoned(int limit = 100);
    // Lets go of the locks whose holder is gone; returns how many. SQLite, at start before serving: every lock (this
    // process has the database to itself). PostgreSQL, at start and before every completer pass: the locks whose
    // holder no longer holds its advisory lock (see setLockHolder); another instance's live locks stay.
    int releaseLocks();

    // PostgreSQL: the advisory lock (kHolderLockClass, runId) that this process holds on a connection of its own for
    // as long as it runs; every key row it locks says so in locked_by.
    static constexpr int kHolderLockClass = 0x4F43; // "OC"
    void setLockHolder(long long runId) { m_lockHolder = runId; }
    // Deletes up to `batch` finished key rows that expired at or before nowMs; unfinished ones are the completer's.
    int reapExpired(std::int64_t nowMs, int batch);

    static std::string fingerprint(const CheckoutCommand& command);
    // The key we send to the gateway: this database's instance id and the key row's id, never the client's key.
    std::string gatewayKey(long long rowId) const;

    // What "crash" means at the crash-after-* faults; the default kills the process. Tests throw instead.
    void setCrashAction(std::function<void()> crash) { m_crash = std::move(crash); }

private:
    // From wherever the key row stands to its final answer, phase by phase.
    OrderResponse advance(CheckoutKey key, FaultKind crashAt, bool resumed);
    // The phases' own writes, each inside its AtomicPhase.
    AtomicPhase::End createOrder(SqlTx& db, CheckoutKey& key, const CheckoutCommand& command);
    AtomicPhase::End recordCharge(SqlTx& db, const CheckoutKey& key, const CheckoutCommand& command,
                                  const std::string& chargeId);
    AtomicPhase::End decline(SqlTx& db, const CheckoutKey& key, const CheckoutCommand& command,
                             const std::string& reason);
    AtomicPhase::End finish(SqlTx& db, const CheckoutKey& key, const CheckoutCommand& command);
    std::optional<CheckoutKey> takeOver(long long rowId);
    // PostgreSQL: records this process as the holder of the row's lock, in the transaction that took it.
    void stampHolder(SqlTx& db, long long rowId);
    void crashIf(FaultKind armed, FaultKind point);

    std::unique_ptr<SqlDatabase> m_ownDatabase; // the SQLite store's, when constructed on one
    SqlDatabase& m_database;
    std::string m_instanceId;
    AtomicPhase m_atomicPhase;
    PaymentGateway& m_gateway;
    Faults& m_faults;
    const Clock& m_clock;
    std::chrono::seconds m_keyTtl;
    std::chrono::milliseconds m_lockTimeout;
    std::function<void()> m_crash;
    std::optional<long long> m_lockHolder;
};

} // namespace onceorder::server
