// CheckoutStateError: a checkout_keys row is not as the phases left it (it vanished between two statements of one
// transaction, or a charged checkout's order is missing). Nothing was committed from the failed phase; the request is
// answered 503 like a transient database failure, its lock let go, and a retry (or the completer) looks again.
#pragma once

#include "storage/DatabaseFailure.h"

namespace onceorder::server {

class CheckoutStateError : public TransientFailure
{
public:
    using TransientFailure::TransientFailure;
};

} // namespace onceorder::server
