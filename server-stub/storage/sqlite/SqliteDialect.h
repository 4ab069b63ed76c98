// SqliteDialect: SQLite's differences as data (storage/SqlDialect.h), its row in SqliteDialect.cpp.
#pragma once

#include "storage/SqlDialect.h"

namespace onceorder::server {

const SqlDialect& sqliteDialect();

} // namespace onceorder::server
