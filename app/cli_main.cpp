// onceorder-cli: the headless client on the same core as the window.
#include "session/CliRunner.h"

#include <QCoreApplication>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("onceorder"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ONCEORDER_VERSION));
    return onceorder::core::runCli(QCoreApplication::arguments());
}
