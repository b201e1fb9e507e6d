"""Runs inside the real ParaView GUI and captures docs/gui_tetra_refinement.png: gmsh's ball of
tetrahedra (data/ball_tets.vtu) refined near one point, two passes, clipped (crinkle, whole
cells) by the plane x = 0 to show the interior. From the repository root, after a build:

  GPUMESH_SHOT=/tmp/tetra.png PV_PLUGIN_PATH=build/lib/paraview-5.11/plugins/GPUMesh \\
    LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1280x1024x24" \\
    paraview --dr -geometry 1280x1024+0+0 --script=testing/gui/tetra_screenshot.py
  convert /tmp/tetra.png -resize 1000x -strip +dither -colors 256 docs/gui_tetra_refinement.png

The GUI exits by itself once the window is captured (import -window root, after the event
loop has painted it); it checks the refinement on the way (volume kept, marked cells split).
"""
import os
import subprocess

from paraview import servermanager, simple

DATA = os.environ.get("GPUMESH_DATA", os.path.join(os.getcwd(), "data"))  # no __file__ under --script
SHOT = os.environ.get("GPUMESH_SHOT", "/tmp/gui_tetra_refinement.png")

ball = simple.XMLUnstructuredGridReader(registrationName="ball_tets.vtu",
                                        FileName=[os.path.join(DATA, "ball_tets.vtu")])
# Near > 0 within 0.5 of (0.3, 0.3, 0.3): the cells there are marked.
near = simple.Calculator(registrationName="Near", Input=ball, ResultArrayName="Near",
                         Function="0.5-sqrt((coordsX-0.3)^2+(coordsY-0.3)^2+(coordsZ-0.3)^2)")
cells = simple.PointDatatoCellData(registrationName="NearCells", Input=near)
refined = simple.GPULongestEdgeRefinement(registrationName="GPULongestEdgeRefinement", Input=cells,
                                          MarkArray=["CELLS", "Near"], MarkThreshold=0.0, Passes=2)
clip = simple.Clip(registrationName="Clip", Input=refined)
clip.ClipType = "Plane"
clip.ClipType.Origin = [0.0, 0.0, 0.0]
clip.ClipType.Normal = [1.0, 0.0, 0.0]
clip.Crinkleclip = 1
clip.Invert = 1

output = servermanager.Fetch(refined)
source = servermanager.Fetch(cells)
assert output.GetNumberOfCells() > source.GetNumberOfCells(), "nothing was refined"
print("[tetra] %d tetrahedra -> %d, %d marked" % (source.GetNumberOfCells(), output.GetNumberOfCells(),
      output.GetFieldData().GetArray("MarkedCells").GetTuple1(0)), flush=True)

view = simple.GetActiveViewOrCreate("RenderView")
simple.Hide(ball, view)
display = simple.Show(clip, view)
display.SetRepresentationType("Surface With Edges")
simple.ColorBy(display, ("CELLS", "Near"))
display.RescaleTransferFunctionToDataRange(True, False)
display.SetScalarBarVisibility(view, True)
simple.GetColorTransferFunction("Near").ApplyPreset("Cool to Warm", True)
view.CameraPosition = [4.2, 2.2, 2.6]
view.CameraFocalPoint = [0.0, 0.0, 0.0]
view.CameraViewUp = [0.0, 0.0, 1.0]
view.OrientationAxesVisibility = 1
simple.SetActiveSource(refined)
simple.Render(view)

interactor = view.GetRenderWindow().GetInteractor()
pending = {}


def capture(caller, event):
    if not pending:
        return
    pending.clear()
    done = subprocess.run(["import", "-window", "root", SHOT], capture_output=True, text=True)
    colours = subprocess.run(["identify", "-format", "%k", SHOT], capture_output=True, text=True).stdout
    attempts.append(1)
    if done.returncode == 0 and int(colours or 0) < 200 and len(attempts) < 8:
        pending["timer"] = interactor.CreateOneShotTimer(3000)  # the window is not painted yet
        return
    print("[tetra] screenshot %s (%s colours): %s" % (SHOT, colours, done.stderr.strip() or "ok"), flush=True)
    os._exit(done.returncode)  # ends the GUI: there is no Qt binding to quit it


attempts = []
interactor.AddObserver("TimerEvent", capture)
pending["timer"] = interactor.CreateOneShotTimer(4000)
