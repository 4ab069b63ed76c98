// TeachingLessons: the lessons the debug panel installs into OrderService: each request's is TeachingLesson::next (the
// plain pattern unless a fault or a teaching mode is armed in Faults, else the mistake it makes).
#pragma once

#include "orders/OrderLesson.h"
#include "teaching/Faults.h"

namespace onceorder::server {

class TeachingLessons final : public OrderLessons
{
public:
    explicit TeachingLessons(Faults& faults)
        : m_faults(faults)
    {
    }
    std::shared_ptr<const OrderLesson> next() override;

private:
    Faults& m_faults;
};

} // namespace onceorder::server
