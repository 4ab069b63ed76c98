#include "teaching/CrashPoints.h"

#include "teaching/CrashPoint.h"

namespace onceorder::server {

CrashPoints::CrashPoints(Faults& faults, std::function<void()> crash)
    : m_faults(faults)
    , m_crash(std::move(crash))
{
}

std::unique_ptr<PhaseObserver> CrashPoints::forRequest()
{
    return std::make_unique<CrashPoint>(m_faults.take(FaultTarget::Checkout).kind, m_crash);
}

} // namespace onceorder::server
