// SqliteBackend: the embedded default, one server process on a SQLite file (or :memory:). Registered in
// storage/Backends.cpp; takes every --db that is not a URI.
#pragma once

#include "storage/Backend.h"

namespace onceorder::server {

const Backend& sqliteBackend();

} // namespace onceorder::server
