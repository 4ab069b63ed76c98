// PhaseObserver: watches one request to POST /checkout pass its recovery points. CheckoutService tells it each point
// right after the point is committed (and "charged" right after the gateway has charged, before that is recorded).
// The checkout itself needs no observer; the crash-after-* lessons are one (teaching/CrashPoint), installed by
// OrderServer through PhaseObservers.
#pragma once

#include <string_view>

namespace onceorder::server {

class PhaseObserver
{
public:
    // The point between "order_created" and "payment_charged": the gateway has charged, we have not recorded it.
    static constexpr std::string_view kCharged = "charged";

    virtual ~PhaseObserver() = default;
    // `point` is a recoveryPointName or kCharged.
    virtual void onPhase(std::string_view point) = 0;
};

} // namespace onceorder::server
