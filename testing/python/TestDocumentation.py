"""Every property in xml/GPUMeshFilters.xml is documented there (tooltip and help); README's
filter table gives each filter's Python and C++ names; the filter reference (docs/filters.md)
documents each filter's Python names: the label-derived names of the XML, the names the real
proxies have in paraview.simple, and their defaults; the same for the GMF reader and writer.
Every relative link of README.md and docs/*.md leads to an existing file and heading."""
import ast
import glob
import os
import re
import tempfile
import unittest
import xml.etree.ElementTree as ET

from paraview import simple

import gpumesh_testing as gt
import gpumesh_xml

ROOT = os.path.normpath(os.path.join(os.path.dirname(gpumesh_xml.XML_PATH), ".."))
README = os.path.join(ROOT, "README.md")
REFERENCE = os.path.join(ROOT, "docs", "filters.md")
gt.load_plugin()


def reference_sections():
    """{heading: text} for each '## heading' of the filter reference (up to the next heading)."""
    with open(REFERENCE, encoding="utf-8") as f:
        text = f.read()
    sections = {}
    for match in re.finditer(r"^## (.+?)\n(.*?)(?=^##)", text + "\n## end", re.S | re.M):
        sections[match.group(1).strip()] = match.group(2)
    return sections


def property_rows(section):
    """{python name: default column} of the section's '| `Name` | default | meaning |' rows."""
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"^\| `(\w+)` \| ([^|]*) \|", section, re.M)}


class XmlDocumentation(unittest.TestCase):
    def test_every_property_of_every_proxy_has_documentation(self):
        proxies = gpumesh_xml.all_proxies()
        self.assertGreater(len(proxies), 1)
        for group, proxy, properties in proxies:
            for p in properties:
                with self.subTest(proxy=proxy, property=p.name):
                    self.assertTrue(p.documentation, "%s/%s.%s has no <Documentation> text" % (group, proxy, p.name))

    def test_user_properties_have_a_tooltip(self):
        for f in gpumesh_xml.load():
            for p in f.user_properties():
                with self.subTest(filter=f.name, property=p.name):
                    self.assertTrue(p.short_help, "%s.%s has no short_help (the tooltip)" % (f.name, p.name))

    def test_every_filter_is_documented_and_in_the_gpu_mesh_menu(self):
        filters = gpumesh_xml.load()
        self.assertGreaterEqual(len(filters), 3)
        for f in filters:
            with self.subTest(filter=f.name):
                self.assertTrue(f.documentation, "%s has no <Documentation>" % f.name)
                self.assertEqual(f.menu_category, "GPU Mesh")
                self.assertTrue(f.label.startswith("GPU "), f.label)


class PrintSelf(unittest.TestCase):
    def test_print_self_names_every_property(self):
        """PrintSelf (str() of the VTK object) prints 'Name: value' for every property."""
        source = simple.Sphere()
        for f in gpumesh_xml.load():
            with self.subTest(filter=f.name):
                proxy = getattr(simple, f.python_name)(Input=source)
                text = str(proxy.GetClientSideObject())
                for p in f.user_properties():
                    self.assertIn("\n  %s: " % p.member_name, text,
                                  "%s::PrintSelf does not print %s" % (f.vtk_class, p.member_name))
                simple.Delete(proxy)


class ReferenceNames(unittest.TestCase):
    def setUp(self):
        with open(README, encoding="utf-8") as f:
            self.readme = f.read()
        self.sections = reference_sections()

    def test_filter_table_lists_python_and_cxx_names(self):
        for f in gpumesh_xml.load():
            with self.subTest(filter=f.name):
                row = "| %s | `%s` | `%s` |" % (f.label, f.python_name, f.vtk_class)
                self.assertIn(row, self.readme, "README's filter table lacks the row " + row)

    def test_each_filter_section_documents_exactly_its_python_property_names(self):
        for f in gpumesh_xml.load():
            with self.subTest(filter=f.name):
                self.assertIn(f.label, self.sections, "docs/filters.md has no '## %s' section" % f.label)
                documented = set(property_rows(self.sections[f.label]))
                expected = {p.python_name for p in f.user_properties()}
                self.assertEqual(documented, expected,
                                 "docs/filters.md rows vs label-derived names of %s" % f.name)

    def test_real_proxies_have_the_documented_names_and_defaults(self):
        source = simple.Sphere()
        for f in gpumesh_xml.load():
            with self.subTest(filter=f.name):
                self.assertTrue(hasattr(simple, f.python_name), "paraview.simple has no " + f.python_name)
                proxy = getattr(simple, f.python_name)(Input=source)
                # ListProperties also names information-only properties (DeviceList), which
                # are not attributes in Python: only the settable ones are compared.
                information_only = {p.python_name for p in f.properties if p.information_only}
                names = set(proxy.ListProperties()) - {"Input"} - information_only
                self.assertEqual(names, {p.python_name for p in f.user_properties()})
                for name in names:
                    self.assertIsNotNone(proxy.GetProperty(name), "%s.%s" % (f.python_name, name))
                for name, default in property_rows(self.sections[f.label]).items():
                    try:
                        value = ast.literal_eval(default.strip("`"))
                    except (ValueError, SyntaxError):
                        continue  # a description such as "active cell scalars", not a value
                    self.assertEqual(proxy.GetPropertyValue(name), value,
                                     "%s.%s: docs/filters.md says the default is %s" % (f.python_name, name, default))
                simple.Delete(proxy)


class GmfReference(unittest.TestCase):
    """The GMF section of docs/filters.md documents exactly the reader's properties and the
    writer's own (those xml/GPUMeshIO.xml exposes), with their defaults."""

    def test_reader_and_writer_properties_and_defaults(self):
        sections = reference_sections()
        names = [h for h in sections if h.startswith("GMF reader and writer")]
        self.assertEqual(len(names), 1, "docs/filters.md has no '## GMF reader and writer...' section")
        documented = property_rows(sections[names[0]])
        io_xml = ET.parse(os.path.join(os.path.dirname(gpumesh_xml.XML_PATH), "GPUMeshIO.xml"))
        exposed = {p.get("name") for e in io_xml.iter("ExposedProperties") for p in e.iter("Property")}
        source = simple.GMFMeshReader(FileName=os.path.join(ROOT, "data", "gmf", "plate_with_holes.meshb"))
        writer = simple.CreateWriter(os.path.join(tempfile.gettempdir(), "documentation.meshb"), source)
        reader_names = set(source.ListProperties()) - {"FileName"}
        self.assertEqual(set(documented), reader_names | exposed)
        for name, default in documented.items():
            proxy = source if name in reader_names else writer
            with self.subTest(property=name):
                self.assertEqual(proxy.GetPropertyValue(name), ast.literal_eval(default.strip("`")),
                                 "%s: docs/filters.md says the default is %s" % (name, default))
        simple.Delete(writer)
        simple.Delete(source)


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]|<[^>]*>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    """The anchors of a markdown file: its headings' (numbered when repeated) and <a id=...>."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"^```.*?^```", "", f.read(), flags=re.S | re.M)
    found, counts = set(), {}
    for heading in re.findall(r"^#{1,6} (.+?)\s*$", text, re.M):
        base = slug(heading)
        n = counts.get(base, 0)
        counts[base] = n + 1
        found.add(base if n == 0 else "%s-%d" % (base, n))
    found.update(re.findall(r"<a (?:id|name)=\"([^\"]+)\"", text))
    return found


class Links(unittest.TestCase):
    def test_relative_links_of_readme_and_docs_resolve(self):
        pages = [README] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
        self.assertIn(REFERENCE, pages)
        for page in pages:
            with open(page, encoding="utf-8") as f:
                text = re.sub(r"^```.*?^```", "", f.read(), flags=re.S | re.M)
            text = re.sub(r"`[^`\n]*`", "", text)  # inline code is not a link
            for target in re.findall(r"\]\(([^)\s]+)\)", text):
                if re.match(r"[a-z]+:", target):
                    continue  # http:, https:, mailto:
                with self.subTest(page=os.path.relpath(page, ROOT), link=target):
                    path, _, anchor = target.partition("#")
                    resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                    self.assertTrue(os.path.exists(resolved), "%s: no file %s" % (page, path))
                    if anchor:
                        self.assertTrue(resolved.endswith(".md"), "%s: an anchor into %s" % (page, path))
                        self.assertIn(anchor, anchors(resolved), "%s: no heading #%s in %s" % (page, anchor, path))


if __name__ == "__main__":
    unittest.main(verbosity=2)
