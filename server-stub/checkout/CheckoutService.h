// CheckoutService: POST /checkout, an order paid at an external gateway. One transaction cannot span the
// gateway call, so the request runs as atomic phases, each its own transaction that ends by moving the key
// row's recovery point forward:
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

#include "checkout/CheckoutCommand.h"
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
    struct Row
    {
        long long id = 0;
        std::string clientId;
        std::string idemKey;
        std::string recoveryPoint;
        std::string requestJson;
        std::optional<long long> orderId;
        std::int64_t lockStamp = 0; // our locked_at; the row is ours while it still holds this value
    };

    OrderResponse advance(Row row, FaultKind crashAt, bool resumed);
    std::optional<OrderResponse> createOrder(Row& row, const CheckoutCommand& command);
    void recordCharge(Row& row, const CheckoutCommand& command, const std::string& chargeId);
    OrderResponse decline(Row& row, const CheckoutCommand& command, const std::string& reason);
    OrderResponse finish(Row& row, const CheckoutCommand& command);
    void releaseLock(const Row& row);
    std::optional<Row> takeOver(long long rowId, std::int64_t now);
    // Inside a phase's transaction: throws LostLock unless the row is still ours and at `expected`.
    void checkOwnership(Store::Lease& db, const Row& row, const std::string& expected);
    void storeFinal(Store::Lease& db, const Row& row, const OrderResponse& response);
    void crashIf(FaultKind armed, FaultKind point);

    Store& m_store;
    PaymentGateway& m_gateway;
    Faults& m_faults;
    const Clock& m_clock;
    std::chrono::seconds m_keyTtl;
    std::chrono::milliseconds m_lockTimeout;
    std::function<void()> m_crash;
};

} // namespace onceorder::server
