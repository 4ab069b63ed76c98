// describeReply: one line for people about an HTTP exchange that did not succeed: the problem+json title and
// detail when the server sent one, else the status or the network error.
#pragma once

#include "net/ServerApi.h"

#include <QString>

namespace onceorder::core {

QString describeReply(const HttpReply& reply);

} // namespace onceorder::core
