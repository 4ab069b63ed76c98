// OrderWriterRulesSource: how an order written outside POST /orders' lessons (the checkout's) is to be written now.
// The teaching mode business_key_off turns the cart's unique index off (teaching/Faults gives it), so the checkout
// asks this, not the debug panel's faults.
#pragma once

#include "orders/OrderWriter.h"

namespace onceorder::server {

class OrderWriterRulesSource
{
public:
    virtual ~OrderWriterRulesSource() = default;
    virtual OrderWriterRules writerRules() const = 0;
};

} // namespace onceorder::server
