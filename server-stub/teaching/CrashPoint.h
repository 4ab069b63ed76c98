// CrashPoint: the crash-after-* lessons as a PhaseObserver of one checkout request: "crashes" (the crash action;
// the process is killed by default) right after the point its armed fault names.
#pragma once

#include "checkout/PhaseObserver.h"
#include "teaching/Faults.h"

#include <functional>

namespace onceorder::server {

class CrashPoint final : public PhaseObserver
{
public:
    CrashPoint(FaultKind armed, std::function<void()> crash);

    void onPhase(std::string_view point) override;

private:
    FaultKind m_armed;
    std::function<void()> m_crash;
};

} // namespace onceorder::server
