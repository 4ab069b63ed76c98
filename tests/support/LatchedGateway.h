// LatchedGateway: a payment gateway that holds every charge at its door until the test releases it, so that a test
// can act while a checkout is at the gateway (a duplicate, an expired lease); then it charges the real gateway.
#pragma once

#include "checkout/PaymentGateway.h"

#include <future>
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
    void release() { m_release.set_value(); }

private:
    server::PaymentGateway& m_real;
    std::promise<void> m_entered;
    std::future<void> m_enteredFuture = m_entered.get_future();
    std::promise<void> m_release;
};

} // namespace onceorder::test
