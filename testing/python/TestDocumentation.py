"""Every property in xml/GPUMeshFilters.xml is documented there (tooltip and help), and the
README documents each filter's Python names: the label-derived names of the XML, the names the
real proxies have in paraview.simple, and their defaults."""
import ast
import os
import re
import unittest

from paraview import simple

import gpumesh_testing as gt
import gpumesh_xml

README = os.path.join(os.path.dirname(gpumesh_xml.XML_PATH), "..", "README.md")
gt.load_plugin()


def readme_sections():
    """{heading: text} for each '### heading' of the README."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    sections = {}
    for match in re.finditer(r"^### (.+?)\n(.*?)(?=^##)", text + "\n## end", re.S | re.M):
        sections[match.group(1).strip()] = match.group(2)
    return text, sections


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


class ReadmeNames(unittest.TestCase):
    def setUp(self):
        self.text, self.sections = readme_sections()

    def test_filter_table_lists_python_and_cxx_names(self):
        for f in gpumesh_xml.load():
            with self.subTest(filter=f.name):
                row = "| %s | `%s` | `%s` |" % (f.label, f.python_name, f.vtk_class)
                self.assertIn(row, self.text, "README's filter table lacks the row " + row)

    def test_each_filter_section_documents_exactly_its_python_property_names(self):
        for f in gpumesh_xml.load():
            with self.subTest(filter=f.name):
                self.assertIn(f.label, self.sections, "README has no '### %s' section" % f.label)
                documented = set(property_rows(self.sections[f.label]))
                expected = {p.python_name for p in f.user_properties()}
                self.assertEqual(documented, expected,
                                 "README rows vs label-derived names of %s" % f.name)

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
                                     "%s.%s: README says the default is %s" % (f.python_name, name, default))
                simple.Delete(proxy)


if __name__ == "__main__":
    unittest.main(verbosity=2)
