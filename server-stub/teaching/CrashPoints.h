// CrashPoints: installed by OrderServer as the checkout's PhaseObservers. Each request to POST /checkout takes the
// fault armed for the checkout (as it begins) and is watched by a CrashPoint for it.
#pragma once

#include "checkout/PhaseObservers.h"
#include "teaching/Faults.h"

#include <functional>

namespace onceorder::server {

class CrashPoints final : public PhaseObservers
{
public:
    // What "crash" means; the default kills the process. Tests throw instead.
    explicit CrashPoints(Faults& faults, std::function<void()> crash = crashProcessNow);

    std::unique_ptr<PhaseObserver> forRequest() override;

private:
    Faults& m_faults;
    std::function<void()> m_crash;
};

} // namespace onceorder::server
