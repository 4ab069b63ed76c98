// PgFailure: what libpqxx's exceptions (by class and SQLSTATE) mean in the storage core's neutral words
// (storage/DatabaseFailure.h); registered as the PostgreSQL backend's Backend::readFailure.
#pragma once

#include "storage/DatabaseFailure.h"

#include <exception>
#include <optional>

namespace onceorder::server {

std::optional<NativeFailure> readPostgresFailure(const std::exception_ptr& error);

} // namespace onceorder::server
