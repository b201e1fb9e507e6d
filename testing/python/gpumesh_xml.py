"""The GPUMesh filters as xml/GPUMeshFilters.xml declares them (standard library only).

The GUI test, the documentation test and the examples' tests take the list of expected
filters from here, so a filter added to the XML is expected everywhere without editing them.
"""
import os
import re
import xml.etree.ElementTree as ElementTree

XML_PATH = os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "xml", "GPUMeshFilters.xml"))


def python_name(label):
    """What paraview.simple calls a proxy or property with this label: the label with every
    character that is not a letter, digit or underscore removed ("Mark Array" -> MarkArray),
    as paraview.make_name_valid does."""
    name = re.sub(r"[^A-Za-z0-9_]", "", label)
    return name if not name or name[0].isalpha() else "a" + name


class Property:
    def __init__(self, element):
        self.name = element.get("name")
        self.label = element.get("label") or self.name
        self.kind = element.tag
        self.command = element.get("command")
        self.information_only = element.get("information_only") == "1"
        self.panel_visibility = element.get("panel_visibility", "default")
        documentation = element.find("Documentation")
        self.documentation = " ".join((documentation.text or "").split()) if documentation is not None else None
        self.short_help = documentation.get("short_help") if documentation is not None else None

    @property
    def python_name(self):
        return python_name(self.label)

    @property
    def member_name(self):
        """The C++ member its setter sets (SetQuantity -> Quantity); for an array chosen with
        SetInputArrayToProcess, the Python name, which PrintSelf uses as its label."""
        if self.command == "SetInputArrayToProcess":
            return self.python_name
        return self.command[3:] if self.command and self.command.startswith("Set") else self.name

    @property
    def is_input(self):
        return self.kind == "InputProperty"


class Filter:
    def __init__(self, element, base_properties):
        self.name = element.get("name")
        self.label = element.get("label") or self.name
        self.vtk_class = element.get("class")
        documentation = element.find("Documentation")
        self.documentation = " ".join((documentation.text or "").split()) if documentation is not None else None
        show_in_menu = element.find("Hints/ShowInMenu")
        self.menu_category = show_in_menu.get("category") if show_in_menu is not None else None
        self.properties = list(base_properties) + [Property(e) for e in element if e.tag.endswith("Property")]

    @property
    def python_name(self):
        return python_name(self.label)

    @property
    def example_name(self):
        """examples/<this>.py: the label without "GPU", in snake case (cell_reduction)."""
        words = self.label.split()
        return "_".join(w.lower() for w in words if w != "GPU")

    def user_properties(self):
        """The properties a user sets: not the input, not information-only ones."""
        return [p for p in self.properties if not p.is_input and not p.information_only]


def load(path=XML_PATH):
    """The SourceProxy elements of the "filters" group, in file order, each with the properties
    it inherits from its base proxy (base_proxygroup/base_proxyname) first."""
    root = ElementTree.parse(path).getroot()
    proxies = {}
    for group in root.findall("ProxyGroup"):
        for proxy in group.findall("SourceProxy"):
            proxies[(group.get("name"), proxy.get("name"))] = proxy

    def properties_of(proxy):
        base = (proxy.get("base_proxygroup"), proxy.get("base_proxyname"))
        inherited = properties_of(proxies[base]) if base in proxies else []
        return inherited + [Property(e) for e in proxy if e.tag.endswith("Property")]

    filters = []
    for group in root.findall("ProxyGroup"):
        if group.get("name") != "filters":
            continue
        for proxy in group.findall("SourceProxy"):
            base = (proxy.get("base_proxygroup"), proxy.get("base_proxyname"))
            filters.append(Filter(proxy, properties_of(proxies[base]) if base in proxies else []))
    return filters


def all_proxies(path=XML_PATH):
    """Every SourceProxy of every group (base proxies included), as (group, name, [Property])."""
    root = ElementTree.parse(path).getroot()
    return [(group.get("name"), proxy.get("name"), [Property(e) for e in proxy if e.tag.endswith("Property")])
            for group in root.findall("ProxyGroup") for proxy in group.findall("SourceProxy")]


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--example-names"]:  # for CMake: one examples/<name>.py per filter
        print(";".join(f.example_name for f in load()), end="")
        sys.exit(0)
    for f in load():
        print("%s (%s, menu %r): %s" % (f.name, f.label, f.menu_category,
                                        ", ".join(p.python_name for p in f.user_properties())))
