#include "checkout/RecoveryPoint.h"

#include <stdexcept>
#include <string>

namespace onceorder::server {

namespace {

constexpr RecoveryPoint kAll[] = {RecoveryPoint::Started, RecoveryPoint::OrderCreated, RecoveryPoint::PaymentCharged,
                                  RecoveryPoint::Finished};

} // namespace

const char* recoveryPointName(RecoveryPoint point)
{
    switch (point) {
    case RecoveryPoint::Started:
        return "started";
    case RecoveryPoint::OrderCreated:
        return "order_created";
    case RecoveryPoint::PaymentCharged:
        return "payment_charged";
    case RecoveryPoint::Finished:
        return "finished";
    }
    throw std::invalid_argument("not a recovery point");
}

RecoveryPoint recoveryPointFromName(std::string_view name)
{
    for (const RecoveryPoint point : kAll) {
        if (name == recoveryPointName(point)) {
            return point;
        }
    }
    throw std::invalid_argument("unknown recovery point \"" + std::string(name) + "\"");
}

} // namespace onceorder::server
