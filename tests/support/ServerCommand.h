// ServerCommand: runs onceorder-server once with the given arguments (a subcommand, or a start that must fail) to its
// end, and returns its exit status and what it printed on stdout (add " 2>&1" to the arguments for stderr too).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace onceorder::test {

struct CommandRun
{
    int status = -1; // the exit status, or -1 if it did not exit normally
    std::string out;
};

// `args` go through the shell as they are: quote what needs it.
inline CommandRun runServerCommand(const std::string& args)
{
    CommandRun run;
    FILE* pipe = popen((std::string(ONCEORDER_SERVER_BIN) + " " + args).c_str(), "r");
    if (!pipe) {
        return run;
    }
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe)) {
        run.out += buffer;
    }
    const int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

} // namespace onceorder::test
