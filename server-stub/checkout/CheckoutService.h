// CheckoutService: POST /checkout, an order paid at an external gateway. One transaction cannot span the
// gateway call, so the request runs as atomic phases, each its own transaction that ends by moving the key
// row's recovery point forward (AtomicPhase runs each phase):
//
//   started --(order, pending)--> order_created --(charge at the gateway)--> payment_charged --> finished
//
// A retry (or CheckoutCompleter, for a client that never comes back) resumes after the last committed phase and
// never starts over; the gateway call is made safe to repeat by the gateway's own idempotency key, derived from
// our key row's id. While a request works on a row it holds the row's lock (locked_at, and locked_by: this process's
// run, see storage/RunLease); a duplicate gets 409. A lock older than the lock timeout, or held by a run whose lease
// has expired, is considered abandoned and may be taken over. A lock's age is the lock clock's (SqlDialect::lockNowMs):
// on PostgreSQL the database's own, so that instances whose clocks disagree agree on it.
//
// OrderService::placeOrder is the single-transaction version of the same idea; compare the two side by side.
#pragma once

#include "auth/KeyRowQuota.h"
#include "checkout/AtomicPhase.h"
#include "checkout/CheckoutCommand.h"
#include "checkout/CheckoutKey.h"
#include "checkout/PaymentGateway.h"
#include "checkout/PhaseObservers.h"
#include "orders/OrderService.h"
#include "orders/OrderWriterRulesSource.h"
#include "storage/SqlTx.h"
#include "support/Clock.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

namespace onceorder::server {

class RunLease;

class CheckoutService
{
public:
    // On any database; instanceId names it at the gateway (server_meta, name 'instance'). writerRules: how its
    // orders are written now (the teaching mode business_key_off, teaching/Faults).
    CheckoutService(SqlDatabase& database, std::string instanceId, PaymentGateway& gateway,
                    const OrderWriterRulesSource& writerRules, const Clock& clock, std::chrono::seconds keyTtl,
                    std::chrono::milliseconds lockTimeout);

    OrderResponse checkout(const Client& client, const std::string& idemKey, const CheckoutCommand& command);

    // Counts each new key row against its client's quota in the transaction that inserts it (auth/KeyRowQuota); over
    // it, nothing is stored and the answer is 429. Unset: no quota.
    void countKeyRows(KeyRowQuota& quota) { m_quota = &quota; }

    // Resumes a key row the completer (CheckoutCompleter) has taken over, after its last committed phase.
    OrderResponse resume(CheckoutKey key) { return advance(std::move(key), nullptr, true); }

    // This process's run lease (storage/RunLease): every key row it locks names the run in locked_by, and the lock
    // lives as long as the run's lease. Without one (in-process tests), locks are judged by the lock timeout alone.
    void setRunLease(const RunLease& lease) { m_lease = &lease; }
    // The run that locks rows now (the lease's current run); nothing without a lease.
    std::optional<long long> runId() const;

    SqlDatabase& database() const { return m_database; }
    const Clock& clock() const { return m_clock; }
    std::chrono::milliseconds lockTimeout() const { return m_lockTimeout; }

    static std::string fingerprint(const CheckoutCommand& command);
    // The key we send to the gateway: this database's instance id and the key row's id, never the client's key.
    std::string gatewayKey(long long rowId) const;

    // Who watches each request pass its recovery points (OrderServer: teaching/CrashPoints); none by default.
    void observePhases(std::unique_ptr<PhaseObservers> observers) { m_observers = std::move(observers); }

private:
    // From wherever the key row stands to its final answer, phase by phase.
    OrderResponse advance(CheckoutKey key, PhaseObserver* observer, bool resumed);
    // The phases' own writes, each inside its AtomicPhase.
    AtomicPhase::End createOrder(SqlTx& db, CheckoutKey& key, const CheckoutCommand& command);
    AtomicPhase::End recordCharge(SqlTx& db, const CheckoutKey& key, const CheckoutCommand& command,
                                  const std::string& chargeId);
    AtomicPhase::End decline(SqlTx& db, const CheckoutKey& key, const CheckoutCommand& command,
                             const std::string& reason);
    AtomicPhase::End finish(SqlTx& db, const CheckoutKey& key, const CheckoutCommand& command);
    // Phase 0 met the key row already there: its stored answer, 422 for another payload, 409 while its lock is held;
    // else the row taken over (locked by `run`, in `db`'s transaction), to be resumed.
    std::variant<CheckoutKey, OrderResponse> existingKey(SqlTx& db, const Client& client, const std::string& idemKey,
                                                         const std::string& print, std::int64_t now,
                                                         std::optional<long long> run);
    // After a claim whose COMMIT's answer was lost: lets go of the lock it may have written.
    void releaseLockAfterLostCommit(const CheckoutKey& key);
    static void notify(PhaseObserver* observer, std::string_view point);

    SqlDatabase& m_database;
    std::string m_instanceId;
    AtomicPhase m_atomicPhase;
    PaymentGateway& m_gateway;
    const OrderWriterRulesSource& m_writerRules;
    const Clock& m_clock;
    std::chrono::seconds m_keyTtl;
    std::chrono::milliseconds m_lockTimeout;
    std::unique_ptr<PhaseObservers> m_observers;
    KeyRowQuota* m_quota = nullptr;
    const RunLease* m_lease = nullptr;
};

} // namespace onceorder::server
