// LatchedGateway: a payment gateway that holds every charge at its door until the test releases it, so that a test
// can act while a checkout is at the gateway (a duplicate, an expired lease); then it charges the real gateway.
// release() may be called more than once (a scope guard releases whatever happened before it).
#pragma once

#include "checkout/PaymentGateway.h"

#include <chrono>
#include <future>
#include <mutex>
#include <string>

namespace onceorder::test {

class LatchedGateway final : public server::PaymentGateway
{
public:
    explicit LatchedGateway(server::PaymentGateway& real)
        : m_real(real)
    {
    }
    server::ChargeResult charge(const std::string& key, long long amount, const std::string& method) override
    {
        m_entered.set_value();
        m_release.get_future().wait();
        return m_real.charge(key, amount, method);
    }
    void waitUntilEntered() { m_enteredFuture.wait(); }
    // Whether a charge reached the door within the deadline: a regression that never gets there is reported, not
    // waited for until the test runner's timeout.
    bool enteredWithin(std::chrono::milliseconds deadline)
    {
        return m_enteredFuture.wait_for(deadline) == std::future_status::ready;
    }
    void release()
    {
        std::call_once(m_released, [this] { m_release.set_value(); });
    }

private:
    server::PaymentGateway& m_real;
    std::promise<void> m_entered;
    std::future<void> m_enteredFuture = m_entered.get_future();
    std::promise<void> m_release;
    std::once_flag m_released;
};

} // namespace onceorder::test
