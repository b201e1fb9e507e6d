// Statistics of the pieces of a distributed array combined into those of the whole array.
#pragma once
#include "gpumesh/Reduce.h"

#include <vector>

namespace gpumesh
{

/// The statistics of the union of the parts, combined in the order given (every process
/// combines the same gathered list in rank order, so all get bit-identical results). Parts with
/// count 0 (an empty piece: NaN minimum, maximum and mean) contribute nothing. Sums of squares
/// add without overflow: they come from single-precision values, whose squares are below 1.2e77.
Statistics combineStatistics(const std::vector<Statistics>& parts);

} // namespace gpumesh
