#include "teaching/CrashPoint.h"

#include "checkout/RecoveryPoint.h"

namespace onceorder::server {

namespace {

// The point each crash-after-* fault names; nothing for any other fault.
std::string_view pointOf(FaultKind kind)
{
    switch (kind) {
    case FaultKind::CrashAfterStarted:
        return recoveryPointName(RecoveryPoint::Started);
    case FaultKind::CrashAfterOrderCreated:
        return recoveryPointName(RecoveryPoint::OrderCreated);
    case FaultKind::CrashAfterCharge:
        return PhaseObserver::kCharged;
    case FaultKind::CrashAfterPaymentCharged:
        return recoveryPointName(RecoveryPoint::PaymentCharged);
    case FaultKind::CrashAfterFinished:
        return recoveryPointName(RecoveryPoint::Finished);
    default:
        return {};
    }
}

} // namespace

CrashPoint::CrashPoint(FaultKind armed, std::function<void()> crash)
    : m_armed(armed)
    , m_crash(std::move(crash))
{
}

void CrashPoint::onPhase(std::string_view point)
{
    const std::string_view armedPoint = pointOf(m_armed);
    if (!armedPoint.empty() && armedPoint == point) {
        m_crash();
    }
}

} // namespace onceorder::server
