// LessonViewer: Help → The lesson plan inside the application (issue 40): the lesson's Markdown (docs/teaching.md, or
// teaching.cs.md in Czech) in a window of its own at the presentation zoom, from the installed or source copy, else
// from the copy built into the executable; "Open in another program" hands the file to the desktop when there is one.
#pragma once

#include <QDialog>

class QTextBrowser;

namespace onceorder::ui {

class LessonViewer : public QDialog
{
    Q_OBJECT

public:
    // `path`: the lesson on disk (may be empty); `builtIn`: the resource read when there is none.
    LessonViewer(const QString& path, const QString& builtIn, QWidget* parent = nullptr);

    QTextBrowser* browser() const { return m_browser; }

private:
    QTextBrowser* m_browser;
};

} // namespace onceorder::ui
