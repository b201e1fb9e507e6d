#include "gpumesh/StatisticsCombination.h"

#include <algorithm>
#include <limits>

namespace gpumesh
{

Statistics combineStatistics(const std::vector<Statistics>& parts)
{
  Statistics total;
  total.minimum = std::numeric_limits<double>::quiet_NaN();
  total.maximum = std::numeric_limits<double>::quiet_NaN();
  for (const Statistics& part : parts)
  {
    if (part.count == 0)
    {
      continue;
    }
    const bool first = total.count == 0;
    total.minimum = first ? part.minimum : std::min(total.minimum, part.minimum);
    total.maximum = first ? part.maximum : std::max(total.maximum, part.maximum);
    total.count += part.count;
    total.sum += part.sum;
    total.sumOfSquares += part.sumOfSquares;
  }
  return total;
}

} // namespace gpumesh
