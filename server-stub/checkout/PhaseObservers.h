// PhaseObservers: hands each request to POST /checkout its own PhaseObserver as it begins. The completer's resumes
// are not observed.
#pragma once

#include "checkout/PhaseObserver.h"

#include <memory>

namespace onceorder::server {

class PhaseObservers
{
public:
    virtual ~PhaseObservers() = default;
    virtual std::unique_ptr<PhaseObserver> forRequest() = 0;
};

} // namespace onceorder::server
