#include "teaching/Faults.h"

#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <utility>

namespace onceorder::server {

namespace {

constexpr std::array<std::pair<FaultKind, std::string_view>, 18> kNames {{
    {FaultKind::None, "none"},
    {FaultKind::FailBeforeCommit, "fail-before-commit"},
    {FaultKind::CrashBeforeCommit, "crash-before-commit"},
    {FaultKind::CrashAfterCommit, "crash-after-commit"},
    {FaultKind::Delay, "delay"},
    {FaultKind::Unavailable, "unavailable"},
    {FaultKind::CrashAfterStarted, "crash-after-started"},
    {FaultKind::CrashAfterOrderCreated, "crash-after-order-created"},
    {FaultKind::CrashAfterCharge, "crash-after-charge"},
    {FaultKind::CrashAfterPaymentCharged, "crash-after-payment-charged"},
    {FaultKind::CrashAfterFinished, "crash-after-finished"},
    {FaultKind::GatewayDecline, "gateway-decline"},
    {FaultKind::GatewayTimeout, "gateway-timeout"},
    {FaultKind::GatewayFail, "gateway-fail"},
    {FaultKind::GatewaySlow, "gateway-slow"},
    {FaultKind::WebhookDuplicate, "webhook-duplicate"},
    {FaultKind::WebhookTwin, "webhook-twin"},
    {FaultKind::WebhookAckLost, "webhook-ack-lost"},
}};

} // namespace

void crashProcessNow()
{
    std::fflush(nullptr);
    ::kill(::getpid(), SIGKILL);
    std::_Exit(137);
}

std::optional<FaultKind> faultKindFromName(std::string_view name)
{
    for (const auto& [kind, text] : kNames) {
        if (text == name) {
            return kind;
        }
    }
    return std::nullopt;
}

std::string_view faultKindName(FaultKind kind)
{
    for (const auto& [k, text] : kNames) {
        if (k == kind) {
            return text;
        }
    }
    return "none";
}

std::string faultNames()
{
    std::string names;
    for (const auto& [kind, text] : kNames) {
        names += (names.empty() ? "" : ", ") + std::string(text);
    }
    return names;
}

FaultTarget faultTarget(FaultKind kind)
{
    switch (kind) {
    case FaultKind::CrashAfterStarted:
    case FaultKind::CrashAfterOrderCreated:
    case FaultKind::CrashAfterCharge:
    case FaultKind::CrashAfterPaymentCharged:
    case FaultKind::CrashAfterFinished:
        return FaultTarget::Checkout;
    case FaultKind::GatewayDecline:
    case FaultKind::GatewayTimeout:
    case FaultKind::GatewayFail:
    case FaultKind::GatewaySlow:
    case FaultKind::WebhookDuplicate:
    case FaultKind::WebhookTwin:
    case FaultKind::WebhookAckLost:
        return FaultTarget::Gateway;
    default:
        return FaultTarget::Orders;
    }
}

ArmedFault& Faults::slot(FaultTarget target)
{
    return target == FaultTarget::Checkout ? m_checkout : target == FaultTarget::Gateway ? m_gateway : m_armed;
}

const ArmedFault& Faults::slot(FaultTarget target) const
{
    return target == FaultTarget::Checkout ? m_checkout : target == FaultTarget::Gateway ? m_gateway : m_armed;
}

void Faults::arm(const ArmedFault& fault)
{
    std::lock_guard lock(m_lock);
    if (fault.kind == FaultKind::None) {
        m_armed = m_checkout = m_gateway = ArmedFault {};
        return;
    }
    ArmedFault& target = slot(faultTarget(fault.kind));
    target = fault.remaining > 0 ? fault : ArmedFault {};
}

ArmedFault Faults::armed(FaultTarget target) const
{
    std::lock_guard lock(m_lock);
    return slot(target);
}

ArmedFault Faults::take(FaultTarget target)
{
    std::lock_guard lock(m_lock);
    ArmedFault& armed = slot(target);
    if (armed.kind == FaultKind::None) {
        return {};
    }
    ArmedFault taken = armed;
    if (--armed.remaining <= 0) {
        armed = ArmedFault {};
    }
    return taken;
}

void Faults::setModes(const TeachingModes& modes)
{
    std::lock_guard lock(m_lock);
    m_modes = modes;
}

TeachingModes Faults::modes() const
{
    std::lock_guard lock(m_lock);
    return m_modes;
}

OrderWriterRules Faults::writerRules() const
{
    return {.businessKey = !modes().businessKeyOff};
}

void Faults::clear()
{
    std::lock_guard lock(m_lock);
    m_armed = m_checkout = m_gateway = ArmedFault {};
    m_modes = TeachingModes {};
}

} // namespace onceorder::server
