"""A long GPU Vertex Smoothing (a million iterations of a tiny mesh): progress is reported as
the iterations run, about once per percent, and an abort set by a ProgressEvent observer stops
it between iterations with an empty output and a message."""
import unittest

from paraview import simple

import gpumesh_testing as gt
from TestBadProperties import hexagon

gt.load_plugin()


def observe_progress(proxy, abort_above=None):
    """The progress values the filter reports; sets AbortExecute once one exceeds abort_above."""
    algorithm = proxy.GetClientSideObject()
    seen = []

    def on_progress(caller, event):
        seen.append(caller.GetProgress())
        if abort_above is not None and seen[-1] > abort_above:
            caller.SetAbortExecute(1)

    algorithm.AddObserver("ProgressEvent", on_progress)
    return seen


class SmoothingProgressTest(unittest.TestCase):
    def test_progress_is_reported_per_percent_of_the_iterations(self):
        smoothing = simple.GPUVertexSmoothing(Input=gt.producer(hexagon()), Iterations=20000)
        seen = observe_progress(smoothing)
        result = gt.fetch(smoothing)
        self.assertEqual(result.GetNumberOfPoints(), 7)
        during = [p for p in seen if 0.1 < p < 0.9]
        # One event per percent of the iterations (0.008 apart): neither one nor 20000.
        self.assertGreaterEqual(len(during), 95, seen)
        self.assertLessEqual(len(during), 101, seen)
        self.assertEqual(during, sorted(during))
        self.assertEqual(seen[-1], 1.0)

    def test_an_abort_stops_between_iterations_with_an_empty_output(self):
        smoothing = simple.GPUVertexSmoothing(Input=gt.producer(hexagon()), Iterations=1000000)
        seen = observe_progress(smoothing, abort_above=0.12)
        with gt.CapturedErrors() as errors:
            result = gt.fetch(smoothing)
        self.assertIn("Smoothing was aborted after ", errors.text)
        self.assertIn(" of 1000000 iterations; the output is empty", errors.text)
        # Stopped soon after the first progress above 0.12, i.e. near 3% of the iterations.
        stopped_at = int(errors.text.split("aborted after ")[1].split(" ")[0])
        self.assertGreaterEqual(stopped_at, 20000)
        self.assertLess(stopped_at, 40000)
        self.assertEqual(result.GetNumberOfPoints(), 0)
        self.assertEqual(result.GetNumberOfCells(), 0)
        # No progress past the abort (the pipeline itself ends with 1.0).
        self.assertLess(max(p for p in seen if p < 1.0), 0.2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
