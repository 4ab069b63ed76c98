// Synchronous: how hard a commit waits for the disk where the database lets the server choose (--synchronous, the
// embedded database's PRAGMA synchronous): Full waits for every commit, Normal may lose the last ones on power loss.
#pragma once

namespace onceorder::server {

enum class Synchronous
{
    Full,
    Normal
};

} // namespace onceorder::server
