#include "LessonViewer.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QScreen>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace onceorder::ui {

LessonViewer::LessonViewer(const QString& path, const QString& builtIn, QWidget* parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("lessonViewer"));
    setWindowTitle(tr("The lesson plan"));
    m_browser->setObjectName(QStringLiteral("lessonText"));
    m_browser->setAccessibleName(tr("The lesson plan"));
    m_browser->setOpenExternalLinks(true);
    QFile file(path.isEmpty() ? builtIn : path);
    if (file.open(QIODevice::ReadOnly)) {
        if (!path.isEmpty()) {
            m_browser->setSearchPaths({QFileInfo(path).absolutePath()}); // its links to the other lesson
        }
        m_browser->setMarkdown(QString::fromUtf8(file.readAll()));
    } else {
        m_browser->setPlainText(tr("The lesson plan could not be read: %1").arg(file.fileName()));
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    if (!path.isEmpty()) {
        QPushButton* open = buttons->addButton(tr("Open in another program"), QDialogButtonBox::ActionRole);
        open->setObjectName(QStringLiteral("openLessonButton"));
        connect(open, &QPushButton::clicked, this, [path] { QDesktopServices::openUrl(QUrl::fromLocalFile(path)); });
    }
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser, 1);
    layout->addWidget(buttons);
    if (parent) {
        setFont(parent->font()); // at the window's presentation zoom
    }
    const double zoom = font().pointSizeF() / QFont().pointSizeF();
    QSize size(static_cast<int>(900 * zoom), static_cast<int>(700 * zoom));
    if (QScreen* screen = parent ? parent->screen() : nullptr) {
        size = size.boundedTo(screen->availableGeometry().size() * 9 / 10);
    }
    resize(size);
}

} // namespace onceorder::ui
