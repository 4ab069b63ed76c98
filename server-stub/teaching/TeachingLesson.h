// TeachingLesson: what the debug panel arms, made on the order path, on either database: the faults (unavailable,
// delay, fail-before-commit, the crash points) and the teaching modes, which reproduce the article's mistakes on
// purpose (check-then-insert, a caught unique violation, keys shared by all clients, stored transient failures, no
// business key). Installed per request by OrderService when something is armed (next()); the correct path is
// OrderService's with orders/OrderLesson's seams, which this overrides. Its SQL is written once, over SqlTx: where
// the databases differ (a caught unique violation ends only the statement on SQLite, the whole transaction on
// PostgreSQL), the lesson shows the difference rather than hiding it.
#pragma once

#include "orders/OrderLesson.h"
#include "teaching/Faults.h"

#include <memory>

namespace onceorder::server {

class TeachingLesson final : public OrderLesson
{
public:
    TeachingLesson(const ArmedFault& fault, const TeachingModes& modes);

    // The next request's lesson: takes one use of the armed fault; the plain pattern if nothing is armed.
    static std::shared_ptr<const OrderLesson> next(Faults& faults);

    std::optional<OrderResponse> refusal() const override;
    std::string keyScope(const Client& client) const override;
    bool ownTransaction() const override;
    bool atOnce() const override { return false; }
    std::optional<OrderResponse> placeInstead(SqlDatabase& db, const KeyClaim& key,
                                              const CreateOrder& createOrder) const override;
    std::optional<bool> claimInstead(SqlTx& tx, const KeyClaim& key) const override;
    OrderWriter::Rules writerRules() const override;
    OrderResponse settle(OrderWriter& writer, const std::variant<long long, Problem>& written,
                         const OrderCommand& command, std::int64_t nowMs) const override;
    void beforeCommit() const override;
    void afterCommit() const override;

private:
    ArmedFault m_fault;
    TeachingModes m_modes;
};

} // namespace onceorder::server
