#include "teaching/TeachingLessons.h"

#include "teaching/TeachingLesson.h"

namespace onceorder::server {

std::shared_ptr<const OrderLesson> TeachingLessons::next()
{
    return TeachingLesson::next(m_faults);
}

} // namespace onceorder::server
