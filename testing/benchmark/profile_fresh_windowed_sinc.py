"""Where a fresh process's time goes in GPU Vertex Smoothing's WindowedSinc: one process builds
a UV sphere of about N triangles (as bench_windowed_sinc.py), applies the filter twice (a fresh
first application, then a property change), and prints for each the wall time, the CPU and
system time and the minor page faults of the process (getrusage), the kernel and program-build
times and the peak device memory from the output's field data.

    GPUMESH_PLUGIN=build/lib/paraview-5.11/plugins/GPUMesh/GPUMesh.so \
        pvpython testing/benchmark/profile_fresh_windowed_sinc.py [1000000] [WindowedSinc]
"""
import math, os, sys, time, resource
from vtkmodules.vtkFiltersSources import vtkSphereSource
triangles = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000; method = sys.argv[2] if len(sys.argv) > 2 else "WindowedSinc"
theta = int(round(math.sqrt(triangles)))
sphere = vtkSphereSource(); sphere.SetThetaResolution(theta); sphere.SetPhiResolution(triangles // (2 * theta) + 2); sphere.Update()
mesh = sphere.GetOutput()
from paraview import simple
simple.LoadPlugin(os.environ["GPUMESH_PLUGIN"], remote=False, ns=vars(simple))
source = simple.TrivialProducer(); source.GetClientSideObject().SetOutput(mesh)
proxy = simple.GPUVertexSmoothing(Input=source, Method=method, Iterations=20, Boundary="Smooth")
for run in range(2):
    if run: proxy.Iterations = 21
    r0 = resource.getrusage(resource.RUSAGE_SELF); t0 = time.perf_counter()
    proxy.UpdatePipeline()
    t1 = time.perf_counter(); r1 = resource.getrusage(resource.RUSAGE_SELF)
    fd = proxy.GetClientSideObject().GetOutputDataObject(0).GetFieldData()
    g = lambda k: float(fd.GetAbstractArray(k).GetVariantValue(0).ToString())
    print("run %d wall %7.1f ms sys %6.1f cpu %7.1f ms minor faults %7d (%.0f MB of 4K) kernel %7.1f build %6.1f peak %.0f MB" % (run, 1000*(t1-t0), 1000*(r1.ru_stime-r0.ru_stime), 1000*(r1.ru_utime+r1.ru_stime-r0.ru_utime-r0.ru_stime), r1.ru_minflt-r0.ru_minflt, (r1.ru_minflt-r0.ru_minflt)*4/1024, g("KernelTimeMs"), g("ProgramBuildTimeMs"), g("PeakDeviceMemoryBytes")/2**20))
