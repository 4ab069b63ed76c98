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
#include "storage/Store.h"
#include "support/Clock.h"
#include "teaching/Faults.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace onceorder::server {

class CheckoutService
{
public:
    CheckoutService(Store& store, PaymentGateway& gateway, Faults& faults, const Clock& clock,
                    std::chrono::seconds keyTtl, std::chrono::milliseconds lockTimeout);

    OrderResponse checkout(const Client& client, const std::string& idemKey, const CheckoutCommand& command);

    // The completer: finishes up to `limit` requests nobody works on (unlocked, or locked for longer than the
    // lock timeout). Returns how many reached their final answer.
    int completeAbandoned(int limit = 100);
    // At start, before serving: every lock belongs to a process that is gone. Returns how many were released.
    int releaseLocks();
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
    AtomicPhase::End createOrder(Store::Lease& db, CheckoutKey& key, const CheckoutCommand& command);
    AtomicPhase::End recordCharge(Store::Lease& db, const CheckoutKey& key, const CheckoutCommand& command,
                                  const std::string& chargeId);
    AtomicPhase::End decline(Store::Lease& db, const CheckoutKey& key, const CheckoutCommand& command,
                             const std::string& reason);
    AtomicPhase::End finish(Store::Lease& db, const CheckoutKey& key, const CheckoutCommand& command);
    std::optional<CheckoutKey> takeOver(long long rowId, std::int64_t now);
    void crashIf(FaultKind armed, FaultKind point);

    Store& m_store;
    AtomicPhase m_atomicPhase;
    PaymentGateway& m_gateway;
    Faults& m_faults;
    const Clock& m_clock;
    std::chrono::seconds m_keyTtl;
    std::chrono::milliseconds m_lockTimeout;
    std::function<void()> m_crash;
};

} // namespace onceorder::server
