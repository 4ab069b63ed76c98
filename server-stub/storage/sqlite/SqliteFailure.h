// SqliteFailure: what SQLite's exceptions (SQLite::Exception, by its primary result code) mean in the storage core's
// neutral words (storage/DatabaseFailure.h); registered as the SQLite backend's Backend::readFailure.
#pragma once

#include "storage/DatabaseFailure.h"

#include <exception>
#include <optional>

namespace onceorder::server {

std::optional<NativeFailure> readSqliteFailure(const std::exception_ptr& error);

} // namespace onceorder::server
